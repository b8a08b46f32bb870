/*
 * soak.c - image soak: the real-time tasks of rtmix beside hostile children (storm: random
 * system calls, a million in all; rogue: a flood of requests) in deferrable servers of
 * their own.  Task soak_watch measures every reservation from its start to the end of the
 * last storm and prints
 *   bench soak res=R expected=E measured=M misses=N unit=pct
 *   bench soak storms=K calls=C ticks=T unit=count
 * with test lines: every share within SOAK_TOLERANCE points, no miss, every storm ended
 * well.
 */
#include "rtmix.h"
#include "rm/cpuwatch.h"
#include "rm/desc.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOAK_TOLERANCE 0.5 /* percentage points */
#define SOAK_MAX_TICKS 60000
#define SOAK_RES_MAX   12

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
	struct cpuwatch res[SOAK_RES_MAX];
	unsigned nres = cpuwatch_find(res, SOAK_RES_MAX);
	int fails = 0;

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
