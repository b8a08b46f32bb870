/*
 * fakecpu.h - a fake CPU and kernel around the scheduler's decisions (rm/schedcore.c), for
 * the host tests: it turns the loop as rm/sched.c does, runs whatever the core dispatched
 * until the time the core asked to be woken at (advancing its slot's `consumed` as the
 * kernel does) and plays each entity's thread from a script: run for some time, then sleep
 * until a time (REQ_SLEEP) or block until an outside event wakes it.  A child (ENT_CHILD)
 * goes idle instead (the kernel's HR_KEV_IDLE) and its own timer wakes it: the kernel then
 * runs it at once, without a turn of ours, if what we published for it is more urgent than
 * what runs (HR_KEV_WAKE waits for our next turn), else it wakes our event thread.  A
 * child that idles while it is all we have (schedcore_alone, as rm/sched.c tells it) and
 * nothing else is new idles us with it, as the kernel does (kernel/schedtree.c: idle_up):
 * no turn, its HR_KEV_IDLE read on our next.  It records, from its own point of view, when
 * each entity ran and when it did not want to.
 */
#ifndef RM_TEST_FAKECPU_H
#define RM_TEST_FAKECPU_H

#include "rm/schedcore.h"

#define FAKE_TICK    1000 /* TSC per timer tick (the core's min_gap: FAKE_TICK / 20) */
#define FAKE_EVT_TID 1	  /* the event thread, which publishes 0 for itself */
#define FAKE_SPIN    UINT64_MAX

struct span {
	uint64_t a, b; /* [a, b) */
};

struct trace {
	struct span *s;
	size_t n, cap;
};

/* One entity's thread, as the fake CPU plays it. */
struct fake_thd {
	uint32_t tid;
	uint8_t runnable;    /* by its own script: it has work to do */
	uint8_t outside;     /* blocked until an outside event (at wish), not a sleep */
	uint64_t work;	     /* CPU time before it next stops (FAKE_SPIN: never) */
	uint64_t wish;	     /* while not runnable: when it wants to run again */
	struct trace ran;    /* when it ran */
	struct trace off;    /* when it did not want to run */
	struct trace robbed; /* when a child's own timer took the CPU from it (quietly) */
	/* what it does when its work is done: stop for `pause` (sleep, or outside if block),
	 * then work `next_work` (the random test sets these before every stop) */
	uint64_t pause, next_work;
	uint8_t block;
};

struct fake {
	struct schedcore c;
	struct hr_sched_region r;
	uint64_t now, idle;
	int32_t cur;		    /* entity on the CPU, or POL_IDLE */
	uint64_t at;		    /* the time the core asked to be woken at */
	uint8_t kev[POL_MAX];	    /* a child's news for our next turn: HR_KEV_IDLE, _WAKE */
	uint8_t held[POL_MAX];	    /* the kernel's holds, as schedcore_holds told them */
	uint64_t quiet;		    /* child wake-ups that ran the child without a turn */
	int32_t alone;		    /* the child the last dispatching turn said is all we have */
	uint64_t alone_until;	    /* ... until then (0: none) */
	uint64_t idled_with;	    /* child idles that idled us with it, without a turn */
	struct fake_thd t[POL_MAX]; /* by entity id */
	/* called when entity id's work is done, before it stops (may set pause, block,
	 * next_work); NULL: it stops as its fields say */
	void (*on_stop)(struct fake *f, long id);
	/* called after every turn with the entity dispatched (or POL_IDLE); may be NULL */
	void (*on_turn)(struct fake *f, int32_t id);
	uint64_t turns;
};

/* A fresh fake CPU running policy (slice in ticks) at time 0. */
void fake_init(struct fake *f, const char *policy, uint64_t slice_ticks);
/* Add an entity (budget and period in ticks) whose thread works `work` TSC (FAKE_SPIN:
 * forever); its id (CHECKed to be one). */
long fake_add(struct fake *f, enum ent_kind kind, uint32_t prio, uint32_t kind_res, uint32_t server,
	      uint64_t budget, uint64_t period, uint64_t work);
/* Start every entity's first period now (as sched_run does). */
void fake_start(struct fake *f);
/* Turn the loop and run the CPU until `until`. */
void fake_run(struct fake *f, uint64_t until);
/* What entity id ran in [a, b). */
uint64_t fake_ran(const struct fake *f, long id, uint64_t a, uint64_t b);
/* 1 if entity id did not want to run at some time in [a, b). */
int fake_off(const struct fake *f, long id, uint64_t a, uint64_t b);
/* 1 if a child's own timer took the CPU from entity id at some time in [a, b). */
int fake_robbed(const struct fake *f, long id, uint64_t a, uint64_t b);
/* Forget the traces (free their memory). */
void fake_free(struct fake *f);

#endif
