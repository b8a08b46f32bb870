/*
 * respawn - a child that faults again and again, restarted by its parent (MANIFEST: image
 * test-restart).
 *
 * The root (EDF) serves a real-time task "rt" in a hard server, a well-behaved child
 * "sibling" (one spinning task) in a deferrable server, and "crash", a child whose manifest
 * entry says restart = "on-fault" with restart-max 3.  Each life of crash takes what a
 * child can hold in its parent (a reservation of more memory, grown into its window, a page
 * shared with its sibling, as many threads asleep in the root as it may have), checks that
 * all of it was granted, then faults.  The root's task "watch" measures rt and sibling
 * meanwhile (cpuwatch.h) and reports: crash was restarted exactly three times and then
 * stayed down; each restart gave it back the reservations it had and left the root's free
 * memory and kernel quotas as they were before the first fault; once it stayed down, the
 * root held what it held in crash's first backoff; rt and sibling kept their shares and
 * missed no period; crash's own window reads as gone (CPUWATCH_GONE), also while a later
 * life of it has the entity number its first had; and hrtop's row of crash counts every
 * life, so its share between a look in the first life and one in a later life is known
 * and within its server.
 */
#include "rm/caps.h"
#include "rm/cpuwatch.h"
#include "rm/desc.h"
#include "rm/hrtop.h"
#include "rm/pages.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/res.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"
#include "rm/toprow.h"

#include <stdio.h>
#include <string.h>

#define RES_MAX	      4
#define CRASH	      "crash"
#define RESTARTS      3	 /* its restart-max in the MANIFEST */
#define CRASH_WAIT    20 /* ticks each life waits first: the root has looked by then */
#define WINDOW_TICKS  400
#define TOLERANCE     2.0
#define GROWN_PAGES   16
#define SLEEP_FOREVER 100000 /* ticks */

static volatile uintptr_t nowhere = 8; /* where crash writes to fault */

/* ---- what the root looks at ------------------------------------------------------------- */

/* The root's free pages and kernel quotas, and crash's reservations if it is up. */
struct snap {
	uint64_t free;
	long threads, comps;	 /* quotas: the most we could give a new component */
	long bound;		 /* crash's kernel bound (-1: down) */
	uint64_t budget, period; /* its CPU server as our policy has it (TSC) */
};

static struct snap before, down, restarted[RESTARTS + 1], end;
static volatile unsigned restarts, faults;

/* Can we create (and at once kill) a component with these quotas? */
static int
can_create(long threads, long comps)
{
	long slot = caps_alloc(), id;

	if (slot < 0)
		return 0;
	if ((id = hr_comp_create(slot, threads, comps)) >= 0)
		hr_comp_kill(slot);
	caps_free(slot);
	return id >= 0;
}

/* The largest n in [0, hi] for which ok(n) (ok is monotonic), or -1. */
static long
largest(int (*ok)(long), long hi)
{
	long lo = -1;

	while (lo < hi) {
		long mid = lo + (hi - lo + 1) / 2;
		if (ok(mid))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static int
threads_ok(long n)
{
	return can_create(n, 0);
}

static int
comps_ok(long n)
{
	return can_create(0, n);
}

static void
snap(struct snap *s)
{
	long slot = subsys_child_slot(CRASH), ent = subsys_entity(CRASH);
	struct sched_ent *e = sched_ent(ent);

	s->free = pages_left();
	s->threads = largest(threads_ok, HR_THD_MAX);
	s->comps = largest(comps_ok, HR_COMP_MAX);
	s->bound = slot >= 0 ? hr_mem_info(slot, HR_MI_BOUND, 0) : -1;
	s->budget = e ? e->param.budget : 0;
	s->period = e ? e->param.period : 0;
}

static int
same(const struct snap *a, const struct snap *b)
{
	return a->free == b->free && a->threads == b->threads && a->comps == b->comps &&
	       a->bound == b->bound && a->budget == b->budget && a->period == b->period;
}

void
hr_child_ended(const char *name, int faulted, long status)
{
	(void) status;
	if (!strcmp(name, CRASH) && faulted)
		faults++;
}

void
hr_child_restarted(const char *name, unsigned n)
{
	if (strcmp(name, CRASH) || n > RESTARTS)
		return;
	restarts = n;
	snap(&restarted[n]);
}

static int
report_restarts(void)
{
	int fails = 0;
	unsigned same_as_before = 0;

	fails += !hr_report("restart_restarted_exactly_restart_max_times",
			    restarts == RESTARTS && faults == RESTARTS + 1,
			    "%u restarts after %u faults", restarts, faults);
	fails += !hr_report("restart_stays_down_after_restart_max",
			    subsys_entity(CRASH) == HR_ENOENT && restarts == RESTARTS,
			    "it is %s after %u restarts", subsys_entity(CRASH) >= 0 ? "up" : "down",
			    restarts);
	for (unsigned k = 1; k <= RESTARTS; k++)
		same_as_before += same(&restarted[k], &before);
	fails += !hr_report("restart_gives_back_its_reservations_and_leaks_nothing",
			    same_as_before == RESTARTS && before.bound > 0,
			    "%u of %u restarts left things as before the first fault "
			    "(free %lu/%lu, threads %ld/%ld, comps %ld/%ld, bound %ld/%ld)",
			    same_as_before, RESTARTS, (unsigned long) restarted[RESTARTS].free,
			    (unsigned long) before.free, restarted[RESTARTS].threads,
			    before.threads, restarted[RESTARTS].comps, before.comps,
			    restarted[RESTARTS].bound, before.bound);
	/* down for good, it holds as little as in its first backoff, and more than nothing
	 * then: its pages and quotas had come back */
	fails += !hr_report("restart_down_child_holds_nothing",
			    same(&end, &down) && down.free > before.free &&
				    down.threads > before.threads && down.comps > before.comps,
			    "free %lu, threads %ld, comps %ld; first down %lu, %ld, %ld; up %lu, "
			    "%ld, %ld",
			    (unsigned long) end.free, end.threads, end.comps,
			    (unsigned long) down.free, down.threads, down.comps,
			    (unsigned long) before.free, before.threads, before.comps);
	return fails;
}

static int
report_shares(struct cpuwatch *w, unsigned n, uint64_t t0)
{
	int fails = 0;
	char name[64];

	for (unsigned i = 0; i < n; i++) {
		double got = cpuwatch_share(&w[i], t0), want = cpuwatch_expected(&w[i]);
		if (!strcmp(w[i].name, CRASH)) {
			fails += !hr_report("restart_crash_went_from_its_window",
					    got == CPUWATCH_GONE && cpuwatch_gone(&w[i]),
					    "its share reads %.2f%% after it went", got);
			continue;
		}
		printf("bench restart res=%s expected=%.2f measured=%.2f unit=pct\n", w[i].name,
		       want, got);
		snprintf(name, sizeof(name), "restart_%s_keeps_its_share", w[i].name);
		fails += !hr_report(name, cpuwatch_near(got, want, TOLERANCE),
				    "expected %.2f%%, measured %.2f%%", want, got);
		snprintf(name, sizeof(name), "restart_%s_misses_no_period", w[i].name);
		fails += !hr_report(name, sched_misses(w[i].ent) == 0, "%u periods short of budget",
				    sched_misses(w[i].ent));
	}
	return fails;
}

/* hrtop's view of our subtree while crash lives its first life, and again in a later one */
static struct toprow top_first[HRTOP_ROWS_MAX], top_later[HRTOP_ROWS_MAX];
static unsigned ntop_first, ntop_later;

/* A look of hrtop's when crash has a component: into the first view while it lives its
 * first life (the last such look stays, after the first life's work), into the later one
 * at the first look once it was restarted (the new life has done next to nothing yet).
 * Read by its number alone, the later life's CPU would be less than the first view's. */
static void
top_look(void)
{
	if (subsys_entity(CRASH) < 0)
		return;
	if (!restarts)
		ntop_first = hrtop_snapshot(top_first, HRTOP_ROWS_MAX);
	else if (restarts && ntop_first && !ntop_later)
		ntop_later = hrtop_snapshot(top_later, HRTOP_ROWS_MAX);
}

/* crash's row between the two views: its CPU over both lives (each child's row counts
 * every life, child_gone), so a share known and within its 1/10 deferrable server, not
 * the new life's total against the old one's (unknown, or any figure at all). */
static int
report_top(void)
{
	double share = -1;

	for (unsigned i = 0; i < ntop_later; i++)
		if (top_later[i].depth == 1 && !strcmp(top_later[i].name, CRASH))
			share = toprow_share(top_later, i, top_first, ntop_first);
	return !hr_report("restart_crash_row_counts_every_life",
			  share >= 0 && share <= 10 + TOLERANCE,
			  "hrtop's share of crash across its restart %.2f%% (views of %u and %u "
			  "rows; want 0 .. %.0f%%)",
			  share, ntop_first, ntop_later, 10 + TOLERANCE);
}

static void
watch(void *arg)
{
	struct cpuwatch w[RES_MAX], *crash = 0;
	unsigned n = cpuwatch_find(w, RES_MAX), later_lives_seen = 0, later_lives_gone = 0;
	uint64_t t0;
	int fails;

	(void) arg;
	snap(&before);
	t0 = cpuwatch_open(w, n);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(w[i].name, CRASH))
			crash = &w[i];
	/* a look every tick: what we hold while crash is first down, in its backoff, and
	 * whether a later life of crash under the entity number its first had is told from
	 * the first (cpuwatch_gone: the number alone would read the new life's CPU) */
	for (uint64_t stop = t0 + WINDOW_TICKS * hr_tick_tsc(); hr_tsc() < stop;) {
		sched_sleep(hr_tsc() + hr_tick_tsc());
		if (!down.free && !restarts && faults && subsys_entity(CRASH) == HR_ENOENT)
			snap(&down);
		if (restarts && crash && subsys_entity(CRASH) == crash->ent) {
			later_lives_seen++;
			later_lives_gone += cpuwatch_gone(crash);
		}
		top_look();
	}
	snap(&end);
	fails = !hr_report("restart_a_later_life_is_not_the_first",
			   later_lives_seen && later_lives_gone == later_lives_seen,
			   "%u of %u looks at a later life under the first's number saw it gone",
			   later_lives_gone, later_lives_seen);
	fails += report_shares(w, n, t0);
	fails += report_top();
	fails += report_restarts();
	subsys_exit(fails);
}
HR_TASK(watch);

/* rt, and sibling's task: CPU-bound, never blocking. */
static void
spin_task(void *arg)
{
	(void) arg;
	for (volatile uint64_t n = 0;; n++)
		;
}
HR_TASK(spin_task);

/* ---- crash: one life ------------------------------------------------------------------- */

/* Each life is served as the first: a leak in the root (its invocation stacks, held by
 * sleepers of earlier lives, say) would show here. */
static void
crash_task(void *arg)
{
	long id, grown = -1, back = -1, shared = -1;

	(void) arg;
	sched_sleep(hr_tsc() + CRASH_WAIT * hr_tick_tsc());
	if ((id = hr_res_create(RES_HARD, RES_MEM)) >= 0 && !(id = hr_res_bind(id, GROWN_PAGES, 0)))
		grown = hr_mem_grow(GROWN_PAGES);
	if ((back = hr_mem_give_back(1)) == 1)
		shared = pi_mem_share("sibling", 1);
	hr_report("restart_child_is_served_in_every_life",
		  id == 0 && grown == 0 && back == 1 && shared > 0,
		  "reservation %ld (%s), grow %ld, give back %ld, share %ld (%s)", id,
		  hr_strerror(id), grown, back, shared, hr_strerror(shared));
	sched_sleep(hr_tsc() + 2 * hr_tick_tsc());
	*(volatile int *) nowhere = 1;
}
HR_TASK(crash_task);

/* Asleep in the root when crash faults (on one of the root's invocation stacks): the root
 * must let it go. */
static void
crash_sleeper(void *arg)
{
	(void) arg;
	pi_sleep(hr_tsc() + SLEEP_FOREVER * hr_tick_tsc());
}
HR_TASK(crash_sleeper);

int
hr_main(void)
{
	subsys_main();
}
