/*
 * export.h - the functions a component offers to invocations.
 *
 * An invocation carries an operation number and three arguments; the entry stub
 * (entry.S) calls the function exported under that number with the arguments, the
 * capability's badge and the calling component's id (which the kernel supplies and the
 * caller cannot forge).
 */
#ifndef RM_EXPORT_H
#define RM_EXPORT_H

#define HR_EXPORT_MAX 32

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef long (*hr_export_fn)(long a1, long a2, long a3, uint64_t badge, uint32_t caller);

/* Prepare n invocation stacks (up to 64) and register the entry with the kernel, one
 * calling component holding at most per_caller of them at once (0: any number; the kernel
 * refuses a call beyond it with HR_EBUSY).  Called by the first hr_export with a default
 * if the program did not.  0 or an HR_E* code. */
long hr_export_stacks(unsigned n, unsigned per_caller);
/* Offer fn as operation op (< HR_EXPORT_MAX).  0 or an HR_E* code. */
long hr_export(unsigned op, hr_export_fn fn);

/* What entry.S calls for an invocation of operation op: hr_export_table[op], which is
 * hr_export_none (HR_ENOSYS) unless a function was exported as op, and hr_export_none
 * for an op out of range. */
extern hr_export_fn hr_export_table[HR_EXPORT_MAX];
long hr_export_none(long a1, long a2, long a3, uint64_t badge, uint32_t caller);
#endif

#endif
