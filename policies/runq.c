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

uint64_t
runq_slice_end(const struct runq *q, uint32_t id, uint64_t now)
{
	if (!q->slice)
		return UINT64_MAX;
	return pol_time_add(now, q->slice - q->e[id].slice_used);
}

int32_t
runq_pick(const struct runq *q, uint64_t mask, int by_prio)
{
	int peer;

	return runq_pick_peer(q, mask, by_prio, &peer);
}

int
runq_has_peer(const struct runq *q, uint32_t id, uint64_t mask, int by_prio)
{
	POL_FOR_EACH(j, mask & q->runnable & ~RUNQ_BIT(id))
	if (!by_prio || q->e[j].prio == q->e[id].prio)
		return 1;
	return 0;
}
