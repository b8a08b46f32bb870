/*
 * regrow.c - image test-regrow: a child's CPU reservation changed at run time is what its
 * parent's scheduler enforces, and what the child may promise its own children.
 *
 * The root (fprr) serves a hard real-time task, a best-effort spinner and the child
 * "grower" (best effort by its manifest), whose spinning task keeps it busy.  The child's
 * task regrow_driver steps through the phases below, each time telling the root (our
 * service PI_PHASE) and waiting until the root has measured it; the root's task
 * regrow_watch measures the child's share of each phase (cpuwatch.h) and prints
 *   bench regrow phase=N res=grower kind=K expected=E measured=M unit=pct
 * A reserved phase must be within REGROW_TOLERANCE points of budget/period (a hard
 * reservation is also a limit); after the delete the child is back to best effort, within
 * REGROW_BE_TOLERANCE of what it had before its first bind.  Phase 2 also tries a bind
 * over what the root has left, which must be refused and change nothing.
 */
#include "rtmix.h"
#include "policies/admit.h"
#include "rm/caps.h"
#include "rm/cpuwatch.h"
#include "rm/delegate.h"
#include "rm/export.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/res.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>

#define REGROW_TOLERANCE    0.5 /* percentage points */
#define REGROW_BE_TOLERANCE 3.0 /* best effort: what is left, shared with a spinner */
#define REGROW_WARMUP	    50
#define REGROW_WINDOW	    1000 /* ticks: a multiple of every period in the image */

enum { PI_PHASE = PI_PROGRAM }; /* a1: the phase the child has set up -> phases measured */

struct phase {
	const char *what;
	uint32_t budget, period; /* 0 0: best effort */
};

static const struct phase phases[] = {
	{ "best-effort", 0, 0 }, /* before any reservation */
	{ "hard", 1, 10 },	 /* created and bound */
	{ "hard", 3, 10 },	 /* grown; then a bind of 6/10 refused */
	{ "hard", 1, 20 },	 /* shrunk */
	{ "best-effort", 0, 0 }, /* deleted */
};
#define NPHASES	      (sizeof(phases) / sizeof(phases[0]))
#define REFUSED_PHASE 2
#define REFUSED_TRY   6 /* ticks of 10: with the root's 5/10 task, over what is left */

/* ---- the root's side --------------------------------------------------------------- */

static volatile long announced = -1, measured = -1;

static long
op_phase(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	if (a1 > announced && a1 < (long) NPHASES)
		announced = a1;
	return measured;
}

static double
measure(unsigned k)
{
	struct cpuwatch w = { .name = "grower",
			      .kind = phases[k].budget ? RES_HARD : RES_NONE,
			      .budget = phases[k].budget,
			      .period = phases[k].period,
			      .ent = subsys_entity("grower") };
	uint64_t t0;
	double got;

	sleep_until(hr_tsc() + REGROW_WARMUP * hr_tick_tsc());
	t0 = cpuwatch_open(&w, 1);
	sleep_until(t0 + REGROW_WINDOW * hr_tick_tsc());
	got = cpuwatch_share(&w, t0);
	printf("bench regrow phase=%u res=grower kind=%s expected=%.2f measured=%.2f unit=pct\n", k,
	       phases[k].what, cpuwatch_expected(&w), got);
	return got;
}

static int
judge(unsigned k, double got, const double *share)
{
	double want = 100.0 * phases[k].budget / (phases[k].period ? phases[k].period : 1);
	char name[64];

	if (k == 0)
		return hr_report("regrow_best_effort_child_runs", got >= 10.0,
				 "measured %.2f%% before any reservation", got);
	if (k == NPHASES - 1)
		return hr_report("regrow_delete_returns_child_to_best_effort",
				 cpuwatch_near(got, share[0], REGROW_BE_TOLERANCE),
				 "measured %.2f%%, %.2f%% before its first bind", got, share[0]);
	snprintf(name, sizeof(name), "regrow_phase%u_%u_of_%u_enforced", k, phases[k].budget,
		 phases[k].period);
	return hr_report(name, cpuwatch_near(got, want, REGROW_TOLERANCE),
			 "expected %.2f%%, measured %.2f%%", want, got);
}

static void
regrow_watch(void *arg)
{
	double share[NPHASES];
	int fails = 0;

	(void) arg;
	if (hr_export(PI_PHASE, op_phase))
		hr_die("cannot offer PI_PHASE");
	for (unsigned k = 0; k < NPHASES; k++) {
		while (announced < (long) k)
			sleep_until(hr_tsc() + hr_tick_tsc());
		share[k] = measure(k);
		fails += !judge(k, share[k], share);
		measured = k;
	}
	fails += !hr_report("regrow_refused_bind_changes_nothing",
			    cpuwatch_near(share[REFUSED_PHASE], 30.0, REGROW_TOLERANCE),
			    "measured %.2f%% after the refused bind of %u/10", share[REFUSED_PHASE],
			    REFUSED_TRY);
	subsys_exit(fails);
}
HR_TASK(regrow_watch);

/* ---- the child's side -------------------------------------------------------------- */

/* Tell the root phase k is set up, and wait until it has measured it. */
static void
phase_done(unsigned k)
{
	while (hr_invoke(HR_CAP_PARENT, PI_PHASE, k, 0, 0) < (long) k)
		sleep_until(hr_tsc() + hr_tick_tsc());
}

/* What we may promise our own children is what we now hold. */
static int
holds(unsigned k)
{
	struct admit_supply s = delegate_supply();
	uint32_t b = phases[k].budget, p = phases[k].period;
	char name[64];

	snprintf(name, sizeof(name), "regrow_phase%u_child_may_promise_what_it_holds", k);
	return hr_report(name, p ? s.budget == b && s.period == p : s.budget == 0,
			 "supply %u/%u, holding %u/%u", s.budget, s.period, b, p);
}

/* Phase 2's extra: a bind over what the root has left is refused and changes nothing. */
static int
refused_bind(long id)
{
	long r = hr_res_bind(id, REFUSED_TRY, 10), now = pi_res_get(id);

	return hr_report("regrow_bind_over_what_is_left_refused", r == HR_ENOMEM && now == 3,
			 "bind %u/10: %ld (%s), budget now %ld", REFUSED_TRY, r, hr_strerror(r),
			 now) &
	       hr_report_eq("regrow_second_cpu_reservation_refused",
			    hr_res_create(RES_SOFT, RES_CPU), HR_EEXIST);
}

static void
regrow_driver(void *arg)
{
	long id = HR_ENOENT, r;
	int fails = 0;

	(void) arg;
	phase_done(0);
	for (unsigned k = 1; k < NPHASES; k++) {
		char name[64];
		if (k == 1)
			id = hr_res_create(RES_HARD, RES_CPU);
		if (id < 0)
			r = id;
		else if (phases[k].budget)
			r = hr_res_bind(id, phases[k].budget, phases[k].period);
		else
			r = hr_res_delete(id);
		snprintf(name, sizeof(name), "regrow_phase%u_%s_accepted", k,
			 phases[k].budget ? "bind" : "delete");
		fails += !hr_report(name, r == 0, "%ld (%s)", r, hr_strerror(r));
		if (k == REFUSED_PHASE)
			fails += !refused_bind(id);
		fails += !holds(k);
		phase_done(k);
	}
	subsys_exit(fails);
}
HR_TASK(regrow_driver);
