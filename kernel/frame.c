/*
 * frame.c - boot-time carving of physical memory and the page-table pair pool.
 * The range arithmetic is pure and tested on the host (kernel/test/frame_test.c).
 */
#include "frame.h"

#define PAGE 4096ull

static uint64_t
up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static uint64_t
down(uint64_t x, uint64_t a)
{
	return x & ~(a - 1);
}

/* Insert [b, e) into the sorted list out[0..n); returns the new count. */
static unsigned
insert(struct frange *out, unsigned n, unsigned max, uint64_t b, uint64_t e)
{
	unsigned i = n;

	if (b >= e || n >= max)
		return n;
	while (i > 0 && out[i - 1].base > b) {
		out[i] = out[i - 1];
		i--;
	}
	out[i] = (struct frange){ b, e };
	return n + 1;
}

/* Add the part of [b, e) not covered by any resv[] range. */
static unsigned
subtract(struct frange *out, unsigned n, unsigned max, uint64_t b, uint64_t e,
	 const struct frange *resv, unsigned nresv)
{
	for (unsigned i = 0; i < nresv && b < e; i++) {
		uint64_t rb = down(resv[i].base, PAGE), re = up(resv[i].end, PAGE);
		if (re <= b || rb >= e)
			continue;
		if (rb > b)
			n = subtract(out, n, max, b, rb, resv + i + 1, nresv - i - 1);
		b = re;
	}
	return insert(out, n, max, b, e);
}

unsigned
frame_ranges(const struct frange *ram, unsigned nram, const struct frange *resv,
	     unsigned nresv, struct frange *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nram; i++) {
		uint64_t b = up(ram[i].base, PAGE), e = down(ram[i].end, PAGE);
		if (ram[i].end < ram[i].base)
			continue;
		n = subtract(out, n, max, b, e, resv, nresv);
	}
	return n;
}

uint64_t
frange_take(struct frange *r, unsigned n, uint64_t bytes, uint64_t align)
{
	bytes = up(bytes, PAGE);
	if (align < PAGE)
		align = PAGE;
	for (unsigned i = 0; i < n; i++) {
		uint64_t b = up(r[i].base, align);
		/* an aligned-away head (at most align - PAGE bytes) is given up */
		if (b >= r[i].base && b <= r[i].end && r[i].end - b >= bytes) {
			r[i].base = b + bytes;
			return b;
		}
	}
	return 0;
}

#ifndef FRAME_HOST_TEST
#include "kernel.h"

static struct frange ranges[FRAME_RANGES_MAX];
static unsigned nranges;
static uint64_t pt_head; /* free list of 8 KiB pairs, linked through their first word */
static uint64_t pt_nfree;
static unsigned user_range;

void
frame_init(const struct frange *free, unsigned n)
{
	nranges = MIN(n, FRAME_RANGES_MAX);
	for (unsigned i = 0; i < nranges; i++)
		ranges[i] = free[i];
}

uint64_t
frame_take(uint64_t bytes, uint64_t align)
{
	return frange_take(ranges, nranges, bytes, align);
}

void
pt_release(uint64_t pa)
{
	*(uint64_t *)hw_phys_to_virt(pa) = pt_head;
	pt_head = pa;
	pt_nfree++;
}

void
frame_pt_pool(uint64_t pairs)
{
	for (uint64_t i = 0; i < pairs; i++) {
		uint64_t pa = frame_take(2 * PAGE, 2 * PAGE);
		if (!pa)
			break;
		pt_release(pa);
	}
}

uint64_t
frame_pt_free(void)
{
	return pt_nfree;
}

uint64_t
pt_alloc(void)
{
	uint64_t pa = pt_head;

	if (!pa)
		return 0;
	pt_head = *(uint64_t *)hw_phys_to_virt(pa);
	pt_nfree--;
	memset(hw_phys_to_virt(pa), 0, 2 * PAGE);
	return pa;
}

uint64_t
frame_total_user(void)
{
	uint64_t n = 0;
	for (unsigned i = user_range; i < nranges; i++)
		n += (ranges[i].end - ranges[i].base) / PAGE;
	return n;
}

uint64_t
frame_next_user(void)
{
	while (user_range < nranges && ranges[user_range].base >= ranges[user_range].end)
		user_range++;
	if (user_range == nranges)
		return 0;
	uint64_t pa = ranges[user_range].base;
	ranges[user_range].base += PAGE;
	return pa;
}
#endif
