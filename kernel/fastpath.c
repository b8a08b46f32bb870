/*
 * fastpath.c - the common case of invoke, ret and thd_switch, checked and done in one short
 * path (seL4's fastpath, kernel/fastpath.h): everything unusual falls back to the full
 * path (invoke.c, thd.c), with the same results and error codes, because each function
 * here only *checks* until it is sure the full path would succeed the same way, and then
 * does exactly what the full path would do.  A check that fails changes nothing.
 *
 * What each leaves to the full path:
 *  - invoke: a slot that is not an invocation capability, a callee that is not live, has
 *    no entry or no free stack, a caller at its stack quota, an invocation stack that is
 *    full, a thread the callee's scheduler may not run.
 *  - ret: no invocation to return from, a caller or callee that ended meanwhile (the full
 *    path unwinds further or frees the thread), a stack it took with no record of it, a
 *    return address of 0 or outside the user half.
 *  - thd_switch: flags other than BLOCK, EVWAIT or TIMER, an EVWAIT that fails, a thread blocked
 *    by another level, a switch that is not from a thread of the caller's own to another
 *    or to a child subsystem's c^s (the full path's accounting walks the levels), a
 *    pending PEVT, the thread itself, tracing.
 */
#include "fastpath.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "trace.h"

_Static_assert(HR_SYS_invoke == HR_SYSNO_INVOKE && HR_SYS_ret == HR_SYSNO_RET &&
		       HR_SYS_thd_switch == HR_SYSNO_THD_SWITCH,
	       "entry.S tests these numbers");

struct fast_call
fastpath_invoke(uint64_t slot, uint64_t rip, uint64_t rsp)
{
	const struct fast_call full = { -1, 0 };
	struct thd *t = cur;
	struct comp *caller = t->comp, *c;
	const struct cap *cap;
	struct inv_frame *f;
	uint64_t free, stk;
	unsigned idx, ninv = t->ninv;

	if (ninv == THD_INV_MAX || slot - 1 >= HR_CAP_MAX - 1) /* slot 0 is HR_CAP_SELF */
		return full;
	/* the frame above the top is no one's yet: filling it in changes nothing */
	f = &t->inv[ninv];
	f->rip = rip;
	f->rsp = rsp;
	cap = &caller->caps.slot[slot];
	if (cap->type != CAP_INVOKE)
		return full;
	c = &comps[cap->comp];
	free = c->stk_free;
	if (c->gen != cap->gen || c->state != COMP_LIVE || !c->entry || !free || !c->sub ||
	    !schedtree_sees(c->sub, t))
		return full;
	if (c->stk_quota && c->stk_held[caller->id] >= c->stk_quota)
		return full;

	/* decoded: what sys_invoke does */
	idx = (unsigned) __builtin_ctzll(free);
	c->stk_free = free & (free - 1);
	c->stk_held[caller->id]++;
	stk = c->stk_base + idx * c->stk_stride;
	f->comp = caller;
	f->gen = t->comp_gen;
	f->stk = (int32_t) idx;
	f->fs = t->fs;
	t->ninv = (uint8_t) (ninv + 1);
	t->regs.rip = c->entry;
	t->regs.rsp = stk + c->stk_stride;
	t->regs.rax = t->id;
	t->fs = stk + c->stk_tcb;
	t->comp = c;
	t->comp_gen = c->gen;
	hw_set_space(c->pgtbl, t->fs);
	thd_fpu_settle(t);
	return (struct fast_call){ caller->id, cap->badge };
}

struct fast_ret
fastpath_ret(void)
{
	const struct fast_ret full = { 0, 0 };
	struct thd *t = cur;
	struct comp *callee = t->comp, *caller;
	const struct inv_frame *f;

	if (!t->ninv)
		return full;
	f = &t->inv[t->ninv - 1];
	caller = f->comp;
	if (caller->gen != f->gen || caller->state != COMP_LIVE || callee->gen != t->comp_gen)
		return full;
	if (f->stk < 0 || !f->rip || f->rip >= HR_VA_USER_END)
		return full;

	/* decoded: thd_unwind, with nothing for thd_prepare to pop */
	comp_stack_give(callee, f->stk, caller);
	t->ninv--;
	t->comp = caller;
	t->comp_gen = f->gen;
	t->fs = f->fs;
	hw_set_space(caller->pgtbl, t->fs);
	thd_fpu_settle(t);
	return (struct fast_ret){ f->rip, f->rsp };
}

long
fastpath_switch(uint64_t tid, uint64_t flags, uint64_t tsc)
{
	const uint64_t how = flags & ~(uint64_t) HR_SW_TIMER;
	struct thd *t = cur, *x;
	struct comp *s = t->comp, *xo;
	uint8_t xs;
	int k;

	if ((how & ~(uint64_t) (HR_SW_BLOCK | HR_SW_EVWAIT)) ||
	    how == (HR_SW_BLOCK | HR_SW_EVWAIT) || tid - 1 >= HR_THD_MAX - 1 || trace_on)
		return 0;
	x = &thds[tid];
	if (x == t || !s->is_sched || s->pevt)
		return 0;
	/* t is s's own; x is s's own or a child subsystem's c^s: one level changes hands, or
	 * two (schedtree_account_down) */
	k = s->depth;
	if (t->depth != k || t->chain[k] != s || (unsigned) (x->depth - k) > 1 || x->chain[k] != s)
		return 0;
	xs = x->state;
	if (xs != HR_TS_READY && xs != HR_TS_EVWAIT && !(xs == HR_TS_BLOCKED && x->blocker == k))
		return 0;
	if ((how & HR_SW_EVWAIT) && (s->evt != t || s->evt_pending))
		return 0; /* EPERM or EAGAIN */
	if (x->comp->gen != x->comp_gen || x->comp->state != COMP_LIVE)
		return 0; /* frames to pop first: thd_prepare */
	/* x's owner: s, or the child whose c^s x is */
	xo = x->chain[x->depth];

	/* decoded: what sys_thd_switch does, each publication to the owner found above */
	if (flags & HR_SW_TIMER)
		schedtree_timer(s, tsc);
	t->regs.rax = 0;
	if (how) {
		t->state = how & HR_SW_BLOCK ? HR_TS_BLOCKED : HR_TS_EVWAIT;
		t->blocker = how & HR_SW_BLOCK ? (uint8_t) k : t->blocker;
		schedtree_publish_to(t, s);
	}
	if (xs != HR_TS_READY) {
		x->state = HR_TS_READY;
		schedtree_publish_to(x, xo);
	}
	schedtree_account_down(t, s, x, k);
	cur = x;
	thd_enter(x);
	return 1;
}
