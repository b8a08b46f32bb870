/*
 * sys.h - user-level system call stubs, one per row of kernel/abi/hr_syscall.h:
 * hr_<name>(args...) returns the kernel's result (>= 0, or an HR_E* code).
 *
 * The table's ASM rows are the exceptions, written out below: hr_invoke, whose callee
 * may leave any register changed, hr_ret, and hr_thd_switch, which keeps only the
 * registers a C call keeps.
 */
#ifndef RM_SYS_H
#define RM_SYS_H

#include <stdint.h>
#include "../kernel/abi/hr_errno.h"
#include "../kernel/abi/hr_syscall.h"
#include "../kernel/abi/hr_sched.h"
#include "../kernel/abi/hr_layout.h"
#include "../kernel/abi/hr_bootinfo.h"

static inline long
hr_sys6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 __asm__("r10") = a3;
	register long r8 __asm__("r8") = a4;
	register long r9 __asm__("r9") = a5;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* Five arguments; the sixth register is 0, never what the compiler left there. */
static inline long
hr_sys(long nr, long a0, long a1, long a2, long a3, long a4)
{
	return hr_sys6(nr, a0, a1, a2, a3, a4, 0);
}

/*
 * The stubs: one inline function per C row of the table, hr_<name>(type arg, ...), its
 * arguments in the table's order and unused argument registers 0, never what the compiler
 * left there.  An ASM row gets the same prototype, which must agree with the definition
 * written below.
 */
#define HR_STUB_ARG(i, arg) (long) HR_ARG_NAME arg,
#define HR_STUB_C(num, name, ...)                                               \
	static inline long hr_##name(HR_ARGS_PARAMS(__VA_ARGS__))               \
	{                                                                       \
		const long a[6] = { HR_ARGS_EACH(HR_STUB_ARG, ##__VA_ARGS__) }; \
		return hr_sys6(num, a[0], a[1], a[2], a[3], a[4], a[5]);        \
	}
#define HR_STUB_ASM(num, name, ...)   static inline long hr_##name(HR_ARGS_PARAMS(__VA_ARGS__));
#define HR_STUB(num, name, stub, ...) HR_STUB_##stub(num, name, ##__VA_ARGS__)
HR_SYSCALLS(HR_STUB)
#undef HR_STUB

/*
 * Thread-migration invocation through cap: a0 is by convention the callee's operation;
 * returns what the callee returned, or an HR_E* code.
 *
 * The callee runs on this thread, in its registers: a call that succeeds comes back with
 * rsp from the kernel's frame and every other register as the callee left it, whatever it
 * left (docs/ABI.md).  So the asm clobbers every register but rsp, the caller's
 * callee-saved ones too, and the compiler keeps what it needs across the call on our own
 * stack, which the callee cannot reach (invregs tests it): only the registers a caller
 * uses are saved, not all six of them at every call.  Also clobbered: x87/MMX and SSE,
 * which the thread takes along (a C call clobbers them as well).  rbp being one of them, a
 * caller that needs a frame pointer fails to build ("bp cannot be used in asm here")
 * rather than lose it.
 *
 * What C keeps across a call of the FPU's state, the callee may not keep either: the
 * control word and MXCSR (rounding, precision, which exceptions trap) are taken before and
 * put back after, and the x87 stack, which the ABI has empty at a call, is emptied
 * (fninit), so that a callee cannot change how the caller computes from then on.  The
 * callee's side does the same for the callee (entry.S: hr_entry_stub).
 */
static inline long
hr_invoke(uint64_t cap, long a0, long a1, long a2, long a3)
{
	register long r10 __asm__("r10") = a2;
	register long r8 __asm__("r8") = a3;
	uint32_t mxcsr;
	uint16_t fcw;
	long ret;

	__asm__ volatile("stmxcsr %[mxcsr]\n\t"
			 "fnstcw %[fcw]\n\t"
			 "syscall\n\t"
			 "fninit\n\t"
			 "fldcw %[fcw]\n\t"
			 "ldmxcsr %[mxcsr]"
			 : "=a"(ret), "+D"(cap), "+S"(a0), "+d"(a1), "+r"(r10),
			   "+r"(r8), [mxcsr] "=m"(mxcsr), [fcw] "=m"(fcw)
			 : "0"((long) HR_SYSNO_INVOKE)
			 : "rbx", "rcx", "rbp", "r9", "r11", "r12", "r13", "r14", "r15", "memory",
			   "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
			   "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st",
			   "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0",
			   "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7");
	return ret;
}

/* Return value from the current invocation; returns only on error (HR_ESTATE), which
 * changes no register. */
static inline long
hr_ret(long value)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long) HR_SYSNO_RET), "D"(value)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * Dispatch thd (docs/ABI.md: thd_switch).  Like a C function call, it keeps rbx, rbp, rsp
 * and r12..r15 and nothing else: the kernel's fast switch saves just those of the thread
 * that leaves (kernel/arch/x86_64/fastpath.S), so the others come back undefined.  Only
 * the three argument registers it takes are set, not all six.
 */
static inline long
hr_thd_switch(uint64_t thd, uint64_t flags, uint64_t tsc)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret), "+D"(thd), "+S"(flags), "+d"(tsc)
			 : "0"((long) HR_SYSNO_THD_SWITCH)
			 : "rcx", "r8", "r9", "r10", "r11", "memory");
	return ret;
}

static inline const struct hr_bootinfo *
hr_bootinfo(void)
{
	return (const struct hr_bootinfo *) HR_VA_BOOTINFO;
}

static inline struct hr_sched_region *
hr_region(void)
{
	return (struct hr_sched_region *) HR_VA_SCHED;
}

static inline uint64_t
hr_tsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t) hi << 32) | lo;
}

#endif
