/*
 * base.c - operations shared by every policy (base.h): membership, blocking, charging.
 * Each one decodes (id known, parameters sane) before it changes anything.
 */
#include "base.h"
#include "../kernel/abi/hr_errno.h"

#include <string.h>

void
base_init(struct base *b, uint64_t now, uint64_t slice, uint32_t server_kinds)
{
	(void) now;
	memset(b, 0, sizeof(*b));
	runq_init(&b->q, slice);
	b->server_kinds = server_kinds;
}

static int
served(const struct base *b, uint32_t id)
{
	return (b->served & RUNQ_BIT(id)) != 0;
}

void
base_advance(struct base *b, uint32_t id, uint64_t now)
{
	if (served(b, id))
		server_advance(&b->srv[id], now, b->q.e[id].runnable, 0);
}

uint64_t
base_eligible(struct base *b, uint64_t now)
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

	if (err)
		return err;
	runq_add(&b->q, id, p);
	if (b->server_kinds & BASE_KIND(p->kind)) {
		server_init(&b->srv[id], p->budget, p->period, now);
		b->served |= RUNQ_BIT(id);
	}
	return 0;
}

int
base_remove(void *st, uint32_t id)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	runq_remove(&b->q, id);
	memset(&b->srv[id], 0, sizeof(b->srv[id]));
	b->served &= ~RUNQ_BIT(id);
	return 0;
}

int
base_block(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	base_advance(b, id, now);
	runq_block(&b->q, id);
	if (served(b, id))
		server_block(&b->srv[id]);
	return 0;
}

int
base_wake(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return HR_ENOENT;
	base_advance(b, id, now);
	runq_wake(&b->q, id);
	return 0;
}

void
base_charge(void *st, uint32_t id, uint64_t used, uint64_t now)
{
	struct base *b = st;

	if (!runq_has(&b->q, id))
		return;
	if (served(b, id))
		server_charge(&b->srv[id], used, now);
	runq_run(&b->q, id, used);
}

void
base_yield(void *st, uint32_t id, uint64_t now)
{
	struct base *b = st;

	(void) now;
	if (runq_has(&b->q, id))
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
	return b->q.e[id].runnable && (!served(b, id) || b->srv[id].left);
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
	return b->srv[id].left;
}
