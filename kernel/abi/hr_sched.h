/*
 * hr_sched.h - the region shared between the kernel and one scheduler.
 *
 * Mapped read-write at HR_VA_SCHED in every promoted component.  Each field names its
 * writer; the kernel never trusts a value the scheduler writes (it only reads priorities
 * and the ring's tail, and checks both).  Slot i belongs to thread id i; the kernel fills
 * only the slots of threads this scheduler can see.
 */
#ifndef HR_SCHED_H
#define HR_SCHED_H

#include <stdint.h>

#define HR_THD_MAX   256 /* thread ids are 1 .. HR_THD_MAX-1 */
#define HR_COMP_MAX  128 /* component ids are 1 .. HR_COMP_MAX-1 */
#define HR_DEPTH_MAX 16	 /* deepest scheduler depth (the root is depth 0) */
#define HR_KEV_RING  256 /* kernel events queued per scheduler */

/* Lower is more urgent.  A thread whose slot says HR_PRIO_IDLE never preempts anything. */
#define HR_PRIO_IDLE 0x7fffffff

/* Thread state published by the kernel in hr_slot.state. */
enum hr_thd_state {
	HR_TS_FREE = 0,
	HR_TS_READY = 1,   /* may be dispatched */
	HR_TS_BLOCKED = 2, /* blocked by a scheduler (see hr_slot.blocker) */
	HR_TS_EVWAIT = 3,  /* an event thread waiting for its next event */
	HR_TS_DEAD = 4,	   /* exited or killed; its id may be reused after the event */
};

/* Kernel events: what happened that a scheduler must decide about. */
enum hr_kev_type {
	HR_KEV_NONE = 0,
	HR_KEV_FAULT = 1, /* comp faulted: thd, a = vector, b = ip, c = address */
	HR_KEV_EXIT = 2,  /* thd exited: a = status; comp set when the whole component ended */
	HR_KEV_IDLE = 3,  /* child scheduler comp parked with nothing to run */
	HR_KEV_WAKE = 4,  /* child scheduler comp was woken by its timer (timer_next) */
	HR_KEV_NET = 5,	  /* frames arrived in our empty receive ring (abi/hr_net.h) */
};
/* IDLE and WAKE are notices of a child's state, the latest of which is the truth.  WAKE is
 * bit comp of `woke`, so that telling a parent costs a store at any depth (the interrupt
 * and timer paths to a woken event thread tell its parent).  IDLE is a ring entry that
 * replaces an unread older one about the same child (never the entry at ev_tail), so that
 * notices cannot crowd out an exit, and it clears the child's bit: read the ring first,
 * then take `woke`, and a set bit is newer than every IDLE read.  A due timer of our own
 * queues nothing: our event thread just runs and looks at its clock. */

struct hr_kevent {
	uint16_t type; /* enum hr_kev_type */
	uint16_t comp; /* component concerned */
	uint32_t thd;  /* thread concerned (0 if none) */
	uint64_t a, b, c;
};
_Static_assert(sizeof(struct hr_kevent) == 32, "hr_kevent is ABI");

struct hr_slot {
	int32_t prio;	   /* scheduler: current priority of this thread */
	uint32_t state;	   /* kernel: enum hr_thd_state (a child's c^s: its scheduler's) */
	uint64_t consumed; /* kernel: TSC charged to this slot: every interval closed before
			    * any thread runs in our component (schedtree.c: behind) */
	uint32_t blocker;  /* kernel: depth of the scheduler that blocked it (state BLOCKED) */
	uint32_t flags;	   /* kernel: HR_SLOT_* */
	/* scheduler, a child's c^s: until this TSC the child is all we have to run, so that
	 * should its scheduler idle before then, we idle with it (0: we would take a turn).
	 * The kernel then tells our parent we idled, and us HR_KEV_IDLE for our next turn,
	 * without running us (kernel/schedtree.c: idle_up); only while our event thread waits,
	 * we have no other news (nor a wake below another child yet to be told to us) and no
	 * thread our event thread's activation preempted is left to resume.  Clear it when the
	 * child is no longer all we have. */
	uint64_t alone_until;
};
_Static_assert(sizeof(struct hr_slot) == 32, "hr_slot is ABI");

#define HR_SLOT_OWNED 0x1u /* the thread belongs to this scheduler (not to a child) */
#define HR_SLOT_CS    0x2u /* the thread is a child scheduler thread (c^s) */
#define HR_SLOT_EVT   0x4u /* the thread is this scheduler's event thread */

/* The kernel's clock, at HR_VA_KINFO in every component (kernel-written, read-only). */
struct hr_kinfo {
	uint64_t ticks;	   /* timer ticks since boot */
	uint64_t tick_at;  /* TSC when the last tick was taken */
	uint64_t tsc_hz;   /* TSC ticks per second */
	uint64_t tick_tsc; /* TSC ticks per timer tick */
};
_Static_assert(sizeof(struct hr_kinfo) == 32, "hr_kinfo is ABI");

struct hr_sched_region {
	/* header: 64 bytes */
	/* kernel sets, scheduler takes (an atomic exchange with 0, after reading the ring): bit
	 * c, child scheduler c woke (HR_KEV_WAKE) and has said nothing newer */
	uint64_t woke[HR_COMP_MAX / 64];
	uint32_t ev_head;  /* kernel: events written (free-running) */
	uint32_t ev_tail;  /* scheduler: events consumed (free-running) */
	uint32_t ev_lost;  /* kernel: events dropped on a full ring: resynchronise from the
			     * objects' states (comp_state, thread slots) when it changes */
	uint32_t depth;	   /* kernel: depth of this scheduler */
	uint32_t pevt;	   /* kernel: 1 while the parent has events pending for us */
	uint32_t evt_thd;  /* kernel: our event thread (0 if none) */
	uint64_t tsc_hz;   /* kernel: TSC ticks per second (estimated at boot) */
	uint64_t tick_tsc; /* kernel: TSC ticks per timer tick */
	uint32_t resv0, resv1;
	struct hr_kevent ev[HR_KEV_RING];
	struct hr_slot slot[HR_THD_MAX];
};
_Static_assert(sizeof(struct hr_sched_region) == 64 + 32 * HR_KEV_RING + 32 * HR_THD_MAX,
	       "hr_sched_region is ABI");
_Static_assert(HR_COMP_MAX % 64 == 0 && HR_COMP_MAX / 64 * 8 <= 16, "woke: a bit a component");

#define HR_SCHED_REGION_PAGES ((sizeof(struct hr_sched_region) + 4095) / 4096)

#endif
