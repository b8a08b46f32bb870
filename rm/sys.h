/*
 * sys.h - user-level system call stubs, one per row of kernel/abi/hr_syscall.h:
 * hr_<name>(args...) returns the kernel's result (>= 0, or an HR_E* code).
 *
 * The table's ASM rows are the exceptions: hr_invoke, the assembly stub in entry.S, which
 * protects the caller's callee-saved registers from whatever the callee does with them,
 * and hr_ret.
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
 * left there.  An ASM row gets the same prototype, which must agree with the declaration
 * written below for its stub in entry.S.
 */
#define HR_STUB_ARG(i, arg) (long) HR_ARG_NAME arg,
#define HR_STUB_C(num, name, ...)                                               \
	static inline long hr_##name(HR_ARGS_PARAMS(__VA_ARGS__))               \
	{                                                                       \
		const long a[6] = { HR_ARGS_EACH(HR_STUB_ARG, ##__VA_ARGS__) }; \
		return hr_sys6(num, a[0], a[1], a[2], a[3], a[4], a[5]);        \
	}
#define HR_STUB_ASM(num, name, ...)   long hr_##name(HR_ARGS_PARAMS(__VA_ARGS__));
#define HR_STUB(num, name, stub, ...) HR_STUB_##stub(num, name, ##__VA_ARGS__)
HR_SYSCALLS(HR_STUB)
#undef HR_STUB

/* Thread-migration invocation through cap (entry.S): a0 is by convention the callee's
 * operation; returns what the callee returned, or an HR_E* code. */
long hr_invoke(uint64_t cap, long a0, long a1, long a2, long a3);
/* Return value from the current invocation (entry.S); returns only on error (HR_ESTATE). */
long hr_ret(long value);

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
