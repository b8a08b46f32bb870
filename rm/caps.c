/* caps.c - capability slot bookkeeping (caps.h). */
#include "caps.h"
#include "runtime.h"

static uint64_t used[HR_CAP_MAX / 64] = { 0x3 };
static struct hr_lock lock;

long
caps_alloc(void)
{
	long slot = HR_ENOMEM;

	hr_lock_take(&lock);
	for (unsigned w = 0; w < HR_CAP_FROM_PARENT / 64 && slot < 0; w++) {
		if (~used[w]) {
			int b = __builtin_ctzll(~used[w]);
			used[w] |= 1ull << b;
			slot = (long) (w * 64 + (unsigned) b);
		}
	}
	hr_lock_give(&lock);
	return slot;
}

void
caps_free(long slot)
{
	if (slot < 2 || slot >= HR_CAP_FROM_PARENT)
		return;
	hr_lock_take(&lock);
	used[slot / 64] &= ~(1ull << (slot % 64));
	hr_lock_give(&lock);
}
