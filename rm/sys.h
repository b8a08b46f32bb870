/*
 * sys.h - user-level system call stubs, one per row of kernel/abi/hr_syscall.h:
 * hr_<name>(args...) returns the kernel's result (>= 0, or an HR_E* code).
 *
 * hr_invoke is the exception: it is the assembly stub in entry.S, which protects the
 * caller's callee-saved registers from whatever the callee does with them.
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

#define HR_STUB_C0(num, name)                      \
	static inline long hr_##name(void)         \
	{                                          \
		return hr_sys(num, 0, 0, 0, 0, 0); \
	}
#define HR_STUB_C1(num, name)                       \
	static inline long hr_##name(long a0)       \
	{                                           \
		return hr_sys(num, a0, 0, 0, 0, 0); \
	}
#define HR_STUB_C2(num, name)                          \
	static inline long hr_##name(long a0, long a1) \
	{                                              \
		return hr_sys(num, a0, a1, 0, 0, 0);   \
	}
#define HR_STUB_C3(num, name)                                   \
	static inline long hr_##name(long a0, long a1, long a2) \
	{                                                       \
		return hr_sys(num, a0, a1, a2, 0, 0);           \
	}
#define HR_STUB_C4(num, name)                                            \
	static inline long hr_##name(long a0, long a1, long a2, long a3) \
	{                                                                \
		return hr_sys(num, a0, a1, a2, a3, 0);                   \
	}
#define HR_STUB_C5(num, name)                                                     \
	static inline long hr_##name(long a0, long a1, long a2, long a3, long a4) \
	{                                                                         \
		return hr_sys(num, a0, a1, a2, a3, a4);                           \
	}
#define HR_STUB_C6(num, name)                                                              \
	static inline long hr_##name(long a0, long a1, long a2, long a3, long a4, long a5) \
	{                                                                                  \
		return hr_sys6(num, a0, a1, a2, a3, a4, a5);                               \
	}
#define HR_STUB_ASM0(num, name)
#define HR_STUB_ASM1(num, name)
#define HR_STUB_ASM5(num, name)
#define HR_STUB(num, name, nargs, stub) HR_STUB_##stub##nargs(num, name)
HR_SYSCALLS(HR_STUB)
#undef HR_STUB

/* Thread-migration invocation through cap: a0 is by convention the callee's operation. */
long hr_invoke(long cap, long a0, long a1, long a2, long a3);

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
