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
/* The parent's view of a scheduler that has none (the root; one whose c^s is gone): what
 * its up_slot points to, never NULL, so that what charges or publishes up tests nothing.
 * Written, never read. */
extern struct hr_slot schedtree_nobody;
/* Slot that the scheduler at `level` of t's chain charges for t. */
uint32_t schedtree_rep(const struct thd *t, int level);
/* Publish t's state to its owner (and the scheduler blocking it). */
void schedtree_publish(const struct thd *t);
/* The same for t owned by scheduler `owner` (t->chain[t->depth]) and not blocked by one of
 * owner's ancestors: the owner's slot, and for a child scheduler's c^s its parent's view of
 * the child too.  Inline: an activation knows its event thread's owner (schedtree_activate);
 * the fast switch does the same in assembly (arch/x86_64/fastpath.S: sw_publish). */
static inline __attribute__((always_inline)) void
schedtree_publish_to(const struct thd *t, const struct comp *owner)
{
	struct hr_slot *sl = &owner->region->slot[t->id];
	const struct comp *h = t->home;
	int cs = h && h->cs == t;

	sl->state = t->state;
	sl->blocker = t->blocker;
	sl->flags = HR_SLOT_OWNED | (owner->evt == t ? HR_SLOT_EVT : 0) | (cs ? HR_SLOT_CS : 0);
	/* a c^s is its parent's view of the child: whether the child's scheduler waits
	 * (EVWAIT), has something to do (READY) or is gone (rm/sched.c looks for that) */
	if (cs)
		h->up_slot->state = t->state;
}
/* Add to their slots the levels that fell behind (schedtree.c, behind), every record's:
 * before any change to a chain, an up_slot or a region. */
void schedtree_catch_up(void);
/* ... the records that marked c: before a thread runs in c (thd.h: thd_space, for
 * thd_enter and thd_move).  Declared in thd.h too, which this header includes. */
void schedtree_catch_up_in(const struct comp *c);
/* t made a system call from a component marked behind: a way in missed its catch-up
 * (thd_space, the fast paths' 16-bit compare), and the component may read a short view
 * of a child.  syscall_dispatch looks (3 instructions, off the fast paths); said once,
 * as "[k] BUG: ...", on which an image test fails (tests/run.sh). */
void schedtree_behind_bug(const struct thd *t) __attribute__((cold, noinline));
/* How many threads' levels may be behind at once (schedtree.c: behind), a bit each in a
 * component's mark (comp.h: behind). */
#define SCHEDTREE_BEHIND_MAX 4
/* Charge time and move the accounting from cur to next (either may be NULL: idle). */
void schedtree_account(struct thd *from, struct thd *to, int from_level);

/* The accounting clock (schedtree.c's header comment tells how it works); here for
 * schedtree_account_down, and for the fast switch, which reads it through fastpath.h's
 * offsets (A_). */
struct schedtree_acct {
	/* A switch that parts at level k opens k and every level below it at one time:
	 * since[k], with bit k of open_mask set and every bit above k cleared (those
	 * openings are over).  Level i was opened at since[j], j the highest set bit at or
	 * below i (bit 0 is always set).  So opening any number of levels is two stores,
	 * whatever the depth (schedtree_open). */
	uint64_t since[HR_DEPTH_MAX + 1];
	uint32_t open_mask;
	/* TSC spent on frames for their owners (schedtree_charge): the clock runs without
	 * it, so that whoever the interrupt stopped does not pay for it, at any level */
	uint64_t stolen;
	unsigned nowed; /* charges still owed to ancestors (schedtree_owed_pay) */
	/* bit j: the scheduler at depth j on a wake's path may have a wake notice waiting for
	 * the dispatch of a thread of its own (schedtree_woke_tell: the fast switch tests
	 * the bit of the dispatched thread's depth, the call whether it is that one's) */
	uint32_t woke_mask;
	/* bit j: the dispatch of a waiting c^s at depth j may run a wake below it that did
	 * not get the CPU instead (schedtree_wake_through; the fast switch declines) */
	uint32_t through;
	/* and the woke one's path (comp.h: path), for the fast switch to decline only for the
	 * c^s of a scheduler on it */
	uint64_t through_path[2];
};
extern struct schedtree_acct schedtree_acct;
/* schedtree_upto[i]: the bits of levels 0 .. i (the fast switch's schedtree_opened) */
extern const uint32_t schedtree_upto[HR_DEPTH_MAX + 1];
/* These keep every register (no_caller_saved_registers): the fast switch calls them from
 * assembly with every register in use (arch/x86_64/fastpath.S). */
void schedtree_owed_pay(void) __attribute__((no_caller_saved_registers));
/* schedtree_owed_pay, then c caught up if that marked it: the fast switch's, whose thread
 * is about to run in c and which tested c's mark before (fastpath.S) */
void schedtree_owed_pay_into(const struct comp *c) __attribute__((no_caller_saved_registers));
void schedtree_woke_tell(const struct thd *x)
	__attribute__((noinline, cold, no_caller_saved_registers));

/* The last of the openings in mask that reached down to level i: levels j .. i opened at
 * since[j].  (close_levels passes the mask it read once.) */
static inline int
schedtree_opening_in(uint32_t mask, int i)
{
	return 63 ^ __builtin_clzll(mask & schedtree_upto[i]); /* bsr */
}

/* The same for the openings in force. */
static inline int
schedtree_opening(int i)
{
	return schedtree_opening_in(schedtree_acct.open_mask, i);
}

/* When level i's slot was opened. */
static inline uint64_t
schedtree_opened(int i)
{
	return schedtree_acct.since[schedtree_opening(i)];
}

/* Levels k, k + 1, ... (every one below) open now. */
static inline void
schedtree_open(int k, uint64_t now)
{
	struct schedtree_acct *a = &schedtree_acct;

	a->since[k] = now;
	a->open_mask = (a->open_mask & schedtree_upto[k]) | 1u << k;
}

/* schedtree_account when from is owned by scheduler s at depth k (from->depth == k) and to
 * is seen by s (to->chain[k] == s): from's slot at level k closes, and to's open from
 * level k down to its own (one stamp).  Exact for these cases without diverge's
 * walk: the fast switch's accounting, which arch/x86_64/fastpath.S does in assembly (this
 * is its statement in C, checked against schedtree_account by schedtree_test). */
static inline __attribute__((always_inline)) void
schedtree_account_down(struct thd *from, const struct comp *s, struct thd *to, int k)
{
	struct schedtree_acct *a = &schedtree_acct;
	uint64_t now;

	if (a->nowed)
		schedtree_owed_pay();
	if (__builtin_expect(a->woke_mask >> to->depth & 1, 0))
		schedtree_woke_tell(to); /* before the clock is read, as fastpath.S does */
	now = hw_tsc() - a->stolen;
	s->region->slot[from->id].consumed += now - schedtree_opened(k);
	schedtree_open(k, now);
}
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
/* s has something to do (its timer, a kernel event queued): schedtree_activate, and its
 * parent told HR_KEV_WAKE, woken in turn if it would run s now.  Called through
 * trace_wake_up; the traced one records the activations and notices. */
void schedtree_wake_up(struct comp *s);
void schedtree_wake_up_traced(struct comp *s);
/* Event thread t dispatches x, a child's waiting c^s: the thread to dispatch instead, the
 * one t's activation preempted below that child, if none of the schedulers down to it has
 * anything to decide (their turns would each choose it again), or x.  Takes t's record,
 * as x's turn does when asked for (turn: HR_SW_PEVT, HR_SW_TURN). */
struct thd *schedtree_through(struct thd *t, struct thd *x, uint64_t turn);
/* A child's waiting c^s x is dispatched, on the path of a wake that did not get the CPU
 * (schedtree_acct.through): the woken event thread, if every scheduler from x's down to
 * it would only dispatch its child on the way, or x. */
struct thd *schedtree_wake_through(struct thd *x);
/* Arm s's timer for TSC `at` (0: disarm): timer_next, and thd_switch's HR_SW_TIMER. */
void schedtree_timer(struct comp *s, uint64_t at);
/* A timer tick arrived: wake the schedulers whose timer is due. */
void schedtree_tick(void);
/* The deadline interrupt (hw_deadline_set) arrived: the same, without a tick. */
void schedtree_deadline(void);
/* Map the kernel's clock page read-only into a new address space; 0 or HR_ENOMEM. */
long schedtree_map_kinfo(uint64_t pgtbl, struct pt_budget *b);

#endif
