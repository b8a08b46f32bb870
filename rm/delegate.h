/*
 * delegate.h - what a subsystem delegates to its children, and how it keeps its promises:
 * its reservation manager (res.c) applied to real resources.  Memory reservations become
 * kernel bounds and windows of our pages (window.c); CPU reservations become servers in our
 * scheduler (sched.c); soft memory reservations are revoked, recursively down the tree, when
 * a hard one needs the room.
 *
 * The constructor's reservations for the manifest go through here (nothing bypasses the
 * reservation manager), and so does everything a child asks of us later (parent.c).
 */
#ifndef RM_DELEGATE_H
#define RM_DELEGATE_H

#include <stddef.h>
#include <stdint.h>
#include "child.h"
#include "res.h"

/* Our capacity: the memory and CPU we may promise, from our own descriptor node, with
 * `children` children of which `builds` are built (not tasks: they hold no stacks of ours). */
void delegate_init(const struct desc_node *self, unsigned children, unsigned builds);

/* The reservations a manifest entry declares for child c (memory and CPU): 0, or an
 * HR_E* code with a sentence in why.  Call before building it. */
long delegate_reserve(struct child *c, const struct desc_node *d, char *why, size_t len);
/* The ports and bandwidth d gives c, built and promoted, passed to it in the kernel: 0, or
 * an HR_E* code with a sentence in why. */
long delegate_net(struct child *c, const struct desc_node *d, char *why, size_t len);
/* The CPU reservation of one of our tasks (owner: ourselves): 0 with its id in *res (-1 if
 * the task has none), or an HR_E* code with a sentence in why. */
long delegate_task(const struct desc_node *d, long *res, char *why, size_t len);
/* Our task's reservation res is served by scheduler entity ent: a revocation that shrinks
 * it (a soft one) serves the task with less, as it does a child. */
void delegate_task_served(long res, long ent);
/* Change the CPU reservation child c's manifest entry made to budget/period ticks, if our
 * reservation book admits it, and serve c accordingly from now on: 0, or HR_ENOENT (c has
 * none), HR_EINVAL, HR_ENOMEM (not admitted), with a sentence in why. */
long delegate_cpu_rebind(struct child *c, uint32_t budget, uint32_t period, char *why, size_t len);
/* Is the lock busy (a child's request holds it)?  The event thread then leaves what needs it
 * to a later turn rather than wait. */
int delegate_busy(void);
/* c is gone: forget its reservations and shares (takes the lock: not on the event thread). */
void delegate_forget(struct child *c);
/* The same for the event thread: 1 if done, 0 if the lock was busy: then c is marked dead
 * and delegate_turn forgets it later. */
int delegate_forget_try(struct child *c);

/*
 * A child's requests (parent.c).  Each returns what the operation returns to the child.
 *
 * CPU: a child is one entity in our scheduler, served by one server, so it holds at most
 * one CPU reservation at a time: delegate_res_create refuses a second (its manifest's
 * counts) with HR_EEXIST.  Binding one (admitted against what we have left; shrinking
 * always is) serves the child's entity with that server from then on (sched_set_param:
 * a fresh period with a full budget); a refused bind changes neither the book nor the
 * scheduler; delegate_res_bind also returns HR_ESTATE for a CPU reservation of a child
 * not in our scheduler, and HR_EPERM for the one its manifest entry made (that one is
 * ours to change: delegate_cpu_rebind).  Deleting it (a run-time one: the manifest's stay,
 * HR_EPERM) gives its share back to the book and serves the child best effort again, as
 * before.
 */
long delegate_res_create(struct child *c, uint32_t kind, uint32_t family);
long delegate_res_delete(struct child *c, long id);
long delegate_res_bind(struct child *c, long id, uint64_t x, uint64_t y);
long delegate_res_get(struct child *c, long id);
/* n more pages for c's window, within its reservations: the address, or HR_ENOMEM (also
 * when its window would span more than twice its reservations: see WINDOW_SPAN). */
long delegate_mem_grow(struct child *c, uint64_t n);
long delegate_mem_return(struct child *c, uint64_t va, uint64_t n);
/*
 * n fresh pages of ours at the same address in c and its sibling called with: the address,
 * or HR_EINVAL (no such live sibling, n is 0), HR_ENOMEM (they do not fit what is left of
 * c's reservations, c has SHARES_PER_CHILD shares already, or we are out of pages).  The
 * pages count against c's reservations and are lent to the sibling; the share ends when
 * either of them goes.
 */
#define SHARES_PER_CHILD 4
long delegate_mem_share(struct child *c, const char *with, uint64_t n);

/*
 * Our own side of those requests (hr_res_create/bind/delete in parent.c go through here):
 * the CPU we may promise our children is what we hold.  Our supply is set from our
 * descriptor at boot (delegate_init); the run-time CPU reservation we create at our
 * parent then sets it whenever it changes: a bind or delete of it is first checked
 * against what we promised our own children and refused with HR_EBUSY if that would not
 * fit what we would hold (nothing asked of our parent), and once our parent agrees our
 * supply becomes the new budget/period (none, after delete).  Every other id, and any
 * caller without a book (a component), goes to our parent unchanged.  May block on our
 * lock and in our parent.
 */
long delegate_own_create(uint32_t kind, uint32_t family);
long delegate_own_bind(long id, uint64_t x, uint64_t y);
long delegate_own_delete(long id);
/* The CPU we hold and may promise now (budget, period in ticks; {0, 1}: none). */
struct admit_supply delegate_supply(void);
/* The CPU reservation child c holds in our book now: its kind, budget and period in ticks
 * (RES_NONE 0 0: best effort, or one created but not bound yet).  Reads the book without
 * the lock, for views (hrtop.c): a reservation being changed reads as old or new. */
void delegate_cpu_now(const struct child *c, uint32_t *kind, uint32_t *budget, uint32_t *period);
/* The same, once a CPU revocation our parent posted and our event thread has not applied yet
 * is applied (below): 0, or HR_ESTATE if we keep no book (a component).  Takes our lock (may
 * block): from a task, not the event thread. */
long delegate_cpu_held(struct admit_supply *held);

/*
 * Soft CPU is revoked down the tree like soft memory.  Whenever the CPU we promised may no
 * longer fit what we hold (a guaranteed reservation admitted over soft ones, by
 * delegate_res_bind or a growing delegate_cpu_rebind; or our own supply revoked by our
 * parent), the book shrinks soft CPU reservations, newest first, each to the largest budget
 * that fits, down to 0 (res_cpu_revoke_soft), and every child whose reservation changed is
 * served with the new budget at once (a soft server; with budget 0, in the background only)
 * and told: its pcb's cpu_budget/cpu_period, cpu_revision, revision (hr_res_wait wakes) and
 * events, and its scheduler is woken.  Its event thread then makes that its supply and does
 * the same for its own children, on its own turn.  A child left with budget 0 runs only when
 * nothing else of ours wants the CPU, so it learns of it only then.  Soft reservations of our
 * own tasks are served with less as well (delegate_task_served told us their entities).
 */

/* Called by the event thread on every turn: push revocations down to children, and give
 * back to our parent what it revoked from us (memory and CPU).  Never blocks. */
void delegate_turn(void);

/* For tests: revoke up to n pages of our children's soft memory now. */
uint64_t delegate_revoke(uint64_t n);

#endif
