/*
 * edf.c - earliest deadline first over servers, best effort round robin behind them.
 *
 * Every reserved entity (hard, soft or deferrable) is a deferrable server as in ds.c
 * (server.c) that wakes by the constant-bandwidth rule (server_wake_cbs); its absolute
 * deadline is the end of its current period.  The eligible
 * server with the earliest deadline runs (ties: lowest id); only when there is none do
 * best-effort entities run, in plain round robin (their prio is not used), and only when
 * there is none of those either do soft servers out of budget (the background).
 */
#include "base.h"

static void
edf_init(void *st, uint64_t now, uint64_t slice)
{
	struct base *b = st;

	(void) now;
	base_init(b, "edf", slice);
	b->cbs = 1;
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

	if (p == POL_IDLE)
		p = runq_pick(&b->q, elig & ~b->served, 0);
	return p != POL_IDLE ? p : base_pick_background(b);
}

static int32_t
edf_pick(void *st, uint64_t now)
{
	struct base *b = st;
	uint64_t elig = base_eligible(b, now);
	int32_t p = select_any(b, elig);

	base_memo_put(b, now, elig, p, 0);
	return p;
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
	uint64_t elig, t;
	int32_t p;
	int unused;

	if (!base_memo_get(b, now, &elig, &p, &unused)) {
		elig = base_eligible(b, now);
		p = select_any(b, elig);
	}

	if (p == POL_IDLE || !(elig & RUNQ_BIT(p)))
		return base_background_event(b, p, now);
	/* A refilled server may have the earliest deadline: every refill counts. */
	t = base_refill_at(b, base_exhausted(b));
	if (b->served & RUNQ_BIT(p))
		return pol_time_min(t, server_event(b, (uint32_t) p, elig, now));
	if (runq_has_peer(&b->q, (uint32_t) p, elig & ~b->served, 0))
		t = pol_time_min(t, runq_slice_end(&b->q, (uint32_t) p, now));
	return t;
}

/*
 * A server's rank is the time to its deadline (earlier deadline, lower rank), clamped to
 * POL_RANK_SERVER_MAX; best effort ranks POL_RANK_BEST, behind every server, and a soft
 * server out of budget POL_RANK_BACKGROUND, behind that.  Ranks computed at the same `now`
 * are comparable.
 */
static uint32_t
edf_rank(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;
	uint64_t left;

	if (!runq_has(&b->q, id))
		return POL_RANK_BACKGROUND;
	if (!(b->served & RUNQ_BIT(id)))
		return POL_RANK_BEST;
	base_advance(b, id, now);
	if ((b->soft & RUNQ_BIT(id)) && !b->srv[id].left)
		return POL_RANK_BACKGROUND;
	left = b->srv[id].next - now;
	return left >= POL_RANK_SERVER_MAX ? POL_RANK_SERVER_MAX : (uint32_t) left;
}

const struct policy policy_edf = {
	.name = "edf",
	.init = edf_init,
	.pick = edf_pick,
	.next_event = edf_next_event,
	.rank = edf_rank,
	BASE_POLICY_OPS,
};
