/*
 * base.h - the state and operations every policy shares (base.c).
 *
 * A policy's state is one struct base: the entity table and round-robin order (runq.h)
 * plus a server (server.h) for each entity with a reservation, of whatever kind.  The
 * operations here have the exact signatures of struct policy, so fprr.c, ds.c and edf.c
 * put them straight into their tables and write only init, pick, next_event and rank.
 */
#ifndef POLICIES_BASE_H
#define POLICIES_BASE_H

#include "policy.h"
#include "runq.h"
#include "server.h"

struct base {
	struct runq q;
	struct server srv[POL_MAX]; /* valid for the ids in `served` */
	uint64_t served;	    /* ids that have a server: every reserved kind */
	uint64_t soft;		    /* ids whose server is soft (runs in the background when out) */
	char name[8];		    /* the policy's, for admit_server */
	uint64_t cbs;		    /* 1: servers wake by the constant-bandwidth rule (edf) */
	uint64_t grain;		    /* the caller's timer resolution (set_grain) */
	uint64_t gen;		    /* changes with every change of q or a server */
	struct {		    /* pick's answer, for next_event (base_memo_get) */
		uint64_t gen, now, elig;
		int32_t p, peer;
	} memo;
};

_Static_assert(sizeof(struct base) % 8 == 0, "policy state size is a multiple of 8");

void base_init(struct base *b, const char *policy, uint64_t slice);
/* Perform id's due replenishments (a no-op for an entity without a server). */
void base_advance(struct base *b, uint32_t id, uint64_t now);
/* base_eligible with at least one server. */
uint64_t base_eligible_served(struct base *b, uint64_t now);

/* Perform due replenishments; return the ids that may run now: runnable, and budget left
 * if they have a server (inline: without servers, as under best effort only, that is all
 * the runnable ones, on every pick). */
static inline uint64_t
base_eligible(struct base *b, uint64_t now)
{
	return b->served ? base_eligible_served(b, now) : runq_runnable(&b->q);
}
/* Ids of runnable servers with no budget left (after base_eligible at the same time). */
uint64_t base_exhausted(const struct base *b);
/* Ids of runnable soft servers with no budget left: they run when nothing else can. */
uint64_t base_background(const struct base *b);
/* The entity to run in the background (round robin among base_background), or POL_IDLE. */
int32_t base_pick_background(const struct base *b);
/* The earliest time a server in mask has budget again (UINT64_MAX: none). */
uint64_t base_refill_at(const struct base *b, uint64_t mask);
/* next_event's answer while background entity p runs (or none, POL_IDLE): any refill
 * brings back something more urgent; a peer's slice may end. */
uint64_t base_background_event(const struct base *b, int32_t p, uint64_t now);

/*
 * A policy's pick remembers what it chose from (the eligible ids at now) and what it
 * chose, so that next_event at the same now, with nothing changed since, need not work it
 * out again: the caller asks the one right after the other (pick, then next_event to arm
 * its timer).  Any change (an operation below, replenishments at another time) moves gen.
 */
static inline void
base_memo_put(struct base *b, uint64_t now, uint64_t elig, int32_t p, int peer)
{
	b->memo.gen = b->gen;
	b->memo.now = now;
	b->memo.elig = elig;
	b->memo.p = p;
	b->memo.peer = peer;
}

/* 1 and *elig, *p, *peer as pick found them if they still hold at now, else 0.  (peer is
 * the policy's: fprr's says whether p has a round-robin peer.) */
static inline int
base_memo_get(const struct base *b, uint64_t now, uint64_t *elig, int32_t *p, int *peer)
{
	if (b->memo.gen != b->gen || b->memo.now != now)
		return 0;
	*elig = b->memo.elig;
	*p = b->memo.p;
	*peer = b->memo.peer;
	return 1;
}

/* The struct policy fields every policy takes from here; each table adds its name, init,
 * pick, next_event and rank. */
#define BASE_POLICY_OPS                                                                           \
	.size = sizeof(struct base), .add = base_add, .remove = base_remove, .block = base_block, \
	.wake = base_wake, .charge = base_charge, .yield = base_yield, .misses = base_misses,     \
	.eligible = base_is_eligible, .budget_left = base_budget_left,                            \
	.set_grain = base_set_grain, .steady = base_steady

/* struct policy operations (see policy.h for their contracts). */
int base_add(void *st, uint32_t id, const struct pol_param *p, uint64_t now);
int base_remove(void *st, uint32_t id);
int base_block(void *st, uint32_t id, uint64_t now);
int base_wake(void *st, uint32_t id, uint64_t now);
void base_charge(void *st, uint32_t id, uint64_t used, uint64_t now);
void base_yield(void *st, uint32_t id, uint64_t now);
uint32_t base_misses(void *st, uint32_t id);
int base_is_eligible(void *st, uint32_t id, uint64_t now);
uint64_t base_budget_left(void *st, uint32_t id, uint64_t now);
void base_set_grain(void *st, uint64_t grain);
/* Every id without a server: runnable means eligible, its rank is its priority's, and
 * nothing limits its budget. */
uint64_t base_steady(void *st);

#endif
