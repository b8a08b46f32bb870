/*
 * fastpath.c - the common case of thd_switch, checked and done in one short path (seL4's
 * fastpath, kernel/fastpath.h); invoke's and ret's are in assembly
 * (arch/x86_64/fastpath.S), whose view of the structures is checked here.  Everything
 * unusual falls back to the full path (invoke.c, thd.c), with the same results and error
 * codes, because a fast path only *checks* until it is sure the full path would succeed
 * the same way, and then does exactly what the full path would do.  A check that fails
 * changes nothing.
 *
 * What thd_switch leaves to the full path: flags other than BLOCK, EVWAIT or TIMER, an
 * EVWAIT that fails, a thread blocked by another level, a switch that is not from a thread
 * of the caller's own to another or to a child subsystem's c^s (the full path's accounting
 * walks the levels), a pending PEVT, the thread itself, tracing.  invoke's and ret's are
 * listed in fastpath.S.
 */
#include "fastpath.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "trace.h"

_Static_assert(HR_SYS_invoke == HR_SYSNO_INVOKE && HR_SYS_ret == HR_SYSNO_RET &&
		       HR_SYS_thd_switch == HR_SYSNO_THD_SWITCH,
	       "entry.S tests these numbers");

/* fastpath.S reads the structures through fastpath.h's offsets, each field with the size
 * it has here (an array: all of it) */
#define FP_AT(type, field, off, size)                                        \
	_Static_assert(offsetof(struct type, field) == (off) &&              \
			       sizeof(((struct type *) 0)->field) == (size), \
		       #type "." #field ": fastpath.h")
FP_AT(thd, fs, T_FS, 8);
FP_AT(thd, id, T_ID, 2);
FP_AT(thd, depth, T_DEPTH, 1);
FP_AT(thd, ninv, T_NINV, 1);
FP_AT(thd, comp, T_COMP, 8);
FP_AT(thd, comp_gen, T_COMP_GEN, 4);
FP_AT(thd, chain, T_CHAIN, 8 * (HR_DEPTH_MAX + 1));
FP_AT(thd, inv, T_INV, IV_SIZE *FP_INV_MAX);
FP_AT(inv_frame, comp, IV_COMP, 8);
FP_AT(inv_frame, gen, IV_GEN, 4);
FP_AT(inv_frame, stk, IV_STK, 4);
FP_AT(inv_frame, rip, IV_RIP, 8);
FP_AT(inv_frame, rsp, IV_RSP, 8);
FP_AT(inv_frame, fs, IV_FS, 8);
FP_AT(comp, id, C_ID, 2);
FP_AT(comp, state, C_STATE, 1);
FP_AT(comp, is_sched, C_IS_SCHED, 1);
FP_AT(comp, gen, C_GEN, 4);
FP_AT(comp, pgtbl, C_PGTBL, 8);
FP_AT(comp, sub, C_SUB, 8);
FP_AT(comp, caps, C_CAPS, CP_SIZE *HR_CAP_MAX);
FP_AT(comp, entry, C_ENTRY, 8);
FP_AT(comp, stk_sp0, C_STK_SP0, 8);
FP_AT(comp, stk_stride, C_STK_STRIDE, 8);
FP_AT(comp, stk_fs0, C_STK_FS0, 8);
FP_AT(comp, stk_free, C_STK_FREE, 8);
FP_AT(comp, stk_quota, C_STK_QUOTA, 1);
FP_AT(comp, stk_held, C_STK_HELD, HR_COMP_MAX);
FP_AT(comp, depth, C_DEPTH, 1);
FP_AT(cap, type, CP_TYPE, 1);
FP_AT(cap, comp, CP_COMP, 2);
FP_AT(cap, gen, CP_GEN, 4);
FP_AT(cap, badge, CP_BADGE, 8);
#undef FP_AT
_Static_assert(sizeof(struct inv_frame) == IV_SIZE && sizeof(struct comp) == C_SIZE &&
		       sizeof(struct cap) == CP_SIZE,
	       "fastpath.S indexes inv[], comps[] and caps.slot[] by these sizes: fastpath.h");
_Static_assert(FP_INV_MAX == THD_INV_MAX && FP_CAP_INVOKE == CAP_INVOKE &&
		       HR_CS_LIVE == COMP_LIVE && COMP_STACKS_MAX <= 64 &&
		       HR_VA_USER_END == 1ull << FP_USER_END_BIT,
	       "fastpath.S: the values it tests (a stack is a bit of one word)");

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
