/*
 * fprr.c - fixed priority, round robin among equal priorities with quantum `slice`.
 *
 * fprr itself gives no entity a server, so budgets and periods are ignored.  The same
 * selection serves ds.c, whose servers sit out while their budget is exhausted: hence the
 * server events in fprr_next_event, which never fire for fprr.
 */
#include "fprr.h"
#include "base.h"
#include "../kernel/abi/hr_errno.h"

static void
fprr_init(void *st, uint64_t now, uint64_t slice)
{
	base_init(st, now, slice, 0);
}

int32_t
fprr_pick(void *st, uint64_t now)
{
	struct base *b = st;

	return runq_pick(&b->q, base_eligible(b, now), 1);
}

/* The earliest refill of an exhausted server at least as urgent as p: it either preempts
 * p or joins its round-robin level (which makes p's slice expiry matter). */
static uint64_t
next_refill(const struct base *b, int32_t p)
{
	uint64_t t = UINT64_MAX;

	POL_FOR_EACH(id, base_exhausted(b))
	if (p == POL_IDLE || b->q.e[id].prio <= b->q.e[p].prio)
		t = pol_time_min(t, b->srv[id].next);
	return t;
}

uint64_t
fprr_next_event(void *st, uint64_t now)
{
	struct base *b = st;
	uint64_t elig = base_eligible(b, now), t;
	int32_t p = runq_pick(&b->q, elig, 1);

	t = next_refill(b, p);
	if (p == POL_IDLE)
		return t;
	if (b->served & RUNQ_BIT(p))
		t = pol_time_min(t, server_exhaust_at(&b->srv[p], now));
	if (runq_has_peer(&b->q, (uint32_t) p, elig, 1))
		t = pol_time_min(t, runq_slice_end(&b->q, (uint32_t) p, now));
	return t;
}

int32_t
fprr_prio(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	(void) now;
	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	return b->q.e[id].prio > INT32_MAX ? INT32_MAX : (int32_t) b->q.e[id].prio;
}

const struct policy policy_fprr = {
	.name = "fprr",
	.init = fprr_init,
	.pick = fprr_pick,
	.next_event = fprr_next_event,
	.prio = fprr_prio,
	BASE_POLICY_OPS,
};
