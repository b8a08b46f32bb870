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
 *
 * Image soak runs the same real-time tasks beside hostile children (storm: random system
 * calls, a million in all) in deferrable servers of their own; its task soak_watch
 * measures the real-time shares from the first tick to the end of the last storm and
 * prints
 *   bench soak res=R expected=E measured=M misses=N unit=pct
 *   bench soak storms=K calls=C ticks=T unit=count
 * with test lines: every real-time share within SOAK_TOLERANCE points, no miss, every
 * storm ended well.
 */
#include "rm/cpuwatch.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include "rm/desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RES_MAX	       8
#define WARMUP_TICKS   100 /* the child builds itself first */
#define PHASE_TICKS    800 /* a multiple of every period: 8, 10, 16, 20, 25, 32 */
#define SAMPLE_TICKS   100
#define TOLERANCE      2.0 /* percentage points */
#define REBOUND	       "be"
#define SOAK_TOLERANCE 0.5 /* percentage points */
#define SOAK_MAX_TICKS 60000

static const uint32_t be_periods[] = { 8, 16, 32 }; /* the child's period in each phase */

static struct cpuwatch res[RES_MAX];
static uint32_t misses[RES_MAX];
static unsigned nres;
static int fails;

static void
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

/* ---- image soak ------------------------------------------------------------------------ */

static volatile unsigned storms_ended, storms_failed;

void
hr_child_ended(const char *name, int faulted, long status)
{
	if (strncmp(name, "storm", 5))
		return;
	storms_failed += faulted || status != 0;
	__atomic_add_fetch(&storms_ended, 1, __ATOMIC_SEQ_CST);
}

/* The storms: every child of ours whose name starts with "storm", and their calls (args). */
static unsigned
storms(long *calls)
{
	const char *why;
	const void *fdt = desc_self(&why);
	struct desc_node d;
	unsigned n = 0;

	*calls = 0;
	for (int k = fdt ? desc_child(fdt, 0) : -1; k >= 0; k = desc_sibling(fdt, k))
		if (!desc_read(fdt, k, &d, &why) && !strncmp(d.name, "storm", 5)) {
			n++;
			*calls += atol(d.args);
		}
	return n;
}

static void
soak_watch(void *arg)
{
	uint64_t t0, tick = hr_tick_tsc(), end;
	long calls;
	unsigned n = storms(&calls);

	(void) arg;
	nres = cpuwatch_find(res, RES_MAX);
	t0 = cpuwatch_open(res, nres);
	end = t0 + SOAK_MAX_TICKS * tick;
	while (storms_ended < n && hr_tsc() < end)
		sleep_until(hr_tsc() + 10 * tick);
	for (unsigned i = 0; i < nres; i++) {
		struct cpuwatch *r = &res[i];
		double expected = cpuwatch_expected(r), measured = cpuwatch_share(r, t0);
		uint32_t m = sched_misses(r->ent);
		char name[64];
		if (!strncmp(r->name, "storm", 5))
			continue;
		printf("bench soak res=%s expected=%.2f measured=%.2f misses=%u unit=pct\n",
		       r->name, expected, measured, m);
		snprintf(name, sizeof(name), "soak_%s_share_held", r->name);
		fails += !hr_report(name, cpuwatch_near(measured, expected, SOAK_TOLERANCE),
				    "expected %.2f%%, measured %.2f%%", expected, measured);
		snprintf(name, sizeof(name), "soak_%s_misses_nothing", r->name);
		fails += !hr_report(name, m == 0, "%u periods short of budget", m);
	}
	printf("bench soak storms=%u calls=%ld ticks=%lu unit=count\n", n, calls,
	       (unsigned long) ((hr_tsc() - t0) / tick));
	fails += !hr_report("soak_every_storm_ended_well", storms_ended == n && !storms_failed,
			    "%u of %u ended, %u badly", storms_ended, n, storms_failed);
	subsys_exit(fails);
}
HR_TASK(soak_watch);

int
hr_main(void)
{
	subsys_main();
}
