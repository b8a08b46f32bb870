/*
 * policy.h - the interface every scheduling policy implements (fprr.c, ds.c, edf.c).
 *
 * A policy is a pure state machine: the caller owns `size` bytes of state, passes the time
 * into every call and turns the answers into thread switches and timers (rm/).  No
 * hardware, no system calls, no allocation; every operation is O(POL_MAX).  Ids name the
 * caller's entities (threads or child schedulers) and are 0 .. POL_MAX-1.
 *
 * Call order for one interval of execution: charge() the entity that ran, then block(),
 * wake() etc. for the events at `now`, then pick() and next_event() to dispatch.
 */
#ifndef POLICIES_POLICY_H
#define POLICIES_POLICY_H

#include <stdint.h>
#include <stddef.h>
#include "admit.h"		    /* enum res_kind, enum res_server */
#include "../kernel/abi/hr_sched.h" /* HR_PRIO_IDLE */

#define POL_MAX	 64 /* entities per scheduler: ids 0 .. POL_MAX-1 */
#define POL_IDLE (-1)

/*
 * Every policy serves every reserved kind with a server (server.h) and runs best effort
 * without one:
 * - hard and deferrable: at most `budget` every `period`, at least that much when it has
 *   work and the set was admitted (admit.c);
 * - soft: the same while it has budget; out of budget it runs in the background, only
 *   when nothing else of this scheduler can run (it gets its share and takes slack);
 * - best effort: at its priority (fprr, ds) or round robin behind every server (edf).
 */
struct pol_param {
	uint32_t prio;	 /* fixed-priority policies: lower is more urgent (0 most urgent) */
	uint32_t kind;	 /* enum res_kind */
	uint64_t budget; /* time units per period; ignored for RES_NONE */
	uint64_t period; /* time units; ignored for RES_NONE */
	uint32_t server; /* enum res_server; ignored for RES_NONE */
	uint32_t pad;
};

/*
 * Ranks: what a policy says of an entity's urgency, lower more urgent.  The whole unsigned
 * range is valid; pol_publish turns a rank into the priority a scheduler publishes to the
 * kernel (abi/hr_sched.h: 0 is its event thread's, HR_PRIO_IDLE never preempts), so no
 * rank can overflow into another meaning.  POL_RANK_BACKGROUND is the least urgent.
 */
#define POL_RANK_BACKGROUND ((uint32_t) HR_PRIO_IDLE - 2) /* a soft server out of budget */
#define POL_RANK_BEST	    (POL_RANK_BACKGROUND - 1)	  /* edf: best effort */
#define POL_RANK_SERVER_MAX (POL_RANK_BEST - 1)		  /* edf: the farthest deadline */

/* The priority to publish for rank r: 1 .. HR_PRIO_IDLE - 1, order kept up to
 * POL_RANK_BACKGROUND (every rank beyond it publishes as it does). */
static inline int32_t
pol_publish(uint32_t r)
{
	return (int32_t) (r < POL_RANK_BACKGROUND ? r : POL_RANK_BACKGROUND) + 1;
}

struct policy {
	const char *name; /* "fprr", "ds", "edf" */
	size_t size;	  /* bytes of state the caller must provide (aligned to 8) */
	/* slice: round-robin quantum in time units (0: no time slicing) */
	void (*init)(void *st, uint64_t now, uint64_t slice);
	/* 0, or HR_EINVAL (bad id, kind unknown, or for a reserved kind budget 0, period 0,
	 * budget > period or a server the policy does not have: admit_server), HR_EEXIST (id
	 * in use). New entities start runnable, at the tail of their round-robin level. */
	int (*add)(void *st, uint32_t id, const struct pol_param *p, uint64_t now);
	int (*remove)(void *st, uint32_t id); /* 0 or HR_ENOENT */
	/* 0, HR_ENOENT; blocking a blocked entity or waking a runnable one changes nothing
	 * more; a woken entity goes to the tail of its round-robin level with a fresh slice */
	int (*block)(void *st, uint32_t id, uint64_t now);
	int (*wake)(void *st, uint32_t id, uint64_t now);
	/* id executed for `used` time units ending at `now` (budget accounting, slices) */
	void (*charge)(void *st, uint32_t id, uint64_t used, uint64_t now);
	/* the id to run at `now`, or POL_IDLE; also performs due replenishments */
	int32_t (*pick)(void *st, uint64_t now);
	/* earliest future time at which pick() could answer differently without any other
	 * call (a replenishment, a slice expiry, a budget running out assuming the picked
	 * entity runs from now), UINT64_MAX if none */
	uint64_t (*next_event)(void *st, uint64_t now);
	/* id's rank at `now` (lower = more urgent; pol_publish makes it a priority); for
	 * EDF the time to its deadline, so earlier deadlines are more urgent; a soft server
	 * out of budget POL_RANK_BACKGROUND; an unknown id POL_RANK_BACKGROUND too */
	uint32_t (*rank)(void *st, uint32_t id, uint64_t now);
	/* id gives up the rest of its slice: round-robin to the end of its priority level */
	void (*yield)(void *st, uint32_t id, uint64_t now);
	/* 1 if id may run at `now`: runnable and, if it has a server, budget left or soft (in
	 * the background) (performs due replenishments); 0 otherwise or for an unknown id.
	 * Schedulers publish an idle priority for entities that may not run, so they never
	 * preempt anything. */
	int (*eligible)(void *st, uint32_t id, uint64_t now);
	/* time id may still run before its server stops it (performs due replenishments),
	 * whether or not it is runnable: UINT64_MAX without a server or for a soft server out
	 * of budget (nothing stops it in the background), 0 when exhausted or for an unknown
	 * id */
	uint64_t (*budget_left)(void *st, uint32_t id, uint64_t now);
	/* the caller's timer resolution (time units): a server never leaves pieces of budget
	 * smaller than it to come back on their own, where the caller would have to forfeit
	 * them period after period (server.h); 0 (the default) for an exact caller */
	void (*set_grain)(void *st, uint64_t grain);
	/* deadline misses counted for id so far (at the replenishments performed so far):
	 * a server entity that was runnable for a whole period (never blocked) yet received
	 * less than its budget in it; always 0 for best effort */
	uint32_t (*misses)(void *st, uint32_t id);
	/* ids whose eligible() answer is whether they are runnable (not blocked), whose rank()
	 * answer changes only when they are removed (or added again with new parameters), and
	 * whose budget_left() is UINT64_MAX (no server): never changed by time, charges or
	 * yields.  A caller that remembers those answers need not ask again until then.  The
	 * set itself changes only with add and remove; it may include ids not in use. */
	uint64_t (*steady)(void *st);
};

/* Each id whose bit is set in mask, lowest first (POL_MAX <= 64: masks are one word). */
#define POL_FOR_EACH(id, mask)                                                           \
	for (uint64_t m_ = (mask), id; m_ && ((id = (uint64_t) __builtin_ctzll(m_)), 1); \
	     m_ &= m_ - 1)

const struct policy *policy_find(const char *name); /* NULL if unknown */
extern const struct policy policy_fprr, policy_ds, policy_edf;

/* a + b, saturating at UINT64_MAX ("never") */
static inline uint64_t
pol_time_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t
pol_time_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

#endif
