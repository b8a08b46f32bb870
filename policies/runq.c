/*
 * runq.c - entity table and round-robin order shared by every policy (runq.h).
 */
#include "runq.h"
#include "../kernel/abi/hr_errno.h"

#include <string.h>

void
runq_init(struct runq *q, uint64_t slice)
{
	memset(q, 0, sizeof(*q));
	q->slice = slice;
}

int
runq_has(const struct runq *q, uint32_t id)
{
	return id < POL_MAX && q->e[id].used;
}

static int
param_valid(const struct pol_param *p)
{
	if (p->kind > RES_DEFERRABLE)
		return 0;
	if (p->kind == RES_NONE)
		return 1;
	/* a soft reservation revoked to nothing still has its period: background only */
	return p->period && (p->budget || p->kind == RES_SOFT) && p->budget <= p->period;
}

int
runq_check(const struct runq *q, uint32_t id, const struct pol_param *p)
{
	if (id >= POL_MAX || !param_valid(p))
		return HR_EINVAL;
	if (q->e[id].used)
		return HR_EEXIST;
	return 0;
}

void
runq_to_tail(struct runq *q, uint32_t id)
{
	q->e[id].seq = q->tail++;
	q->e[id].slice_used = 0;
}

void
runq_add(struct runq *q, uint32_t id, const struct pol_param *p)
{
	struct runq_ent *e = &q->e[id];

	e->used = 1;
	e->runnable = 1;
	q->runnable |= RUNQ_BIT(id);
	e->prio = p->prio;
	e->kind = p->kind;
	runq_to_tail(q, id);
}

void
runq_remove(struct runq *q, uint32_t id)
{
	memset(&q->e[id], 0, sizeof(q->e[id]));
	q->runnable &= ~RUNQ_BIT(id);
}

void
runq_block(struct runq *q, uint32_t id)
{
	q->e[id].runnable = 0;
	q->runnable &= ~RUNQ_BIT(id);
}

void
runq_wake(struct runq *q, uint32_t id)
{
	/* A wake of a runnable entity must not cost it its place. */
	if (q->e[id].runnable)
		return;
	q->e[id].runnable = 1;
	q->runnable |= RUNQ_BIT(id);
	runq_to_tail(q, id);
}

void
runq_run(struct runq *q, uint32_t id, uint64_t used)
{
	struct runq_ent *e = &q->e[id];

	e->slice_used = pol_time_add(e->slice_used, used);
	if (q->slice && e->slice_used >= q->slice)
		runq_to_tail(q, id);
}

uint64_t
runq_slice_end(const struct runq *q, uint32_t id, uint64_t now)
{
	if (!q->slice)
		return UINT64_MAX;
	return pol_time_add(now, q->slice - q->e[id].slice_used);
}

uint64_t
runq_runnable(const struct runq *q)
{
	return q->runnable;
}

/* 1 if a runs before b: most urgent level first, then the head of the level. */
static int
before(const struct runq_ent *a, const struct runq_ent *b, int by_prio)
{
	if (by_prio && a->prio != b->prio)
		return a->prio < b->prio;
	return a->seq < b->seq;
}

int32_t
runq_pick(const struct runq *q, uint64_t mask, int by_prio)
{
	int32_t best = POL_IDLE;

	POL_FOR_EACH(id, mask & q->runnable)
	if (best == POL_IDLE || before(&q->e[id], &q->e[best], by_prio))
		best = (int32_t) id;
	return best;
}

int
runq_has_peer(const struct runq *q, uint32_t id, uint64_t mask, int by_prio)
{
	POL_FOR_EACH(j, mask & q->runnable & ~RUNQ_BIT(id))
	if (!by_prio || q->e[j].prio == q->e[id].prio)
		return 1;
	return 0;
}
