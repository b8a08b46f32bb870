/*
 * edf.c - earliest deadline first over servers, best effort round robin in background.
 *
 * Every reserved entity (hard, soft or deferrable) is a deferrable server as in ds.c
 * (server.c); its absolute deadline is the end of its current period.  The eligible
 * server with the earliest deadline runs (ties: lowest id); only when there is none do
 * best-effort entities run, in plain round robin (their prio is not used).
 */
#include "base.h"
#include "../kernel/abi/hr_errno.h"

static void
edf_init(void *st, uint64_t now, uint64_t slice)
{
	base_init(st, now, slice,
		  BASE_KIND(RES_HARD) | BASE_KIND(RES_SOFT) | BASE_KIND(RES_DEFERRABLE));
}

static int32_t
select_server(const struct base *b, uint64_t elig)
{
	int32_t best = POL_IDLE;

	POL_FOR_EACH(id, elig & b->served)
	if (best == POL_IDLE || b->srv[id].next < b->srv[best].next)
		best = (int32_t) id;
	return best;
}

static int32_t
select_any(const struct base *b, uint64_t elig)
{
	int32_t p = select_server(b, elig);

	return p != POL_IDLE ? p : runq_pick(&b->q, elig & ~b->served, 0);
}

static int32_t
edf_pick(void *st, uint64_t now)
{
	struct base *b = st;

	return select_any(b, base_eligible(b, now));
}

/* Events while server p runs: its budget runs out, or its deadline moves past another
 * eligible server's at its refill. */
static uint64_t
server_event(const struct base *b, uint32_t p, uint64_t elig, uint64_t now)
{
	uint64_t t = server_exhaust_at(&b->srv[p], now);

	if (elig & b->served & ~RUNQ_BIT(p))
		t = pol_time_min(t, b->srv[p].next);
	return t;
}

static uint64_t
edf_next_event(void *st, uint64_t now)
{
	struct base *b = st;
	uint64_t elig = base_eligible(b, now), m = base_exhausted(b), t = UINT64_MAX;
	int32_t p = select_any(b, elig);

	/* A refilled server may have the earliest deadline: every refill counts. */
	POL_FOR_EACH(id, m)
	t = pol_time_min(t, b->srv[id].next);
	if (p == POL_IDLE)
		return t;
	if (b->served & RUNQ_BIT(p))
		return pol_time_min(t, server_event(b, (uint32_t) p, elig, now));
	if (runq_has_peer(&b->q, (uint32_t) p, elig & ~b->served, 0))
		t = pol_time_min(t, runq_slice_end(&b->q, (uint32_t) p, now));
	return t;
}

/*
 * Servers publish the time to their deadline (earlier deadline, lower number), clamped
 * below INT32_MAX; best effort publishes INT32_MAX, behind every server.  Values computed
 * at the same `now` are comparable.
 */
static int32_t
edf_prio(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;
	uint64_t left;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	if (!(b->served & RUNQ_BIT(id)))
		return INT32_MAX;
	base_advance(b, id, now);
	left = b->srv[id].next - now;
	return left >= INT32_MAX ? INT32_MAX - 1 : (int32_t) left;
}

const struct policy policy_edf = {
	.name = "edf",
	.init = edf_init,
	.pick = edf_pick,
	.next_event = edf_next_event,
	.prio = edf_prio,
	BASE_POLICY_OPS,
};
