/*
 * rtmix - the open real-time mix of the HiRES paper's Fig. 6 (MANIFEST: image rtmix).
 *
 * The root (policy edf) serves CPU-bound real-time tasks in hard servers and a best-effort
 * child subsystem "be" (its own fprr scheduler, a thread that spins forever beside a few
 * that work and sleep) in a deferrable server.  The controller task, best effort itself,
 * runs the experiment: three phases in which the child's server has budget 4 and period
 * 8, then 16, then 32 ticks (rebound through the reservation manager), measuring in each
 * how much CPU the kernel charged to every reservation.  It prints, per reservation and
 * phase,
 *   bench util res=R period=P phase=N expected=E measured=M unit=pct
 * every SAMPLE_TICKS the share each took since the last sample,
 *   series util t=T res=R pct=P
 * and test lines: every measured share within 2 points of budget/period, and no deadline
 * miss for any server.  The same program runs the child: it only has other tasks.
 */
#include "rtmix.h"
#include "rm/cpuwatch.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RES_MAX	     8
#define WARMUP_TICKS 100 /* the child builds itself first */
#define PHASE_TICKS  800 /* a multiple of every period: 8, 10, 16, 20, 25, 32 */
#define SAMPLE_TICKS 100
#define TOLERANCE    2.0 /* percentage points */
#define REBOUND	     "be"

static const uint32_t be_periods[] = { 8, 16, 32 }; /* the child's period in each phase */

static struct cpuwatch res[RES_MAX];
static uint32_t misses[RES_MAX];
static unsigned nres;
static int fails;

void
sleep_until(uint64_t t)
{
	while (hr_tsc() < t)
		sched_sleep(t);
}

/* Samples through one phase, then the phase's figures and checks. */
static void
run_phase(int phase, uint64_t start)
{
	uint64_t tick = hr_tick_tsc(), t0 = cpuwatch_open(res, nres), prev = t0;

	for (int k = 1; k <= PHASE_TICKS / SAMPLE_TICKS; k++) {
		sleep_until(t0 + (uint64_t) k * SAMPLE_TICKS * tick);
		uint64_t now = hr_tsc();
		for (unsigned i = 0; i < nres; i++)
			printf("series util t=%lu res=%s pct=%.2f\n",
			       (unsigned long) ((now - start) / tick), res[i].name,
			       cpuwatch_sample(&res[i], now - prev));
		prev = now;
	}
	for (unsigned i = 0; i < nres; i++) {
		struct cpuwatch *r = &res[i];
		double expected = cpuwatch_expected(r), measured = cpuwatch_share(r, t0);
		char name[64];
		printf("bench util res=%s period=%u phase=%d expected=%.2f measured=%.2f "
		       "unit=pct\n",
		       r->name, r->period, phase, expected, measured);
		snprintf(name, sizeof(name), "util_%s_phase%d_within_2_points", r->name, phase);
		fails += !hr_report(name, cpuwatch_near(measured, expected, TOLERANCE),
				    "expected %.2f%%, measured %.2f%%", expected, measured);
		misses[i] += sched_misses(r->ent);
	}
}

static void
controller(void *arg)
{
	uint64_t start;
	char why[160];

	(void) arg;
	nres = cpuwatch_find(res, RES_MAX);
	sleep_until(hr_tsc() + WARMUP_TICKS * hr_tick_tsc());
	start = hr_tsc();
	for (int p = 0; p < (int) (sizeof(be_periods) / sizeof(be_periods[0])); p++) {
		for (unsigned i = 0; i < nres; i++) {
			struct cpuwatch *r = &res[i];
			if (strcmp(r->name, REBOUND) || r->period == be_periods[p])
				continue;
			long e = subsys_rebind_cpu(r->name, r->budget, be_periods[p], why,
						   sizeof(why));
			fails += !hr_report("rebind_best_effort_server", e == 0, "to %u/%u: %s",
					    r->budget, be_periods[p], why);
			if (!e)
				r->period = be_periods[p];
		}
		run_phase(p + 1, start);
	}
	for (unsigned i = 0; i < nres; i++) {
		char name[64];
		snprintf(name, sizeof(name), "no_deadline_misses_%s", res[i].name);
		fails += !hr_report(name, misses[i] == 0, "%u periods short of budget", misses[i]);
	}
	subsys_exit(fails);
}
HR_TASK(controller);

/* A CPU-bound real-time task: never blocks, so its server decides all it gets. */
static void
rt_spin(void *arg)
{
	volatile uint64_t n = 0;

	(void) arg;
	for (;;)
		n++;
}
HR_TASK(rt_spin);

/* In the best-effort child: a thread that spins forever, never yielding. */
static void
be_spin(void *arg)
{
	rt_spin(arg);
}
HR_TASK(be_spin);

/* In the best-effort child: work a little, sleep a little, forever. */
static void
be_work(void *arg)
{
	volatile uint64_t n = 0;

	for (;;) {
		for (int i = 0; i < 20000 * (int) (uintptr_t) arg; i++)
			n++;
		sched_sleep(hr_tsc() + 3 * hr_tick_tsc());
	}
}
HR_TASK(be_work);

int
hr_main(void)
{
	subsys_main();
}
