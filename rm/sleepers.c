/* sleepers.c - the table of threads sleeping in our services (sleepers.h). */
#include "sleepers.h"
#include "events.h"
#include "kernel/abi/hr_errno.h"

#include <stdlib.h>

/* Each slot i of t in use, lowest first. */
#define FOR_EACH_BUSY(i, t)                          \
	for (int w_ = 0; w_ < (t)->words; w_++)      \
		for (uint64_t m_ = (t)->busy[w_], i; \
		     m_ && ((i = w_ * 64u + (uint64_t) __builtin_ctzll(m_)), 1); m_ &= m_ - 1)

long
sleepers_init(struct sleepers *t, unsigned children)
{
	t->words = (int) ((children * SLEEPERS_PER_CHILD + 63) / 64);
	t->n = 0;
	if (!t->words)
		return 0;
	t->s = calloc((size_t) t->words * 64, sizeof(*t->s));
	t->busy = calloc((size_t) t->words, sizeof(*t->busy));
	return t->s && t->busy ? 0 : HR_ENOMEM;
}

/* A free slot of the table, or -1. */
static int
free_slot(const struct sleepers *t)
{
	for (int w = 0; w < t->words; w++)
		if (~t->busy[w])
			return w * 64 + __builtin_ctzll(~t->busy[w]);
	return -1;
}

long
sleepers_add(struct sleepers *t, uint32_t tid, uint32_t child, unsigned asleep, uint64_t until)
{
	int i;

	/* the table has room for every child's share: only its own sleepers can refuse it */
	if (asleep >= SLEEPERS_PER_CHILD || (i = free_slot(t)) < 0)
		return HR_ENOMEM;
	t->s[i] = (struct sleeper){ tid, child, until };
	t->busy[i / 64] |= 1ull << (i % 64);
	t->n++;
	return i;
}

void
sleepers_vacate(struct sleepers *t, int i)
{
	if (!(t->busy[i / 64] & (1ull << (i % 64))))
		return;
	t->busy[i / 64] &= ~(1ull << (i % 64));
	t->n--;
}

int
sleepers_due(const struct sleepers *t, uint64_t now, int from)
{
	FOR_EACH_BUSY(i, t)
	if ((int) i >= from && t->s[i].until <= now)
		return (int) i;
	return -1;
}

uint64_t
sleepers_earliest(const struct sleepers *t)
{
	uint64_t next = 0;

	FOR_EACH_BUSY(i, t)
	if (!next || t->s[i].until < next)
		next = t->s[i].until;
	return next;
}

unsigned
sleepers_forget(struct sleepers *t, uint32_t child, uint32_t *tids, unsigned max)
{
	unsigned k = 0;

	FOR_EACH_BUSY(i, t)
	{
		if (t->s[i].child != child)
			continue;
		if (k < max)
			tids[k++] = t->s[i].tid;
		sleepers_vacate(t, (int) i);
	}
	return k;
}
