/* events.c - the parent/child event protocol (events.h). */
#include "events.h"
#include "caps.h"
#include "child.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"
#include "sleepers.h"

static struct sleepers table;
static struct hr_lock lock;

long
events_init(unsigned children)
{
	return sleepers_init(&table, children);
}

/* Sleepers of children that are gone, still to be run once (events_forget). */
static uint32_t unwinding[CHILD_MAX * SLEEPERS_PER_CHILD];
static unsigned nunwinding;

/* On the event thread: run each such sleeper once, here, so that it returns into its
 * component, which is gone, and the kernel frees it with the invocation stack it holds in
 * us.  One we may not switch to now (our parent has events for us) waits for a later turn. */
static __attribute__((noinline)) void
unwind(void)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < nunwinding; i++) {
		hr_thd_wakeup(unwinding[i]);
		if (hr_thd_switch(unwinding[i], 0, 0) == HR_EPEVT)
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

long
events_sleep(struct child *c, uint64_t until)
{
	uint32_t self = (uint32_t) hr_thd_self();
	long slot;

	if (self == (uint32_t) c->ctor.tid)
		return HR_EPERM; /* its scheduler thread may not leave it without a scheduler */
	hr_lock_take(&lock);
	if ((slot = sleepers_add(&table, self, c->id, c->nsleeping, until)) >= 0)
		c->nsleeping++;
	hr_lock_give(&lock);
	if (slot < 0)
		return slot;
	events_push(c, EV_BLOCK, self);
	sched_block_here(); /* back here once woken, and dispatched again by the child */
	return 0;
}

/* With lock held: wake sleeper i (due); the lock is let go while its child hears of it. */
static void
wake(int i)
{
	struct sleeper s = table.s[i];
	struct child *c = child_by_id(s.child);

	hr_thd_wakeup(s.tid);
	sleepers_vacate(&table, i);
	if (!c)
		return;
	c->nsleeping--;
	hr_lock_give(&lock);
	events_push(c, EV_WAKE, s.tid);
	sched_wake(c->ent);
	hr_lock_take(&lock);
}

/* events_due with sleepers: apart, so that the common case pays for no more than its two
 * tests (the lock and the search need registers saved). */
static __attribute__((noinline)) uint64_t
due(uint64_t now)
{
	uint64_t next;

	hr_lock_take(&lock);
	/* wake() lets the lock go: each search starts again from the table as it is now */
	for (int i = 0; (i = sleepers_due(&table, now, i)) >= 0; i++)
		wake(i);
	next = sleepers_earliest(&table);
	hr_lock_give(&lock);
	return next;
}

uint64_t
events_due(uint64_t now)
{
	if (nunwinding)
		unwind();
	if (!table.n)
		return 0; /* one being added now makes its thread switch to us: a new turn */
	return due(now);
}

void
events_forget(struct child *c)
{
	unsigned room = (unsigned) (sizeof(unwinding) / sizeof(unwinding[0]));

	hr_lock_take(&lock);
	nunwinding += sleepers_forget(&table, c->id, unwinding + nunwinding, room - nunwinding);
	c->nsleeping = 0;
	c->evhead = c->evtail = 0;
	hr_lock_give(&lock);
	unwind();
}

void
events_fetch(void (*apply)(uint32_t type, uint32_t tid))
{
	long e;

	while ((e = pi_events()) > 0)
		apply((uint32_t) (e >> 32), (uint32_t) e);
}
