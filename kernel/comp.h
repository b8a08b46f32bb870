/*
 * comp.h - components: protection domains (a page table and a capability table).
 *
 * A component is created by a scheduler component, its parent, and belongs to the parent's
 * subsystem until the parent promotes it to a scheduler of its own (schedtree.c); from then
 * on it heads a child subsystem.  `sub` is the scheduler of the subsystem the component
 * belongs to: itself once promoted.  Threads may only execute in components whose `sub`
 * can see them, which is what keeps a child from ever running its parent's threads.
 */
#ifndef COMP_H
#define COMP_H

#include "kernel.h"
#include "cap.h"
#include "kev.h"

enum comp_state {
	COMP_FREE = 0,
	COMP_LIVE = HR_CS_LIVE,
	COMP_FAULTED = HR_CS_FAULTED,
	COMP_EXITED = HR_CS_EXITED,
};

#define COMP_STACKS_MAX 64

struct comp {
	uint16_t id;
	uint8_t is_sched; /* promoted: the fields under "scheduler" are valid */
	/* a scheduler's: its parent has events pending for it (sched_pevt); next to is_sched,
	 * for the fast switch tests both at once (arch/x86_64/fastpath.S) */
	uint8_t pevt;
	uint32_t gen; /* bumped on every reuse of this id; caps record it */
	int32_t exit_code;
	uint16_t nthds; /* live threads whose home this is (at most HR_THD_MAX) */
	uint8_t state;	/* enum comp_state */
	/* our region's view of a child on a preempted thread's path is behind: levels that
	 * closed together and wait to be added (schedtree.c, behind), a bit for each record
	 * that marked us; schedtree_catch_up_in before any thread runs here.  Next to state:
	 * the fast paths, which test state where a thread enters, test both at once
	 * (arch/x86_64/fastpath.S) */
	uint8_t behind;
	uint64_t pgtbl;	     /* physical address of the top-level page table */
	struct comp *parent; /* creator; NULL for the root */
	struct comp *sub;    /* scheduler of the subsystem this component belongs to; never
			      * NULL (the root, not yet promoted, is its own) */
	struct cap_table caps;
	char name[HR_NAME_MAX]; /* given by the parent (comp_name); tags its console lines */
	uint16_t con_len;	/* console.c: bytes of an unfinished line in con_buf */
	char con_buf[256];

	/* invocation entry and the pool of stacks migrating threads run on (comp_entry):
	 * stack i starts a call with rsp = stk_sp0 + i * stk_stride and FS base stk_fs0 + i *
	 * stk_stride (its TCB), both kept for stack 0 so that invoke adds one product */
	uint64_t entry;
	uint64_t stk_sp0, stk_stride, stk_fs0;
	/* bit i set: stack i is free.  Never 0 but after comp_entry set entry as well, so a
	 * free stack implies an entry (the fast path tests only this) */
	uint64_t stk_free;
	uint64_t stk_all; /* the bits of all registered stacks */
	/* stacks one calling component may hold at once (0: any), and how many each holds, so
	 * that no caller (a hostile child) can take the stacks its siblings need.  Each frame
	 * that took one of our stacks counts in its caller's entry until it is popped (only
	 * comp_entry clears them, and only while no stack is taken), so a return from one of
	 * them into a live caller finds its count at least one */
	uint8_t stk_quota;
	uint8_t stk_held[HR_COMP_MAX];

	/* memory accounting (alias.c): pages aliased into us, our bound, bound passed on */
	uint64_t mem_used, mem_bound, mem_given;
	uint32_t pt_used;   /* page-table pairs of our address space (ptq.h) */
	uint32_t node_head; /* list of our mapping nodes */

	/* kernel-object quotas still available to us for children and threads */
	uint32_t thd_quota, comp_quota;
	uint32_t thd_paid, comp_paid; /* what our creator handed us, refunded when we die */

	/* scheduler (valid when is_sched) */
	/* ids of its ancestors at depths 1..16 (byte i-1 of the two words: depth i) and its own
	 * at its depth, zeros below: where two threads' chains part is where their owners'
	 * paths first differ, found without a walk (schedtree.c, diverge) */
	uint64_t path[2];
	uint8_t depth;
	uint8_t evt_pending; /* events arrived since the event thread last looked */
	uint32_t depth_bit;  /* 1 << depth: our bit in masks by depth (in padding) */
	uint64_t wake_at;    /* TSC at which its timer is due (timer_next), 0 if none */
	struct comp *armed_next, *armed_prev; /* on the list of armed timers while wake_at */
	uint8_t held; /* our parent holds us (sched_hold): nothing of our subtree may run */
	/* bit i: the scheduler at depth i on our path from the root (ourselves at our depth) is
	 * held; whether an event thread of ours may run is one test, at any depth (may_run) */
	uint32_t held_path;
	struct kev_q evq; /* our ring's head and losses (kev.h; the region's are untrusted) */
	struct kev_notice notice; /* where our latest idle/wake notice sits in our parent's ring */
	uint64_t *woke_word, woke_bit; /* our bit of our parent's region's woke (kev_woke_word) */
	struct hr_sched_region *region;
	struct thd *cs;		 /* our child scheduler thread, as our parent sees it */
	struct hr_slot *up_slot; /* cs's slot in our parent's region: our parent's view of us */
	struct thd *evt;	 /* our event thread */
	uint32_t news_at;	 /* schedtree.c's news_gen when we were last told something */
};

extern struct comp comps[HR_COMP_MAX];

void comp_pool_init(void);
/* Stack stk of c's invocation pool is free again; caller had taken it (inline: ret's fast
 * path). */
static inline void
comp_stack_give(struct comp *c, int stk, const struct comp *caller)
{
	c->stk_free |= 1ull << stk;
	if (c->stk_held[caller->id])
		c->stk_held[caller->id]--;
}
/* A fresh live component with an empty address space, child of parent; NULL if none. */
struct comp *comp_new(struct comp *parent);
/* The live component a COMP capability in `self`'s table names, or NULL. */
struct comp *comp_from_cap(struct comp *self, uint64_t slot);
/* Component slot argument: HR_CAP_SELF or a COMP cap. */
struct comp *comp_arg(struct comp *self, uint64_t slot);
int comp_is_ancestor(const struct comp *a, const struct comp *c);
void comp_destroy(struct comp *c);
extern struct comp *root_comp;
/* Mark faulted/exited and tell its responsible scheduler (event + activation). */
void comp_end(struct comp *c, enum comp_state why, struct thd *t, uint64_t a, uint64_t b,
	      uint64_t cc);
/* The scheduler responsible for c: the parent scheduler of a subsystem head, else c->sub. */
struct comp *comp_responsible(const struct comp *c);

#endif
