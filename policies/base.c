/*
 * base.c - operations shared by every policy (base.h): membership, blocking, charging.
 * Each one decodes (id known, parameters sane) before it changes anything.
 */
#include "base.h"
#include "admit.h"
#include "../kernel/abi/hr_errno.h"

#include <string.h>

void
base_init(struct base *b, const char *policy, uint64_t slice)
{
	memset(b, 0, sizeof(*b));
	b->memo.gen = UINT64_MAX; /* nothing picked yet */
	runq_init(&b->q, slice);
	strncpy(b->name, policy, sizeof(b->name) - 1);
}

static int
served(const struct base *b, uint32_t id)
{
	return (b->served & RUNQ_BIT(id)) != 0;
}

void
base_advance(struct base *b, uint32_t id, uint64_t now)
{
	if (!served(b, id))
		return;
	/* at pick's time again: nothing more is due (pick advanced every server) */
	if (now != b->memo.now)
		b->gen++;
	server_advance(&b->srv[id], now, b->q.e[id].runnable, 0);
}

uint64_t
base_eligible_served(struct base *b, uint64_t now)
{
	uint64_t m = runq_runnable(&b->q);

	POL_FOR_EACH(id, b->served)
	{
		base_advance(b, (uint32_t) id, now);
		if (!b->srv[id].left)
			m &= ~RUNQ_BIT(id);
	}
	return m;
}

uint64_t
base_background(const struct base *b)
{
	return base_exhausted(b) & b->soft;
}

int32_t
base_pick_background(const struct base *b)
{
	return runq_pick(&b->q, base_background(b), 0);
}

uint64_t
base_refill_at(const struct base *b, uint64_t mask)
{
	uint64_t t = UINT64_MAX;

	POL_FOR_EACH(id, mask & b->served)
	t = pol_time_min(t, server_refill_at(&b->srv[id]));
	return t;
}

uint64_t
base_background_event(const struct base *b, int32_t p, uint64_t now)
{
	uint64_t t = base_refill_at(b, base_exhausted(b));

	if (p != POL_IDLE && runq_has_peer(&b->q, (uint32_t) p, base_background(b), 0))
		t = pol_time_min(t, runq_slice_end(&b->q, (uint32_t) p, now));
	return t;
}

uint64_t
base_exhausted(const struct base *b)
{
	uint64_t m = 0;

	POL_FOR_EACH(id, b->served & runq_runnable(&b->q))
	if (!b->srv[id].left)
		m |= RUNQ_BIT(id);
	return m;
}

int
base_add(void *st, uint32_t id, const struct pol_param *p, uint64_t now)
{
	struct base *b = st;
	int err = runq_check(&b->q, id, p);
	uint32_t server = 0;
	char why[8];

	if (err)
		return err;
	if (p->kind != RES_NONE &&
	    !(server = admit_server(b->name, p->kind, p->server, why, sizeof(why))))
		return HR_EINVAL;
	b->gen++;
	runq_add(&b->q, id, p);
	if (p->kind == RES_NONE)
		return 0;
	server_init(&b->srv[id], p->budget, p->period, server == RES_SERVER_SPORADIC, now);
	b->srv[id].grain = b->grain;
	b->served |= RUNQ_BIT(id);
	if (p->kind == RES_SOFT)
		b->soft |= RUNQ_BIT(id);
	return 0;
}

int
base_remove(void *st, uint32_t id)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	b->gen++;
	runq_remove(&b->q, id);
	memset(&b->srv[id], 0, sizeof(b->srv[id]));
	b->served &= ~RUNQ_BIT(id);
	b->soft &= ~RUNQ_BIT(id);
	return 0;
}

/*
 * block, wake and charge come on most turns of a scheduler; the server's part of each is
 * apart (server_*), so that an entity without a server (best effort) costs a few
 * instructions and not the registers the server's arithmetic needs.
 */
static __attribute__((noinline)) void
server_block_at(struct base *b, uint32_t id, uint64_t now)
{
	base_advance(b, id, now);
	runq_block(&b->q, id);
	server_block(&b->srv[id]);
}

int
base_block(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	b->gen++;
	if (served(b, id))
		server_block_at(b, id, now);
	else
		runq_block(&b->q, id);
	return 0;
}

/* Waking id with a server: the server's part, then the run queue's. */
static __attribute__((noinline)) int
server_wake_at(struct base *b, uint32_t id, uint64_t now)
{
	base_advance(b, id, now);
	if (!b->q.e[id].runnable) {
		server_wake(&b->srv[id], now);
		if (b->cbs)
			server_wake_cbs(&b->srv[id], now);
	}
	runq_wake(&b->q, id);
	return 0;
}

int
base_wake(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	b->gen++;
	if (served(b, id))
		return server_wake_at(b, id, now); /* a tail call: best effort takes no frame */
	runq_wake(&b->q, id);
	return 0;
}

void
base_charge(void *st, uint32_t id, uint64_t used, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return;
	b->gen++;
	runq_run(&b->q, id, used); /* the run queue's slice and the server's budget: apart */
	if (served(b, id))
		server_charge(&b->srv[id], used, now);
}

void
base_yield(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	(void) now;
	if (!runq_has(&b->q, id))
		return;
	b->gen++;
	runq_to_tail(&b->q, id);
}

uint32_t
base_misses(void *st, uint32_t id)
{
	struct base *b = st;

	return runq_has(&b->q, id) && served(b, id) ? b->srv[id].misses : 0;
}

int
base_is_eligible(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (id >= POL_MAX || !runq_has(&b->q, id))
		return 0;
	base_advance(b, id, now);
	return b->q.e[id].runnable &&
	       (!served(b, id) || b->srv[id].left || (b->soft & RUNQ_BIT(id)));
}

uint64_t
base_budget_left(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (id >= POL_MAX || !runq_has(&b->q, id))
		return 0;
	if (!served(b, id))
		return UINT64_MAX;
	base_advance(b, id, now);
	if (!b->srv[id].left && (b->soft & RUNQ_BIT(id)))
		return UINT64_MAX; /* in the background: nothing stops it but others */
	return b->srv[id].left;
}

void
base_set_grain(void *st, uint64_t grain)
{
	struct base *b = st;

	b->grain = grain;
	b->gen++;
	POL_FOR_EACH(id, b->served)
	b->srv[id].grain = grain;
}

/* Without a server an entity is eligible exactly while runnable (base_is_eligible), and
 * every policy's rank of it depends on its parameters only (fprr_rank, edf_rank). */
uint64_t
base_steady(void *st)
{
	const struct base *b = st;

	return ~b->served;
}
