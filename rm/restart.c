/* restart.c - the restart policy of a child (restart.h). */
#include "restart.h"

void
restart_init(struct restart *r, uint32_t policy, uint32_t max, uint32_t backoff)
{
	*r = (struct restart){ .policy = policy, .max = max, .backoff = backoff };
}

enum restart_verdict
restart_fault(struct restart *r, uint64_t now, uint64_t tick)
{
	r->faults++;
	r->at = 0;
	if (r->policy != RESTART_ON_FAULT)
		return RESTART_NOT_WANTED;
	if (r->done >= r->max)
		return RESTART_EXHAUSTED;
	r->at = now + (uint64_t) r->backoff * tick;
	if (!r->at)
		r->at = 1; /* 0 means none pending */
	return RESTART_PENDING;
}

int
restart_due(const struct restart *r, uint64_t now)
{
	return r->at && r->at <= now;
}

uint32_t
restart_finish(struct restart *r, int ok)
{
	r->at = 0;
	if (ok)
		r->done++;
	return r->done;
}
