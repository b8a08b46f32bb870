/*
 * fprr.c - fixed priority, round robin among equal priorities with quantum `slice`, and a
 * server for every reservation (sporadic unless the reservation asks for a deferrable
 * one): a reserved entity runs at its priority while its server has budget, best effort
 * runs at its priority without one, and a soft server out of budget runs in the
 * background.  ds.c is the same policy with deferrable servers by default.
 */
#include "fprr.h"
#include "base.h"
#include "../kernel/abi/hr_errno.h"

static void
fprr_init(void *st, uint64_t now, uint64_t slice)
{
	(void) now;
	base_init(st, "fprr", slice);
}

/* fprr_pick among the eligible ids elig. */
static inline __attribute__((always_inline)) int32_t
pick_among(struct base *b, uint64_t now, uint64_t elig)
{
	int peer;
	int32_t p = runq_pick_peer(&b->q, elig, 1, &peer);

	base_memo_put(b, now, elig, p, peer);
	return p != POL_IDLE ? p : base_pick_background(b);
}

/* fprr_pick with servers, whose replenishments come first: apart, so that best effort
 * alone (every id runnable is eligible) takes no frame. */
static __attribute__((noinline)) int32_t
pick_served(struct base *b, uint64_t now)
{
	return pick_among(b, now, base_eligible_served(b, now));
}

int32_t
fprr_pick(void *st, uint64_t now)
{
	struct base *b = st;

	if (b->served)
		return pick_served(b, now);
	return pick_among(b, now, runq_runnable(&b->q));
}

/* The earliest refill of an exhausted server at least as urgent as p: it either preempts
 * p or joins its round-robin level (which makes p's slice expiry matter). */
static uint64_t
next_refill(const struct base *b, int32_t p)
{
	uint64_t m = 0;

	if (!b->served)
		return UINT64_MAX; /* best effort only: no refills */
	POL_FOR_EACH(id, base_exhausted(b))
	if (b->q.e[id].prio <= b->q.e[p].prio)
		m |= RUNQ_BIT(id);
	return base_refill_at(b, m);
}

/* next_event's answer when pick chose p (POL_IDLE: none), peer saying whether p shares
 * its level.  Apart, so that next_event right after pick (the memo) takes no frame. */
static __attribute__((noinline)) uint64_t
next_of(struct base *b, int32_t p, int peer, uint64_t now)
{
	uint64_t t;

	if (p == POL_IDLE)
		return base_background_event(b, base_pick_background(b), now);
	t = next_refill(b, p);
	if (b->served & RUNQ_BIT(p))
		t = pol_time_min(t, server_exhaust_at(&b->srv[p], now));
	if (peer)
		t = pol_time_min(t, runq_slice_end(&b->q, (uint32_t) p, now));
	return t;
}

uint64_t
fprr_next_event(void *st, uint64_t now)
{
	struct base *b = st;
	uint64_t elig;
	int32_t p;
	int peer;

	if (!base_memo_get(b, now, &elig, &p, &peer)) {
		elig = base_eligible(b, now);
		p = runq_pick_peer(&b->q, elig, 1, &peer);
	}
	/* best effort alone on its level: no refill to come, no slice to end (next_of's
	 * answer, without its frame) */
	if (p != POL_IDLE && !b->served && !peer)
		return UINT64_MAX;
	return next_of(b, p, peer, now);
}

uint32_t
fprr_rank(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return POL_RANK_BACKGROUND;
	base_advance(b, id, now);
	if ((b->soft & RUNQ_BIT(id)) && !b->srv[id].left)
		return POL_RANK_BACKGROUND;
	return b->q.e[id].prio < POL_RANK_BACKGROUND ? b->q.e[id].prio : POL_RANK_BACKGROUND - 1;
}

const struct policy policy_fprr = {
	.name = "fprr",
	.init = fprr_init,
	.pick = fprr_pick,
	.next_event = fprr_next_event,
	.rank = fprr_rank,
	BASE_POLICY_OPS,
};
