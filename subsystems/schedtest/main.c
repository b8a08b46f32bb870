/*
 * schedtest - the scheduler tree at work across subsystems (MANIFEST: image test-sched).
 *
 * Root tasks and children (args say which role a child plays):
 *   tree_tests  (root) takes a blocked task thread of "kid-a" back (revoke) and hands it
 *               back (grant), checking every refusal on the way; kid-a's probe finds its
 *               switches refused (HR_EPEVT) while we have events for it; demotes
 *               "kid-b", whose own child "kid-b1" must come back with it; then waits for
 *               the others.
 *   pi_high, pi_mid (root) and "pikid": pikid's thread takes a lock of ours inside our
 *               service PI_HOLD and works a while; pi_high then wants the lock while
 *               pi_mid, more urgent than pikid, is runnable: pi_high must get the lock
 *               after pikid's work, not after pi_mid's (priority inheritance through the
 *               dependency link), and pi_mid must not run meanwhile.
 *   "evkid"     a subsystem whose thread sleeps inside its parent again and again
 *               (pi_sleep): its scheduler hears of the block and the wake-up through the
 *               event protocol, runs its other thread meanwhile, cannot lift its parent's
 *               block itself, and never loses a wake-up.
 *   deep_spin, burst (image test-wake-depth) deep_spin runs at depth 2, in a subsystem
 *               inside a best-effort child of the root: it sleeps (its scheduler and the
 *               one above it go idle), then spins, woken by its own scheduler's timer; a
 *               more urgent child of the root, whose task burst sleeps and then spins and
 *               exits, preempts it meanwhile.  deep_spin must run again once that child
 *               has ended, with its ancestors' schedulers told it woke.
 *   park_duty, park_spin, park_wake (image test-wake-parked) park_wake sleeps at depth
 *               2, in leaf, beside park_spin in mid; duty, a more urgent root child, runs
 *               park_duty in bursts.  A wake-up of leaf while duty runs is told to mid
 *               quietly; when duty is done and the CPU goes back to park_spin, mid must
 *               still hear of it: every wake-up runs within PARK_LATE ticks.
 */
#include "rm/caps.h"
#include "rm/child.h"
#include "rm/desc.h"
#include "rm/export.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"
#include "rm/tls.h"

#include <stdio.h>
#include <string.h>

enum { PI_TELL = PI_PROGRAM, PI_HOLD }; /* our own services for our children */

#define HOLD_WORK    1000000 /* iterations pikid works with the lock held (a few ms) */
#define MID_TICKS    50	     /* what pi_mid spins once woken */
#define SLEEPS	     40
#define TIMEOUT_TICK 5000
#define PROBE_DONE   (-1) /* PI_TELL: kid-a's pevt probe has reported */
#define PROBE_SET    (-2) /* PI_TELL: set the caller's pevt flag */

static int fails;

static int
check(const char *name, int ok, const char *why)
{
	fails += !hr_report(name, ok, "%s", why);
	return ok;
}

static void
nap(void)
{
	sched_sleep(hr_tsc() + hr_tick_tsc());
}

/* ---- root: services for the children ----------------------------------------------- */

static volatile long told_tid;	   /* kid-a's task thread, as it told us */
static struct hr_lock pi_lock;	   /* what pikid holds inside PI_HOLD */
static volatile int held, pi_done; /* pikid holds it now; pi test over */
static volatile uint32_t mid_tid;
static volatile uint64_t mid_count;
static volatile int evkid_ended, kid_b_faulted, probe_done;

static long
op_tell(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	struct child *c = child_by_comp(caller);

	(void) a2, (void) a3, (void) badge;
	if (a1 == PROBE_DONE)
		probe_done = 1;
	else if (a1 == PROBE_SET) /* as if we had just queued an event for its scheduler */
		return c ? hr_sched_pevt(c->ctor.slot, 1) : HR_EPERM;
	else
		told_tid = a1;
	return 0;
}

static long
op_hold(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	volatile uint64_t n = 0;

	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	hr_lock_take(&pi_lock);
	held = 1;
	for (long i = 0; i < HOLD_WORK; i++)
		n++;
	held = 0;
	hr_lock_give(&pi_lock);
	return 0;
}

void
hr_child_ended(const char *name, int faulted, long status)
{
	if (!strcmp(name, "evkid"))
		evkid_ended = 1 + (faulted || status);
	if (!strcmp(name, "kid-b") && faulted)
		kid_b_faulted = 1; /* its scheduler lost its region when we demoted it */
}

/* ---- root: grant, revoke, demote --------------------------------------------------- */

static unsigned
owned_slots(void)
{
	unsigned n = 0;

	for (int i = 1; i < HR_THD_MAX; i++)
		n += (hr_region()->slot[i].flags & HR_SLOT_OWNED) != 0;
	return n;
}

static void
grant_revoke(void)
{
	long a = subsys_child_slot("kid-a"), b = subsys_child_slot("kid-b");
	long t;
	char why[80];

	for (int i = 0; i < 200 && !told_tid; i++)
		nap();
	t = told_tid;
	if (!check("kid_a_told_its_thread", t > 0, "kid-a never told us"))
		return;
	snprintf(why, sizeof(why), "thread %ld", t);
	check("revoke_takes_a_thread_back_from_a_child", hr_sched_revoke(t) == 0, why);
	check("revoke_of_a_thread_not_granted_below_refused", hr_sched_revoke(t) == HR_EPERM, why);
	check("grant_only_into_the_threads_home", hr_sched_grant(t, b) == HR_EPERM, why);
	check("grant_gives_it_back", hr_sched_grant(t, a) == 0, why);
	check("grant_never_twice", hr_sched_grant(t, a) == HR_EPERM, why);
	check("grant_never_to_a_sibling", hr_sched_grant(t, b) == HR_EPERM, why);
	check("grant_of_the_running_thread_refused", hr_sched_grant(hr_thd_self(), a) != 0, why);
}

static void
demote(void)
{
	long b = subsys_child_slot("kid-b");
	unsigned before, after;
	char why[80];

	for (int i = 0; i < 20; i++)
		nap(); /* kid-b1 is built by then */
	before = owned_slots();
	check("demote_a_child_scheduler", hr_sched_demote(b) == 0, "refused");
	after = owned_slots();
	snprintf(why, sizeof(why), "threads we own: %u before, %u after", before, after);
	/* kid-b's c^s and task, and kid-b1's c^s and task, are all ours again */
	check("demotion_returns_the_whole_subtree", after >= before + 4, why);
	check("demote_twice_refused", hr_sched_demote(b) == HR_ECAP, "accepted");
}

static void
tree_tests(void *arg)
{
	(void) arg;
	if (hr_export(PI_TELL, op_tell) || hr_export(PI_HOLD, op_hold))
		hr_die("cannot export our test services");
	grant_revoke();
	demote();
	for (int i = 0;
	     i < TIMEOUT_TICK && (!evkid_ended || !pi_done || !kid_b_faulted || !probe_done); i++)
		nap();
	check("pevt_probe_reported", probe_done, "kid-a's probe never saw pevt");
	check("evkid_finished_well", evkid_ended == 1, evkid_ended ? "it failed" : "not yet");
	check("demoted_child_lost_its_scheduler", kid_b_faulted, "it went on");
	check("pi_test_done", pi_done, "not yet");
	subsys_exit(fails - !!kid_b_faulted); /* that fault was ours to cause */
}
HR_TASK(tree_tests);

/* ---- root: priority inheritance ---------------------------------------------------- */

static void
pi_high(void *arg)
{
	uint64_t t0, waited, mid_before;
	char why[120];

	(void) arg;
	for (int i = 0; i < 2000 && !held; i++)
		sched_sleep(hr_tsc() + hr_tick_tsc() / 4);
	if (!check("pi_child_holds_our_lock", held, "pikid never took it")) {
		pi_done = 1;
		return;
	}
	while (!mid_tid)
		nap();
	sched_wake_thread(mid_tid); /* more urgent than pikid: without inheritance it would
				       run before pikid could finish and let go */
	mid_before = mid_count;
	t0 = hr_tsc();
	hr_lock_take(&pi_lock);
	waited = hr_tsc() - t0;
	hr_lock_give(&pi_lock);
	snprintf(why, sizeof(why), "waited %lu ticks, pi_mid ran %lu times meanwhile",
		 (unsigned long) (waited / hr_tick_tsc()),
		 (unsigned long) (mid_count - mid_before));
	check("pi_waiter_gets_the_lock_after_the_holders_work", waited < 20 * hr_tick_tsc(), why);
	check("pi_middle_priority_does_not_run_meanwhile", mid_count == mid_before, why);
	pi_done = 1;
}
HR_TASK(pi_high);

static void
pi_mid(void *arg)
{
	(void) arg;
	mid_tid = tls_tid();
	sched_block_self();
	for (uint64_t end = hr_tsc() + MID_TICKS * hr_tick_tsc(); hr_tsc() < end;)
		mid_count++;
}
HR_TASK(pi_mid);

/* ---- children --------------------------------------------------------------------- */

/* kid-a's task: tell our parent who we are, then block for good. */
static void
kid_task(void *arg)
{
	(void) arg;
	while (hr_invoke(HR_CAP_PARENT, PI_TELL, tls_tid(), 0, 0) == HR_ENOSYS)
		nap();
	sched_block_self();
}
HR_TASK(kid_task);

/* kid-a's other task: has our parent set our pevt flag (as its services do when they
 * queue an event for our scheduler), then, before our scheduler could fetch anything,
 * tries to switch as a scheduler would: refused with HR_EPEVT. */
static void
pevt_probe(void *arg)
{
	long r;

	(void) arg;
	while (hr_invoke(HR_CAP_PARENT, PI_TELL, PROBE_SET, 0, 0) == HR_ENOSYS)
		nap();
	/* back from our parent, which now has events for our scheduler: it has not run */
	r = hr_thd_switch(hr_region()->evt_thd, 0, 0);
	hr_report("pevt_switch_refused_while_the_parent_has_events", r == HR_EPEVT, "got %s",
		  hr_strerror(r));
	hr_invoke(HR_CAP_PARENT, PI_TELL, PROBE_DONE, 0, 0);
	for (;;)
		nap();
}
HR_TASK(pevt_probe);

/* kid-b's and kid-b1's task: sleep forever, a tick at a time. */
static void
idle_task(void *arg)
{
	(void) arg;
	for (;;)
		nap();
}
HR_TASK(idle_task);

/* pikid's task: hold our parent's lock through its service. */
static void
pi_hold(void *arg)
{
	(void) arg;
	for (int i = 0; i < 5; i++)
		nap();
	while (hr_invoke(HR_CAP_PARENT, PI_HOLD, 0, 0, 0) == HR_ENOSYS)
		nap();
}
HR_TASK(pi_hold);

static volatile uint32_t sleeper_tid;
static volatile int long_sleep, sleeps_done;
static volatile uint64_t work_count;
static volatile long lift_wakeup = 1, lift_switch = 1; /* what our attempts returned */

/* evkid's high-priority thread: sleeps in our parent, short and long. */
static void
ev_sleeper(void *arg)
{
	int early = 0, late = 0;
	uint64_t worked;
	char why[120];

	(void) arg;
	sleeper_tid = tls_tid();
	for (int i = 0; i < SLEEPS; i++) {
		uint64_t until = hr_tsc() + (uint64_t) (i % 4) * hr_tick_tsc() / 2;
		if (pi_sleep(until))
			break;
		early += hr_tsc() < until;
		late += hr_tsc() > until + 2 * hr_tick_tsc();
		sleeps_done++;
	}
	snprintf(why, sizeof(why), "%d of %d returned, %d early, %d late", sleeps_done, SLEEPS,
		 early, late);
	check("events_every_sleep_in_the_parent_returns", sleeps_done == SLEEPS, why);
	check("events_sleep_in_the_parent_wakes_on_time", !early && !late, why);

	worked = work_count;
	long_sleep = 1;
	pi_sleep(hr_tsc() + 5 * hr_tick_tsc());
	long_sleep = 0;
	snprintf(why, sizeof(why), "the other thread worked %lu times",
		 (unsigned long) (work_count - worked));
	check("events_child_runs_others_while_a_thread_sleeps_in_the_parent",
	      work_count - worked > 100, why);
	snprintf(why, sizeof(why), "wakeup %s, switch %s", hr_strerror(lift_wakeup),
		 hr_strerror(lift_switch));
	check("events_child_cannot_lift_its_parents_block",
	      lift_wakeup == HR_EPERM && lift_switch != 0, why);
	sleeps_done = -1;
}
HR_TASK(ev_sleeper);

/* evkid's low-priority thread: works; tries to lift the parent's block once. */
static void
ev_worker(void *arg)
{
	(void) arg;
	while (sleeps_done >= 0) {
		work_count++;
		if (long_sleep && lift_wakeup == 1) {
			lift_wakeup = hr_thd_wakeup(sleeper_tid);
			lift_switch = hr_thd_switch(sleeper_tid, 0, 0);
		}
	}
}
HR_TASK(ev_worker);

/* ---- a wake-up at depth 2 after a root sibling preempted it ---------------------- */

#define DEEP_NAP   5  /* ticks deep_spin sleeps: every scheduler above it idles */
#define DEEP_SPIN  60 /* ticks it then spins, from its wake-up */
#define BURST_SPIN 5  /* ticks burst spins, preempting deep_spin */

/* inner's task (depth 2): sleep, spin, measure the longest time we did not run */
static void
deep_spin(void *arg)
{
	uint64_t tick = hr_tick_tsc(), gap = 0, last, end;
	char why[120];

	(void) arg;
	sched_sleep(hr_tsc() + DEEP_NAP * tick);
	last = hr_tsc();
	for (end = last + DEEP_SPIN * tick; last < end;) {
		uint64_t now = hr_tsc();
		gap = now - last > gap ? now - last : gap;
		last = now;
	}
	snprintf(why, sizeof(why), "longest time not running %lu ticks (want >= %d)",
		 (unsigned long) (gap / tick), BURST_SPIN - 1);
	check("deep_thread_preempted_by_a_root_sibling", gap >= (BURST_SPIN - 1) * tick, why);
	check("deep_thread_runs_again_after_the_sibling_ends", 1, "");
}
HR_TASK(deep_spin);

/* urgent's task: wake up while deep_spin spins, spin a little, and end (and so does our
 * subsystem: nothing else is left in it) */
static void
burst(void *arg)
{
	uint64_t tick = hr_tick_tsc(), end;

	sched_sleep(hr_tsc() + (uint64_t) (uintptr_t) arg * tick);
	for (end = hr_tsc() + BURST_SPIN * tick; hr_tsc() < end;)
		;
}
HR_TASK(burst);

/* ---- a wake-up parked below a busy sibling ----------------------------------------- */

#define PARK_WAKES  12 /* park_wake's sleeps */
#define PARK_CYCLES 24 /* park_duty's sleep-and-spin cycles */
#define PARK_SPIN   70 /* ticks park_spin spins before it ends */
#define PARK_LATE   3  /* ticks a wake-up may wait: park_duty's spin, and turns */

/* duty's task (a root child more urgent than mid): sleep two ticks and spin two, again and
 * again, so that park_wake's wake-ups often come while it runs */
static void
park_duty(void *arg)
{
	uint64_t tick = hr_tick_tsc(), end;

	(void) arg;
	for (int i = 0; i < PARK_CYCLES; i++) {
		sched_sleep(hr_tsc() + 2 * tick);
		for (end = hr_tsc() + 2 * tick; hr_tsc() < end;)
			;
	}
}
HR_TASK(park_duty);

/* mid's less urgent task: spin, so that mid always has something of its own to resume */
static void
park_spin(void *arg)
{
	uint64_t end = hr_tsc() + PARK_SPIN * hr_tick_tsc();

	(void) arg;
	while (hr_tsc() < end)
		;
}
HR_TASK(park_spin);

/* leaf's task (depth 2, leaf more urgent in mid than park_spin): each wake-up must run
 * within PARK_LATE ticks, even when it comes while duty runs and so is told to mid only
 * (HR_KEV_WAKE, quietly): whoever resumes park_spin past mid afterwards must not leave
 * that news unread while park_spin spins */
static void
park_wake(void *arg)
{
	uint64_t tick = hr_tick_tsc(), late = 0;
	int worst = -1;
	char why[120];

	(void) arg;
	for (int i = 0; i < PARK_WAKES; i++) {
		uint64_t until = hr_tsc() + tick + (uint64_t) (i % 5) * tick * 3 / 7;
		sched_sleep(until);
		if (hr_tsc() - until > late)
			late = hr_tsc() - until, worst = i;
	}
	snprintf(why, sizeof(why), "the latest wake-up (%d of %d) ran %lu ticks late (want < %d)",
		 worst + 1, PARK_WAKES, (unsigned long) (late / tick), PARK_LATE);
	check("parked_wake_runs_on_time", late < PARK_LATE * tick, why);
}
HR_TASK(park_wake);

int
hr_main(void)
{
	subsys_main();
}
