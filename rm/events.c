/* events.c - the parent/child event protocol (events.h). */
#include "events.h"
#include "caps.h"
#include "child.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"

#define SLEEPERS_MAX 32

struct sleeper {
	uint32_t tid, child; /* child: its id in our table, 0 if the slot is free */
	uint64_t until;
};

static struct sleeper sleepers[SLEEPERS_MAX];
static volatile unsigned nsleepers; /* slots in use: the scheduler's every turn skips an
				       empty table without the lock */
static struct hr_lock lock;

void
events_push(struct child *c, uint32_t type, uint32_t tid)
{
	hr_lock_take(&lock);
	if ((uint8_t) (c->evhead - c->evtail) < EVQ_LEN)
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
	int slot = -1;

	if (self == (uint32_t) c->ctor.tid)
		return HR_EPERM; /* its scheduler thread may not leave it without a scheduler */
	hr_lock_take(&lock);
	for (int i = 0; i < SLEEPERS_MAX && slot < 0; i++)
		if (!sleepers[i].child)
			slot = i;
	if (slot >= 0) {
		sleepers[slot] = (struct sleeper){ self, c->id, until };
		nsleepers++;
	}
	hr_lock_give(&lock);
	if (slot < 0)
		return HR_ENOMEM;
	events_push(c, EV_BLOCK, self);
	sched_block_here(); /* back here once woken, and dispatched again by the child */
	return 0;
}

uint64_t
events_due(uint64_t now)
{
	uint64_t next = 0;

	if (!nsleepers)
		return 0; /* one being added now makes its thread switch to us: a new turn */
	hr_lock_take(&lock);
	for (int i = 0; i < SLEEPERS_MAX; i++) {
		struct sleeper *s = &sleepers[i];
		struct child *c;
		if (!s->child)
			continue;
		if (s->until > now) {
			next = !next || s->until < next ? s->until : next;
			continue;
		}
		c = child_by_id(s->child);
		hr_thd_wakeup(s->tid);
		s->child = 0;
		nsleepers--;
		if (c) {
			hr_lock_give(&lock);
			events_push(c, EV_WAKE, s->tid);
			sched_wake(c->ent);
			hr_lock_take(&lock);
		}
	}
	hr_lock_give(&lock);
	return next;
}

void
events_forget(struct child *c)
{
	hr_lock_take(&lock);
	for (int i = 0; i < SLEEPERS_MAX; i++)
		if (sleepers[i].child == c->id) {
			sleepers[i].child = 0;
			nsleepers--;
		}
	hr_lock_give(&lock);
}

void
events_fetch(void (*apply)(uint32_t type, uint32_t tid))
{
	long e;

	while ((e = hr_invoke(HR_CAP_PARENT, PI_EVENTS, 0, 0, 0)) > 0)
		apply((uint32_t) (e >> 32), (uint32_t) e);
}
