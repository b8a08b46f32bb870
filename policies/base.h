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
};

_Static_assert(sizeof(struct base) % 8 == 0, "policy state size is a multiple of 8");

void base_init(struct base *b, const char *policy, uint64_t slice);
/* Perform id's due replenishments (a no-op for an entity without a server). */
void base_advance(struct base *b, uint32_t id, uint64_t now);
/* Perform due replenishments; return the ids that may run now: runnable, and budget left
 * if they have a server. */
uint64_t base_eligible(struct base *b, uint64_t now);
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

/* The struct policy fields every policy takes from here; each table adds its name, init,
 * pick, next_event and rank. */
#define BASE_POLICY_OPS                                                                           \
	.size = sizeof(struct base), .add = base_add, .remove = base_remove, .block = base_block, \
	.wake = base_wake, .charge = base_charge, .yield = base_yield, .misses = base_misses,     \
	.eligible = base_is_eligible, .budget_left = base_budget_left, .set_grain = base_set_grain

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

#endif
