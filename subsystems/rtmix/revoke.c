/*
 * revoke.c - image test-cpu-revoke: soft CPU is revoked down the tree (delegate.h).
 *
 * The root (edf) serves its task revoke_watch (hard 1/10), a best-effort spinner, the child
 * "claimer" (best effort) and the child "soft" (soft 4/10), whose own book holds its task
 * revoke_inner_watch (soft 1/10, the older reservation) and its child "inner" (soft 3/10).
 * Once both levels have measured their soft child, the claimer binds a hard 7/10 at run
 * time: the root must take soft down to 2/10, and soft must then take inner down to 1/10.
 * Each level measures its soft child before and after (cpuwatch.h) and prints
 *   bench cpurevoke res=NAME when=before|after expected=E measured=M unit=pct
 * which must be within REVOKE_TOLERANCE points of budget/period; soft and inner check that
 * they woke from hr_res_wait and now hold what they are served with (hr_cpu_held).
 */
#include "rtmix.h"
#include "policies/admit.h"
#include "rm/caps.h"
#include "rm/cpuwatch.h"
#include "rm/export.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/res.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>

#define REVOKE_TOLERANCE 0.5 /* percentage points */
#define REVOKE_WARMUP	 50
#define REVOKE_WINDOW	 1000 /* ticks: a multiple of every period in the image */
#define CLAIM_BUDGET	 7    /* of 10: with the root's 1/10, soft must come down to 2/10 */
#define SOFT_AFTER	 2
#define INNER_AFTER	 1 /* soft's 2/10 less its task's 1/10 */

enum {
	PI_STAGE = PI_PROGRAM, /* a1: the stage our soft child reached -> go */
	PI_CLAIM,	       /* claimer, a1: 1 once bound -> go, or 2 once measured */
};

static volatile long child_stage; /* 1: measured before; 2: done (soft in root, inner in soft) */
static volatile long go, bound;

static long
op_stage(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	if (a1 > child_stage && a1 <= 2)
		child_stage = a1;
	return go;
}

static long
op_claim(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	if (a1 == 1)
		bound = 1;
	return go;
}

static void
wait_for(volatile long *v, long at_least)
{
	while (*v < at_least)
		sleep_until(hr_tsc() + hr_tick_tsc());
}

/* Measure w[0..n) over one window after a warm-up, print and judge each against want[]. */
static int
measure(struct cpuwatch *w, unsigned n, const char *when)
{
	uint64_t t0;
	int fails = 0;

	sleep_until(hr_tsc() + REVOKE_WARMUP * hr_tick_tsc());
	t0 = cpuwatch_open(w, n);
	sleep_until(t0 + REVOKE_WINDOW * hr_tick_tsc());
	for (unsigned i = 0; i < n; i++) {
		double got = cpuwatch_share(&w[i], t0), want = cpuwatch_expected(&w[i]);
		char name[64];
		printf("bench cpurevoke res=%s when=%s expected=%.2f measured=%.2f unit=pct\n",
		       w[i].name, when, want, got);
		snprintf(name, sizeof(name), "cpurevoke_%s_%s_%u_of_%u", w[i].name, when,
			 w[i].budget, w[i].period);
		fails += !hr_report(name, cpuwatch_near(got, want, REVOKE_TOLERANCE),
				    "expected %.2f%%, measured %.2f%%", want, got);
	}
	return fails;
}

static struct cpuwatch
watch(const char *name, uint32_t kind, uint32_t budget)
{
	return (struct cpuwatch){ .name = name,
				  .kind = kind,
				  .budget = budget,
				  .period = 10,
				  .ent = subsys_entity(name) };
}

/* We woke from hr_res_wait and now hold what our parent serves us with. */
static int
told(const char *name, uint32_t budget)
{
	uint64_t seen = 0;
	uint32_t b = 0, p = 0;
	long r;

	hr_res_wait(-1, &seen);
	r = hr_cpu_held(&b, &p);
	return hr_report(name, r == 0 && seen && b == budget && p == 10,
			 "%ld, revision %lu, holding %u/%u, want %u/10", r, (unsigned long) seen, b,
			 p, budget);
}

/* ---- the root ------------------------------------------------------------------------ */

static void
revoke_watch(void *arg)
{
	struct cpuwatch before[2] = { watch("soft", RES_SOFT, 4), watch("softtask", RES_SOFT, 1) };
	/* softtask, our own task, is the newest soft reservation: revoked first, to nothing */
	struct cpuwatch after[3] = { watch("soft", RES_SOFT, SOFT_AFTER),
				     watch("claimer", RES_HARD, CLAIM_BUDGET),
				     watch("softtask", RES_SOFT, 0) };
	int fails = 0;

	(void) arg;
	if (hr_export(PI_STAGE, op_stage) || hr_export(PI_CLAIM, op_claim))
		hr_die("cannot offer our services");
	fails += measure(before, 2, "before");
	wait_for(&child_stage, 1);
	go = 1;
	wait_for(&bound, 1);
	fails += measure(after, 3, "after");
	go = 2;
	wait_for(&child_stage, 2);
	subsys_exit(fails);
}
HR_TASK(revoke_watch);

static void
revoke_claimer(void *arg)
{
	long id, r;

	(void) arg;
	while (hr_invoke(HR_CAP_PARENT, PI_CLAIM, 0, 0, 0) < 1)
		sleep_until(hr_tsc() + hr_tick_tsc());
	id = hr_res_create(RES_HARD, RES_CPU);
	r = id < 0 ? id : hr_res_bind(id, CLAIM_BUDGET, 10);
	hr_report("cpurevoke_hard_bound_over_soft", r == 0, "%ld (%s)", r, hr_strerror(r));
	hr_invoke(HR_CAP_PARENT, PI_CLAIM, 1, 0, 0);
	for (;;)
		sleep_until(hr_tsc() + 1000 * hr_tick_tsc());
}
HR_TASK(revoke_claimer);

/* ---- soft, the root's soft child ----------------------------------------------------- */

static void
revoke_inner_watch(void *arg)
{
	struct cpuwatch before = watch("inner", RES_SOFT, 3), after = watch("inner", RES_SOFT, 1);
	int fails = 0;

	(void) arg;
	if (hr_export(PI_STAGE, op_stage))
		hr_die("cannot offer our services");
	fails += measure(&before, 1, "before");
	hr_invoke(HR_CAP_PARENT, PI_STAGE, 1, 0, 0);
	fails += !told("cpurevoke_soft_told_its_new_supply", SOFT_AFTER);
	fails += measure(&after, 1, "after");
	wait_for(&child_stage, 1); /* inner has reported */
	/* done, but stay until the root has measured us too */
	while (hr_invoke(HR_CAP_PARENT, PI_STAGE, 2, 0, 0) < 2)
		sleep_until(hr_tsc() + hr_tick_tsc());
	subsys_exit(fails);
}
HR_TASK(revoke_inner_watch);

/* ---- inner, soft's soft child -------------------------------------------------------- */

static void
revoke_waiter(void *arg)
{
	(void) arg;
	told("cpurevoke_inner_told_its_new_supply", INNER_AFTER);
	hr_invoke(HR_CAP_PARENT, PI_STAGE, 1, 0, 0);
	for (;;)
		sleep_until(hr_tsc() + 1000 * hr_tick_tsc());
}
HR_TASK(revoke_waiter);
