/*
 * servers.c - the deferrable server's double hit against the sporadic server's, measured on
 * the real policies (policies/, the same code every subsystem runs) with a fake CPU: one
 * time unit is one tick.
 *
 * A server of BUDGET every PERIOD at the top priority is idle until its work arrives at
 * phase a of its period and then has work for ever; a lower-priority job that needs JOB
 * ticks is released at the same instant (the critical instant).  For each phase the job's
 * response time is printed under ds (deferrable) and fprr (sporadic):
 *   series servers policy=P phase=A response=R
 * then the worst case of each and its bound from the analysis (admit.c):
 *   bench servers policy=P server=S worst=R bound=B unit=ticks
 * A deferrable server that arrives late in its period runs to the boundary and again at
 * once after it: up to 2 * BUDGET in a row.  A sporadic server never runs more than BUDGET in
 * any window of PERIOD.  Exit status 1 if a worst case exceeds its bound or the sporadic
 * server's is not below the deferrable one's.
 */
#include "policies/policy.h"

#include <stdio.h>
#include <string.h>

#define BUDGET 2
#define PERIOD 10
#define JOB    5
#define SPAN   (20 * PERIOD)

static _Alignas(8) unsigned char st[16384];

/* Response time of the low job released at `a` beside a server whose work arrives at a. */
static uint64_t
response(const struct policy *pol, uint64_t a)
{
	struct pol_param srv = { .prio = 0, .kind = RES_HARD, .budget = BUDGET, .period = PERIOD };
	struct pol_param low = { .prio = 1, .kind = RES_NONE };
	uint64_t now = 0, done = 0;

	pol->init(st, 0, 0);
	pol->add(st, 0, &srv, 0);
	pol->add(st, 1, &low, 0);
	pol->block(st, 0, 0);
	pol->block(st, 1, 0);
	while (now < SPAN) {
		int32_t p;
		if (now == a) {
			pol->wake(st, 0, now);
			pol->wake(st, 1, now);
		}
		p = pol->pick(st, now);
		if (p != POL_IDLE)
			pol->charge(st, (uint32_t) p, 1, now + 1);
		now++;
		if (p == 1 && ++done == JOB)
			return now - a;
	}
	return UINT64_MAX;
}

static int
sweep(const char *name, uint64_t bound)
{
	const struct policy *pol = policy_find(name);
	uint64_t worst = 0;

	for (uint64_t a = 0; a < PERIOD; a++) {
		uint64_t r = response(pol, a);
		printf("series servers policy=%s phase=%llu response=%llu\n", name,
		       (unsigned long long) a, (unsigned long long) r);
		worst = r > worst ? r : worst;
	}
	printf("bench servers policy=%s server=%s worst=%llu bound=%llu unit=ticks\n", name,
	       strcmp(name, "ds") ? "sporadic" : "deferrable", (unsigned long long) worst,
	       (unsigned long long) bound);
	return worst > bound ? -1 : (int) worst;
}

int
main(void)
{
	/* the analysis: JOB plus BUDGET per release of the server in the job's window, plus
	 * one more BUDGET for a deferrable server's jitter of PERIOD - BUDGET */
	int ds = sweep("ds", JOB + 2 * BUDGET), ss = sweep("fprr", JOB + BUDGET);

	return ds < 0 || ss < 0 || ss >= ds;
}
