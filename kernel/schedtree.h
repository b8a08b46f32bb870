/*
 * schedtree.h - the scheduler tree: promotion, grants, the shared region, execution-time
 * accounting and event-thread activation.  No scheduling policy lives here: the kernel
 * only checks that a scheduler touches threads granted to it, charges time, and decides
 * whether an event thread preempts by comparing priorities the schedulers published.
 */
#ifndef KERNEL_SCHEDTREE_H
#define KERNEL_SCHEDTREE_H

#include "kernel.h"
#include "thd.h" /* schedtree_sees */

struct comp;
struct thd;

/* Make c a scheduler at the given depth with its region mapped; 0 or HR_ENOMEM. */
long schedtree_make(struct comp *c, struct comp *parent, struct thd *cs);
void schedtree_unmake(struct comp *c);
/* Set c->path from its parent's and its own id at c->depth (schedtree_make). */
void schedtree_path(struct comp *c, const struct comp *parent);
/* Is t granted to scheduler s?  Inline: the fast paths ask it (arch/x86_64/fastpath.S
 * repeats it in assembly: change both). */
static inline int
schedtree_sees(const struct comp *s, const struct thd *t)
{
	return s->is_sched && t->depth >= s->depth && t->chain[s->depth] == s;
}
/* Slot that the scheduler at `level` of t's chain charges for t. */
uint32_t schedtree_rep(const struct thd *t, int level);
/* Publish t's state to its owner (and the scheduler blocking it). */
void schedtree_publish(const struct thd *t);
/* Charge time and move the accounting from cur to next (either may be NULL: idle). */
void schedtree_account(struct thd *from, struct thd *to, int from_level);
/* The same when from is owned by the scheduler at depth k (from->depth == k) and to is
 * seen by it (to->chain[k] is from's): from's slot at level k closes, and to's open from
 * level k down to its own.  Exact for these cases without diverge's walk. */
void schedtree_account_down(struct thd *from, struct thd *to, int k);
/* Charge tsc of kernel work done for s (its frames) to s at every level, not to cur (its
 * ancestors' views at the next dispatch, before any of them can look). */
void schedtree_charge(struct comp *s, uint64_t tsc);
/* The child scheduler of s in capability slot `slot`, live; NULL if none. */
struct comp *schedtree_child(struct comp *s, uint64_t slot);
/* Queue ev for s and wake it as its timer would: its event thread runs at once if the
 * published priorities let it, and its ancestors hear HR_KEV_WAKE. */
void schedtree_notify(struct comp *s, struct hr_kevent ev);
/* Queue a kernel event for s; wake and maybe dispatch its event thread. */
void schedtree_post(struct comp *s, struct hr_kevent ev);
/* Wake s's event thread if it waits; dispatch it if it preempts cur. */
void schedtree_activate(struct comp *s);
/* A timer tick arrived: wake the schedulers whose timer is due. */
void schedtree_tick(void);
/* The deadline interrupt (hw_deadline_set) arrived: the same, without a tick. */
void schedtree_deadline(void);
/* Map the kernel's clock page read-only into a new address space; 0 or HR_ENOMEM. */
long schedtree_map_kinfo(uint64_t pgtbl, struct pt_budget *b);

#endif
