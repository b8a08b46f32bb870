/*
 * pages.h - this component's page allocator over its memory window (HR_VA_MEM): the pages
 * its parent delegated.  The heap, thread stacks and the memory handed to children all
 * come from here.  Free memory is a short sorted list of coalesced ranges, so runs freed
 * in any order are whole again; a single page costs O(1) while the list stays short.
 */
#ifndef RM_PAGES_H
#define RM_PAGES_H

#include <stdint.h>

void pages_init(uint64_t base, uint64_t npages);
/* A page-aligned run of n pages (contiguous virtual addresses), or 0.  Not zeroed. */
uint64_t pages_alloc(uint64_t n);
void pages_free(uint64_t va, uint64_t n);
uint64_t pages_left(void);

/* Our parent added n pages at va (they are free now). */
void pages_grow(uint64_t va, uint64_t n);
/* Take up to n free pages to give back to our parent, highest first, as one run: its
 * address (and *got pages), or 0 if nothing is free. */
uint64_t pages_release(uint64_t n, uint64_t *got);

#endif
