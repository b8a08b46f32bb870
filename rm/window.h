/*
 * window.h - the memory aliaser of a subsystem: how it gives pages of its own to a child,
 * takes them back, and shares pages between two children (the HiRES paper's Table II on
 * top of the kernel's mem_alias / mem_remove).
 *
 * A child's memory window (at HR_VA_MEM in the child) grows at its top and may give back
 * any of its pages; for each page of the window we remember which page of ours backs it,
 * so taking one back costs O(1) and our page is reusable at once.  Nothing here touches
 * our parent or our other children.
 */
#ifndef RM_WINDOW_H
#define RM_WINDOW_H

#include <stdint.h>

/* One child's window. */
struct window {
	long slot;	   /* our COMP capability to the child */
	uint64_t *src;	   /* src[i]: our page behind the child's page i (0: given back) */
	uint64_t top;	   /* pages from HR_VA_MEM up to the window's top */
	uint64_t cap;	   /* entries of src */
	uint64_t held;	   /* pages the child holds now */
	uint64_t span_max; /* top may not grow beyond this (0: no limit) */
};

void window_init(struct window *w, long slot);

/*
 * Alias n pages at addresses src.. of ours into the child at dst.. with perms, zeroing
 * them first if zero.  0, or the kernel's error (the pages already aliased stay).
 */
long window_alias(long slot, uint64_t src, uint64_t dst, uint64_t n, unsigned perms, int zero);

/* Give the child n zeroed pages of ours on top of its window (pages given back at the top
 * are reused): their child address, or HR_ENOMEM (we are out of pages or bookkeeping, the
 * window would span more than span_max pages, or the child is at its bound). */
long window_grow(struct window *w, uint64_t n);

/* Take back the child's pages va.. (n of them, all inside its window and held): 0,
 * HR_EINVAL (outside the window or not all held) or the kernel's error. */
long window_shrink(struct window *w, uint64_t va, uint64_t n);

/* Take back up to n held pages from the top of the child's window, by force: how many. */
uint64_t window_take_top(struct window *w, uint64_t n);

/* The child is gone (its mappings with it): every page of the window is ours again. */
void window_free(struct window *w);

#endif
