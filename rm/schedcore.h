/*
 * schedcore.h - the decisions of a subsystem's scheduler, pure: the entity table, the
 * policy's state, charging, sleepers, requests, the forfeit rule, published priorities,
 * the next wake-up and the thread to switch to.  Time and the region shared with the kernel
 * are passed in; nothing here makes a system call.  rm/sched.c is the loop that gathers the
 * inputs, calls these and performs the system calls; rm/test/schedcore_test.c drives them
 * with a fake CPU.
 */
#ifndef RM_SCHEDCORE_H
#define RM_SCHEDCORE_H

#include <stdint.h>
#include "policies/policy.h"
#include "kernel/abi/hr_sched.h"
#include "kernel/abi/hr_syscall.h"
#include "kernel/abi/hr_errno.h"

struct hr_pcb;

#define SCHEDCORE_STATE_BYTES	   16384
#define SCHEDCORE_MIN_GAP_PER_TICK 20 /* the closest timer we set: 1/20 of a tick from now */

enum ent_kind { ENT_THREAD = 1, ENT_CHILD = 2 };

/* What a thread of ours asks the event thread to do with its entity (sched_request). */
enum ent_req { REQ_NONE = 0, REQ_SLEEP, REQ_YIELD, REQ_BLOCK, REQ_WAKE, REQ_PARAM };

struct sched_ent {
	uint8_t used;
	uint8_t kind;	       /* enum ent_kind */
	uint8_t blocked;       /* blocked in the policy (sleeping, idle child) */
	uint8_t parked;	       /* blocked in our parent, which will wake it (events.h) */
	uint32_t tid;	       /* thread to dispatch; a child's c^s */
	uint64_t seen;	       /* kernel-accounted time already charged to the policy */
	uint64_t wake_at;      /* TSC to wake at when blocked (0: only an event wakes it) */
	int32_t prio_pub;      /* priority last published in our region for tid */
	volatile uint32_t req; /* enum ent_req, set by the entity's thread, taken by the loop */
	volatile uint64_t req_arg;
	struct hr_pcb *pcb;	    /* children: the page we share with it */
	void *owner;		    /* the subsystem layer's record */
	struct pol_param param;	    /* as the policy has it (times in TSC ticks) */
	struct pol_param param_new; /* asked for by sched_set_param, for the event thread */
	volatile uint8_t param_due; /* param_new is for it, from a thread that is no entity */
	uint8_t held;		    /* a child: the kernel was told it is held (schedcore_holds) */
	int32_t prio_steady;	    /* a steady one's priority when it may run (`ranked`) */
};
_Static_assert(sizeof(struct sched_ent) == 128, "an entity is 128 bytes: ent[id] is a shift");

/*
 * One scheduler's decisions.  Only its event thread changes it (the entities' threads
 * write only their req, req_arg and param_due, and then their bit of `asked`:
 * schedcore_ask), so it needs no lock.  Times are TSC ticks.
 *
 * A turn costs what changed, not what exists: the requests come with a mask (asked), the
 * sleepers have theirs and their earliest time kept (sleeping, sleep_next), an entity is
 * found by its thread in one step (by_tid), and an entity whose published priority only
 * its blocking, waking or parameters can change (the policy's steady ones: best effort)
 * is published again only after one of those (fresh), from what the policy said of it
 * last time (ranked: until its parameters change).
 */
struct schedcore {
	const struct policy *pol;
	uint64_t min_gap;    /* the closest timer we set, and the smallest budget we run */
	uint64_t used;	     /* bit id: ent[id] is in use */
	uint64_t idle_watch; /* when an idle child could have spent its budget (publish) */
	uint64_t asked;	     /* bit id: ent[id] may have a request (set atomically by askers) */
	uint64_t awake;	     /* bit id: ent[id] is in use and not blocked */
	uint64_t sleeping;   /* bit id: ent[id] is blocked with a wake_at */
	uint64_t sleep_next; /* the earliest wake_at of `sleeping` (UINT64_MAX: none) */
	uint64_t fresh;	     /* bit id: ent[id]'s published priority holds until it changes */
	uint64_t ranked;     /* bit id: ent[id] is steady and its prio_steady is known */
	uint64_t steady;     /* the policy's steady ids (policy.h), as of the last add or remove */
	uint64_t hold_due;   /* bit id: a child published idle or not, other than its `held` */
	uint8_t by_tid[HR_THD_MAX]; /* 1 + the lowest id dispatching thread tid; 0: none */
	uint32_t adds;		    /* entities ever added */
	/* which add made ent[id] (1 for the first): an id, and a thread's number in the
	 * kernel, are taken again once freed, so only this tells a successor from the
	 * entity someone looked at before (rm/cpuwatch.c) */
	uint32_t born[POL_MAX];
	struct sched_ent ent[POL_MAX];
	uint64_t state[SCHEDCORE_STATE_BYTES / 8]; /* the policy's */
};

/* Each entity of c in use, lowest id first; the set is taken when the loop starts. */
#define SCHEDCORE_FOR_EACH(id, c) POL_FOR_EACH(id, (c)->used)

/* An empty core under policy pol (slice: round-robin quantum).  0, or HR_EINVAL (no pol,
 * or its state does not fit). */
long schedcore_init(struct schedcore *c, const struct policy *pol, uint64_t tick_tsc,
		    uint64_t slice, uint64_t now);
/* Add an entity dispatching tid (p in TSC ticks), publish its priority in r.  Its id, or
 * the policy's HR_E* code, HR_EINVAL (tid beyond HR_THD_MAX: it has no slot in r), or
 * HR_ENOMEM (POL_MAX entities already). */
long schedcore_add(struct schedcore *c, struct hr_sched_region *r, enum ent_kind kind, uint32_t tid,
		   const struct pol_param *p, void *owner, uint64_t now);
/* Which add made entity id (schedcore.born), or 0 if it is not in use. */
static inline uint32_t
schedcore_born(const struct schedcore *c, long id)
{
	return id >= 0 && id < POL_MAX && c->ent[id].used ? c->born[id] : 0;
}
/* Forget entity id (nothing if it is not in use). */
void schedcore_remove(struct schedcore *c, long id);
/* Entity id, or NULL if it is not in use (inline: every request and wake-up asks it). */
static inline struct sched_ent *
schedcore_ent(struct schedcore *c, long id)
{
	return id >= 0 && id < POL_MAX && c->ent[id].used ? &c->ent[id] : 0;
}
/* The entity dispatching tid (the lowest id if several do), or -1.  Inline: every request
 * a thread makes names itself by its thread (sched_find). */
static inline long
schedcore_find(const struct schedcore *c, uint32_t tid)
{
	return tid < HR_THD_MAX ? (long) c->by_tid[tid] - 1 : -1;
}
/*
 * From entity id's own thread (or any thread but the event thread): ask the event thread
 * for req with arg, taken on its next turn (schedcore_requests).  0, or HR_ENOENT (id is
 * not in use: nothing asked).  The request is written before the entity's bit of
 * `asked`, so a turn that sees the bit sees the request; one that does not sees it on the
 * turn the asker then switches to.
 * Inline: on the asker's way to the event thread.
 */
static inline long
schedcore_ask(struct schedcore *c, long id, enum ent_req req, uint64_t arg)
{
	struct sched_ent *e = schedcore_ent(c, id);

	if (!e)
		return HR_ENOENT;
	e->req_arg = arg;
	__atomic_store_n(&e->req, req, __ATOMIC_RELEASE);
	__atomic_fetch_or(&c->asked, 1ull << id, __ATOMIC_RELEASE);
	return 0;
}
/* The same for entity id's param_new (param_due), asked from a thread that is no entity:
 * the caller has written param_new. */
void schedcore_ask_param(struct schedcore *c, long id);
/* Block entity id until wake_at (0: until woken), or wake it; nothing if already so. */
void schedcore_block(struct schedcore *c, long id, uint64_t wake_at, uint64_t now);
void schedcore_wake(struct schedcore *c, long id, uint64_t now);
/* Deadline misses the policy counted for entity id (0 if not in use). */
uint32_t schedcore_misses(struct schedcore *c, long id);
/* The policy takes entity id back with its param_new (kept if the policy refuses it): a
 * server starts a fresh period with a full budget. */
void schedcore_apply_param(struct schedcore *c, long id, uint64_t now);
/* Every entity starts its first period now (the loop starts: nothing ran before). */
void schedcore_start_periods(struct schedcore *c, uint64_t now);

/* ---- one turn of the loop, in this order ---- */
/* Charge each entity what r says the kernel accounted to its thread since last time. */
void schedcore_charge(struct schedcore *c, const struct hr_sched_region *r, uint64_t now);
/* Our parent's news about our thread tid (enum ev_type: EV_BLOCK, EV_WAKE). */
void schedcore_parent_event(struct schedcore *c, uint32_t type, uint32_t tid, uint64_t now);
/* Apply the requests of the entities whose bits of `asked` are set (schedcore_requests). */
void schedcore_requests_take(struct schedcore *c, uint64_t now);
/* Apply what our threads asked for (sched_request) since the last turn.  Inline: a turn
 * the kernel's timer or a child brings has none. */
static inline void
schedcore_requests(struct schedcore *c, uint64_t now)
{
	if (__atomic_load_n(&c->asked, __ATOMIC_RELAXED))
		schedcore_requests_take(c, now);
}
/* Wake the sleepers due by now (sleep_next <= now: schedcore_timers). */
void schedcore_timers_due(struct schedcore *c, uint64_t now);
/* Wake the sleepers due by now.  Inline: on most turns nobody is due. */
static inline void
schedcore_timers(struct schedcore *c, uint64_t now)
{
	if (c->sleep_next <= now)
		schedcore_timers_due(c, now);
}
/* schedcore_idle_forever once nothing of ours is awake. */
int schedcore_idle_forever_scan(const struct schedcore *c);
/* 1 if nothing of ours will ever run again (the subsystem is finished), else 0.  Inline:
 * on most turns something of ours may run. */
static inline int
schedcore_idle_forever(const struct schedcore *c)
{
	return c->awake ? 0 : schedcore_idle_forever_scan(c);
}
/* The entity to run at now, or POL_IDLE, and every entity's priority published in r. */
int32_t schedcore_choose(struct schedcore *c, struct hr_sched_region *r, uint64_t now);
uint64_t schedcore_alone_budget(struct schedcore *c, long id, uint64_t now);
/*
 * Until when entity id, chosen to run at now, is all we have that could run: 0 if it is a
 * thread, or if anything else of ours is awake or has asked for something.  A turn of ours
 * on its HR_KEV_IDLE before then would only block it, publish its priority as it stands
 * and idle, so the kernel may idle us with it instead (abi/hr_sched.h: alone_until).  Its
 * budget must last more than min_gap past then: a child idle with less is held, which
 * takes that turn (publish).  Inline: every turn that runs something asks.
 */
static inline uint64_t
schedcore_alone(struct schedcore *c, long id, uint64_t now)
{
	if (c->ent[id].kind != ENT_CHILD || (c->awake & ~(1ull << id)) || c->asked)
		return 0;
	return schedcore_alone_budget(c, id, now);
}
/*
 * The children whose hold the kernel must now be told (sys_sched_hold: thread ent[id].tid,
 * value ent[id].held), as a mask of ids; each `held` already says the new value.  A child
 * published HR_PRIO_IDLE (a server out of budget) is held: the kernel then lets nothing
 * of its subtree preempt, at any depth, with one test (kernel/schedtree.c, may_run).
 */
uint64_t schedcore_holds(struct schedcore *c);
/*
 * The earliest time we must decide again: the policy's next decision, an idle child's
 * budget (schedcore_choose), or `extra` (the loop's own: its layer's next turn; UINT64_MAX
 * for none).  UINT64_MAX: never.  Inline: every turn arms our timer.
 */
static inline uint64_t
schedcore_next_decision(struct schedcore *c, uint64_t now, uint64_t extra)
{
	uint64_t t = pol_time_min(c->pol->next_event(c->state, now), c->idle_watch);

	return pol_time_min(t, extra);
}
/* The earliest time we must look again: the next decision or a sleeper. */
static inline uint64_t
schedcore_next_wakeup(struct schedcore *c, uint64_t now, uint64_t extra)
{
	return pol_time_min(schedcore_next_decision(c, now, extra), c->sleep_next);
}
/*
 * The time to arm our timer at, for wake-up t, the timer being set at clock.  A time closer
 * than min_gap is put off to min_gap from now: by the time we switch it would have passed,
 * we would be woken at once, and what we dispatched would never run out the little it had
 * left (a slice, a budget), turn after turn.
 */
static inline uint64_t
schedcore_arm_time(const struct schedcore *c, uint64_t t, uint64_t clock)
{
	uint64_t soonest = pol_time_add(clock, c->min_gap);

	return t < soonest ? soonest : t;
}
/*
 * The time to arm our timer at, set at clock after the turn at now (idle: it dispatched
 * nothing), extra being the caller's own next wake-up.  Only the decisions are put off to
 * min_gap (schedcore_arm_time's reason: what we dispatched must not be cut off turn after
 * turn), and not when idle and ahead, with nothing to cut off.  A sleeper's wake-up is
 * armed as it is: cutting what runs short to wake a thread that is due is the point, and
 * a sleeper wakes once.  Put off, a sleeper due just after a turn waited for min_gap, 1/20
 * of a tick (49508 instructions behind the slice end of a thread that had just slept).
 */
static inline uint64_t
schedcore_timer(struct schedcore *c, uint64_t now, uint64_t extra, uint64_t clock, int idle)
{
	uint64_t t = schedcore_next_decision(c, now, extra);

	if (!idle || t <= clock)
		t = schedcore_arm_time(c, t, clock);
	return pol_time_min(t, c->sleep_next);
}
/* Does pcb, a page we share with a child, hold news the child has not seen? */
int schedcore_pcb_news(const struct hr_pcb *pcb);
/*
 * The thread to switch to for entity id (POL_IDLE: none, 0): its thread, or a child's
 * c^s; *flags, what the switch needs besides.  A child's scheduler that waits with nothing
 * to decide is passed by the kernel, straight to the thread our activation preempted in it
 * (kernel/schedtree.c, schedtree_through), so a parent that comes back to a deep child
 * costs no turn a level.  But a child told something in the page we share (hr_pcb.events
 * beyond what it has seen: a memory target, hrtop's request), which the kernel cannot see,
 * must take its turn: HR_SW_TURN.  Inline: every turn that runs something dispatches it.
 */
static inline uint32_t
schedcore_dispatch(struct schedcore *c, int32_t id, uint64_t *flags)
{
	struct sched_ent *e = schedcore_ent(c, id);

	*flags = 0;
	if (!e)
		return 0;
	if (e->kind == ENT_CHILD && e->pcb && schedcore_pcb_news(e->pcb))
		*flags = HR_SW_TURN;
	return e->tid;
}

#endif
