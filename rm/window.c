/* window.c - the memory aliaser: a child's window of our pages (window.h). */
#include "window.h"
#include "pages.h"
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

void
window_init(struct window *w, long slot)
{
	memset(w, 0, sizeof(*w));
	w->slot = slot;
}

long
window_alias(long slot, uint64_t src, uint64_t dst, uint64_t n, unsigned perms, int zero)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t s = src + i * HR_PAGE_SIZE;
		long r;
		if (zero)
			memset((void *) s, 0, HR_PAGE_SIZE);
		if ((r = hr_mem_alias((long) s, slot, (long) (dst + i * HR_PAGE_SIZE), perms)))
			return r;
	}
	return 0;
}

static uint64_t
child_va(uint64_t i)
{
	return HR_VA_MEM + i * HR_PAGE_SIZE;
}

static int
reserve(struct window *w, uint64_t n)
{
	uint64_t want = w->top + n, cap = w->cap ? w->cap : 64;
	uint64_t *src;

	if (want <= w->cap)
		return 1;
	while (cap < want)
		cap *= 2;
	if (!(src = realloc(w->src, cap * sizeof(*src))))
		return 0;
	w->src = src;
	w->cap = cap;
	return 1;
}

long
window_grow(struct window *w, uint64_t n)
{
	uint64_t first;
	long r = 0;

	while (w->top && !w->src[w->top - 1])
		w->top--; /* given back: its addresses are free again */
	first = w->top;
	if (!n || (w->span_max && (w->top > w->span_max || n > w->span_max - w->top)) ||
	    !reserve(w, n))
		return HR_ENOMEM;
	for (uint64_t i = 0; i < n && !r; i++) {
		/* windows are RWX: their holder may need to make a child's code executable */
		uint64_t p = pages_alloc(1);
		if (!p || (r = window_alias(w->slot, p, child_va(w->top), 1, HR_MEM_ALL, 1))) {
			pages_free(p, 1);
			r = r ? r : HR_ENOMEM;
			break;
		}
		w->src[w->top++] = p;
		w->held++;
	}
	if (r) /* all or nothing: take back what went in */
		window_shrink(w, child_va(first), w->top - first);
	if (r) {
		w->top = first;
		return r;
	}
	return (long) child_va(first);
}

long
window_shrink(struct window *w, uint64_t va, uint64_t n)
{
	uint64_t i0 = (va - HR_VA_MEM) / HR_PAGE_SIZE;

	if (va < HR_VA_MEM || va % HR_PAGE_SIZE || i0 > w->top || n > w->top - i0)
		return HR_EINVAL;
	for (uint64_t i = i0; i < i0 + n; i++)
		if (!w->src[i])
			return HR_EINVAL;
	for (uint64_t i = i0; i < i0 + n; i++) {
		long r = hr_mem_remove(w->slot, (long) child_va(i));
		if (r)
			return r;
		pages_free(w->src[i], 1);
		w->src[i] = 0;
		w->held--;
	}
	return 0;
}

uint64_t
window_take_top(struct window *w, uint64_t n)
{
	uint64_t got = 0;

	while (got < n && w->top) {
		uint64_t i = w->top - 1;
		if (w->src[i]) {
			if (window_shrink(w, child_va(i), 1))
				break;
			got++;
		}
		w->top = i;
	}
	return got;
}

void
window_free(struct window *w)
{
	for (uint64_t i = 0; i < w->top; i++)
		pages_free(w->src[i], 1);
	free(w->src);
	memset(w, 0, sizeof(*w));
}
