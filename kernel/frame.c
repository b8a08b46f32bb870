/*
 * frame.c - physical memory after boot-time carving: the kernel's pool of page-table
 * pairs (a free list threaded through the frames) and the frames left for the root.
 */
#include "frame.h"
#include "kernel.h"

#define PAGE 4096ull

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
	*(uint64_t *) hw_phys_to_virt(pa) = pt_head;
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
	pt_head = *(uint64_t *) hw_phys_to_virt(pa);
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
