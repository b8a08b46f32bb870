/*
 * sched.h - the scheduler framework every subsystem runs (its event thread loops in
 * sched_run).  It turns a policy's decisions (policies/) into switch_thread calls, feeds
 * the policy the execution time the kernel accounts, hears kernel events (exits, faults)
 * and activates child subsystems through their scheduler threads (c^s).
 *
 * Entities are what the policy chooses among: threads of this subsystem (its tasks, the
 * first threads of its components) and child subsystems, each represented by its c^s.
 */
#ifndef RM_SCHED_H
#define RM_SCHED_H

#include <stdint.h>
#include "policies/policy.h"
#include "schedcore.h" /* struct sched_ent, enum ent_kind, enum ent_req */
#include "sys.h"

/* Scheduling hooks the subsystem layer (subsys.c) provides. */
struct sched_hooks {
	/* a kernel event about something of ours (exit, fault, a child going idle) */
	void (*kevent)(const struct hr_kevent *ev);
	/* nothing left to schedule and nothing will come: the subsystem is finished */
	void (*finished)(void);
	/* called on every turn of the loop, before deciding (may invoke our parent); returns
	 * the earliest TSC at which the layer wants a turn of its own (UINT64_MAX: none),
	 * which the turn arms our timer for (nothing the turn does after it changes that) */
	uint64_t (*turn)(void);
	/* the kernel dropped events (a full ring): check the children's states (may be NULL) */
	void (*lost)(void);
};

/* 0, or HR_EINVAL for an unknown policy.  slice: round-robin quantum in timer ticks. */
long sched_init(const char *policy, uint32_t slice_ticks, const struct sched_hooks *hooks);
/* Add an entity; budget and period in timer ticks.  Its id, or an HR_E* code. */
long sched_add(enum ent_kind kind, uint32_t tid, const struct pol_param *p, void *owner);
void sched_remove(long id);
struct sched_ent *sched_ent(long id);
/* The entity dispatching tid, or -1. */
long sched_find(uint32_t tid);
/* Block / wake an entity (wake_at: TSC deadline or 0). */
void sched_block(long id, uint64_t wake_at);
void sched_wake(long id);
/*
 * Called by a thread of entity id executing in this component (a service handler): ask
 * the event thread to sleep or rotate the entity, and let it decide now.  Only the
 * event thread touches the policy, so services need no lock around scheduler state.
 */
void sched_request(long id, enum ent_req req, uint64_t arg);
/* A thread of this subsystem (one of our entities) sleeps until TSC deadline. */
void sched_sleep(uint64_t deadline);
/* One of our entities' threads blocks until another wakes it (sched_wake_thread). */
void sched_block_self(void);
/* Wake our entity that dispatches tid (the scheduler decides who runs next: if it is more
 * urgent than the caller, at once). */
void sched_wake_thread(uint32_t tid);
/* A child's thread in our services blocks here, at our level (events.c). */
void sched_block_here(void);
/* TSC at which our event thread began its latest turn: after the kernel woke it, its
 * first look at the clock (what the IRQ-latency benchmark measures to).  It waits in two
 * places, idle (event_wait) and dispatching (thd_switch's HR_SW_EVWAIT), and comes back
 * from either to the top of its loop. */
uint64_t sched_woke_at(void);
/* In the turn that runs now: whether our parent told us something since our last turn
 * (bumped our pcb's events, rm/parent.h, which it does after every other write there).
 * The layer's turn looks at the rest of the pcb only then. */
extern int sched_parent_news;
/* Timer ticks -> TSC. */
uint64_t sched_ticks(uint64_t ticks);
/* Become the event thread and schedule forever. */
_Noreturn void sched_run(void);
/* Deadline misses the policy counted for an entity (since its parameters last changed). */
uint32_t sched_misses(long id);
/*
 * Give entity id new scheduling parameters (budget and period in timer ticks), as from
 * now: a server starts a fresh period with a full budget.  Asked from the event thread,
 * from any thread of ours that is an entity, or from a child's thread in our services (a
 * child's reservation request, delegate.c: callers serialise those with their lock); the
 * event thread applies it before it dispatches anything again.  The caller validates p (a
 * policy that refuses it leaves the old parameters; a soft reservation may have budget 0,
 * the background only).  0, or HR_ENOENT, HR_EINVAL.
 */
long sched_set_param(long id, const struct pol_param *p);
/* CPU time (TSC ticks) the kernel has charged to entity id, up to the last switch. */
uint64_t sched_consumed(long id);
/* Which of our adds made entity id, 0 if none: its id is taken again once it is removed,
 * and this is how to tell. */
uint32_t sched_born(long id);

#endif
