/*
 * sched.c - the scheduler framework (sched.h).
 *
 * One loop, on the event thread: charge what ran, hear kernel events, wake what is due,
 * ask the policy, dispatch.  The kernel wakes the event thread when the timer it armed
 * (timer_next) is due, when a parent dispatches our c^s (children), and on kernel events
 * for us; never on every tick.
 *
 * Resuming a child: if the child was running when our event thread preempted it and it
 * has nothing due, we switch straight back to the thread that was running in it (the
 * kernel tells us which); otherwise to its c^s, so that its own scheduler decides.  Either
 * way its time is charged to its c^s slot, as the kernel accounts a whole child there.
 */
#include "sched.h"
#include "events.h"
#include "parent.h"
#include "tls.h"
#include "runtime.h"

#include <string.h>

#define STATE_BYTES	 16384
#define MIN_GAP_PER_TICK 20 /* the closest timer we set: 1/20 of a tick from now */

static const struct policy *pol;
static uint64_t state[STATE_BYTES / 8];
static struct sched_ent ent[POL_MAX];
static const struct sched_hooks *hooks;
static uint64_t tick_tsc;
static uint64_t min_gap; /* tick_tsc / MIN_GAP_PER_TICK */
static long running = -1;
static uint64_t used;	    /* bit id: ent[id] is in use */
static uint64_t idle_watch; /* when an idle child could have spent its budget (publish) */

/* Each entity in use, lowest id first: only those cost anything.  The set is taken when the
 * loop starts; no loop body removes an entity. */
#define FOR_EACH_ENT(id) POL_FOR_EACH(id, used)
static uint32_t evt_tid;

uint64_t
sched_ticks(uint64_t ticks)
{
	return ticks * tick_tsc;
}

long
sched_init(const char *policy, uint32_t slice_ticks, const struct sched_hooks *h)
{
	if (!(pol = policy_find(policy)) || pol->size > STATE_BYTES)
		return HR_EINVAL;
	tick_tsc = hr_region()->tick_tsc ? hr_region()->tick_tsc : 1000000;
	min_gap = tick_tsc / MIN_GAP_PER_TICK;
	hooks = h;
	pol->init(state, hr_tsc(), sched_ticks(slice_ticks));
	return 0;
}

long
sched_add(enum ent_kind kind, uint32_t tid, const struct pol_param *p, void *owner)
{
	struct pol_param q = *p;
	long r;

	q.budget = sched_ticks(p->budget);
	q.period = sched_ticks(p->period);
	for (long id = 0; id < POL_MAX; id++) {
		if (ent[id].used)
			continue;
		if ((r = pol->add(state, (uint32_t) id, &q, hr_tsc())))
			return r;
		ent[id] = (struct sched_ent){
			.used = 1, .kind = (uint8_t) kind, .tid = tid, .owner = owner, .param = q
		};
		used |= 1ull << id;
		ent[id].seen = hr_region()->slot[tid].consumed;
		hr_region()->slot[tid].prio =
			pol_publish(pol->rank(state, (uint32_t) id, hr_tsc()));
		return id;
	}
	return HR_ENOMEM;
}

void
sched_remove(long id)
{
	if (id < 0 || id >= POL_MAX || !ent[id].used)
		return;
	pol->remove(state, (uint32_t) id);
	memset(&ent[id], 0, sizeof(ent[id]));
	used &= ~(1ull << id);
	if (running == id)
		running = -1;
}

struct sched_ent *
sched_ent(long id)
{
	return id >= 0 && id < POL_MAX && ent[id].used ? &ent[id] : 0;
}

long
sched_find(uint32_t tid)
{
	FOR_EACH_ENT(id)
	if (ent[id].tid == tid)
		return id;
	return -1;
}

void
sched_block(long id, uint64_t wake_at)
{
	if (!sched_ent(id) || ent[id].blocked)
		return;
	ent[id].blocked = 1;
	ent[id].wake_at = wake_at;
	pol->block(state, (uint32_t) id, hr_tsc());
}

void
sched_wake(long id)
{
	if (!sched_ent(id) || !ent[id].blocked)
		return;
	ent[id].blocked = 0;
	ent[id].wake_at = 0;
	pol->wake(state, (uint32_t) id, hr_tsc());
}

uint32_t
sched_misses(long id)
{
	return sched_ent(id) ? pol->misses(state, (uint32_t) id) : 0;
}

uint64_t
sched_consumed(long id)
{
	return sched_ent(id) ? hr_region()->slot[ent[id].tid].consumed : 0;
}

/* On the event thread: the policy takes the entity back with its new parameters. */
static void
apply_param(long id, uint64_t now)
{
	struct sched_ent *e = sched_ent(id);

	if (!e)
		return;
	pol->remove(state, (uint32_t) id);
	if (pol->add(state, (uint32_t) id, &e->param_new, now) == 0)
		e->param = e->param_new;
	else
		pol->add(state, (uint32_t) id, &e->param, now); /* it was there a moment ago */
	if (e->blocked)
		pol->block(state, (uint32_t) id, now);
}

long
sched_set_param(long id, const struct pol_param *p)
{
	struct sched_ent *e = sched_ent(id);
	long self;

	if (!e)
		return HR_ENOENT;
	if (p->kind != RES_NONE &&
	    (!p->period || p->budget > p->period || (!p->budget && p->kind != RES_SOFT)))
		return HR_EINVAL;
	/* one still due (its switch below failed) must not be taken half rewritten */
	__atomic_store_n(&e->param_due, 0, __ATOMIC_RELEASE);
	e->param_new = *p;
	e->param_new.budget = sched_ticks(p->budget);
	e->param_new.period = sched_ticks(p->period);
	if (tls_tid() == evt_tid) {
		apply_param(id, hr_tsc());
		return 0;
	}
	if ((self = sched_find(tls_tid())) >= 0) {
		sched_request(self, REQ_PARAM, (uint64_t) id);
		return 0;
	}
	/* a child's thread in our services: it is no entity of ours to carry the request, so
	 * the entity changed carries it, and the event thread takes it at once (or, should
	 * the switch fail, on its next turn) */
	__atomic_store_n(&e->param_due, 1, __ATOMIC_RELEASE);
	hr_thd_switch(evt_tid, 0);
	return 0;
}

void
sched_request(long id, enum ent_req req, uint64_t arg)
{
	struct sched_ent *e = sched_ent(id);

	if (!e)
		return;
	e->req_arg = arg;
	__atomic_store_n(&e->req, req, __ATOMIC_RELEASE);
	hr_thd_switch(evt_tid, req == REQ_YIELD ? 0 : HR_SW_BLOCK);
}

void
sched_sleep(uint64_t deadline)
{
	sched_request(sched_find(tls_tid()), REQ_SLEEP, deadline);
}

void
sched_block_self(void)
{
	sched_request(sched_find(tls_tid()), REQ_BLOCK, 0);
}

void
sched_wake_thread(uint32_t tid)
{
	sched_request(sched_find(tls_tid()), REQ_WAKE, (uint64_t) sched_find(tid));
}

void
sched_block_here(void)
{
	hr_thd_switch(evt_tid, HR_SW_BLOCK);
}

/* Apply what our threads asked for since the last turn of the loop. */
static void
requests(uint64_t now)
{
	FOR_EACH_ENT(id)
	{
		struct sched_ent *e = &ent[id];
		uint32_t req = __atomic_exchange_n(&e->req, REQ_NONE, __ATOMIC_ACQUIRE);
		if (req == REQ_SLEEP || req == REQ_BLOCK)
			sched_block(id, req == REQ_SLEEP ? e->req_arg : 0);
		else if (req == REQ_YIELD)
			pol->yield(state, (uint32_t) id, now);
		else if (req == REQ_WAKE)
			sched_wake((long) e->req_arg);
		else if (req == REQ_PARAM)
			apply_param((long) e->req_arg, now);
		if (__atomic_exchange_n(&e->param_due, 0, __ATOMIC_ACQUIRE))
			apply_param(id, now);
	}
}

/* Feed the policy the time the kernel charged to each entity since we last looked. */
static void
charge(uint64_t now)
{
	struct hr_sched_region *r = hr_region();

	FOR_EACH_ENT(id)
	{
		uint64_t c = r->slot[ent[id].tid].consumed;
		if (c != ent[id].seen) {
			pol->charge(state, (uint32_t) id, c - ent[id].seen, now);
			ent[id].seen = c;
		}
	}
}

/*
 * The kernel's ring was full and dropped events (abi/hr_sched.h): learn from the objects
 * what they would have said.  Our threads' slots show which have died; the hook checks our
 * children (their state, and a wake-up that may have been lost).
 */
static void
resync(void)
{
	struct hr_sched_region *r = hr_region();

	if (hooks->lost)
		hooks->lost();
	FOR_EACH_ENT(id)
	{
		uint32_t st = r->slot[ent[id].tid].state;
		if ((used & (1ull << id)) && ent[id].kind == ENT_THREAD &&
		    (st == HR_TS_DEAD || st == HR_TS_FREE)) {
			struct hr_kevent ev = { .type = HR_KEV_EXIT, .thd = ent[id].tid };
			hooks->kevent(&ev);
		}
	}
}

static void
kernel_events(void)
{
	static uint32_t lost_seen;
	struct hr_sched_region *r = hr_region();

	while (r->ev_tail != r->ev_head) {
		struct hr_kevent ev = r->ev[r->ev_tail % HR_KEV_RING];
		/* the kernel never rewrites the entry at the tail, so copy it before moving on */
		__asm__ volatile("" ::: "memory");
		r->ev_tail++;
		hooks->kevent(&ev);
	}
	if (r->ev_lost != lost_seen) {
		lost_seen = r->ev_lost;
		resync();
	}
}

/* What our parent has for us (events.h): its news about our threads blocked in it. */
static void
parent_event(uint32_t type, uint32_t tid)
{
	long id = sched_find(tid);

	if (!sched_ent(id))
		return;
	ent[id].parked = type == EV_BLOCK;
	if (type == EV_BLOCK)
		sched_block(id, 0);
	else if (type == EV_WAKE)
		sched_wake(id);
}

/* Wake sleepers that are due. */
static void
timers(uint64_t now)
{
	FOR_EACH_ENT(id)
	{
		struct sched_ent *e = &ent[id];
		if (e->blocked && e->wake_at && e->wake_at <= now)
			sched_wake(id);
	}
}

/* Nothing of ours will ever run again: every entity is blocked with no timer, no child to
 * wake it and no parent holding it (a thread asleep in our parent comes back). */
static int
idle_forever(void)
{
	FOR_EACH_ENT(id)
	if (!ent[id].blocked || ent[id].wake_at || ent[id].pcb || ent[id].parked)
		return 0;
	return 1;
}

/* Earliest time something of ours wants to run again: a sleeper, a sleeping child thread
 * in our services, the subsystem layer (a child to rebuild) or the policy's next decision
 * (UINT64_MAX: none). */
static uint64_t
next_wakeup(uint64_t now)
{
	uint64_t t = pol_time_min(pol->next_event(state, now), idle_watch);
	uint64_t due = events_due(now);

	t = pol_time_min(t, hooks->next());
	FOR_EACH_ENT(id)
	{
		struct sched_ent *e = &ent[id];
		if (e->blocked && e->wake_at)
			t = pol_time_min(t, e->wake_at);
	}
	return due ? pol_time_min(t, due) : t;
}

/*
 * Our timer: the kernel wakes us then, whatever our depth (no ancestor involved).  A time
 * closer than min_gap is put off to min_gap from now: by the time we switch it would have
 * passed, we would be woken at once, and what we dispatched would never run out the
 * little it had left (a slice, a budget), turn after turn.
 */
static void
arm(uint64_t now)
{
	static uint64_t armed = UINT64_MAX - 1;
	uint64_t t = next_wakeup(now), soonest = hr_tsc() + min_gap;

	if (t < soonest)
		t = soonest;

	if (t != armed)
		hr_timer_next(t == UINT64_MAX ? 0 : (long) t);
	armed = t;
}

/* The priority to publish for entity e: HR_PRIO_IDLE if it may not run now. */
static int32_t
publishable(long id, uint64_t now)
{
	struct sched_ent *e = &ent[id];
	uint64_t left;

	if (!e->blocked)
		return pol->eligible(state, (uint32_t) id, now)
			       ? pol_publish(pol->rank(state, (uint32_t) id, now))
			       : HR_PRIO_IDLE;
	if (e->kind != ENT_CHILD || !(left = pol->budget_left(state, (uint32_t) id, now)))
		return HR_PRIO_IDLE;
	if (left != UINT64_MAX)
		idle_watch = pol_time_min(idle_watch, pol_time_add(now, left));
	return pol_publish(pol->rank(state, (uint32_t) id, now));
}

/*
 * Priorities for the kernel's preemption decisions: an entity that may not run now (a
 * blocked thread, a server out of budget) must not preempt anything.  An idle child with
 * budget left keeps its priority: when its own timer fires, the kernel runs it at once,
 * without us (that is what keeps timers at depth as cheap as at the root).  Its budget
 * is still ours to enforce, so we look again when it could have spent what it has left
 * (idle_watch): never later than its server would stop it.
 */
static void
publish(uint64_t now)
{
	struct hr_sched_region *r = hr_region();

	idle_watch = UINT64_MAX;
	FOR_EACH_ENT(id)
	{
		struct sched_ent *e = &ent[id];
		int32_t p = publishable((long) id, now);
		if (p != e->prio_pub)
			r->slot[e->tid].prio = e->prio_pub = p;
	}
}

/* Thread to switch to for entity id; p: the thread our activation preempted, if any. */
static uint32_t
target(long id, uint32_t p)
{
	struct sched_ent *e = &ent[id];

	if (e->kind != ENT_CHILD || id != running || !p || p == e->tid)
		return e->tid;
	if (e->pcb && e->pcb->events != e->pcb->events_seen)
		return e->tid; /* we have something for its scheduler */
	if (hr_region()->slot[e->tid].state != HR_TS_EVWAIT)
		return e->tid; /* its scheduler has something of its own (the kernel's news) */
	return p;
}

/* Nothing to run: wait for our timer or an event (a child's parent hears HR_KEV_IDLE). */
static void
idle(uint64_t now)
{
	running = -1;
	arm(now);
	hr_event_wait();
}

/*
 * The policy's choice at now.  A server left with less budget than our timer can resolve
 * (min_gap) forfeits the rest, charged as if used: what remains is about what the switch
 * to it costs, and running it out would take a timer and a turn of its own, or overrun
 * by up to min_gap.  The policy still sees its budget as received (no miss).
 */
static int32_t
pick(uint64_t now)
{
	for (;;) {
		int32_t id = pol->pick(state, now);
		uint64_t left;
		if (id == POL_IDLE ||
		    (left = pol->budget_left(state, (uint32_t) id, now)) >= min_gap)
			return id;
		pol->charge(state, (uint32_t) id, left, now);
	}
}

/* One turn: learn what happened, then pick; returns the entity to run or POL_IDLE. */
static int32_t
decide(uint64_t now)
{
	int32_t id;

	charge(now);
	kernel_events();
	if (hr_region()->pevt)
		events_fetch(parent_event);
	requests(now);
	if (hr_bootinfo()->depth)
		((struct hr_pcb *) HR_VA_PCB)->events_seen = ((struct hr_pcb *) HR_VA_PCB)->events;
	hooks->turn();
	timers(now);
	if (idle_forever())
		hooks->finished();
	id = pick(now);
	publish(now); /* after pick: what it forfeited must not run */
	return id;
}

/*
 * Entities added while the subsystem was still building the rest (sched_add before
 * sched_run) start their first period now: until now nothing was dispatched, and the time
 * spent building their siblings must not count as a period they were served nothing in.
 */
static void
start_periods(uint64_t now)
{
	FOR_EACH_ENT(id)
	{
		ent[id].param_new = ent[id].param;
		apply_param((long) id, now);
	}
}

_Noreturn void
sched_run(void)
{
	long self = hr_thd_self(), r;

	evt_tid = (uint32_t) self;
	hr_region()->slot[self].prio = 0;
	if ((r = hr_sched_event(self)))
		hr_die("cannot become the event thread: %s", hr_strerror(r));
	start_periods(hr_tsc());
	for (;;) {
		uint64_t now = hr_tsc();
		/* the kernel's hint is good for the decision right after an activation only */
		uint32_t preempted = hr_region()->preempted, tid;
		int32_t id;

		hr_region()->preempted = 0;
		if ((id = decide(now)) == POL_IDLE) {
			idle(now);
			continue;
		}
		tid = target(id, preempted);
		running = id;
		arm(now);
		r = hr_thd_switch(tid, HR_SW_EVWAIT);
		if (r == 0 || r == HR_EAGAIN || r == HR_EPEVT)
			continue; /* the next turn fetches whatever arrived */
		/* the thread is gone (its component died): the kernel event says why */
		if (tid == ent[id].tid)
			sched_block(id, 0);
	}
}
