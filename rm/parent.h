/*
 * parent.h - the services every subsystem offers its children (children invoke them
 * through their HR_CAP_PARENT capability; a0 is the operation) and the page a parent
 * shares with each child subsystem.  The parent trusts nothing a child writes or passes.
 */
#ifndef RM_PARENT_H
#define RM_PARENT_H

#include <stdint.h>

enum pi_op {
	PI_CONNECT = 1,	   /* a1..a3: a sibling component's name (packed) -> cap slot to it */
	PI_YIELD = 2,	   /* component thread: let others at our priority run */
	PI_SLEEP = 3,	   /* sleep in the parent until TSC a1 (events.h for subsystems' threads) */
	PI_RES_CREATE = 4, /* a1 kind, a2 family -> reservation id */
	PI_RES_DELETE = 5, /* a1 id: revokes what was bound */
	PI_RES_BIND = 6,   /* a1 id, a2 a3: pages | budget period | port kbps */
	PI_RES_GET = 7,	   /* a1 id -> pages | budget | kbps */
	PI_MEM_GROW = 8,   /* a1 pages -> address where they now are, on top of our window */
	PI_MEM_RETURN = 9, /* a1 address, a2 pages: give back pages of our window */
	PI_MEM_SHARE = 10, /* a1 a2: a sibling's name (packed, 16 bytes), a3 pages -> address */
	PI_EVENTS = 11,	   /* child scheduler: next event, (type << 32) | tid, or 0 (events.h) */
	PI_OP_END,
	/* operations from here to HR_EXPORT_MAX-1 are the program's own: it may hr_export
	 * services of its own for its children (test programs do) */
	PI_PROGRAM = 16
};

/*
 * Shared page at HR_VA_PCB in a child subsystem; the parent keeps its own mapping.  A child
 * scheduler with nothing to run simply waits for events; the kernel tells the parent
 * (HR_KEV_IDLE) and wakes the child again at its own timer (HR_KEV_WAKE to the parent).
 */
struct hr_pcb {
	volatile uint64_t events;      /* parent: something for the child's scheduler, so far */
	volatile uint64_t events_seen; /* child: events it has looked at */
	volatile uint64_t revision;    /* parent: bumped when it revokes memory or CPU */
	volatile uint64_t mem_target;  /* parent: pages the child may hold after that */
	/* parent: bumped when it revokes CPU, after writing what it serves the child with now
	 * (ticks): the child's supply from then on */
	volatile uint64_t cpu_revision;
	volatile uint32_t cpu_budget, cpu_period;
	uint64_t resv[506];
};
_Static_assert(sizeof(struct hr_pcb) == 4096, "one page");

/* Pack/unpack a name of up to 24 bytes into three registers. */
void pi_pack(const char *name, long w[3]);
void pi_unpack(const long w[3], char out[25]);

/* Client side (runs in the child). */
long pi_connect(const char *name);
long pi_yield(void);
long pi_sleep(uint64_t tsc);

/* Reservations and memory from our parent (the HiRES paper's Tables I and II, child side).
 * hr_res_* return what the parent's reservation manager answers (delegate.h: a CPU
 * reservation is what our parent's scheduler serves us with, one at a time; our own
 * supply follows it, HR_EBUSY if what we promised would not fit). */
long hr_res_create(uint32_t kind, uint32_t family);
long hr_res_delete(long id);
long hr_res_bind(long id, uint64_t x, uint64_t y);
long hr_res_get(long id);
/* The paper's wait(res): sleep (through our own scheduler: call it from one of our tasks)
 * until our parent changes our reservations after *seen, then return id's current amount;
 * *seen is updated.  A subsystem only (components have no soft memory). */
long hr_res_wait(long id, uint64_t *seen);
/* The CPU we hold now, in ticks ({0, 1}: none), with any revocation our parent posted applied
 * first (our own children are revoked from as need be): 0, or HR_ESTATE for a component (no
 * book).  May block on our reservation lock: call it from one of our tasks. */
long hr_cpu_held(uint32_t *budget, uint32_t *period);
/* n more pages of our reservation into our window (then ours to allocate): 0 or error. */
long hr_mem_grow(uint64_t n);
/* Give up to n free pages back to our parent: how many went back. */
long hr_mem_give_back(uint64_t n);
/* n fresh pages shared with our sibling called name, at the same address in both: the
 * address, or HR_EINVAL, HR_ENOMEM (delegate_mem_share).  They come out of our own
 * reservations (give back or reserve room first) and go when either of us goes. */
long hr_mem_share(const char *name, uint64_t n);

/* Server side: register the operations, with an invocation stack for each of children
 * beyond a base of four (subsys.c supplies the handlers). */
long parent_serve(unsigned children);

#endif
