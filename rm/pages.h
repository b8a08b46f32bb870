/*
 * pages.h - this component's page allocator over its memory window (HR_VA_MEM), the pages
 * its parent delegated.  The heap, thread stacks and the memory handed to children all
 * come from here.  O(1): a bump pointer plus a free list threaded through freed pages.
 */
#ifndef RM_PAGES_H
#define RM_PAGES_H

#include <stdint.h>

void pages_init(uint64_t base, uint64_t npages);
/* A page-aligned run of n pages (contiguous virtual addresses), or 0. Not zeroed. */
uint64_t pages_alloc(uint64_t n);
void pages_free(uint64_t va, uint64_t n);
uint64_t pages_left(void);

#endif
