/*
 * invregs - invocation at the register level, the cases the kernel's fast path
 * (kernel/arch/x86_64/fastpath.S) must get exactly as the full path does (image
 * test-kernel).  One program, four roles chosen by args:
 *   deep     a server with 33 stacks that invokes itself down to the depth bound
 *   one      a server with one stack, that invokes itself while on it
 *   few      a server with three stacks, one per caller, that invokes itself twice
 *   client   runs the cases and prints one "test ..." line each
 * Every refusal is made with DF and AC set and every other register holding a pattern,
 * and must give the full path's error with all of them kept (regs.S: regs_raw).
 */
#include "rm/caps.h"
#include "rm/export.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/desc.h"

#include <string.h>

enum { OP_ECHO = 1, OP_CLOBBER = 2, OP_FLAGS = 3, OP_ARGS = 4, OP_BADGED = 5, OP_SELF = 6 };
enum { OP_DIV0 = 7, OP_GIVE = 8, OP_SEEN = 9, OP_FP_DIRTY = 10, OP_FP_SEEN = 11 };

/* The x87 and SSE controls: every exception masked (the ABI's start), every one unmasked,
 * and rounding toward zero */
#define FCW_START   0x037f
#define FCW_TRAPS   0x0340
#define MXCSR_START 0x1f80
#define MXCSR_TRAPS 0x0000
#define MXCSR_ZERO  0x7f80

#define SELF_BADGE 0x5e1fb4d9e /* a server invokes itself with this badge */
#define RFLAGS_TF  0x100
#define RFLAGS_DF  0x400
#define RFLAGS_AC  0x40000

/* regs.S */
long regs_raw(long nr, long a0, long a1, long a2, long flags, uint64_t *changed);
long regs_guarded(long cap, long op, long a1, uint64_t *changed);
long regs_clobber(long a1, long a2, long a3, uint64_t badge, uint32_t caller);
long regs_flags(long a1, long a2, long a3, uint64_t badge, uint32_t caller);
long regs_given(long cap, long op, uint64_t *changed);
long regs_give(long a1, long a2, long a3, uint64_t badge, uint32_t caller);
long regs_seen(long a1, long a2, long a3, uint64_t badge, uint32_t caller);
long regs_invoke(long cap, long op, long a1);

/* regs_guarded's call: hr_invoke inlined into a C function as into any caller, whose
 * callee-saved registers the compiler keeps for us because the asm clobbers them */
__attribute__((noinline)) long
regs_invoke(long cap, long op, long a1)
{
	return hr_invoke(cap, op, a1, 0, 0);
}

static long self_cap; /* servers: an invocation capability to ourselves */

/* An invocation that must be refused, made with DF and AC set and every register holding a
 * pattern: the error, or 1000 + the registers it changed (regs_raw), which a refusal may
 * not change. */
static long
refused(long cap, long op, long a1)
{
	uint64_t changed;
	long r = regs_raw(HR_SYSNO_INVOKE, cap, op, a1, 1, &changed);

	return changed ? 1000 + (long) changed : r;
}

static long
echo(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	return a1;
}

/* n more invocations of ourselves, then one that must be refused: deep runs into the depth
 * bound, one into its only stack, few into its share of its own stacks */
static long
self(long n, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	return n > 0 ? hr_invoke(self_cap, OP_SELF, n - 1, 0, 0) : refused(self_cap, OP_ECHO, 1);
}

/* The badge of the capability used, if every other argument is where it belongs. */
static long
args(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	return a1 == 11 && a2 == -22 && a3 == 33 && caller == hr_bootinfo()->comp_id ? (long) badge
										     : HR_EINVAL;
}

static long
badged(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	return hr_invoke(self_cap, OP_ARGS, 11, -22, 33);
}

static long
div0(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	volatile long zero = a1 - a1;
	(void) a2, (void) a3, (void) badge, (void) caller;
	// cppcheck-suppress zerodiv ; the point of this operation is to fault
	return a1 / zero;
}

/* A callee that changes every FPU control a C callee must keep, rounding toward zero, and
 * leaves three values on the x87 stack. */
static long
fp_dirty(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	const uint32_t mxcsr = MXCSR_ZERO;
	const uint16_t fcw = 0x0f7f;

	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	__asm__ volatile("ldmxcsr %0; fldcw %1; fld1; fld1; fld1" : : "m"(mxcsr), "m"(fcw));
	return 1;
}

/* The controls the callee starts with: MXCSR << 16 | the x87 control word. */
static long
fp_seen(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	uint32_t mxcsr;
	uint16_t fcw;

	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	__asm__ volatile("stmxcsr %0; fnstcw %1" : "=m"(mxcsr), "=m"(fcw));
	return (long) mxcsr << 16 | fcw;
}

static int
serve(const char *role)
{
	/* deep: a stack for each frame the depth bound allows, and one more, so that only the
	 * bound refuses; few: three, of which a caller may hold one */
	if (!strcmp(role, "deep"))
		hr_export_stacks(33, 0);
	else if (!strcmp(role, "one"))
		hr_export_stacks(1, 0);
	else
		hr_export_stacks(3, 1);
	self_cap = caps_alloc();
	hr_cap_invoke(HR_CAP_SELF, self_cap, HR_CAP_SELF, SELF_BADGE);
	hr_export(OP_ECHO, echo);
	hr_export(OP_CLOBBER, regs_clobber);
	hr_export(OP_FLAGS, regs_flags);
	hr_export(OP_ARGS, args);
	hr_export(OP_BADGED, badged);
	hr_export(OP_SELF, self);
	hr_export(OP_DIV0, div0);
	hr_export(OP_GIVE, regs_give);
	hr_export(OP_SEEN, regs_seen);
	hr_export(OP_FP_DIRTY, fp_dirty);
	hr_export(OP_FP_SEEN, fp_seen);
	hr_serve();
}

static long
call(long cap, long op, long a1)
{
	return cap < 0 ? cap : hr_invoke(cap, op, a1, 0, 0);
}

/* A C caller's values that live across hr_invoke, integers and a double, against a callee
 * that clobbers every register (the asm's clobber list, rm/sys.h): the callee's result, or
 * -1 if one of them changed.  The volatile seeds keep the compiler from recomputing them. */
static long
live_values(long cap)
{
	volatile long seed = 3;
	volatile double dseed = 1.5;
	long a = seed * 7, b = seed + 11, c = seed << 5, d = seed ^ 0x55, e = seed * seed;
	double x = dseed * 3;
	long r = hr_invoke(cap, OP_CLOBBER, 41, 0, 0);

	return a == 21 && b == 14 && c == 96 && d == (3 ^ 0x55) && e == 9 && x == 4.5 ? r : -1;
}

/* The FPU controls across an invocation of fp_dirty: 0 if ours came back as they were
 * with the x87 stack empty (its top at 0), else what changed: bit 0 MXCSR, 1 the control
 * word, 2 the stack; or the call's error. */
static long
fp_kept(long cap)
{
	uint32_t mxcsr0, mxcsr1;
	uint16_t fcw0, fcw1, fsw;
	long r;

	__asm__ volatile("stmxcsr %0; fnstcw %1" : "=m"(mxcsr0), "=m"(fcw0));
	r = hr_invoke(cap, OP_FP_DIRTY, 0, 0, 0);
	__asm__ volatile("stmxcsr %0; fnstcw %1; fnstsw %2" : "=m"(mxcsr1), "=m"(fcw1), "=m"(fsw));
	if (r != 1)
		return r < 0 ? r : HR_EINVAL;
	return (mxcsr0 != mxcsr1) | (fcw0 != fcw1) << 1 | ((fsw >> 11 & 7) != 0) << 2;
}

/* The controls fp_seen starts with when we invoke it with every x87 and SSE exception
 * unmasked in ours (on hardware its first inexact result would then trap, and fault the
 * callee for every caller; QEMU's TCG does not raise them, so the controls are what is
 * checked).  Ours are put back after. */
static long
fp_unmasked(long cap)
{
	const uint32_t traps = MXCSR_TRAPS, start = MXCSR_START;
	const uint16_t fcw_traps = FCW_TRAPS, fcw_start = FCW_START;
	long r;

	__asm__ volatile("ldmxcsr %0; fldcw %1" : : "m"(traps), "m"(fcw_traps));
	r = hr_invoke(cap, OP_FP_SEEN, 0, 0, 0);
	__asm__ volatile("fnclex; ldmxcsr %0; fldcw %1" : : "m"(start), "m"(fcw_start));
	return r;
}

/* Each way the fast path declines an invocation, and the full path's error. */
static void
test_refusals(long deep, long one, long few)
{
	long none = caps_alloc(), r;
	uint64_t changed;

	hr_report_eq("invoke_refused_slot_out_of_range_keeps_registers",
		     refused(100000, OP_ECHO, 1), HR_ECAP);
	hr_report_eq("invoke_refused_empty_slot_keeps_registers", refused(60, OP_ECHO, 1), HR_ECAP);
	/* we registered no entry: a capability to ourselves leads nowhere */
	if (none > 0 && (r = hr_cap_invoke(HR_CAP_SELF, none, HR_CAP_SELF, 0)))
		none = r;
	hr_report_eq("invoke_refused_callee_without_entry_keeps_registers",
		     none < 0 ? none : refused(none, OP_ECHO, 1), HR_ENOENT);
	hr_report_eq("invoke_refused_no_free_stack_keeps_registers", call(one, OP_SELF, 0),
		     HR_EBUSY);
	hr_report_eq("invoke_refused_beyond_the_callers_share_keeps_registers",
		     call(few, OP_SELF, 1), HR_EBUSY);
	/* our call and 31 of deep's own: 32 frames */
	hr_report_eq("invoke_refused_at_the_depth_bound_keeps_registers", call(deep, OP_SELF, 31),
		     HR_EDEPTH);
	hr_report_eq("invoke_depth_bound_again_once_unwound", call(deep, OP_SELF, 31), HR_EDEPTH);
	r = regs_raw(HR_SYSNO_RET, 5, 6, 7, 1, &changed);
	hr_report("ret_outside_an_invocation_keeps_registers", r == HR_ESTATE && !changed,
		  "got %ld (%s), registers changed %#lx", r, hr_strerror(r),
		  (unsigned long) changed);
}

/* What a callee may not do to its caller, nor a caller to its callee. */
static void
test_isolation(long deep, long few)
{
	uint64_t changed;
	long self0, self1, r;

	hr_report_eq("invoke_delivers_arguments_badge_and_caller", call(deep, OP_BADGED, 0),
		     SELF_BADGE);
	/* the registers the call does not name pass through, both ways */
	r = few < 0 ? few : regs_raw(HR_SYSNO_INVOKE, few, OP_SEEN, 0, 0, &changed);
	hr_report_eq("invoke_callee_gets_the_callers_other_registers", r, 0);
	r = few < 0 ? few : regs_given(few, OP_GIVE, &changed);
	hr_report("ret_caller_gets_the_callees_registers", r > 0 && !changed,
		  "got %lx, registers not the callee's %#lx", (unsigned long) r,
		  (unsigned long) changed);
	__asm__ volatile("mov %%fs:0, %0" : "=r"(self0));
	r = few < 0 ? few : regs_guarded(few, OP_CLOBBER, 41, &changed);
	__asm__ volatile("mov %%fs:0, %0" : "=r"(self1));
	hr_report("invoke_caller_survives_a_callee_that_clobbers_everything",
		  r == 42 && !changed && self0 == self1,
		  "got %ld, registers changed %#lx, FS self pointer %lx then %lx", r,
		  (unsigned long) changed, (unsigned long) self0, (unsigned long) self1);
	hr_report_eq("invoke_clobbering_callee_still_serves", call(few, OP_ECHO, 6), 6);
	hr_report_eq("invoke_c_caller_keeps_its_values_across_a_clobbering_callee",
		     few < 0 ? few : live_values(few), 42);
	r = few < 0 ? few : regs_raw(HR_SYSNO_INVOKE, few, OP_FLAGS, 0, 1, &changed);
	hr_report("invoke_callee_starts_without_the_callers_flags",
		  r > 0 && !(r & (RFLAGS_TF | RFLAGS_DF | RFLAGS_AC)), "rflags %lx",
		  (unsigned long) r);
	/* on deep: should either fail, few still serves the cases after */
	r = deep < 0 ? deep : fp_kept(deep);
	hr_report("invoke_callee_cannot_change_the_callers_fpu_controls", r == 0,
		  "got %ld (bit 0 MXCSR, 1 x87 control word, 2 x87 stack not empty)", r);
	r = deep < 0 ? deep : fp_unmasked(deep);
	hr_report("invoke_callee_starts_with_the_abis_fpu_controls",
		  r == ((long) MXCSR_START << 16 | FCW_START), "MXCSR << 16 | control word: %lx",
		  (unsigned long) r);
}

/* Last: few faults, and stays faulted. */
static void
test_dead_callee(long few)
{
	hr_report_eq("invoke_into_a_faulting_callee", call(few, OP_DIV0, 1), HR_EFAULTED);
	long r = few < 0 ? few : refused(few, OP_ECHO, 1);
	hr_report("invoke_refused_dead_callee_keeps_registers", r == HR_EFAULTED || r == HR_ECAP,
		  "got %ld (%s)", r, hr_strerror(r));
}

static int
client(void)
{
	long deep = pi_connect_serving("regs-deep", OP_ECHO),
	     one = pi_connect_serving("regs-one", OP_ECHO);
	long few = pi_connect_serving("regs-few", OP_ECHO);

	if (!hr_report("invregs_connect_to_servers", deep >= 0 && one >= 0 && few >= 0,
		       "deep %ld, one %ld, few %ld", deep, one, few))
		return 1;
	test_refusals(deep, one, few);
	test_isolation(deep, few);
	test_dead_callee(few);
	return 0;
}

int
hr_main(void)
{
	const char *role = desc_args();

	if (!strcmp(role, "client"))
		return client();
	return serve(role);
}
