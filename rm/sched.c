/*
 * sched.c - the scheduler framework (sched.h): the loop of the event thread.
 *
 * One loop: charge what ran, hear kernel events, wake what is due, ask the policy,
 * dispatch.  Every decision is schedcore.c's, which is pure (time and our region passed
 * in, host-tested); this file gathers its inputs (the clock, the kernel's ring, our
 * parent's events, our layer's hooks) and performs what it decides with system calls
 * (timer_next, switch_thread, event_wait).  The kernel wakes the event thread when the
 * timer it armed is due, when a parent dispatches our c^s (children), and on kernel events
 * for us; never on every tick.
 *
 * A child's time is charged to its c^s slot, as the kernel accounts a whole child there,
 * whichever of its threads we switch to (schedcore_dispatch).
 */
#include "sched.h"
#include "schedcore.h"
#include "events.h"
#include "parent.h"
#include "tls.h"
#include "runtime.h"

static struct schedcore core;
static const struct sched_hooks *hooks;
static uint64_t woke_at;    /* when our event thread's latest turn began */
static uint64_t layer_next; /* when our layer wants a turn of its own, as this turn's hook said */
static uint64_t tick_tsc;
static uint32_t evt_tid;

uint64_t
sched_ticks(uint64_t ticks)
{
	return ticks * tick_tsc;
}

long
sched_init(const char *policy, uint32_t slice_ticks, const struct sched_hooks *h)
{
	tick_tsc = hr_region()->tick_tsc ? hr_region()->tick_tsc : 1000000;
	hooks = h;
	return schedcore_init(&core, policy_find(policy), tick_tsc, sched_ticks(slice_ticks),
			      hr_tsc());
}

long
sched_add(enum ent_kind kind, uint32_t tid, const struct pol_param *p, void *owner)
{
	struct pol_param q = *p;

	q.budget = sched_ticks(p->budget);
	q.period = sched_ticks(p->period);
	return schedcore_add(&core, hr_region(), kind, tid, &q, owner, hr_tsc());
}

void
sched_remove(long id)
{
	schedcore_remove(&core, id);
}

struct sched_ent *
sched_ent(long id)
{
	return schedcore_ent(&core, id);
}

long
sched_find(uint32_t tid)
{
	return schedcore_find(&core, tid);
}

void
sched_block(long id, uint64_t wake_at)
{
	schedcore_block(&core, id, wake_at, hr_tsc());
}

void
sched_wake(long id)
{
	schedcore_wake(&core, id, hr_tsc());
}

uint32_t
sched_misses(long id)
{
	return schedcore_misses(&core, id);
}

uint64_t
sched_consumed(long id)
{
	struct sched_ent *e = sched_ent(id);

	return e ? hr_region()->slot[e->tid].consumed : 0;
}

uint32_t
sched_born(long id)
{
	return schedcore_born(&core, id);
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
		schedcore_apply_param(&core, id, hr_tsc());
		return 0;
	}
	if ((self = sched_find(tls_tid())) >= 0) {
		sched_request(self, REQ_PARAM, (uint64_t) id);
		return 0;
	}
	/* a child's thread in our services: it is no entity of ours to carry the request, so
	 * the entity changed carries it, and the event thread takes it at once (or, should
	 * the switch fail, on its next turn) */
	schedcore_ask_param(&core, id);
	hr_thd_switch(evt_tid, 0, 0);
	return 0;
}

/* The event thread takes the request at once.  One that parks its thread (sleep, block)
 * blocks it in the kernel too, so that nothing resumes it (a preempted thread, say) before
 * we wake it; the others leave it ready, and running it again publishes nothing. */
void
sched_request(long id, enum ent_req req, uint64_t arg)
{
	if (schedcore_ask(&core, id, req, arg))
		return;
	hr_thd_switch(evt_tid, req == REQ_SLEEP || req == REQ_BLOCK ? HR_SW_BLOCK : 0, 0);
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
	hr_thd_switch(evt_tid, HR_SW_BLOCK, 0);
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
	SCHEDCORE_FOR_EACH(id, &core)
	{
		struct sched_ent *e = sched_ent((long) id); /* the hook may have removed it */
		if (e && e->kind == ENT_THREAD &&
		    (r->slot[e->tid].state == HR_TS_DEAD || r->slot[e->tid].state == HR_TS_FREE)) {
			struct hr_kevent ev = { .type = HR_KEV_EXIT, .thd = e->tid };
			hooks->kevent(&ev);
		}
	}
}

/* The children of word w of our region's woke that woke, as HR_KEV_WAKE notices. */
static void
woke_take(struct hr_sched_region *r, unsigned w)
{
	POL_FOR_EACH(i, __atomic_exchange_n(&r->woke[w], 0, __ATOMIC_SEQ_CST))
	{
		struct hr_kevent ev = { .type = HR_KEV_WAKE, .comp = (uint16_t) (w * 64 + i) };
		hooks->kevent(&ev);
	}
}

/* 1 if a bit of our region's woke is set. */
static int
woke_any(const struct hr_sched_region *r)
{
	uint64_t any = 0;

	for (unsigned w = 0; w < HR_COMP_MAX / 64; w++)
		any |= r->woke[w];
	return any != 0;
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
	/* after the ring: a wake-up still set is newer than any idle notice read above (one
	 * set after this look is seen on the next turn: the kernel wakes us for it); the
	 * words are looked at one by one only if one has a bit (most turns none has) */
	if (woke_any(r))
		for (unsigned w = 0; w < HR_COMP_MAX / 64; w++)
			if (r->woke[w])
				woke_take(r, w);
	if (r->ev_lost != lost_seen) {
		lost_seen = r->ev_lost;
		resync();
	}
}

/* What our parent has for us (events.h): its news about our threads blocked in it. */
static void
parent_event(uint32_t type, uint32_t tid)
{
	schedcore_parent_event(&core, type, tid, hr_tsc());
}

/* Our timer as the kernel last heard it: UINT64_MAX never, UINT64_MAX - 1 not told yet. */
static uint64_t armed = UINT64_MAX - 1;

/*
 * Our timer: the kernel wakes us then, whatever our depth (no ancestor involved), at the
 * time schedcore_timer says.  The policy's answer is taken before events_due, which wakes
 * the children of sleepers that are due: they run on a later turn, when we have published
 * their priorities.  Inlined into the loop: it comes on every turn.
 */
static inline __attribute__((always_inline)) uint64_t
timer_want(uint64_t now, int idle)
{
	uint64_t extra = layer_next, due = events_due(now);

	if (due)
		extra = pol_time_min(extra, due);
	return schedcore_timer(&core, now, extra, hr_tsc(), idle);
}

/* The kernel's value for timer t (timer_next, thd_switch's HR_SW_TIMER). */
static inline uint64_t
timer_value(uint64_t t)
{
	return t == UINT64_MAX ? 0 : t;
}

/* Nothing to run: wait for our timer or an event (a child's parent hears HR_KEV_IDLE). */
static void
idle(uint64_t now)
{
	uint64_t t;

	if ((t = timer_want(now, 1)) != armed)
		hr_timer_next((long) timer_value(t));
	armed = t;
	hr_event_wait();
}

/* Run tid until our next event, arming our timer on the way when it changed: one system
 * call for both, as a turn ends on every event. */
static long
run(uint32_t tid, uint64_t flags, uint64_t now)
{
	uint64_t t = timer_want(now, 0);
	long r;

	if (t == armed)
		return hr_thd_switch(tid, HR_SW_EVWAIT | flags, 0);
	r = hr_thd_switch(tid, HR_SW_EVWAIT | HR_SW_TIMER | flags, timer_value(t));
	if (r == 0) /* a switch that failed armed nothing */
		armed = t;
	return r;
}

uint64_t
sched_woke_at(void)
{
	return woke_at;
}

/* The kernel's preemption test reads the holds, not the priorities (kernel/schedtree.c,
 * may_run): tell it those that changed.  A child that just ended refuses it, and has
 * nothing left to hold. */
static void
tell_holds(void)
{
	POL_FOR_EACH(h, schedcore_holds(&core))
	hr_sched_hold(core.ent[h].tid, core.ent[h].held);
}

/* The c^s whose slot tells the kernel that its child is all we have (alone_until), or 0. */
static uint32_t alone_tid;

/* Take back what was said of alone_tid, if anything. */
static inline __attribute__((always_inline)) void
alone_clear(void)
{
	if (alone_tid) {
		hr_region()->slot[alone_tid].alone_until = 0;
		alone_tid = 0;
	}
}

/* Say that c^s tid's child is all we have until `until` (not 0), taking it back from the
 * c^s it was said of before.  A call: it is the turn that dispatches a child, not the one
 * that preempts it, and inline it made the turn longer. */
static __attribute__((noinline)) void
alone_set(uint32_t tid, uint64_t until)
{
	alone_clear();
	alone_tid = tid;
	hr_region()->slot[tid].alone_until = until;
}

/* Entity id runs next: tell the kernel whether it is a child that is all we have, and until
 * when (schedcore_alone).  What an idle turn leaves stands: nothing of ours is awake then,
 * so whenever the kernel may read it (our event thread waiting, nothing else new), a turn
 * would find the same. */
static inline __attribute__((always_inline)) void
alone_mark(int32_t id, uint64_t now)
{
	uint64_t until = schedcore_alone(&core, id, now);

	if (until)
		alone_set(core.ent[id].tid, until);
	else /* inline: the turn of an event thread that preempted the child (eval/preempt.sh) */
		alone_clear();
}

int sched_parent_news;
/* our parent's page (sched_run sets it); the root's is one nobody writes, so the turn's
 * look is the same test at every depth */
static volatile struct hr_pcb no_parent_pcb;
static volatile struct hr_pcb *parent_pcb = &no_parent_pcb;

/* Whether our parent bumped our pcb's events since the last turn; seen now (the parent's
 * writes before the bump are visible once the bump is: it writes them first) */
static void
parent_look(void)
{
	volatile struct hr_pcb *pcb = parent_pcb;
	uint64_t events;

	sched_parent_news = 0;
	if ((events = pcb->events) == pcb->events_seen)
		return;
	pcb->events_seen = events;
	sched_parent_news = 1;
}

/* One turn: learn what happened, then pick; returns the entity to run or POL_IDLE. */
static int32_t
decide(uint64_t now)
{
	int32_t id;

	schedcore_charge(&core, hr_region(), now);
	kernel_events();
	if (hr_region()->pevt)
		events_fetch(parent_event);
	schedcore_requests(&core, now);
	parent_look();
	layer_next = hooks->turn();
	schedcore_timers(&core, now);
	if (schedcore_idle_forever(&core))
		hooks->finished();
	id = schedcore_choose(&core, hr_region(), now);
	if (core.hold_due) /* seldom: a child's server ran out of budget or got it back */
		tell_holds();
	return id;
}

_Noreturn void
sched_run(void)
{
	long self = hr_thd_self(), r;
	struct hr_pcb *pp = parent_page();

	evt_tid = (uint32_t) self;
	if (pp)
		parent_pcb = pp;
	hr_region()->slot[self].prio = 0;
	if ((r = hr_sched_event(self)))
		hr_die("cannot become the event thread: %s", hr_strerror(r));
	schedcore_start_periods(&core, hr_tsc());
	for (;;) {
		uint64_t now = woke_at = hr_tsc();
		uint64_t flags;
		uint32_t tid;
		int32_t id;

		if ((id = decide(now)) == POL_IDLE) {
			idle(now);
			continue;
		}
		tid = schedcore_dispatch(&core, id, &flags);
		alone_mark(id, now);
		r = run(tid, flags, now);
		if (r == 0 || r == HR_EAGAIN || r == HR_EPEVT)
			continue; /* the next turn fetches whatever arrived */
		/* the thread is gone (its component died): the kernel event says why */
		if (sched_ent(id) && tid == sched_ent(id)->tid)
			sched_block(id, 0);
	}
}
