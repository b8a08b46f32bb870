/* ptq.c - page tables charged to components (ptq.h). */
#include "ptq.h"
#include "comp.h"
#include "frame.h"

static uint64_t owed;			     /* pairs guaranteed to live components, not held yet */
static uint32_t guaranteed = PTQ_GUARANTEED; /* per component (ptq_pool_size) */

static uint64_t
short_of(const struct comp *c)
{
	return c->pt_used < guaranteed ? guaranteed - c->pt_used : 0;
}

uint64_t
ptq_pool_size(uint64_t user_pages)
{
	/* a pair is two pages: HR_COMP_MAX guarantees within about 1/12 of the pages */
	uint64_t g = user_pages / (24 * HR_COMP_MAX);

	guaranteed = (uint32_t) MAX(MIN(g, PTQ_GUARANTEED), PTQ_GUARANTEED_MIN);
	return (uint64_t) HR_COMP_MAX * guaranteed + user_pages / PTQ_PAGES_PER_PAIR;
}

struct pt_budget
ptq_budget(const struct comp *c)
{
	uint64_t limit = guaranteed + c->mem_bound / PTQ_PAGES_PER_PAIR;
	uint64_t free = frame_pt_free(), others = owed - short_of(c);
	uint64_t pool = free > others ? free - others : 0;
	uint64_t own = limit > c->pt_used ? limit - c->pt_used : 0;

	return (struct pt_budget){ (unsigned) MIN(MIN(pool, own), 64u), 0 };
}

void
ptq_charge(struct comp *c, unsigned n)
{
	owed -= short_of(c);
	c->pt_used += n;
	owed += short_of(c);
}

void
ptq_refund(struct comp *c, unsigned n)
{
	owed -= short_of(c);
	c->pt_used -= MIN(n, c->pt_used);
	owed += short_of(c);
}

void
ptq_join(struct comp *c)
{
	c->pt_used = 0;
	owed += short_of(c);
}

void
ptq_leave(struct comp *c)
{
	owed -= short_of(c);
	c->pt_used = 0;
}
