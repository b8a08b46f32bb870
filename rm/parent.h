/*
 * parent.h - the services every subsystem offers its children (children invoke them
 * through their HR_CAP_PARENT capability; a0 is the operation) and the page a parent
 * shares with each child subsystem.  The parent trusts nothing a child writes or passes.
 */
#ifndef RM_PARENT_H
#define RM_PARENT_H

#include <stdint.h>

enum pi_op {
	PI_CONNECT = 1, /* a1..a3: a sibling component's name (packed) -> cap slot to it */
	PI_YIELD = 2,	/* component thread: let others at our priority run */
	PI_SLEEP = 3,	/* component thread: sleep until TSC a1 */
	PI_OP_END
};

/*
 * Shared page at HR_VA_PCB in a child subsystem; the parent keeps its own mapping.  A child
 * scheduler with nothing to run simply waits for events; the kernel tells the parent
 * (HR_KEV_IDLE), which runs it again at next_wakeup or when it has events for it.
 */
struct hr_pcb {
	volatile uint64_t next_wakeup; /* child: TSC at which it wants to run again (0: none) */
	volatile uint64_t events;      /* parent: events queued for the child so far */
	uint64_t resv[510];
};
_Static_assert(sizeof(struct hr_pcb) == 4096, "one page");

/* Pack/unpack a name of up to 24 bytes into three registers. */
void pi_pack(const char *name, long w[3]);
void pi_unpack(const long w[3], char out[25]);

/* Client side (runs in the child). */
long pi_connect(const char *name);
long pi_yield(void);
long pi_sleep(uint64_t tsc);

/* Server side: register the operations, with an invocation stack for each of children
 * beyond a base of four (subsys.c supplies the handlers). */
long parent_serve(unsigned children);

#endif
