/*
 * admit.h - CPU admission tests, shared by the image builder (build time, images/) and the
 * reservation manager (run time, rm/res.c).  Pure: no hardware, no system calls.
 *
 * A reservation asks for `budget` ticks every `period` ticks.  Hard and deferrable
 * reservations are admitted against the supply the scheduler itself holds (the whole CPU
 * for the root, its own reservation otherwise); soft ones are never refused.
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

struct admit_res {
	uint32_t kind;	 /* enum res_kind */
	uint32_t budget; /* ticks */
	uint32_t period; /* ticks */
	uint32_t prio;	 /* fixed-priority policies: lower is more urgent */
};

struct admit_supply {
	uint32_t budget, period; /* budget == period: the whole CPU */
};

/*
 * 0 if the guaranteed reservations of set[0..n) fit the supply under the named policy,
 * else HR_ENOMEM with a sentence in why[0..len).  Unknown policy: HR_EINVAL.
 *   edf:  sum of utilizations <= supply utilization.
 *   fprr and ds: the same utilization test, and on a whole CPU also response-time
 *   analysis in priority order (equal priorities interfere both ways); a deferrable
 *   server counts as a periodic task of its budget and period.
 */
int admit_cpu(const char *policy, const struct admit_res *set, unsigned n,
	      struct admit_supply supply, char *why, unsigned len);

/* 1 if name is a scheduling policy the distribution ships ("fprr", "ds", "edf"). */
int admit_policy_known(const char *name);

/* budget/period as parts per million (utilization), rounded up. */
uint64_t admit_ppm(uint32_t budget, uint32_t period);

#endif
