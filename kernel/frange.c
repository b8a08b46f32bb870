/*
 * frange.c - free physical ranges: RAM minus what is in use, and bump allocation from
 * them (frame.h).  Pure arithmetic, tested on the host (kernel/test/frange_test.c).
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
frame_ranges(const struct frange *ram, unsigned nram, const struct frange *resv, unsigned nresv,
	     struct frange *out, unsigned max)
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
