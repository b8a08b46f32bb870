/*
 * pages.c - page allocator over the memory window (pages.h).
 *
 * Free memory is a sorted array of disjoint, non-adjacent ranges; allocation is first fit
 * from the lowest range, freeing merges with neighbours.  Should the array ever fill up,
 * freed pages wait on a list of single pages instead, so nothing is lost.
 */
#include "pages.h"
#include "runtime.h"

#include <string.h>

#define RANGES 256

struct range {
	uint64_t base, n;
};

static struct range r[RANGES];
static unsigned nr;
static uint64_t singles, nsingles; /* overflow: a list threaded through the pages */
static struct hr_lock lock;

static void
insert_at(unsigned i, uint64_t base, uint64_t n)
{
	memmove(&r[i + 1], &r[i], (nr - i) * sizeof(r[0]));
	r[i] = (struct range){ base, n };
	nr++;
}

static void
remove_at(unsigned i)
{
	memmove(&r[i], &r[i + 1], (nr - i - 1) * sizeof(r[0]));
	nr--;
}

/* Give [base, base + n pages) back to the ranges, merging with its neighbours. */
static void
put(uint64_t base, uint64_t n)
{
	uint64_t end = base + n * HR_PAGE_SIZE;
	unsigned i = 0;

	while (i < nr && r[i].base < base)
		i++;
	int left = i > 0 && r[i - 1].base + r[i - 1].n * HR_PAGE_SIZE == base;
	int right = i < nr && r[i].base == end;
	if (left && right) {
		r[i - 1].n += n + r[i].n;
		remove_at(i);
	} else if (left) {
		r[i - 1].n += n;
	} else if (right) {
		r[i].base = base;
		r[i].n += n;
	} else if (nr < RANGES) {
		insert_at(i, base, n);
	} else {
		for (uint64_t p = 0; p < n; p++) {
			*(uint64_t *) (base + p * HR_PAGE_SIZE) = singles;
			singles = base + p * HR_PAGE_SIZE;
			nsingles++;
		}
	}
}

void
pages_init(uint64_t base, uint64_t npages)
{
	nr = 0;
	if (npages)
		put(base, npages);
}

uint64_t
pages_alloc(uint64_t n)
{
	uint64_t va = 0;

	if (!n)
		return 0;
	hr_lock_take(&lock);
	if (n == 1 && singles) {
		va = singles;
		singles = *(uint64_t *) va;
		nsingles--;
	}
	for (unsigned i = 0; !va && i < nr; i++) {
		if (r[i].n < n)
			continue;
		va = r[i].base;
		r[i].base += n * HR_PAGE_SIZE;
		if (!(r[i].n -= n))
			remove_at(i);
	}
	hr_lock_give(&lock);
	return va;
}

void
pages_free(uint64_t va, uint64_t n)
{
	if (!va || !n)
		return;
	hr_lock_take(&lock);
	put(va, n);
	hr_lock_give(&lock);
}

void
pages_grow(uint64_t va, uint64_t n)
{
	pages_free(va, n);
}

uint64_t
pages_left(void)
{
	uint64_t n = nsingles;

	for (unsigned i = 0; i < nr; i++)
		n += r[i].n;
	return n;
}

uint64_t
pages_release(uint64_t n, uint64_t *got)
{
	uint64_t va = 0;

	*got = 0;
	hr_lock_take(&lock);
	if (nr && n) {
		struct range *top = &r[nr - 1];
		*got = n < top->n ? n : top->n;
		top->n -= *got;
		va = top->base + top->n * HR_PAGE_SIZE;
		if (!top->n)
			remove_at(nr - 1);
	}
	hr_lock_give(&lock);
	return va;
}
