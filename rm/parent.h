/*
 * parent.h - the services every subsystem offers its children (children invoke them
 * through their HR_CAP_PARENT capability; a0 is the operation, the table in pi.h) and the
 * page a parent shares with each child subsystem.  The parent trusts nothing a child writes
 * or passes.
 */
#ifndef RM_PARENT_H
#define RM_PARENT_H

#include <stdint.h>
#include "pi.h"
#include "toprow.h"

/* The operations' numbers, from the table (pi.h; docs/PARENT.md says what each does). */
enum pi_op {
#define PI_ENUM(num, NAME, name, nargs, args, doc) PI_##NAME = (num),
	PI_OPS(PI_ENUM)
#undef PI_ENUM
		PI_OP_END, /* one past the last: the rows are 1 .. in order (parent.c checks) */
	/* operations from here to HR_EXPORT_MAX-1 are the program's own: it may hr_export
	 * services of its own for its children (test programs do) */
	PI_PROGRAM = 16
};
_Static_assert(PI_OP_END <= PI_PROGRAM, "the parent interface leaves programs their range");

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
	/* hrtop (rm/hrtop.h): the parent sets top_want (1) while it shows its subtree; the
	 * child then publishes its own subtree's rows in top every HRTOP_PUBLISH_MS and asks
	 * its own children to do the same.  What the child writes there is a claim: the
	 * parent copies and checks it (toprow_wire_get) and labels it so. */
	volatile uint32_t top_want;
	uint32_t top_resv;
	struct toprow_wire top;
	uint8_t resv[4096 - 56 - sizeof(struct toprow_wire)];
};
_Static_assert(sizeof(struct hr_pcb) == 4096, "one page");

/* The page our parent shares with us (HR_VA_PCB), or NULL in the root, which has none. */
struct hr_pcb *parent_page(void);

/* Client side (runs in the child): long pi_<name>(args) for every row of the table, e.g.
 * pi_res_bind(long id, uint64_t x, uint64_t y), returns what the parent answers (>= 0, or
 * an HR_E* code: docs/PARENT.md), or what hr_invoke does (HR_EBUSY, HR_EFAULTED).  Each is
 * defined by PI_CLIENT in parent.c from its row: `grep -n ' res_bind,' rm/pi.h` finds it. */
#define PI_CLIENT(num, NAME, name, nargs, args, doc) long pi_##name(PI_PARAMS_##nargs args);
PI_OPS(PI_CLIENT)
#undef PI_CLIENT

/* pi_connect to sibling `name`, then yield (pi_yield) until it serves: until its operation
 * echo_op, invoked with 7, returns 7.  The capability; pi_connect's error, or HR_ENOENT,
 * if that does not happen in 1000 tries.  For programs whose components start together. */
long pi_connect_serving(const char *name, unsigned echo_op);

/* Reservations and memory from our parent (the HiRES paper's Tables I and II, child side),
 * where a call needs more than its stub.  hr_res_* return what the parent's reservation
 * manager answers (delegate.h: a CPU reservation is what our parent's scheduler serves us
 * with, one at a time; our own supply follows it, HR_EBUSY if what we promised would not
 * fit). */
long hr_res_create(uint32_t kind, uint32_t family);
long hr_res_delete(long id);
long hr_res_bind(long id, uint64_t x, uint64_t y);
/* The paper's wait(res): sleep (through our own scheduler: call it from one of our tasks)
 * until our parent changes our reservations after *seen, then return id's current amount
 * (pi_res_get); *seen is updated.  A subsystem only (components have no soft memory). */
long hr_res_wait(long id, uint64_t *seen);
/* The CPU we hold now, in ticks ({0, 1}: none), with any revocation our parent posted applied
 * first (our own children are revoked from as need be): 0, or HR_ESTATE for a component (no
 * book).  May block on our reservation lock: call it from one of our tasks. */
long hr_cpu_held(uint32_t *budget, uint32_t *period);
/* n more pages of our reservation into our window (then ours to allocate): 0 or error. */
long hr_mem_grow(uint64_t n);
/* Give up to n free pages back to our parent (pi_mem_return): how many went back. */
long hr_mem_give_back(uint64_t n);
/* (pi_res_get and pi_mem_share need nothing more than the stub.) */

/* Server side: register every operation of the table, with the invocation stacks ctor.h's
 * rule gives children (each may hold its share at once).  0 or an HR_E* code. */
long parent_serve(unsigned children);

#endif
