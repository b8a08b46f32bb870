/*
 * ucopy.h - the only way the kernel touches user memory.  Each page is looked up in the
 * component's page table and copied through the direct map, so a bad pointer is an
 * error return, never a kernel fault.
 */
#ifndef UCOPY_H
#define UCOPY_H

#include "kernel.h"

struct comp;

/* 0, or HR_EFAULT if any byte of [ua, ua+n) is unmapped. */
long ucopy_from(struct comp *c, void *dst, uint64_t ua, uint64_t n);
/* 0, or HR_EFAULT if any byte is unmapped or not writable. */
long ucopy_to(struct comp *c, uint64_t ua, const void *src, uint64_t n);

#endif
