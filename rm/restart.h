/*
 * restart.h - whether and when a faulted child is built again (as Genode's init or the
 * Hubris supervisor do): the policy its manifest entry sets and its count so far.  Pure
 * bookkeeping, tested on the host (rm/test/restart_test.c); rm/subsys.c tears the child
 * down as for any fault, asks here, and rebuilds it from its descriptor node when due.
 */
#ifndef RM_RESTART_H
#define RM_RESTART_H

#include <stdint.h>

enum restart_policy { RESTART_NEVER = 0, RESTART_ON_FAULT = 1 };

struct restart {
	uint32_t policy;  /* enum restart_policy */
	uint32_t max;	  /* restarts allowed in all */
	uint32_t backoff; /* timer ticks from a fault to the rebuild */
	uint32_t done;	  /* restarts so far */
	uint32_t faults;  /* faults so far */
	uint64_t at;	  /* TSC the rebuild is due at; 0: none pending */
};

enum restart_verdict {
	RESTART_NOT_WANTED, /* its policy is never: it stays down, as any faulted child */
	RESTART_PENDING,    /* rebuild it at r->at */
	RESTART_EXHAUSTED,  /* it has had its restart-max restarts: it stays down */
};

void restart_init(struct restart *r, uint32_t policy, uint32_t max, uint32_t backoff);
/* The child faulted at TSC now (tick: TSC ticks per timer tick): count the fault and say
 * what becomes of it; RESTART_PENDING sets r->at. */
enum restart_verdict restart_fault(struct restart *r, uint64_t now, uint64_t tick);
/* 1 if a rebuild is pending and due at now. */
int restart_due(const struct restart *r, uint64_t now);
/* The rebuild is done (ok) or failed for good: no longer pending.  Returns the restarts
 * so far. */
uint32_t restart_finish(struct restart *r, int ok);

#endif
