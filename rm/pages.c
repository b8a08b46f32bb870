/*
 * pages.c - page allocator over the memory window (pages.h).  Single pages freed go on a
 * free list; runs are carved from the bump region only (freed runs are returned page by
 * page), which keeps every operation O(n) in the pages asked for and O(1) per page.
 */
#include "pages.h"
#include "runtime.h"

static uint64_t bump, end, free_head, nfree;
static struct hr_lock lock;

void
pages_init(uint64_t base, uint64_t npages)
{
	bump = base;
	end = base + npages * HR_PAGE_SIZE;
}

uint64_t
pages_alloc(uint64_t n)
{
	uint64_t va = 0;

	if (!n)
		return 0;
	hr_lock_take(&lock);
	if (n == 1 && free_head) {
		va = free_head;
		free_head = *(uint64_t *) va;
		nfree--;
	} else if (n <= (end - bump) / HR_PAGE_SIZE) {
		va = bump;
		bump += n * HR_PAGE_SIZE;
	}
	hr_lock_give(&lock);
	return va;
}

void
pages_free(uint64_t va, uint64_t n)
{
	hr_lock_take(&lock);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t p = va + i * HR_PAGE_SIZE;
		*(uint64_t *) p = free_head;
		free_head = p;
		nfree++;
	}
	hr_lock_give(&lock);
}

uint64_t
pages_left(void)
{
	return (end - bump) / HR_PAGE_SIZE + nfree;
}
