/*
 * runq.h - the entity table of one scheduler and its round-robin order (runq.c).
 *
 * Each entity carries a sequence number: the lower, the nearer the head of its level.
 * Going to the tail of a level is taking a fresh number, so round robin needs no lists and
 * every choice is one O(POL_MAX) scan over a mask of eligible ids.  Budgets live in
 * server.c; base.c ties the two together.
 */
#ifndef POLICIES_RUNQ_H
#define POLICIES_RUNQ_H

#include "policy.h"

_Static_assert(POL_MAX <= 64, "eligibility masks are one uint64_t");

#define RUNQ_BIT(id) ((uint64_t) 1 << (id))

/* Invariant: !used implies the whole entry is zero. */
struct runq_ent {
	uint64_t seq;	     /* round-robin position; lower runs first among equals */
	uint64_t slice_used; /* charged since it last went to the tail; < slice */
	uint32_t prio;
	uint32_t kind; /* enum res_kind */
	uint8_t used, runnable;
};

struct runq {
	struct runq_ent e[POL_MAX];
	uint64_t slice;	   /* quantum; 0: no slicing */
	uint64_t tail;	   /* next sequence number to hand out */
	uint64_t runnable; /* RUNQ_BIT(id) for each runnable entity (e[id].runnable) */
};

void runq_init(struct runq *q, uint64_t slice);

/* 1 if id names an entity of q (inline: every operation of every policy asks it first). */
static inline int
runq_has(const struct runq *q, uint32_t id)
{
	return id < POL_MAX && q->e[id].used;
}

/* Decode an add: 0, HR_EINVAL (id out of range, unknown kind, bad budget or period for a
 * reserved kind: budget 0 is a soft reservation's only) or HR_EEXIST.  Changes nothing. */
int runq_check(const struct runq *q, uint32_t id, const struct pol_param *p);
/* Perform an add that runq_check accepted: runnable, at the tail of its level. */
void runq_add(struct runq *q, uint32_t id, const struct pol_param *p);
/* These take an id that runq_has accepted (inline, the ones each turn of a scheduler makes:
 * a block, a wake, a charge). */
void runq_remove(struct runq *q, uint32_t id);

static inline void
runq_to_tail(struct runq *q, uint32_t id)
{
	q->e[id].seq = q->tail++;
	q->e[id].slice_used = 0;
}

static inline void
runq_block(struct runq *q, uint32_t id)
{
	q->e[id].runnable = 0;
	q->runnable &= ~RUNQ_BIT(id);
}

static inline void
runq_wake(struct runq *q, uint32_t id)
{
	/* A wake of a runnable entity must not cost it its place. */
	if (q->e[id].runnable)
		return;
	q->e[id].runnable = 1;
	q->runnable |= RUNQ_BIT(id);
	runq_to_tail(q, id);
}

/* id ran for `used`: at the end of its slice it goes to the tail of its level. */
static inline void
runq_run(struct runq *q, uint32_t id, uint64_t used)
{
	struct runq_ent *e = &q->e[id];

	e->slice_used = pol_time_add(e->slice_used, used);
	if (q->slice && e->slice_used >= q->slice)
		runq_to_tail(q, id);
}

/* When id's slice ends if it runs from now on; UINT64_MAX without slicing. */
uint64_t runq_slice_end(const struct runq *q, uint32_t id, uint64_t now);
/* Ids of the runnable entities. */
static inline uint64_t
runq_runnable(const struct runq *q)
{
	return q->runnable;
}

/* The runnable entity in `mask` at the head of the most urgent level (by_prio), or of all
 * of them (!by_prio: plain round robin); POL_IDLE if none. */
int32_t runq_pick(const struct runq *q, uint64_t mask, int by_prio);

/*
 * runq_pick_peer's pass over the non-empty m: most urgent level first, then the head of
 * the level; without by_prio every entity is on one level.  The best so far is kept in
 * locals (its level and sequence), and whether another entity shares its level: one on a
 * more urgent level starts a new one.  Inlined for each by_prio, so that the loop does not
 * ask it again.
 */
static inline __attribute__((always_inline)) int32_t
runq_pick_in(const struct runq *q, uint64_t m, int by_prio, int *peer)
{
	int32_t best = (int32_t) __builtin_ctzll(m);
	uint32_t level = by_prio ? q->e[best].prio : 0;
	uint64_t seq = q->e[best].seq;
	int shared = 0;

	POL_FOR_EACH(id, m & (m - 1))
	{
		const struct runq_ent *e = &q->e[id];
		uint32_t l = by_prio ? e->prio : 0;
		if (l > level)
			continue;
		if (l < level) {
			shared = 0;
		} else {
			shared = 1;
			if (e->seq >= seq)
				continue;
		}
		best = (int32_t) id;
		level = l;
		seq = e->seq;
	}
	*peer = shared;
	return best;
}

/* runq_pick, and *peer: 1 if another runnable entity in mask shares the chosen one's
 * level (runq_has_peer of it), in the same pass.  Inline: fprr's pick on every turn. */
static inline __attribute__((always_inline)) int32_t
runq_pick_peer(const struct runq *q, uint64_t mask, int by_prio, int *peer)
{
	uint64_t m = mask & q->runnable;

	*peer = 0;
	if (!m)
		return POL_IDLE;
	return by_prio ? runq_pick_in(q, m, 1, peer) : runq_pick_in(q, m, 0, peer);
}
/* 1 if another runnable entity in `mask` shares id's round-robin level. */
int runq_has_peer(const struct runq *q, uint32_t id, uint64_t mask, int by_prio);

#endif
