/*
 * rogue - child schedulers that misbehave, and a parent that checks they change nothing
 * (MANIFEST: images test-robust and test-fair).
 *
 * The root (EDF) serves a real-time task in a hard server and a well-behaved child "good"
 * (its own scheduler, one spinning task) in a deferrable server; beside them, each in a
 * small deferrable server of its own, child subsystems whose scheduler (args) is:
 *   spin     never yields: its only thread spins from the start
 *   fault    spins through the root's whole measuring window, then faults (so that
 *            its server is measured holding a child that runs, not a dead one)
 *   foreign  tries to dispatch, wake, grant, revoke, promote and demote threads and
 *            components that are not its own, then spins
 *   forge    makes itself an event thread and then, forever, fills the region it shares
 *            with the kernel and the page it shares with its parent with garbage, sets
 *            its timer anywhere and then soon, waits for events (going idle, so that its
 *            parent hears of it every time) and switches at random
 *   flood    invokes its parent's services with random requests, forever
 * The root's task "watch" measures for a while what each reservation receives
 * (cpuwatch.h) and reports: the real-time task and "good" get their share within 2
 * points and miss no period; no rogue gets more than its server; the faulting one was
 * reported.  Rogues report what they saw refused.
 *
 * In test-fair a child "hog" (its tasks hog_share and hog_sleep) tries to take every table
 * its parent keeps for all its children: shares beyond its reservation and as many as it
 * can, as many of its threads sleeping in the parent as it has, a window it grows and
 * gives back over and over.  Its sibling "good" (task neighbour) reports that it can still
 * share a page and sleep in the root; the root's task "linger" ends the test.
 */
#include "rm/caps.h"
#include "rm/cpuwatch.h"
#include "rm/delegate.h"
#include "rm/desc.h"
#include "rm/events.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"
#include "rm/rand.h"
#include "rm/res.h"

#include <stdio.h>
#include <string.h>

#define RES_MAX	     12
#define WARMUP_TICKS 100
#define WINDOW_TICKS 500
#define TOLERANCE    2.0
/* The faulting rogue faults this long after it starts, the measuring window (which opens
 * WARMUP_TICKS after the root starts, about when it does) closed by then; the watch waits
 * at most FAULT_WAIT_TICKS more to hear of it. */
#define FAULT_AFTER_TICKS (WARMUP_TICKS + WINDOW_TICKS + 100)
#define FAULT_WAIT_TICKS  400

static uint64_t seed = 0x2545f4914f6cdd1dull;
static volatile int fault_reported;
static volatile uintptr_t nowhere = 8; /* where the faulting rogue writes */

_Noreturn static void
spin(void)
{
	for (volatile uint64_t n = 0;; n++)
		;
}

/* ---- the root's side --------------------------------------------------------------- */

static int
rogue(const char *name)
{
	return strcmp(name, "rt") && strcmp(name, "good");
}

static void
watch(void *arg)
{
	struct cpuwatch w[RES_MAX];
	unsigned n = cpuwatch_find(w, RES_MAX);
	uint64_t t0;
	int fails = 0;
	char name[64];

	(void) arg;
	sched_sleep(hr_tsc() + WARMUP_TICKS * hr_tick_tsc());
	t0 = cpuwatch_open(w, n);
	for (uint64_t end = t0 + WINDOW_TICKS * hr_tick_tsc(); hr_tsc() < end;)
		sched_sleep(end);
	for (unsigned i = 0; i < n; i++) {
		double got = cpuwatch_share(&w[i], t0), want = cpuwatch_expected(&w[i]);
		printf("bench robust res=%s expected=%.2f measured=%.2f unit=pct\n", w[i].name,
		       want, got);
		if (rogue(w[i].name)) {
			snprintf(name, sizeof(name), "robust_%s_held_to_its_server", w[i].name);
			fails += !hr_report(name, got <= want + TOLERANCE,
					    "%.2f%% for a server of %.2f%%", got, want);
			/* else the check above would hold whatever its server did */
			if (!strcmp(w[i].name, "fault"))
				fails += !hr_report("robust_fault_runs_until_it_faults",
						    got >= want - TOLERANCE,
						    "%.2f%% for a server of %.2f%%", got, want);
			continue;
		}
		snprintf(name, sizeof(name), "robust_%s_keeps_its_share", w[i].name);
		fails += !hr_report(name, cpuwatch_near(got, want, TOLERANCE),
				    "expected %.2f%%, measured %.2f%%", want, got);
		snprintf(name, sizeof(name), "robust_%s_misses_no_period", w[i].name);
		fails += !hr_report(name, sched_misses(w[i].ent) == 0, "%u periods short of budget",
				    sched_misses(w[i].ent));
	}
	for (uint64_t end = hr_tsc() + FAULT_WAIT_TICKS * hr_tick_tsc();
	     !fault_reported && hr_tsc() < end;)
		sched_sleep(hr_tsc() + hr_tick_tsc());
	fails += !hr_report("robust_faulting_scheduler_reported", fault_reported,
			    "no fault heard from 'fault'");
	subsys_exit(fails);
}
HR_TASK(watch);

/* The faulting rogue is expected to fault (the subsystem already counted it): it is not
 * one of our failures if it did. */
void
hr_child_ended(const char *name, int faulted, long status)
{
	(void) status;
	if (!strcmp(name, "fault") && faulted)
		fault_reported = 1;
}

/* The real-time task, and the one of "good": CPU-bound, never blocking. */
static void
spin_task(void *arg)
{
	(void) arg;
	spin();
}
HR_TASK(spin_task);

/* ---- the rogues -------------------------------------------------------------------- */

/* How many of tries calls of op on everything not ours succeeded (must be none). */
static void
refused(const char *what, long (*op)(long a, long b), long self)
{
	int wrong = 0;
	char name[64];

	for (long a = 0; a < HR_THD_MAX; a++)
		for (long b = 0; b < 8; b++)
			if (a != self && op(a, b) == 0)
				wrong++;
	snprintf(name, sizeof(name), "rogue_foreign_%s_refused", what);
	hr_report(name, wrong == 0, "%d calls succeeded", wrong);
}

static long
do_switch(long a, long b)
{
	return hr_thd_switch(a, b & 1 ? HR_SW_BLOCK : 0, 0);
}
static long
do_wakeup(long a, long b)
{
	return b ? HR_EINVAL : hr_thd_wakeup(a);
}
static long
do_grant(long a, long b)
{
	return hr_sched_grant(a, b);
}
static long
do_revoke(long a, long b)
{
	return b ? HR_EINVAL : hr_sched_revoke(a);
}
static long
do_promote(long a, long b)
{
	return hr_sched_promote(b, a);
}
static long
do_demote(long a, long b)
{
	return a ? HR_EINVAL : hr_sched_demote(b);
}
static long
do_pevt(long a, long b)
{
	return a > 1 ? HR_EINVAL : hr_sched_pevt(b, a);
}

_Noreturn static void
foreign(void)
{
	long self = hr_thd_self();

	refused("switch", do_switch, self);
	refused("wakeup", do_wakeup, self);
	refused("grant", do_grant, self);
	refused("revoke", do_revoke, self);
	refused("promote", do_promote, self);
	refused("demote", do_demote, self);
	refused("pevt", do_pevt, self);
	spin();
}

_Noreturn static void
forge(void)
{
	uint64_t *region = (uint64_t *) HR_VA_SCHED, *pcb = (uint64_t *) HR_VA_PCB;
	long self = hr_thd_self();

	hr_report("rogue_forger_becomes_event_thread", hr_sched_event(self) == 0, "refused");
	for (;;) {
		for (uint64_t i = 0; i < HR_SCHED_REGION_PAGES * 512; i += 1 + hr_rand(&seed) % 8)
			region[i] = hr_rand(&seed);
		for (uint64_t i = 0; i < 512; i += 1 + hr_rand(&seed) % 4)
			pcb[i] = hr_rand(&seed);
		hr_timer_next((long) hr_rand(&seed));
		/* but come back soon (or at once): a rogue that sleeps for ever harms no one */
		hr_timer_next((long) (hr_tsc() + hr_rand(&seed) % (2 * hr_tick_tsc())));
		hr_event_wait();
		hr_thd_switch((long) (hr_rand(&seed) % HR_THD_MAX), (long) (hr_rand(&seed) % 64),
			      (long) (hr_tsc() + hr_rand(&seed) % (2 * hr_tick_tsc())));
	}
}

_Noreturn static void
flood(void)
{
	uint64_t top = HR_VA_MEM + hr_bootinfo()->mem_pages * HR_PAGE_SIZE;

	for (;;) {
		long op = (long) (hr_rand(&seed) % (PI_OP_END + 2)), a[3];
		for (int i = 0; i < 3; i++)
			a[i] = hr_rand(&seed) % 2 ? (long) (hr_rand(&seed) % 100)
						  : (long) hr_rand(&seed);
		if (op == PI_SLEEP)
			a[0] = (long) (hr_tsc() + hr_rand(&seed) % hr_tick_tsc());
		if (op == PI_MEM_RETURN && (uint64_t) a[0] < top)
			a[0] = (long) top; /* never our own pages: that would only hurt us */
		hr_invoke(HR_CAP_PARENT, op, a[0], a[1], a[2]);
	}
}

/* ---- the hog and its neighbour ---------------------------------------------------------- */

#define HOG_CYCLES	     64 /* grow-and-give-back rounds */
#define NEIGHBOUR_WAIT_TICKS 200

static volatile int hog_tries, hog_refused; /* sleeps in the root tried, refused */

/* Hog threads sleep in the root for the whole test, or are refused. */
static void
hog_sleep(void *arg)
{
	long r;

	(void) arg;
	__atomic_add_fetch(&hog_tries, 1, __ATOMIC_RELAXED);
	r = pi_sleep(hr_tsc() + 100000 * hr_tick_tsc());
	if (r == HR_ENOMEM)
		__atomic_add_fetch(&hog_refused, 1, __ATOMIC_RELAXED);
}
HR_TASK(hog_sleep);

/* Grow one page and give it back, again and again: the address must not creep up. */
static int
hog_churn(void)
{
	long first = hr_invoke(HR_CAP_PARENT, PI_MEM_GROW, 1, 0, 0), va = first;

	for (int i = 0; i < HOG_CYCLES && va == first && va > 0; i++) {
		hr_invoke(HR_CAP_PARENT, PI_MEM_RETURN, va, 1, 0);
		va = hr_invoke(HR_CAP_PARENT, PI_MEM_GROW, 1, 0, 0);
	}
	if (va > 0)
		hr_invoke(HR_CAP_PARENT, PI_MEM_RETURN, va, 1, 0);
	return hr_report("fair_hog_window_does_not_creep", first > 0 && va == first,
			 "first grow at %#lx, later at %#lx", first, va);
}

/* Reservation records, as many as it can: RES_PER_CHILD at most, and the neighbour still
 * gets one (neighbour). */
static void
hog_records(void)
{
	long n = 0, r;

	while (n < 64 && (r = hr_res_create(RES_SOFT, RES_MEM)) >= 0)
		n++;
	hr_report("fair_hog_reservation_records_capped", r == HR_ENOMEM && n <= RES_PER_CHILD,
		  "%ld records created, then %ld (%s)", n, r, hr_strerror(r));
}

static void
hog_share(void *arg)
{
	long shares = 0, r;

	(void) arg;
	hog_records();
	r = pi_mem_share("good", 1024);
	hr_report("fair_hog_cannot_share_beyond_its_reservation", r == HR_ENOMEM,
		  "sharing 4 MiB of its 1 MiB: got %ld (%s)", r, hr_strerror(r));
	hr_mem_give_back(SHARES_PER_CHILD + 2);
	while (shares < 64 && pi_mem_share("good", 1) > 0)
		shares++;
	hr_report("fair_hog_share_slots_capped", shares == SHARES_PER_CHILD,
		  "%ld shares of a page granted", shares);
	hog_churn();
	while (hog_tries < SLEEPERS_PER_CHILD + 1)
		sched_sleep(hr_tsc() + hr_tick_tsc());
	sched_sleep(hr_tsc() + 5 * hr_tick_tsc()); /* the last ones have tried by now */
	hr_report("fair_hog_sleepers_capped", hog_refused == hog_tries - SLEEPERS_PER_CHILD,
		  "%d of %d sleeps refused", hog_refused, hog_tries);
	for (;;) /* stay, holding all it got */
		sched_sleep(hr_tsc() + 50 * hr_tick_tsc());
}
HR_TASK(hog_share);

/* The root of test-fair: end after arg ticks. */
static void
linger(void *arg)
{
	sched_sleep(hr_tsc() + (uint64_t) (uintptr_t) arg * hr_tick_tsc());
	subsys_exit(0);
}
HR_TASK(linger);

/* "good", beside the hog: a share and a sleep in the root still work. */
static void
neighbour(void *arg)
{
	uint64_t t0;
	long va, r;

	(void) arg;
	sched_sleep(hr_tsc() + NEIGHBOUR_WAIT_TICKS * hr_tick_tsc());
	hr_mem_give_back(1);
	va = pi_mem_share("hog", 1);
	hr_report("fair_good_shares_beside_hog", va > 0, "got %ld (%s)", va, hr_strerror(va));
	t0 = hr_tsc();
	r = pi_sleep(t0 + 2 * hr_tick_tsc());
	hr_report("fair_good_sleeps_beside_hog", r == 0 && hr_tsc() >= t0 + 2 * hr_tick_tsc(),
		  "sleep in the root: %ld (%s)", r, hr_strerror(r));
	r = hr_res_create(RES_SOFT, RES_MEM);
	hr_report("fair_good_creates_a_reservation_beside_hog", r >= 0, "got %ld (%s)", r,
		  hr_strerror(r));
	if (r >= 0)
		hr_res_delete(r);
}
HR_TASK(neighbour);

int
hr_main(void)
{
	const char *role = desc_args();

	if (!strcmp(role, "spin"))
		spin();
	if (!strcmp(role, "fault")) {
		for (uint64_t end = hr_tsc() + FAULT_AFTER_TICKS * hr_tick_tsc(); hr_tsc() < end;)
			;
		*(volatile int *) nowhere = 1;
	}
	if (!strcmp(role, "foreign"))
		foreign();
	if (!strcmp(role, "forge"))
		forge();
	if (!strcmp(role, "flood"))
		flood();
	subsys_main(); /* the root, and "good" */
}
