/*
 * invoke.c - thread-migration invocation.
 *
 * The calling thread itself continues into the callee: the kernel pushes an invocation
 * frame (caller, return rip/rsp, FS base), takes a free stack from the callee's pool and
 * starts the callee's registered entry with the arguments, the capability's badge and the
 * caller's component id.  ret pops the frame.  Both are O(1) and allocate nothing.
 *
 * The callee starts as if called with (a1, a2, a3, badge, caller id, a0) in the argument
 * registers (hw_frame_call): the C call of an exported function (rm/export.h) but for the
 * operation a0, which the runtime's entry stub dispatches on, and in the order that lets the
 * fast path (arch/x86_64/fastpath.S) move each argument once.  Its rax is the thread's own id
 * (a migrated thread lands on a stack it did not set up), and its flags are the ones a
 * thread starts with, not the caller's: a caller's DF or TF must not reach code that assumes
 * neither.
 */
#include "comp.h"
#include "thd.h"
#include "syscall.h"
#include "schedtree.h"

static long
invoke_decode(struct thd *t, uint64_t slot, struct comp **out, uint64_t *badge)
{
	const struct cap *cap = cap_lookup(&t->comp->caps, slot, CAP_INVOKE);
	struct comp *c;

	if (!cap)
		return refuse(HR_ECAP, "slot %lu holds no invocation capability", slot);
	c = &comps[cap->comp];
	if (c->gen != cap->gen || c->state == COMP_FREE)
		return refuse(HR_ECAP, "component %u is gone", cap->comp);
	if (c->state != COMP_LIVE)
		return HR_EFAULTED;
	if (!c->entry)
		return refuse(HR_ENOENT, "component %u registered no entry", c->id);
	if (thd_ninv(t) == THD_INV_MAX)
		return refuse(HR_EDEPTH, "invocation stack full");
	if (!c->stk_free)
		return HR_EBUSY;
	if (c->stk_quota && c->stk_held[t->comp->id] >= c->stk_quota)
		return HR_EBUSY; /* this caller holds its share of the callee's stacks */
	if (!schedtree_sees(c->sub, t))
		return refuse(HR_EPERM, "thread %u may not run in component %u", t->id, c->id);
	*out = c;
	*badge = cap->badge;
	return 0;
}

long
sys_invoke(struct thd *t, uint64_t cap, long a0, long a1, long a2, long a3)
{
	struct regs *r = &t->regs;
	struct comp *c, *caller = t->comp;
	uint64_t badge;
	long err = invoke_decode(t, cap, &c, &badge);
	int idx;
	uint64_t off;

	if (err)
		return err;
	idx = __builtin_ctzll(c->stk_free);
	c->stk_free &= ~(1ull << idx);
	c->stk_held[caller->id]++;
	t->inv[thd_ninv(t)] = (struct inv_frame){ .comp = caller,
						  .gen = t->comp_gen,
						  .stk = idx,
						  .rip = r->rip,
						  .rsp = r->rsp,
						  .fs = t->fs };
	t->inv_top += sizeof(struct inv_frame);
	off = (uint64_t) idx * c->stk_stride;
	hw_frame_call(r, c->entry, c->stk_sp0 + off,
		      (const uint64_t[6]){ (uint64_t) a1, (uint64_t) a2, (uint64_t) a3, badge,
					   caller->id, (uint64_t) a0 });
	r->rflags = HW_USER_RFLAGS;
	t->fs = c->stk_fs0 + off;
	t->comp = c;
	t->comp_gen = c->gen;
	thd_move(t);
	return t->id; /* rax in the callee: who is running there now */
}

long
sys_ret(struct thd *t, long v)
{
	unsigned n;

	if (!t->inv_top)
		return refuse(HR_ESTATE, "no invocation to return from");
	thd_unwind(t);
	n = t->inv_top;
	if (thd_prepare(t)) {
		/* every caller on the stack has died: so has the thread */
		struct comp *owner = t->chain[t->depth];
		thd_stop();
		thd_free(t);
		thd_reschedule(owner);
	}
	thd_move(t);
	return t->inv_top == n ? v : HR_EFAULTED;
}
