/*
 * export.h - the functions a component offers to invocations.
 *
 * An invocation carries an operation number and three arguments; hr_dispatch calls the
 * function exported under that number with the arguments, the capability's badge and the
 * calling component's id (which the kernel supplies and the caller cannot forge).
 */
#ifndef RM_EXPORT_H
#define RM_EXPORT_H

#include <stdint.h>

#define HR_EXPORT_MAX 32

typedef long (*hr_export_fn)(long a1, long a2, long a3, uint64_t badge, uint32_t caller);

/* Prepare n invocation stacks (up to 64) and register the entry with the kernel, one
 * calling component holding at most per_caller of them at once (0: any number; the kernel
 * refuses a call beyond it with HR_EBUSY).  Called by the first hr_export with a default
 * if the program did not.  0 or an HR_E* code. */
long hr_export_stacks(unsigned n, unsigned per_caller);
/* Offer fn as operation op (< HR_EXPORT_MAX).  0 or an HR_E* code. */
long hr_export(unsigned op, hr_export_fn fn);

/* Called by entry.S for every invocation. */
long hr_dispatch(long op, long a1, long a2, long a3, long badge, long caller);

#endif
