/*
 * kernel.h - what every generic kernel file needs: fixed-width types, the ABI, the
 * hardware interface, console output and the invariant checks.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

#include "abi/hr_errno.h"
#include "abi/hr_layout.h"
#include "abi/hr_syscall.h"
#include "abi/hr_sched.h"
#include "abi/hr_bootinfo.h"
#include "arch/x86_64/hw.h"

struct thd;
struct comp;

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap);
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Broken kernel invariants only; user input never reaches an assert. */
#define assert(c)                                                                        \
	do {                                                                             \
		if (!(c))                                                                \
			panic("assertion '%s' failed at %s:%d", #c, __FILE__, __LINE__); \
	} while (0)

/* Debug builds say why a call was refused, at the point of refusal. */
extern int kdebug;
#define refuse(err, ...)                                                                       \
	(kdebug ? (kprintf("[k] refused %s: ", __func__), kprintf(__VA_ARGS__), kprintf("\n"), \
		   (long) (err))                                                               \
		: (long) (err))

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strncmp(const char *a, const char *b, size_t n);

#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define PAGE_ALIGNED(x) (((x) & (HR_PAGE_SIZE - 1)) == 0)

#endif
