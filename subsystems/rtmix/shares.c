/*
 * shares.c - image test-shares: every reservation kind under every policy, enforced.
 *
 * Each child of the root runs one policy (MANIFEST) and serves four spinning tasks, one of
 * each kind: hard, deferrable and soft reservations and best effort.  Its task share_watch
 * measures what each received over a window and prints
 *   bench share policy=P res=R kind=K expected=E measured=M unit=pct
 * with test lines: hard and deferrable within SHARE_TOLERANCE points of budget/period
 * (never more: a reservation is also a limit), soft at least its share (it may take slack),
 * best effort not starved while there is slack.
 */
#include "rtmix.h"
#include "policies/admit.h"
#include "rm/cpuwatch.h"
#include "rm/desc.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <string.h>

#define SHARE_TOLERANCE 0.5 /* percentage points */
#define SHARE_WARMUP	50
#define SHARE_WINDOW	2000 /* ticks: a multiple of every period in the image */
#define SHARE_RES_MAX	8

static const char *const kinds[] = { "best-effort", "hard", "soft", "deferrable" };

/* The verdict for one measured reservation; 1 if it holds. */
static int
judge(const char *policy, const struct cpuwatch *w, double measured)
{
	double expected = cpuwatch_expected(w);
	const char *kind = w->kind < 4 ? kinds[w->kind] : "?";
	char name[96];
	int ok;

	if (w->kind == RES_HARD || w->kind == RES_DEFERRABLE)
		ok = cpuwatch_near(measured, expected, SHARE_TOLERANCE);
	else if (w->kind == RES_SOFT)
		ok = measured >= expected - SHARE_TOLERANCE;
	else
		ok = measured >= SHARE_TOLERANCE;
	/* named by kind, or by the task's own name where it is more than its kind (a
	 * reservation that picks its server, say) */
	snprintf(name, sizeof(name), "share_%s_%s_enforced", policy,
		 !strcmp(w->name, "sporadic") ? w->name : kind);
	if (measured == CPUWATCH_GONE)
		return hr_report(name, 0, "%s went before the window closed: its share is unknown",
				 w->name);
	return hr_report(name, ok, "%s: expected %.2f%%, measured %.2f%%", w->name, expected,
			 measured);
}

static void
share_watch(void *arg)
{
	struct cpuwatch w[SHARE_RES_MAX];
	const char *why, *policy = "?";
	const void *fdt = desc_self(&why);
	struct desc_node self;
	unsigned n = cpuwatch_find_all(w, SHARE_RES_MAX), fails = 0;
	uint64_t t0, tick = hr_tick_tsc();

	(void) arg;
	if (fdt && !desc_read(fdt, 0, &self, &why))
		policy = self.policy;
	sleep_until(hr_tsc() + SHARE_WARMUP * tick);
	t0 = cpuwatch_open(w, n);
	sleep_until(t0 + SHARE_WINDOW * tick);
	for (unsigned i = 0; i < n; i++) {
		double measured = cpuwatch_share(&w[i], t0);
		if (!strcmp(w[i].name, "watch"))
			continue;
		if (measured != CPUWATCH_GONE)
			printf("bench share policy=%s res=%s kind=%s expected=%.2f "
			       "measured=%.2f unit=pct\n",
			       policy, w[i].name, w[i].kind < 4 ? kinds[w[i].kind] : "?",
			       cpuwatch_expected(&w[i]), measured);
		fails += !judge(policy, &w[i], measured);
	}
	subsys_exit((int) fails);
}
HR_TASK(share_watch);
