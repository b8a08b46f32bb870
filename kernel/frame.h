/*
 * frame.h - physical memory at boot and the kernel's page-table pool.
 *
 * At boot, RAM minus everything already in use (low memory, the kernel, the multiboot
 * information and modules) becomes a list of free ranges.  The kernel takes what it needs
 * from them once (mapping-node array, page-table pairs); every remaining frame goes to the
 * root component.  After boot the kernel allocates only page-table pairs, from a free list.
 */
#ifndef FRAME_H
#define FRAME_H

#include <stdint.h>

#define FRAME_RANGES_MAX 64

struct frange {
	uint64_t base, end; /* [base, end), page aligned */
};

/*
 * Free RAM: every range of ram[] minus every range of resv[], shrunk to whole pages.
 * Writes at most max ranges to out, sorted by base; returns how many.  Pure.
 */
unsigned frame_ranges(const struct frange *ram, unsigned nram, const struct frange *resv,
		      unsigned nresv, struct frange *out, unsigned max);

/* Bump allocation from a range list: bytes rounded up to pages, aligned; 0 if none. Pure. */
uint64_t frange_take(struct frange *r, unsigned n, uint64_t bytes, uint64_t align);

/* Kernel state: the free ranges left after boot-time carving. */
void frame_init(const struct frange *free, unsigned n);
uint64_t frame_take(uint64_t bytes, uint64_t align);
void frame_pt_pool(uint64_t pairs); /* carve the page-table pool */
uint64_t frame_pt_free(void);	    /* pairs left */
uint64_t frame_next_user(void);	    /* next frame for the root, 0 when none remain */
uint64_t frame_total_user(void);    /* frames frame_next_user will hand out in all */

#endif
