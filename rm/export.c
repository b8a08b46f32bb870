/*
 * export.c - exported operations and the pool of stacks migrating threads run on
 * (export.h).  Each stack slot is [TLS area][guard page][stack]: the kernel starts a
 * migrated thread with FS at the slot's TCB and its stack pointer at the slot's end.
 */
#include "export.h"
#include "runtime.h"
#include "pages.h"
#include "tls.h"

#define STACK_BYTES    (16 * 1024)
#define DEFAULT_STACKS 4

extern char hr_entry_stub[];

_Static_assert(HR_SYSNO_INVOKE == HR_SYS_invoke && HR_SYSNO_RET == HR_SYS_ret,
	       "entry.S system call numbers");

hr_export_fn hr_export_table[HR_EXPORT_MAX];
static int registered;

long
hr_export_none(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	return HR_ENOSYS;
}

/* Each invocation stack is [TLS][guard page][stack], the kernel starting a call at its
 * top: a callee that overflows its stack faults on the guard instead of writing over its
 * TLS and the stack below. */
static void
guard_stacks(uint64_t base, unsigned n, uint64_t stride, uint64_t guard_at, uint64_t perms)
{
	for (unsigned i = 0; i < n; i++)
		hr_mem_protect(HR_CAP_SELF, (long) (base + i * stride + guard_at), (long) perms);
}

long
hr_export_stacks(unsigned n, unsigned per_caller)
{
	uint64_t tls = (tls_area_size() + HR_PAGE_SIZE - 1) & ~(HR_PAGE_SIZE - 1);
	uint64_t stride = tls + HR_PAGE_SIZE + STACK_BYTES, base;
	long err;

	_Static_assert(STACK_BYTES % HR_PAGE_SIZE == 0, "whole pages of stack");
	if (n == 0 || n > 64)
		return HR_EINVAL;
	if (!(base = pages_alloc(n * stride / HR_PAGE_SIZE)))
		return HR_ENOMEM;
	for (unsigned i = 0; i < n; i++)
		tls_setup((void *) (base + i * stride), 0);
	/* before the entry can be called: it calls every entry of the table */
	for (unsigned op = 0; op < HR_EXPORT_MAX; op++)
		if (!hr_export_table[op])
			hr_export_table[op] = hr_export_none;
	guard_stacks(base, n, stride, tls, 0);
	err = hr_comp_entry((long) hr_entry_stub, (long) base, n, (long) stride,
			    (long) tls_tcb_offset(), per_caller);
	if (err) {
		guard_stacks(base, n, stride, tls, HR_MEM_READ | HR_MEM_WRITE);
		pages_free(base, n * stride / HR_PAGE_SIZE);
	} else {
		registered = 1;
	}
	return err;
}

long
hr_export(unsigned op, hr_export_fn fn)
{
	long err;

	if (op >= HR_EXPORT_MAX || !fn)
		return HR_EINVAL;
	if (!registered && (err = hr_export_stacks(DEFAULT_STACKS, 0)))
		return err;
	hr_export_table[op] = fn;
	return 0;
}
