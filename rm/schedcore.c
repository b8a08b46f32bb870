/*
 * schedcore.c - the scheduler's decisions, pure (schedcore.h).  rm/sched.c runs them in its
 * loop and makes the system calls; the host tests (rm/test/schedcore_test.c) play the
 * kernel around them.
 */
#include "schedcore.h"
#include "events.h"
#include "parent.h"
#include "kernel/abi/hr_errno.h"

#include <string.h>

long
schedcore_init(struct schedcore *c, const struct policy *pol, uint64_t tick_tsc, uint64_t slice,
	       uint64_t now)
{
	if (!pol || pol->size > sizeof(c->state))
		return HR_EINVAL;
	memset(c, 0, sizeof(*c));
	c->pol = pol;
	c->min_gap = tick_tsc / SCHEDCORE_MIN_GAP_PER_TICK;
	c->sleep_next = UINT64_MAX;
	pol->init(c->state, now, slice);
	pol->set_grain(c->state, c->min_gap);
	c->steady = pol->steady(c->state);
	return 0;
}

long
schedcore_add(struct schedcore *c, struct hr_sched_region *r, enum ent_kind kind, uint32_t tid,
	      const struct pol_param *p, void *owner, uint64_t now)
{
	long e;

	if (tid >= HR_THD_MAX)
		return HR_EINVAL;
	for (long id = 0; id < POL_MAX; id++) {
		if (c->ent[id].used)
			continue;
		if ((e = c->pol->add(c->state, (uint32_t) id, p, now)))
			return e;
		c->ent[id] = (struct sched_ent){
			.used = 1, .kind = (uint8_t) kind, .tid = tid, .owner = owner, .param = *p
		};
		c->born[id] = ++c->adds;
		c->used |= 1ull << id;
		c->awake |= 1ull << id;
		c->fresh &= ~(1ull << id);
		c->ranked &= ~(1ull << id);
		c->steady = c->pol->steady(c->state);
		if (!c->by_tid[tid] || c->by_tid[tid] > id + 1)
			c->by_tid[tid] = (uint8_t) (id + 1);
		c->ent[id].seen = r->slot[tid].consumed;
		r->slot[tid].prio = pol_publish(c->pol->rank(c->state, (uint32_t) id, now));
		return id;
	}
	return HR_ENOMEM;
}

/* The earliest wake_at of the sleepers (UINT64_MAX: none). */
static uint64_t
sleepers_next(const struct schedcore *c)
{
	uint64_t t = UINT64_MAX;

	POL_FOR_EACH(j, c->sleeping)
	t = pol_time_min(t, c->ent[j].wake_at);
	return t;
}

/* Sleeping entity id sleeps no more (woken or removed): the earliest may be another. */
static void
unsleep(struct schedcore *c, long id)
{
	uint64_t was = c->ent[id].wake_at;

	c->sleeping &= ~(1ull << id);
	if (was == c->sleep_next)
		c->sleep_next = sleepers_next(c);
}

/* Entity id's thread now is tid no more: the next entity of tid, if any, is found. */
static void
unindex(struct schedcore *c, long id, uint32_t tid)
{
	if (c->by_tid[tid] != id + 1)
		return;
	c->by_tid[tid] = 0;
	SCHEDCORE_FOR_EACH(j, c)
	if (c->ent[j].tid == tid) {
		c->by_tid[tid] = (uint8_t) (j + 1);
		return;
	}
}

void
schedcore_remove(struct schedcore *c, long id)
{
	uint32_t tid;

	if (!schedcore_ent(c, id))
		return;
	c->pol->remove(c->state, (uint32_t) id);
	c->steady = c->pol->steady(c->state);
	if (c->sleeping & (1ull << id))
		unsleep(c, id);
	tid = c->ent[id].tid;
	memset(&c->ent[id], 0, sizeof(c->ent[id]));
	c->used &= ~(1ull << id);
	c->awake &= ~(1ull << id);
	c->fresh &= ~(1ull << id);
	c->ranked &= ~(1ull << id);
	c->hold_due &= ~(1ull << id);
	unindex(c, id, tid);
}

void
schedcore_ask_param(struct schedcore *c, long id)
{
	struct sched_ent *e = schedcore_ent(c, id);

	if (!e)
		return;
	__atomic_store_n(&e->param_due, 1, __ATOMIC_RELEASE);
	__atomic_fetch_or(&c->asked, 1ull << id, __ATOMIC_RELEASE);
}

void
schedcore_block(struct schedcore *c, long id, uint64_t wake_at, uint64_t now)
{
	struct sched_ent *e = schedcore_ent(c, id);

	if (!e || e->blocked)
		return;
	e->blocked = 1;
	e->wake_at = wake_at;
	c->awake &= ~(1ull << id);
	c->fresh &= ~(1ull << id);
	if (wake_at) {
		c->sleeping |= 1ull << id;
		c->sleep_next = pol_time_min(c->sleep_next, wake_at);
	}
	c->pol->block(c->state, (uint32_t) id, now);
}

/* Blocked entity id, no longer among the sleepers, wakes. */
static void
unblock(struct schedcore *c, long id, uint64_t now)
{
	struct sched_ent *e = &c->ent[id];

	e->blocked = 0;
	e->wake_at = 0;
	c->awake |= 1ull << id;
	c->fresh &= ~(1ull << id);
	c->pol->wake(c->state, (uint32_t) id, now);
}

/* schedcore_wake, inlined into the turn's requests too (REQ_WAKE: a thread wakes another). */
static inline __attribute__((always_inline)) void
wake(struct schedcore *c, long id, uint64_t now)
{
	struct sched_ent *e = schedcore_ent(c, id);

	if (!e || !e->blocked)
		return;
	if (c->sleeping & (1ull << id))
		unsleep(c, id);
	unblock(c, id, now);
}

void
schedcore_wake(struct schedcore *c, long id, uint64_t now)
{
	wake(c, id, now);
}

uint32_t
schedcore_misses(struct schedcore *c, long id)
{
	return schedcore_ent(c, id) ? c->pol->misses(c->state, (uint32_t) id) : 0;
}

void
schedcore_apply_param(struct schedcore *c, long id, uint64_t now)
{
	struct sched_ent *e = schedcore_ent(c, id);

	if (!e)
		return;
	c->fresh &= ~(1ull << id);
	c->ranked &= ~(1ull << id);
	c->pol->remove(c->state, (uint32_t) id);
	if (c->pol->add(c->state, (uint32_t) id, &e->param_new, now) == 0)
		e->param = e->param_new;
	else
		c->pol->add(c->state, (uint32_t) id, &e->param,
			    now); /* it was there a moment ago */
	if (e->blocked)
		c->pol->block(c->state, (uint32_t) id, now);
	c->steady = c->pol->steady(c->state);
}

/*
 * Entities added while the subsystem was still building the rest (sched_add before
 * sched_run) start their first period now: until now nothing was dispatched, and the time
 * spent building their siblings must not count as a period they were served nothing in.
 */
void
schedcore_start_periods(struct schedcore *c, uint64_t now)
{
	SCHEDCORE_FOR_EACH(id, c)
	{
		c->ent[id].param_new = c->ent[id].param;
		schedcore_apply_param(c, (long) id, now);
	}
}

/* Charge entity id what its thread's account moved by (seen first: the policy's charge
 * does not look at our entities, so the call can be the last thing done). */
static inline __attribute__((always_inline)) void
charge_one(struct schedcore *c, const struct hr_sched_region *r, uint64_t id, uint64_t now)
{
	uint64_t k = r->slot[c->ent[id].tid].consumed, was = c->ent[id].seen;

	c->ent[id].seen = k;
	c->pol->charge(c->state, (uint32_t) id, k - was, now);
}

/* Charge the entities in `ran` (their threads' accounts moved) what they used. */
static __attribute__((noinline)) void
charge_ran(struct schedcore *c, const struct hr_sched_region *r, uint64_t ran, uint64_t now)
{
	POL_FOR_EACH(id, ran)
	charge_one(c, r, id, now);
}

/* Every entity's account is looked at (anything of ours may have run: a child on its own
 * timer, a thread another switched to), by a loop that calls nothing; usually one moved,
 * which is charged by a tail call, without charge_ran's frame. */
void
schedcore_charge(struct schedcore *c, const struct hr_sched_region *r, uint64_t now)
{
	uint64_t ran = 0;

	SCHEDCORE_FOR_EACH(j, c)
	if (r->slot[c->ent[j].tid].consumed != c->ent[j].seen)
		ran |= 1ull << j;
	if (ran & (ran - 1))
		charge_ran(c, r, ran, now);
	else if (ran)
		charge_one(c, r, (uint64_t) __builtin_ctzll(ran), now);
}

void
schedcore_parent_event(struct schedcore *c, uint32_t type, uint32_t tid, uint64_t now)
{
	long id = schedcore_find(c, tid);

	if (!schedcore_ent(c, id))
		return;
	c->ent[id].parked = type == EV_BLOCK;
	if (type == EV_BLOCK)
		schedcore_block(c, id, 0, now);
	else if (type == EV_WAKE)
		schedcore_wake(c, id, now);
}

/* Entity id's request, then its param_due, taken at now. */
static inline __attribute__((always_inline)) void
take(struct schedcore *c, uint64_t id, uint64_t now)
{
	struct sched_ent *e = &c->ent[id];
	uint32_t req = __atomic_exchange_n(&e->req, REQ_NONE, __ATOMIC_ACQUIRE);

	if (req == REQ_SLEEP || req == REQ_BLOCK)
		schedcore_block(c, (long) id, req == REQ_SLEEP ? e->req_arg : 0, now);
	else if (req == REQ_YIELD)
		c->pol->yield(c->state, (uint32_t) id, now);
	else if (req == REQ_WAKE)
		wake(c, (long) e->req_arg, now);
	else if (req == REQ_PARAM)
		schedcore_apply_param(c, (long) e->req_arg, now);
	if (__atomic_exchange_n(&e->param_due, 0, __ATOMIC_ACQUIRE))
		schedcore_apply_param(c, (long) id, now);
}

/* The requests of the entities in `asked`, lowest id first. */
static __attribute__((noinline)) void
take_all(struct schedcore *c, uint64_t asked, uint64_t now)
{
	POL_FOR_EACH(id, asked)
	take(c, id, now);
}

void
schedcore_requests_take(struct schedcore *c, uint64_t now)
{
	/* a bit of an entity removed since it asked: its request went with it */
	uint64_t asked = __atomic_exchange_n(&c->asked, 0, __ATOMIC_ACQUIRE) & c->used;

	/* the usual turn has one (the thread that switched to us): no loop to keep */
	if (asked & (asked - 1))
		take_all(c, asked, now);
	else if (asked)
		take(c, (uint64_t) __builtin_ctzll(asked), now);
}

/* The sleepers in `due`, lowest id first (seldom more than one at a time). */
static __attribute__((noinline)) void
wake_due(struct schedcore *c, uint64_t due, uint64_t now)
{
	POL_FOR_EACH(id, due)
	unblock(c, (long) id, now);
}

/* The sleepers due leave `sleeping` together, and the earliest of the others is found in
 * the same pass, not once for each that leaves; then they wake, lowest id first. */
void
schedcore_timers_due(struct schedcore *c, uint64_t now)
{
	uint64_t due = 0, next = UINT64_MAX;

	POL_FOR_EACH(id, c->sleeping)
	{
		uint64_t at = c->ent[id].wake_at;
		if (at <= now)
			due |= 1ull << id;
		else
			next = pol_time_min(next, at);
	}
	c->sleeping &= ~due;
	c->sleep_next = next;
	/* tail calls, so that the usual case (one due) takes no frame */
	if (due & (due - 1))
		wake_due(c, due, now);
	else if (due)
		unblock(c, (long) __builtin_ctzll(due), now);
}

/* A thread asleep in our parent comes back, and so may a child (its own timer). */
int
schedcore_idle_forever_scan(const struct schedcore *c)
{
	SCHEDCORE_FOR_EACH(id, c)
	{
		const struct sched_ent *e = &c->ent[id];
		if (!e->blocked || e->wake_at || e->pcb || e->parked)
			return 0;
	}
	return 1;
}

/*
 * The policy's choice at now.  A server left with less budget than our timer can resolve
 * (min_gap) forfeits the rest, charged as if used: what remains is about what the switch
 * to it costs, and running it out would take a timer and a turn of its own, or overrun
 * by up to min_gap.  The policy still sees its budget as received (no miss).
 */
static int32_t
pick(struct schedcore *c, uint64_t now)
{
	for (;;) {
		int32_t id = c->pol->pick(c->state, now);
		uint64_t left;
		/* a steady one has no server (policy.h): its budget is unlimited */
		if (id == POL_IDLE || (c->steady & (1ull << id)) ||
		    (left = c->pol->budget_left(c->state, (uint32_t) id, now)) >= c->min_gap)
			return id;
		c->pol->charge(c->state, (uint32_t) id, left, now);
	}
}

/* The priority to publish for entity id: HR_PRIO_IDLE if it may not run now. */
static int32_t
publishable(struct schedcore *c, long id, uint64_t now)
{
	struct sched_ent *e = &c->ent[id];
	uint64_t left;

	if (!e->blocked)
		return c->pol->eligible(c->state, (uint32_t) id, now)
			       ? pol_publish(c->pol->rank(c->state, (uint32_t) id, now))
			       : HR_PRIO_IDLE;
	/* a remainder below min_gap our timer cannot stop in time: the child must come
	 * through our turn (HR_KEV_WAKE), where pick forfeits it */
	if (e->kind != ENT_CHILD ||
	    (left = c->pol->budget_left(c->state, (uint32_t) id, now)) < c->min_gap)
		return HR_PRIO_IDLE;
	if (left != UINT64_MAX)
		c->idle_watch = pol_time_min(c->idle_watch, pol_time_add(now, left));
	return pol_publish(c->pol->rank(c->state, (uint32_t) id, now));
}

/*
 * publishable, for a steady entity from what the policy said last time: it may run exactly
 * while it is not blocked, and its rank stays what it was (policy.h, steady), so a blocked
 * thread is idle and anything else has its prio_steady (a blocked child keeps its priority,
 * its budget being unlimited).
 */
static int32_t
publishable_steady(struct schedcore *c, uint64_t steady, long id, uint64_t now)
{
	struct sched_ent *e = &c->ent[id];
	int32_t p;

	if (!(steady & (1ull << id)))
		return publishable(c, id, now);
	if (e->blocked && e->kind == ENT_THREAD)
		return HR_PRIO_IDLE;
	if (c->ranked & (1ull << id))
		return e->prio_steady;
	p = publishable(c, id, now);
	e->prio_steady = p;
	c->ranked |= 1ull << id;
	return p;
}

/*
 * Priorities for the kernel's preemption decisions: an entity that may not run now (a
 * blocked thread, a server out of budget) must not preempt anything.  An idle child with
 * budget left keeps its priority: when its own timer fires, the kernel runs it at once,
 * without us (that is what keeps timers at depth as cheap as at the root).  Its budget
 * is still ours to enforce, so we look again when it could have spent what it has left
 * (idle_watch): never later than its server would stop it.  Only if that is at least
 * min_gap away: a closer timer is put off to min_gap (schedcore_arm_time), so the child
 * would overrun, and we would take a turn every min_gap while it idles.
 */
static void
publish(struct schedcore *c, struct hr_sched_region *r, uint64_t now)
{
	uint64_t steady = c->used & c->steady, holds = c->hold_due;

	c->idle_watch = UINT64_MAX;
	/* a fresh one's answer would be the same as last time, and it sets no idle_watch */
	POL_FOR_EACH(id, c->used & ~c->fresh)
	{
		struct sched_ent *e = &c->ent[id];
		int32_t p = publishable_steady(c, steady, (long) id, now);
		if (p == e->prio_pub)
			continue;
		r->slot[e->tid].prio = e->prio_pub = p;
		if (e->kind == ENT_CHILD && (p == HR_PRIO_IDLE) != e->held)
			holds |= 1ull << id;
		else
			holds &= ~(1ull << id); /* back as the kernel has it: nothing to tell */
	}
	c->hold_due = holds;
	c->fresh = steady;
}

/* schedcore_alone for a child alone: its budget's part. */
uint64_t
schedcore_alone_budget(struct schedcore *c, long id, uint64_t now)
{
	uint64_t left = c->steady & (1ull << id)
				? UINT64_MAX
				: c->pol->budget_left(c->state, (uint32_t) id, now);

	if (left == UINT64_MAX)
		return UINT64_MAX;
	return left > c->min_gap ? pol_time_add(now, left - c->min_gap) : 0;
}

uint64_t
schedcore_holds(struct schedcore *c)
{
	uint64_t due = c->hold_due;

	POL_FOR_EACH(id, due)
	c->ent[id].held = !c->ent[id].held;
	c->hold_due = 0;
	return due;
}

int32_t
schedcore_choose(struct schedcore *c, struct hr_sched_region *r, uint64_t now)
{
	int32_t id = pick(c, now);

	publish(c, r, now); /* after pick: what it forfeited must not run */
	return id;
}

int
schedcore_pcb_news(const struct hr_pcb *pcb)
{
	return pcb->events != pcb->events_seen;
}
