/*
 * events.h - the parent/child event protocol (the HiRES paper, section III-C).
 *
 * A child's thread may block inside its parent (here: sleeping in a parent service).  The
 * parent then queues events for the child's scheduler — "thread T blocked", later "thread T
 * woke" — and raises the child's pevt.  While pevt is up the kernel refuses the child's
 * switch_thread (HR_EPEVT), so the child cannot dispatch a thread it believes runnable
 * before it has heard the news: it fetches events (PI_EVENTS) until the queue is empty,
 * which is when the parent lowers pevt.  The child's own time it reads from the TSC; its
 * timers the kernel fires directly (timer_next).
 */
#ifndef RM_EVENTS_H
#define RM_EVENTS_H

#include <stdint.h>
#include "ctor.h" /* CTOR_STACKS_EACH: the invocation stacks a child may hold */

struct child;

enum ev_type { EV_BLOCK = 1, EV_WAKE = 2 };

/*
 * Each child may have SLEEPERS_PER_CHILD threads sleeping in us at once, whatever its
 * siblings do: our table holds that many for every child.  A sleeper leaves at most two
 * events (block, wake) before the child's scheduler must fetch them to run it again, so a
 * child's queue (EVQ_LEN, a power of two) never overflows unless the child stops
 * fetching, which harms only itself.
 */
#define SLEEPERS_PER_CHILD 4
#define EVQ_LEN		   16
_Static_assert(SLEEPERS_PER_CHILD < CTOR_STACKS_EACH, "a child's sleepers leave it a stack");
_Static_assert(EVQ_LEN >= 2 * SLEEPERS_PER_CHILD && !(EVQ_LEN & (EVQ_LEN - 1)), "event queue");

/* ---- parent side ---- */
/* Room for the sleepers of up to `children` children: 0 or HR_ENOMEM. */
long events_init(unsigned children);
/* Queue an event about thread tid for child c and raise its pevt. */
void events_push(struct child *c, uint32_t type, uint32_t tid);
/* The next event for c, (type << 32) | tid, or 0 when none is left (pevt goes down). */
long events_pop(struct child *c);
/* On one of c's threads (not its c^s): sleep here until TSC until.  0, or HR_EPERM (its
 * c^s), HR_ENOMEM (SLEEPERS_PER_CHILD of its threads sleep here already). */
long events_sleep(struct child *c, uint64_t until);
/* Event thread: wake sleepers that are due; earliest one left (0: none). */
uint64_t events_due(uint64_t now);
/* Event thread, once c's component is destroyed: forget the events queued for it and its
 * sleepers, each of which runs once more here to return into c and be freed. */
void events_forget(struct child *c);

/* ---- child side ---- */
/* Fetch every event our parent has for us and hand each to apply. */
void events_fetch(void (*apply)(uint32_t type, uint32_t tid));

#endif
