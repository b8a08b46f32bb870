/*
 * hostile - unprivileged programs that once took the kernel down, lost an exit or starved
 * a sibling (MANIFEST: image test-hostile).  One program, a mode per instance (args):
 *   (none)   the root and "attack": a subsystem whose tasks (MANIFEST) attack the kernel:
 *            NT and DF left set across interrupts and switches, a syscall in the last
 *            bytes of the user half, a console flood beside a real-time task, page tables
 *            made and dropped far apart, guard pages, W^X
 *   victim   a passive component "attack" maps code and pages into, or calls into with
 *            an operation that overflows the invocation stack it runs on (three of them:
 *            victim, ret-victim and deep-callee)
 *   overflow a subsystem whose task overflows its stack (it must fault on the guard page)
 *   execdata a subsystem that jumps into its own data (it must fault: W^X)
 * and "busy" / "late": siblings of which one sleeps a tick at a time while the other ends;
 * the root must hear that end.  The root reports what its children's ends showed.
 */
#include "rm/export.h"
#include "rm/pages.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"
#include "rm/desc.h"
#include "rm/caps.h"

#include <stdio.h>
#include <string.h>

#define RFLAGS_NT  0x4000ul
#define RFLAGS_DF  0x400ul
#define LAST_PAGE  0x7ffffffff000ul
#define FAR_APART  (1ul << 39) /* one top-level entry apart: three tables each */
#define FAR_BASE   0x10000000000ul
#define CHURN	   3000
#define HOARD	   64 /* far-apart aliases kept: the bound allows them all, the quota not */
#define FLOOD	   (64 * 1024) /* one writev of this kept the kernel busy for 1.5 ticks */
#define FLOOD_IOVS 64

static uint64_t
ticks(uint64_t n)
{
	return n * hr_tick_tsc();
}

static void
sleep_ticks(uint64_t n)
{
	sched_sleep(hr_tsc() + ticks(n));
}

/* ---- NT and DF: flags user code may set, across interrupts and switches -------------- */

static volatile uint32_t victim_tid;
static volatile int go, victim_done;

/* Spins until the attacker switches to it: by then an interrupt has preempted it, so the
 * kernel returns to it with iretq. */
static void
nt_victim(void *arg)
{
	(void) arg;
	victim_tid = (uint32_t) hr_thd_self();
	while (!go)
		;
	victim_done = 1;
}
HR_TASK(nt_victim);

static void
nt_attacker(void *arg)
{
	uint64_t until = hr_tsc() + ticks(200);
	long r;

	(void) arg;
	while (!victim_tid && hr_tsc() < until)
		;
	go = 1;
	__asm__ volatile("pushfq; orq %0, (%%rsp); popfq" : : "i"(RFLAGS_NT) : "memory", "cc");
	r = hr_thd_switch(victim_tid, 0, 0);
	__asm__ volatile("pushfq; andq %0, (%%rsp); popfq" : : "i"(~RFLAGS_NT) : "memory", "cc");
	hr_report("nt_set_then_switch_to_a_preempted_thread", r == 0 && victim_done,
		  "switch %ld, victim %s", r, victim_done ? "ran" : "never ran");
}
HR_TASK(nt_attacker);

/* DF set across timer interrupts and a system call: the kernel must run with it clear
 * (trap() and syscall_dispatch() assert so: without the cld in trap_common or DF in
 * MSR_SFMASK the kernel panics) and hand it back to us as we left it. */
static void
df_spinner(void *arg)
{
	uint64_t until = hr_tsc() + ticks(5), flags;

	(void) arg;
	__asm__ volatile("std" ::: "memory");
	while (hr_tsc() < until)
		;
	(void) hr_thd_self();
	__asm__ volatile("pushfq; pop %0; cld" : "=r"(flags) : : "memory");
	hr_report("df_set_while_interrupted", (flags & RFLAGS_DF) != 0,
		  "DF cleared behind our back (flags %lx)", (unsigned long) flags);
}
HR_TASK(df_spinner);

/* ---- the console: bounded, at the writer's priority ----------------------------------- */

static volatile int flooding;

static void
flooder(void *arg)
{
	static char buf[FLOOD];
	uint64_t done = 0;

	(void) arg;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i % 128 == 127 ? '\n' : 'x';
	flooding = 1;
	/* 64 vectors of 511 bytes a call: the bound is the call's, not each vector's (once
	 * each took 511 bytes, 32 KiB a call) */
	while (done < sizeof(buf)) {
		long iov[2 * FLOOD_IOVS], n, cnt = 0;
		for (uint64_t at = done; at < sizeof(buf) && cnt < FLOOD_IOVS; at += 511, cnt++) {
			iov[2 * cnt] = (long) (buf + at);
			iov[2 * cnt + 1] = (long) (sizeof(buf) - at < 511 ? sizeof(buf) - at : 511);
		}
		n = hr_sys(20 /* Linux writev */, 1, (long) iov, cnt, 0, 0);
		if (n < 0)
			break;
		done += (uint64_t) n;
	}
	flooding = 0;
	hr_report("console_flood_written_whole", done == sizeof(buf), "%lu of %lu bytes",
		  (unsigned long) done, (unsigned long) sizeof(buf));
}
HR_TASK(flooder);

/* Sleeps a tick at a time for as long as the flood lasts, and measures how late it wakes. */
static void
rt_ticker(void *arg)
{
	uint64_t worst = 0, seen_flood = 0, until = hr_tsc() + ticks(400);

	(void) arg;
	while (!flooding && hr_tsc() < until)
		sleep_ticks(1);
	while (flooding) {
		uint64_t at = hr_tsc() + ticks(1);
		sched_sleep(at);
		uint64_t late = hr_tsc() - at;
		seen_flood++;
		if (late > worst)
			worst = late;
	}
	hr_report("rt_on_time_beside_a_console_flood", seen_flood && worst < ticks(1) / 2,
		  "worst lateness %lu TSC (a tick is %lu), flood seen in %lu rounds",
		  (unsigned long) worst, (unsigned long) ticks(1), (unsigned long) seen_flood);
}
HR_TASK(rt_ticker);

/* ---- memory: page tables, guard pages, W^X, the last page ------------------------------ */

static volatile int victim_faulted, ret_victim_faulted;

static void
churn(long slot, uint64_t page)
{
	long before = hr_mem_info(slot, HR_MI_PTABLES, 0), err = 0;
	int i;

	for (i = 0; i < CHURN && !err; i++) {
		uint64_t va = FAR_BASE + (uint64_t) (i % 200) * FAR_APART;
		if (!(err = hr_mem_alias((long) page, slot, (long) va, HR_MEM_READ)))
			err = hr_mem_remove(slot, (long) va);
	}
	hr_report("far_apart_alias_remove_leaks_no_page_table",
		  !err && hr_mem_info(slot, HR_MI_PTABLES, 0) == before,
		  "round %d: %s; tables %ld then %ld", i, hr_strerror(err), before,
		  hr_mem_info(slot, HR_MI_PTABLES, 0));
}

/* Far-apart aliases kept, not removed: the victim's page tables are charged to it, so they
 * stop at its quota (a guarantee plus a pair per 64 pages of its bound) long before its
 * bound stops them; uncharged, they ran on until the kernel's pool was gone. */
static void
hoard(long slot, uint64_t page)
{
	long before = hr_mem_info(slot, HR_MI_PTABLES, 0), peak, err = 0;
	int n;

	for (n = 0; n < HOARD; n++)
		if ((err = hr_mem_alias((long) page, slot, (long) (FAR_BASE + n * FAR_APART),
					HR_MEM_READ)))
			break;
	peak = hr_mem_info(slot, HR_MI_PTABLES, 0);
	for (int i = 0; i < n; i++)
		hr_mem_remove(slot, (long) (FAR_BASE + i * FAR_APART));
	hr_report("far_apart_aliases_stop_at_the_page_table_quota",
		  err == HR_ENOMEM && n < HOARD / 2 &&
			  hr_mem_info(slot, HR_MI_PTABLES, 0) == before,
		  "%d aliases, then %s; tables %ld, %ld at most, then %ld", n, hr_strerror(err),
		  before, peak, hr_mem_info(slot, HR_MI_PTABLES, 0));
}

/* A syscall in the last two bytes of the user half: the thread returns to the first
 * address past it.  It must fault (in its own component), not the kernel. */
static void
last_bytes(long slot, uint64_t page)
{
	uint8_t *code = (uint8_t *) page;
	long tid, r;

	memset(code, 0xcc, HR_PAGE_SIZE);
	code[HR_PAGE_SIZE - 2] = 0x0f; /* syscall */
	code[HR_PAGE_SIZE - 1] = 0x05;
	r = hr_mem_alias((long) page, slot, LAST_PAGE, HR_MEM_READ | HR_MEM_EXEC);
	tid = r ? r : hr_thd_create(slot, LAST_PAGE + HR_PAGE_SIZE - 2, 0, 0, 0);
	if (tid > 0)
		r = hr_thd_switch(tid, 0, 0);
	hr_report("syscall_in_the_last_bytes_faults_the_thread", tid > 0 && !r && victim_faulted,
		  "alias/create %ld, switch %ld, victim %s", tid, r,
		  victim_faulted ? "faulted" : "did not fault");
}

/* The same through an invocation: a thread of the second victim invokes its own component
 * from the last bytes of the user half, and the callee returns.  The return (ret's fast
 * path declines it) must fault the caller there, not the kernel. */
#define RET_VICTIM_CAP 127 /* a slot of the victim's table none of its own code fills */
static void
last_bytes_ret(long slot, uint64_t page)
{
	static const uint8_t invoke[] = { 0xb8, 0x00, 0x04, 0x00, 0x00, /* mov $0x400, %eax */
					  0x0f, 0x05 };			/* syscall */
	uint8_t *code = (uint8_t *) page;
	long tid, r;

	_Static_assert(HR_SYSNO_INVOKE == 0x400, "the code below invokes");
	memset(code, 0xcc, HR_PAGE_SIZE);
	memcpy(code + HR_PAGE_SIZE - sizeof(invoke), invoke, sizeof(invoke));
	/* room for the page, and the page tables so far away (a pair per 64 pages of bound) */
	hr_mem_bound(slot, hr_mem_info(slot, HR_MI_BOUND, 0) + 1 + 128);
	r = hr_mem_alias((long) page, slot, LAST_PAGE, HR_MEM_READ | HR_MEM_EXEC);
	if (!r)
		r = hr_cap_invoke(slot, RET_VICTIM_CAP, slot, 0);
	/* rdi = the capability; op (rsi) 0, which the callee does not export: it returns */
	tid = r ? r
		: hr_thd_create(slot, LAST_PAGE + HR_PAGE_SIZE - (long) sizeof(invoke), 0,
				RET_VICTIM_CAP, 0);
	if (tid > 0)
		r = hr_thd_switch(tid, 0, 0);
	hr_report("ret_to_the_last_bytes_faults_the_caller", tid > 0 && !r && ret_victim_faulted,
		  "alias/cap/create %ld, switch %ld, victim %s", tid, r,
		  ret_victim_faulted ? "faulted" : "did not fault");
}

/* A writev whose second vector the kernel cannot read (it lies on a guard page) after the
 * first was written: the call returns what it wrote, which stays said, not -EFAULT (the
 * caller would write it again). */
static void
writev_partial(void)
{
	static const char msg[] = "a vector, then one on a guard page\n";
	uint64_t two = pages_alloc(2);
	long *iov, n = 0;

	if (two) {
		iov = (long *) (two + 4096 - 16);
		iov[0] = (long) msg;
		iov[1] = (long) sizeof(msg) - 1;
		hr_mem_protect(HR_CAP_SELF, (long) (two + 4096), 0);
		n = hr_sys(20 /* Linux writev */, 1, (long) iov, 2, 0, 0);
		hr_mem_protect(HR_CAP_SELF, (long) (two + 4096), HR_MEM_READ | HR_MEM_WRITE);
	}
	hr_report("writev_keeps_the_count_before_a_bad_vector", n == (long) sizeof(msg) - 1,
		  "got %ld", n);
}

static void
memory(void *arg)
{
	long slot = subsys_child_slot("victim");
	uint64_t page = pages_alloc(1), data = pages_alloc(1);

	(void) arg;
	if (slot < 0 || !page || !data) {
		hr_report("memory_attacks_set_up", 0, "victim slot %ld", slot);
		return;
	}
	/* room for the page we alias (churn, last_bytes) and for HOARD aliases of it */
	hr_mem_bound(slot, hr_mem_info(slot, HR_MI_BOUND, 0) + 1 + HOARD);
	churn(slot, data);
	hoard(slot, data);
	hr_report("window_page_maps_as_data",
		  hr_mem_info(HR_CAP_SELF, HR_MI_PERMS, (long) data) == HR_MEM_ALL &&
			  hr_mem_info(HR_CAP_SELF, HR_MI_MAPPED, (long) data) ==
				  (HR_MEM_READ | HR_MEM_WRITE),
		  "rights %ld, mapped %ld", hr_mem_info(HR_CAP_SELF, HR_MI_PERMS, (long) data),
		  hr_mem_info(HR_CAP_SELF, HR_MI_MAPPED, (long) data));
	hr_report("code_maps_read_execute",
		  hr_mem_info(HR_CAP_SELF, HR_MI_MAPPED, (long) &memory & ~4095l) ==
			  (HR_MEM_READ | HR_MEM_EXEC),
		  "mapped %ld", hr_mem_info(HR_CAP_SELF, HR_MI_MAPPED, (long) &memory & ~4095l));
	hr_report("protect_beyond_rights_refused",
		  hr_mem_protect(HR_CAP_SELF, (long) &memory & ~4095l, HR_MEM_ALL) == HR_EPERM,
		  "protect returned otherwise");
	hr_report(
		"guard_page_refuses_the_kernel_too",
		!hr_mem_protect(HR_CAP_SELF, (long) data, 0) &&
			hr_sys(1 /* Linux write */, 1, (long) data, 1, 0, 0) == -14 /* EFAULT */ &&
			!hr_mem_protect(HR_CAP_SELF, (long) data, HR_MEM_READ | HR_MEM_WRITE),
		"a guard page was readable");
	last_bytes(slot, page);
	last_bytes_ret(subsys_child_slot("ret-victim"), pages_alloc(1));
	writev_partial();
}
HR_TASK(memory);

/* ---- stack overflow and data execution: each must fault its own subsystem ------------- */

static volatile uint64_t sink;

static uint64_t
recurse(uint64_t n)
{
	volatile char frame[512];

	frame[0] = (char) n;
	sink += frame[0];
	return n ? recurse(n - 1) + frame[0] : 0;
}

/* 64 frames of > 512 bytes: 32 KiB, twice the thread's 16 KiB stack */
static void
overflow(void *arg)
{
	(void) arg;
	recurse(64);
	hr_report("stack_overflow_stopped", 0, "ran 32 KiB on a 16 KiB stack without a fault");
}
HR_TASK(overflow);

static void
execdata(void *arg)
{
	static uint8_t ret_insn[16] = { 0xc3 };

	(void) arg;
	((void (*)(void))(uintptr_t) ret_insn)();
	hr_report("data_is_not_executable", 0, "executed a byte of its data");
}
HR_TASK(execdata);

/* ---- one child ticks, its sibling ends ----------------------------------------------- */

static volatile int ticked;

static void
spin(void *arg)
{
	(void) arg;
	while (!ticked)
		;
}
HR_TASK(spin);

static void
ticker(void *arg)
{
	(void) arg;
	for (int i = 0; i < 300; i++)
		sleep_ticks(1);
	ticked = 1;
}
HR_TASK(ticker);

static void
nap(void *arg)
{
	(void) arg;
	sleep_ticks(100);
}
HR_TASK(nap);

/* ---- an invocation stack that overflows ----------------------------------------------- */

#define OP_RECURSE 1

static long
op_recurse(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	return (long) recurse((uint64_t) a1);
}

/* 34 frames of > 512 bytes, about 18 KiB, in a callee whose invocation stack is 16 KiB: just
 * past the stack, into the page that guards it (without the guard: its own TLS, mapped,
 * and the call would return).  The callee faults; the caller hears HR_EFAULTED. */
static void
invoke_overflow(void *arg)
{
	long cap = subsys_cap_to("deep-callee"), r;

	(void) arg;
	/* first, once it serves: the capability through which we made it names the same
	 * component, but is no invocation capability */
	while (cap >= 0 && hr_invoke(cap, OP_RECURSE, 0, 0, 0) == HR_ENOSYS)
		sleep_ticks(1);
	r = hr_invoke(subsys_child_slot("deep-callee"), OP_RECURSE, 0, 0, 0);
	hr_report_eq("invoke_through_a_component_capability_refused", r, HR_ECAP);
	r = cap < 0 ? cap : hr_invoke(cap, OP_RECURSE, 34, 0, 0);
	hr_report("invocation_stack_overflow_faults_the_callee", r == HR_EFAULTED,
		  "invoke returned %ld (%s)", r, hr_strerror(r));
}
HR_TASK(invoke_overflow);

/* ---- how children ended --------------------------------------------------------------- */

void
hr_child_ended(const char *name, int faulted, long status)
{
	if (!strcmp(name, "victim"))
		victim_faulted = faulted;
	else if (!strcmp(name, "ret-victim"))
		ret_victim_faulted = faulted;
	else if (!strcmp(name, "deep-callee"))
		return; /* invoke_overflow reports it */
	else if (!strcmp(name, "overflow"))
		hr_report("stack_overflow_faults_on_the_guard", faulted, "it ended with %ld",
			  status);
	else if (!strcmp(name, "execdata"))
		hr_report("data_execution_faults", faulted, "it ended with %ld", status);
	else if (!strcmp(name, "late")) {
		hr_report("exit_not_lost_while_a_sibling_ticks", !faulted && status == 0,
			  "status %ld", status);
		/* the ticker's 300 wake notices coalesce: our ring never filled (uncoalesced,
		 * it did, and only the resynchronisation found the exit) */
		hr_report("notices_coalesce_the_ring_never_fills", hr_region()->ev_lost == 0,
			  "%u kernel events lost", (unsigned) hr_region()->ev_lost);
	}
}

/* The root may not name a child as itself or the kernel: the child's tag would be theirs. */
static void
root_names(void)
{
	long slot = caps_alloc(), made, root, k, other;

	made = slot < 0 ? slot : hr_comp_create(slot, 0, 0);
	root = hr_comp_name(slot, (long) "root", 4);
	k = hr_comp_name(slot, (long) "k", 1);
	other = hr_comp_name(slot, (long) "roots", 5);
	if (made > 0)
		hr_comp_kill(slot);
	if (slot > 0)
		caps_free(slot);
	hr_report("root_cannot_name_a_child_root_or_k",
		  made > 0 && root == HR_EINVAL && k == HR_EINVAL && other == 0,
		  "create %ld, naming 'root' %ld, 'k' %ld, 'roots' %ld", made, root, k, other);
}

int
hr_main(void)
{
	if (!strcmp(desc_args(), "victim")) {
		hr_export(OP_RECURSE, op_recurse);
		hr_serve();
	}
	/* no component can speak for another: this line is tagged with our own path */
	if (hr_bootinfo()->depth == 0)
		root_names();
	printf("\r[root] test forged_by_a_child: ok\n");
	/* nor redraw its line as another's on a terminal (tests/run.sh fails any tagged line
	 * that carries an escape) */
	printf("\033[2K\033[1G[root] test forged_by_an_escape: ok\n");
	subsys_main();
}
