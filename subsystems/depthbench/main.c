/*
 * depthbench - benchmarks that must cost the same at any depth (the HiRES paper's Fig. 4),
 * run by the innermost subsystem of a depth-sweep image (MANIFEST: depth-d0 .. depth-d16).
 * Every level is this program; only the innermost has the tasks (bench_depth, event_a,
 * event_b, timer_thread) and the child component "sink" that pages are aliased into.  In
 * depth-busy-dD the root (at every depth, beside the tasks at depth 0) and the levels
 * between it and the innermost also run `busy`, a best-effort load.
 * In preempt-dD the root has the tasks and the innermost of the levels below has a
 * component of this program that runs `busy` (args "busy"): the root's wake-ups preempt it,
 * D levels down (eval/preempt.sh), and a task `tick` that has its scheduler take a turn at
 * every tick.  In walk-dD the root has only `probe`, and the innermost level only `tick`
 * (eval/walk.sh).
 * A level ends when its child level does (the innermost exits when it has reported).
 * Prints, for its depth D, in instructions under QEMU -icount shift=0:
 *   bench alias depth=D ...       alias one page of ours into the child (the aliaser's call)
 *   bench alias_zero depth=D ...  the same, zeroing the page first
 *   bench remove depth=D ...      remove that alias
 *   bench event depth=D ...       thread A wakes higher-priority thread B through their
 *                                 scheduler: from A's call to B running (Fig. 4a)
 *   bench timer depth=D ...       from the time a high-priority thread slept until (the
 *                                 kernel's deadline interrupt) to it running (Fig. 5)
 *   bench walk_timer depth=0 ...  (walk-dD, the root's) the same, due at every point of
 *                                 the work the innermost level does at each tick
 *   bench walk_wake depth=D ...   (walkside-dD, D >= 1, the innermost level's `tick`) how
 *                                 late it runs after the tick it slept until
 */
#include "rm/benchline.h"
#include "rm/window.h"
#include "rm/pages.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/tls.h"
#include "rm/subsys.h"
#include "rm/desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N    2000
#define SPOT HR_VA_FREE

static uint64_t t_alias[N], t_zero[N], t_remove[N], t_event[N], t_timer[N];
static volatile int phase;	    /* 0 memory, 1 events, 2 timers, 3 done */
static volatile uint32_t b_tid;	    /* event_b, once it waits */
static volatile uint64_t t_trigger; /* when event_a woke it */

static void
print(const char *name, uint64_t *s)
{
	char depth[16];

	snprintf(depth, sizeof(depth), "depth=%u", hr_bootinfo()->depth);
	bench_line(name, depth, s, N);
}

/* One alias (zeroing first if zero) and its removal, timed separately; taken again when
 * the periodic tick came in between.  The tick's own work (about 110 instructions, the
 * same at every depth) is not the path measured, and which sample meets it depends only on
 * where the loop happens to stand against the tick: it set the maximum of one depth and
 * not another's.  (The event and timer samples are a thread waking, which the tick may
 * delay for real; they keep it.) */
static void
alias_remove(long sink, uint64_t page, int zero, uint64_t *alias, uint64_t *remove)
{
	const volatile struct hr_kinfo *k = (const volatile struct hr_kinfo *) HR_VA_KINFO;
	uint64_t t0, t1, t2, ticks;

	do {
		ticks = k->ticks;
		t0 = hr_tsc();
		window_alias(sink, page, SPOT, 1, HR_MEM_READ | HR_MEM_WRITE, zero);
		t1 = hr_tsc();
		hr_mem_remove(sink, SPOT);
		t2 = hr_tsc();
	} while (k->ticks != ticks);
	*alias = t1 - t0;
	*remove = t2 - t1;
}

static void
bench_memory(void)
{
	long sink = subsys_child_slot("sink");
	uint64_t page = pages_alloc(1), unused;

	if (sink < 0 || !page) {
		printf("bench alias error=no sink or no page\n");
		exit(1);
	}
	hr_mem_bound(sink, hr_mem_info(sink, HR_MI_BOUND, 0) + 1);
	/* once untimed: the first alias also builds the sink's page tables */
	alias_remove(sink, page, 0, &unused, &unused);
	for (int i = 0; i < N; i++)
		alias_remove(sink, page, 1, &t_zero[i], &unused);
	for (int i = 0; i < N; i++)
		alias_remove(sink, page, 0, &t_alias[i], &t_remove[i]);
}

/*
 * Wait until phase reaches p, asleep in waiter[it] until set_phase wakes us.  A wake-up a
 * tick to look at the phase instead lands in some sample of the phase before, and sets
 * that depth's maximum: at depth 16, one that let the innermost idle set a timer sample
 * behind the sixteen turns of its ancestors hearing of it.  Should set_phase's wake-up
 * come between our look and our sleep (it is lost on a thread that is not asleep), the
 * sleep's deadline, a second away, ends the wait.
 */
enum { W_A, W_B, W_TIMER, W_REPORT, W_N };
static volatile uint32_t waiter[W_N];

static void
gate(int p, int it)
{
	while (phase < p) {
		waiter[it] = tls_tid();
		sched_sleep(hr_tsc() + 1000 * hr_tick_tsc());
	}
}

static void
set_phase(int p)
{
	phase = p;
	for (int i = 0; i < W_N; i++) {
		uint32_t tid = waiter[i];
		if (tid) {
			waiter[i] = 0;
			sched_wake_thread(tid);
		}
	}
}

/* Lowest priority: runs the memory benchmarks, then lets the others go and reports.  arg:
 * ticks to sleep first (preempt-dD: the levels below are built meanwhile, which is not
 * the dispatch measured; without it the first tenth of the timer samples met their
 * construction, and set the p99 and the maximum). */
static void
bench_depth(void *arg)
{
	if (arg)
		sched_sleep(hr_tsc() + (uint64_t) (uintptr_t) arg * hr_tick_tsc());
	bench_memory();
	set_phase(1);
	gate(3, W_REPORT);
	print("alias", t_alias);
	print("alias_zero", t_zero);
	print("remove", t_remove);
	print("event", t_event);
	print("timer", t_timer);
	exit(0); /* the whole chain winds down from here */
}
HR_TASK(bench_depth);

/* Middle priority: the event's sender. */
static void
event_a(void *arg)
{
	(void) arg;
	gate(1, W_A);
	for (int i = 0; i < N; i++) {
		while (!b_tid)
			sched_sleep(hr_tsc() + hr_tick_tsc()); /* not waiting yet: let it */
		uint32_t b = b_tid;
		b_tid = 0;
		t_trigger = hr_tsc();
		sched_wake_thread(b);
	}
}
HR_TASK(event_a);

/* High priority: the event's receiver; then the timer phase. */
static void
event_b(void *arg)
{
	(void) arg;
	gate(1, W_B);
	for (int i = 0; i < N; i++) {
		b_tid = tls_tid();
		sched_block_self();
		t_event[i] = hr_tsc() - t_trigger;
	}
	set_phase(2);
}
HR_TASK(event_b);

/* Highest priority: sleeps until a deadline about a third of a tick away, halfway between
 * two marks a third of a tick apart (so that its sample is over before the next periodic
 * tick, bench_between_ticks), and measures how late it runs. */
static void
timer_thread(void *arg)
{
	(void) arg;
	gate(2, W_TIMER);
	for (int i = 0; i < N; i++) {
		uint64_t due = bench_between_ticks(3);
		sched_sleep(due);
		t_timer[i] = hr_tsc() - due;
	}
	set_phase(3);
}
HR_TASK(timer_thread);

/* Best effort at the lowest priority (depth-busy-dD, preempt-dD): never sleeps, so its level's
 * scheduler always has it to run when nothing more urgent is runnable. */
static void
busy(void *arg)
{
	(void) arg;
	for (volatile unsigned long n = 0;; n++)
		;
}
HR_TASK(busy);

/* Highest priority, in the innermost level of preempt-dD: wakes at every periodic tick and
 * sleeps again at once, so that its scheduler takes a turn between two of the root's timer
 * samples (which are over before the next tick, bench_between_ticks) and reads its region
 * there, where the levels of the busy thread the root preempts are behind (schedtree.c):
 * every sample then preempts a thread some of whose levels were caught up since.  In
 * walk-dD and walkside-dD the innermost level's only task.
 * arg, if not 0 (walkside-dD): after that many ticks, how late each of the next WAKE_N
 * wakes runs after its tick is measured: `bench walk_wake`.  There a subsystem beside the
 * levels wakes at every tick too, at their priority in the root, so on every other tick
 * this one's wake waits for it and then for each scheduler above to dispatch its child
 * (eval/walk-side.sh).  Not at depth 0, where it is the root's own task and outranks it.
 */
#define WAKE_N 800
static uint64_t t_wake[WAKE_N];

static void
tick(void *arg)
{
	const volatile struct hr_kinfo *k = (const volatile struct hr_kinfo *) HR_VA_KINFO;
	uint64_t next, skip = hr_bootinfo()->depth ? (uint64_t) (uintptr_t) arg : 0;
	char depth[16];
	int n = 0;

	for (;;) {
		next = k->tick_at + hr_tick_tsc();
		if (next <= hr_tsc()) /* woken before the tick was taken */
			next += hr_tick_tsc();
		sched_sleep(next);
		if (!skip || n == WAKE_N)
			continue;
		if (skip > 1) {
			skip--;
			continue;
		}
		t_wake[n++] = hr_tsc() - next;
		if (n == WAKE_N) {
			snprintf(depth, sizeof(depth), "depth=%u", hr_bootinfo()->depth);
			bench_line("walk_wake", depth, t_wake, WAKE_N);
		}
	}
}
HR_TASK(tick);

/*
 * Highest priority, in the root of walk-dD (eval/walk.sh): how late a timer runs when it
 * falls in the work the innermost level's `tick` brings at every tick (its turn, the task
 * sleeping again, its scheduler idling and its ancestors hearing of it), D levels down.
 * Sample i is due PROBE_STEP * i instructions after a tick (8,000 for the last), so the
 * samples sweep that work from its start to well past its end: one landing in a kernel
 * path that the interrupt waits for is late by what remains of it; user-level work is
 * preempted at once.  arg: ticks to sleep first, while the levels are built.
 */
#define PROBE_N	   1000
#define PROBE_STEP 8
static uint64_t t_probe[PROBE_N];

static void
probe(void *arg)
{
	const volatile struct hr_kinfo *k = (const volatile struct hr_kinfo *) HR_VA_KINFO;
	char depth[16];

	sched_sleep(hr_tsc() + (uint64_t) (uintptr_t) arg * hr_tick_tsc());
	for (int i = 0; i < PROBE_N; i++) {
		uint64_t due = k->tick_at + hr_tick_tsc() + PROBE_STEP * (uint64_t) i;
		sched_sleep(due);
		t_probe[i] = hr_tsc() - due;
	}
	snprintf(depth, sizeof(depth), "depth=%u", hr_bootinfo()->depth);
	bench_line("walk_timer", depth, t_probe, PROBE_N);
	exit(0);
}
HR_TASK(probe);

/* Our child level ended: so do we, even with a busy task still runnable. */
void
hr_child_ended(const char *name, int faulted, long status)
{
	(void) status; /* a non-zero one is already counted */
	if (strcmp(name, "sink"))
		subsys_exit(faulted);
}

/* A level of the sweep; or, with args "busy", a component that is only `busy`'s thread
 * (preempt-dD: the thread preempted is in a component of its own at every depth, the root's
 * too, so that depth 0 crosses into another component as the others do). */
int
hr_main(void)
{
	if (!strcmp(desc_args(), "busy")) /* "" without args */
		busy(0);
	subsys_main();
}
