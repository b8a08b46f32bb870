/*
 * admit.h - CPU admission tests, shared by the image builder (build time, images/) and the
 * reservation manager (run time, rm/res.c).  Pure: no hardware, no system calls.
 *
 * A reservation asks for `budget` ticks every `period` ticks.  Every reserved kind is
 * admitted against the supply the scheduler itself holds (the whole CPU for the root, its
 * own reservation otherwise): the policies serve soft reservations too while they exist.
 */
#ifndef POLICIES_ADMIT_H
#define POLICIES_ADMIT_H

#include <stdint.h>

enum res_kind {
	RES_NONE = 0,	    /* best effort: no reservation */
	RES_HARD = 1,	    /* guaranteed and never revoked */
	RES_SOFT = 2,	    /* may be revoked by the parent */
	RES_DEFERRABLE = 3, /* a deferrable server: budget replenished every period */
};

/*
 * The server that enforces a reservation (policies/server.h).  Every policy serves every
 * reserved kind; DEFAULT takes the policy's own: sporadic under fprr, deferrable under ds
 * and edf.  Kind RES_DEFERRABLE is always a deferrable server.  edf has no sporadic server.
 */
enum res_server {
	RES_SERVER_DEFAULT = 0,
	RES_SERVER_DEFERRABLE = 1, /* full budget at every period boundary */
	RES_SERVER_SPORADIC = 2,   /* what was used comes back one period after its activation */
};

struct admit_res {
	uint32_t kind;	 /* enum res_kind */
	uint32_t budget; /* ticks */
	uint32_t period; /* ticks */
	uint32_t prio;	 /* fixed-priority policies: lower is more urgent */
	uint32_t server; /* enum res_server */
};

struct admit_supply {
	uint32_t budget, period; /* budget == period: the whole CPU */
};

/*
 * 0 if the reservations of set[0..n) fit the supply under the named policy, else
 * HR_ENOMEM with a sentence in why[0..len).  HR_EINVAL for an unknown policy, a budget
 * that does not fit its period, or a server the policy does not have (admit_server).
 * Every reserved kind counts, soft ones too: a soft reservation is served at its priority
 * (or deadline) while it exists, so it interferes like any other; it is the parent's to
 * revoke, not the policy's to ignore.  Best effort (RES_NONE) never counts.
 *   edf:  sum of utilizations <= supply utilization.
 *   fprr and ds: the same utilization test, and on a whole CPU also response-time
 *   analysis in priority order (equal priorities interfere both ways); a sporadic server
 *   counts as a periodic task of its budget and period, a deferrable server as one with a
 *   release jitter of period - budget (its budget kept to the end of one period and full
 *   again at the start of the next: the "double hit").
 */
int admit_cpu(const char *policy, const struct admit_res *set, unsigned n,
	      struct admit_supply supply, char *why, unsigned len);

/* 1 for the kinds a parent guarantees (hard, deferrable): only a guaranteed supply backs
 * them, and soft ones give way to them. */
static inline int
admit_guaranteed(uint32_t kind)
{
	return kind == RES_HARD || kind == RES_DEFERRABLE;
}

/* 1 if name is a scheduling policy the distribution ships ("fprr", "ds", "edf"). */
int admit_policy_known(const char *name);

/* The server the named (known) policy gives a reservation of this kind that asks for
 * `server`: RES_SERVER_DEFERRABLE or RES_SERVER_SPORADIC, or 0 if it cannot serve it
 * (sporadic under edf, or a sporadic RES_DEFERRABLE), with a sentence in why. */
uint32_t admit_server(const char *policy, uint32_t kind, uint32_t server, char *why, unsigned len);

/* "deferrable", "sporadic", "default" for enum res_server values; "?" otherwise. */
const char *admit_server_name(uint32_t server);

/* budget/period as parts per million (utilization), rounded up. */
uint64_t admit_ppm(uint32_t budget, uint32_t period);

#endif
