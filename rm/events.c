/* events.c - the parent/child event protocol (events.h). */
#include "events.h"
#include "caps.h"
#include "child.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"

#include <stdlib.h>

struct sleeper {
	uint32_t tid, child; /* child: its id in our table */
	uint64_t until;
};

static struct sleeper *sleepers;    /* room for every child's SLEEPERS_PER_CHILD */
static uint64_t *busy;		    /* bit i: sleepers[i] is in use */
static int words;		    /* of busy */
static volatile unsigned nsleepers; /* slots in use: the scheduler's every turn skips an
				       empty table without the lock */
static struct hr_lock lock;

long
events_init(unsigned children)
{
	words = (int) ((children * SLEEPERS_PER_CHILD + 63) / 64);
	if (!words)
		return 0;
	sleepers = calloc((size_t) words * 64, sizeof(*sleepers));
	busy = calloc((size_t) words, sizeof(*busy));
	return sleepers && busy ? 0 : HR_ENOMEM;
}

/* Sleepers of children that are gone, still to be run once (events_forget). */
static uint32_t unwinding[CHILD_MAX * SLEEPERS_PER_CHILD];
static unsigned nunwinding;

/* On the event thread: run each such sleeper once, here, so that it returns into its
 * component, which is gone, and the kernel frees it with the invocation stack it holds in
 * us.  One we may not switch to now (our parent has events for us) waits for a later turn. */
static void
unwind(void)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < nunwinding; i++) {
		hr_thd_wakeup(unwinding[i]);
		if (hr_thd_switch(unwinding[i], 0) == HR_EPEVT)
			unwinding[kept++] = unwinding[i];
	}
	nunwinding = kept;
}

void
events_push(struct child *c, uint32_t type, uint32_t tid)
{
	hr_lock_take(&lock);
	if ((uint8_t) (c->evhead - c->evtail) < EVQ_LEN) /* else it stopped fetching */
		c->evq[c->evhead++ % EVQ_LEN] = (uint64_t) type << 32 | tid;
	hr_lock_give(&lock);
	hr_sched_pevt(c->ctor.slot, 1);
	if (c->ctor.pcb)
		c->ctor.pcb->events++;
}

long
events_pop(struct child *c)
{
	long e = 0;

	hr_lock_take(&lock);
	if (c->evtail != c->evhead)
		e = (long) c->evq[c->evtail++ % EVQ_LEN];
	if (c->evtail == c->evhead)
		hr_sched_pevt(c->ctor.slot, 0);
	hr_lock_give(&lock);
	return e;
}

/* With lock held: a free slot of the table, or -1. */
static int
free_slot(void)
{
	for (int w = 0; w < words; w++)
		if (~busy[w])
			return w * 64 + __builtin_ctzll(~busy[w]);
	return -1;
}

static void
vacate(int i)
{
	busy[i / 64] &= ~(1ull << (i % 64));
	nsleepers--;
}

long
events_sleep(struct child *c, uint64_t until)
{
	uint32_t self = (uint32_t) hr_thd_self();
	int slot = -1;

	if (self == (uint32_t) c->ctor.tid)
		return HR_EPERM; /* its scheduler thread may not leave it without a scheduler */
	hr_lock_take(&lock);
	/* the table has room for every child's share: only c's own sleepers can refuse c */
	if (c->nsleeping < SLEEPERS_PER_CHILD && (slot = free_slot()) >= 0) {
		sleepers[slot] = (struct sleeper){ self, c->id, until };
		busy[slot / 64] |= 1ull << (slot % 64);
		c->nsleeping++;
		nsleepers++;
	}
	hr_lock_give(&lock);
	if (slot < 0)
		return HR_ENOMEM;
	events_push(c, EV_BLOCK, self);
	sched_block_here(); /* back here once woken, and dispatched again by the child */
	return 0;
}

/* With lock held: wake sleeper i (due); the lock is let go while its child hears of it. */
static void
wake(int i)
{
	struct sleeper s = sleepers[i];
	struct child *c = child_by_id(s.child);

	hr_thd_wakeup(s.tid);
	vacate(i);
	if (!c)
		return;
	c->nsleeping--;
	hr_lock_give(&lock);
	events_push(c, EV_WAKE, s.tid);
	sched_wake(c->ent);
	hr_lock_take(&lock);
}

uint64_t
events_due(uint64_t now)
{
	uint64_t next = 0;

	if (nunwinding)
		unwind();
	if (!nsleepers)
		return 0; /* one being added now makes its thread switch to us: a new turn */
	hr_lock_take(&lock);
	for (int w = 0; w < words; w++) {
		for (uint64_t m = busy[w]; m; m &= m - 1) {
			int i = w * 64 + __builtin_ctzll(m);
			if (!(busy[w] & (1ull << (i % 64))))
				continue; /* forgotten while wake() let the lock go */
			if (sleepers[i].until > now)
				next = !next || sleepers[i].until < next ? sleepers[i].until : next;
			else
				wake(i);
		}
	}
	hr_lock_give(&lock);
	return next;
}

void
events_forget(struct child *c)
{
	hr_lock_take(&lock);
	for (int w = 0; w < words; w++)
		for (uint64_t m = busy[w]; m; m &= m - 1) {
			int i = w * 64 + __builtin_ctzll(m);
			if (sleepers[i].child != c->id)
				continue;
			if (nunwinding < sizeof(unwinding) / sizeof(unwinding[0]))
				unwinding[nunwinding++] = sleepers[i].tid;
			vacate(i);
		}
	c->nsleeping = 0;
	c->evhead = c->evtail = 0;
	hr_lock_give(&lock);
	unwind();
}

void
events_fetch(void (*apply)(uint32_t type, uint32_t tid))
{
	long e;

	while ((e = hr_invoke(HR_CAP_PARENT, PI_EVENTS, 0, 0, 0)) > 0)
		apply((uint32_t) (e >> 32), (uint32_t) e);
}
