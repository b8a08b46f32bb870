/*
 * thd.c - threads: creation, dispatch, the thd_switch primitive (Composite's switch_thread),
 * exit and the mechanical choice of what runs when a thread stops without naming a
 * successor.
 *
 * Which thread runs is always a scheduler's decision (thd_switch) except in three cases
 * the kernel must settle alone, each without policy: an event thread that preempts by the
 * published priorities (schedtree.c), an event thread that parks and so resumes whom it
 * preempted, and a thread that stops for good (exit, fault), after which the responsible
 * scheduler's event thread runs to hear about it.
 */
#include "thd.h"
#include "syscall.h"
#include "comp.h"
#include "schedtree.h"
#include "trace.h"

struct thd thds[HR_THD_MAX];
struct thd *cur;
struct thd *fpu_owner = FPU_NOBODY;	  /* whose x87/SSE state the registers hold */
static struct thd *free_head, *free_tail; /* FIFO: ids are reused as late as possible */

void
thd_pool_init(void)
{
	for (unsigned i = 1; i < HR_THD_MAX; i++) {
		thds[i].id = (uint16_t) i;
		thd_free(&thds[i]);
	}
}

struct thd *
thd_lookup(uint64_t id)
{
	if (id == 0 || id >= HR_THD_MAX || thds[id].state == HR_TS_FREE)
		return 0;
	return &thds[id];
}

struct thd *
thd_alloc(void)
{
	struct thd *t = free_head;

	if (!t)
		return 0;
	free_head = t->free_next;
	if (!free_head)
		free_tail = 0;
	t->free_next = 0;
	t->gen++;
	hw_fpu_clean(&t->fpu);
	return t;
}

/* Give back the invocation stacks t holds in the components it migrated into. */
static void
release_stacks(struct thd *t)
{
	int n = thd_ninv(t);

	for (int i = 0; i < n; i++) {
		struct comp *callee = i + 1 < n ? t->inv[i + 1].comp : t->comp;
		uint32_t gen = i + 1 < n ? t->inv[i + 1].gen : t->comp_gen;
		if (callee->gen == gen && t->inv[i].stk >= 0)
			comp_stack_give(callee, t->inv[i].stk, t->inv[i].comp);
	}
}

void
thd_fpu_claim(struct thd *t)
{
	hw_fpu_trap(0);
	if (fpu_owner == t)
		return;
	if (fpu_owner != FPU_NOBODY)
		hw_fpu_save(&fpu_owner->fpu);
	hw_fpu_restore(&t->fpu);
	fpu_owner = t;
}

void
thd_free(struct thd *t)
{
	if (t == fpu_owner)
		fpu_owner = FPU_NOBODY;
	if (t->state != HR_TS_FREE) {
		struct comp *owner = t->chain[t->depth];
		schedtree_catch_up(); /* its chain, and maybe its home's up_slot, go */
		if (trace_on)
			trace_thd_free(t);
		t->state = HR_TS_DEAD;
		schedtree_publish(t);
		release_stacks(t);
		if (owner && owner->evt == t)
			owner->evt = 0;
		if (t->home) {
			if (t->home->cs == t) /* and its slot, whose id will be reused */
				t->home->cs = 0, t->home->up_slot = &schedtree_nobody;
			t->home->nthds--;
		}
		if (t->payer && t->payer->state != COMP_FREE)
			t->payer->thd_quota++;
	}
	uint16_t id = t->id;
	uint32_t gen = t->gen;
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->gen = gen;
	t->state = HR_TS_FREE;
	if (free_tail)
		free_tail->free_next = t;
	else
		free_head = t;
	free_tail = t;
}

void
thd_dispatch(struct thd *t, int from_level)
{
	trace_account(cur, t, from_level); /* schedtree_account, traced or not */
	cur = t;
	thd_enter(t);
}

void
thd_stop(void)
{
	if (cur)
		trace_account(cur, 0, 0);
	cur = 0;
}

_Noreturn void
thd_idle(void)
{
	thd_stop();
	hw_idle();
}

void
thd_unwind(struct thd *t)
{
	struct inv_frame *f = &t->inv[thd_ninv(t) - 1];
	struct comp *callee = t->comp;

	t->inv_top -= sizeof(struct inv_frame);
	if (f->stk >= 0 && callee->gen == t->comp_gen)
		comp_stack_give(callee, f->stk, f->comp);
	t->comp = f->comp;
	t->comp_gen = f->gen;
	t->fs = f->fs;
	t->regs.rip = f->rip;
	t->regs.rsp = f->rsp;
	t->regs.rflags = HW_USER_RFLAGS;
	t->regs.vector = HW_VEC_SYSCALL;
}

long
thd_prepare_unwind(struct thd *t)
{
	while (t->comp->gen != t->comp_gen || t->comp->state != COMP_LIVE) {
		if (!t->inv_top)
			return HR_ESTATE;
		thd_unwind(t);
		t->regs.rax = (uint64_t) HR_EFAULTED;
	}
	return 0;
}

static int
comp_alive(const struct comp *c, uint32_t gen)
{
	return c && c->gen == gen && c->state == COMP_LIVE;
}

int
thd_dead(const struct thd *t)
{
	if (comp_alive(t->comp, t->comp_gen))
		return 0;
	for (int i = 0; i < thd_ninv(t); i++)
		if (comp_alive(t->inv[i].comp, t->inv[i].gen))
			return 0;
	return 1;
}

void
thd_reap(void)
{
	for (unsigned i = 1; i < HR_THD_MAX; i++) {
		struct thd *t = &thds[i];
		if (t->state != HR_TS_FREE && t != cur && thd_dead(t))
			thd_free(t);
	}
}

_Noreturn void
thd_reschedule(struct comp *s)
{
	for (; s; s = s->parent) {
		struct thd *e = s->evt;
		int waited;
		if (!e || e == cur)
			continue;
		if ((waited = e->state == HR_TS_EVWAIT)) {
			e->state = HR_TS_READY;
			schedtree_publish(e);
		}
		if (e->state != HR_TS_READY)
			continue;
		if (thd_prepare(e)) {
			thd_free(e);
			continue;
		}
		thd_dispatch(e, 0);
		/* one that waited reads all its news in the turn it starts, what the dispatch
		 * told it too (schedtree_activate); one in its turn keeps what it has not read */
		if (waited)
			s->evt_pending = 0;
		hw_ret_to_user();
	}
	thd_idle();
}

_Noreturn void
thd_exit(struct thd *t, long status)
{
	struct comp *owner = t->chain[t->depth];
	struct hr_kevent ev = {
		.type = HR_KEV_EXIT, .comp = 0, .thd = t->id, .a = (uint64_t) status
	};

	if (t == cur)
		thd_stop();
	thd_free(t);
	schedtree_post(owner, ev);
	if (cur)
		hw_ret_to_user();
	thd_reschedule(owner);
}

/* ---- system calls -------------------------------------------------------------------- */

long
sys_thd_self(struct thd *t)
{
	return t->id;
}

/* Where a new thread may live: the caller itself, or a child not yet promoted. */
static struct comp *
create_target(struct comp *s, uint64_t slot)
{
	struct comp *c = comp_arg(s, slot);

	if (!c || c->state != COMP_LIVE)
		return 0;
	if (c != s && (c->parent != s || c->is_sched))
		return 0;
	return c;
}

long
sys_thd_create(struct thd *t, uint64_t comp, uint64_t ip, uint64_t sp, uint64_t arg, uint64_t fs)
{
	struct comp *s = t->comp, *home;
	struct thd *n;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!(home = create_target(s, comp)))
		return refuse(HR_ECAP, "slot %lu names no live, unpromoted child", comp);
	if (ip >= HR_VA_USER_END || sp >= HR_VA_USER_END || fs >= HR_VA_USER_END)
		return refuse(HR_EINVAL, "ip/sp/fs outside the user half");
	if (!s->thd_quota || !free_head)
		return refuse(HR_ENOMEM, "thread quota or pool exhausted");

	n = thd_alloc();
	hw_frame_init_user(&n->regs, ip, sp);
	hw_frame_call(&n->regs, ip, sp, (const uint64_t[6]){ arg });
	n->fs = fs;
	n->comp = n->home = home;
	n->comp_gen = home->gen;
	n->payer = s;
	n->depth = s->depth;
	for (int i = 0; i <= s->depth; i++)
		n->chain[i] = t->chain[i];
	n->state = HR_TS_READY;
	s->thd_quota--;
	home->nthds++;
	schedtree_publish(n);
	return n->id;
}

/* Checks of thd_switch that need no state change; returns 0 or an error. */
static long
switch_decode(struct thd *t, struct comp *s, struct thd *x, uint64_t flags)
{
	uint64_t one = flags & (HR_SW_BLOCK | HR_SW_EVWAIT | HR_SW_EXIT);

	if ((flags & ~(uint64_t) HR_SW_ALL) || (one & (one - 1)))
		return refuse(HR_EINVAL, "flags %lx", flags);
	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (s->pevt)
		return HR_EPEVT;
	if (!x)
		return refuse(HR_ENOENT, "no such thread");
	if (!schedtree_sees(s, x) || !schedtree_sees(s, t))
		return refuse(HR_EPERM, "thread %u not granted to scheduler %u", x->id, s->id);
	if (x->state == HR_TS_BLOCKED && x->blocker < s->depth)
		return refuse(HR_EPERM, "thread %u blocked by an ancestor", x->id);
	if ((flags & (HR_SW_PEVT | HR_SW_TURN)) &&
	    !(x->home && x->home->is_sched && x->home->cs == x && x->home->parent == s))
		return refuse(HR_EINVAL, "PEVT, TURN: thread %u is no child's c^s", x->id);
	if ((flags & HR_SW_EVWAIT) && s->evt != t)
		return refuse(HR_EPERM, "EVWAIT: thread %u is not the event thread", t->id);
	return 0;
}

long
sys_thd_switch(struct thd *t, uint64_t thd, uint64_t flags, uint64_t tsc)
{
	struct comp *s = t->comp;
	struct thd *x = thd_lookup(thd);
	long err = switch_decode(t, s, x, flags);

	if (err)
		return err;
	if (x == t && (flags & ~(uint64_t) HR_SW_TIMER))
		return HR_EINVAL;
	/* never true: a thread is reaped where its last live frame dies (thd_reap) */
	if (thd_dead(x))
		return refuse(HR_ESTATE, "thread %u can never run again", x->id);
	/* The one failure that changes something, and only what it reports (docs/ABI.md):
	 * EAGAIN hands the event thread the news that events arrived, so the news is taken
	 * (a retry after handling them waits) as event_wait's return of 1 takes it. */
	if ((flags & HR_SW_EVWAIT) && s->evt_pending) {
		s->evt_pending = 0;
		return HR_EAGAIN;
	}

	/* decoded: from here nothing fails (thd_prepare pops x's dead frames, not all) */
	if (flags & HR_SW_TIMER)
		schedtree_timer(s, tsc);
	if (x == t)
		return 0;
	/* a waiting child's scheduler with nothing to decide is passed (the fast path
	 * declines when t has a record to take) */
	if (t->preempted && x->state == HR_TS_EVWAIT)
		x = schedtree_through(t, x, flags & (HR_SW_PEVT | HR_SW_TURN));
	/* or a wake below it that did not get the CPU runs past the levels between (the
	 * fast path declines for the c^s of a scheduler on that wake's path) */
	if (x->state == HR_TS_EVWAIT && !(flags & (HR_SW_PEVT | HR_SW_TURN)) &&
	    (schedtree_acct.through >> x->depth & 1))
		x = schedtree_wake_through(x);
	thd_prepare(x);
	t->regs.rax = 0;
	if (flags & HR_SW_BLOCK) {
		t->state = HR_TS_BLOCKED;
		t->blocker = s->depth;
		schedtree_publish(t);
	}
	if (flags & HR_SW_EVWAIT) {
		t->state = HR_TS_EVWAIT;
		schedtree_publish(t);
	}
	if (x->state == HR_TS_BLOCKED || x->state == HR_TS_EVWAIT) {
		x->state = HR_TS_READY;
		schedtree_publish(x);
	}
	if (flags & HR_SW_PEVT) {
		x->home->pevt = 1;
		x->home->region->pevt = 1;
	}
	thd_dispatch(x, s->depth);
	if (flags & HR_SW_EXIT)
		thd_free(t);
	return 0;
}

long
sys_thd_wakeup(struct thd *t, uint64_t thd)
{
	struct comp *s = t->comp;
	struct thd *x = thd_lookup(thd);

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if (!x)
		return refuse(HR_ENOENT, "no such thread");
	if (!schedtree_sees(s, x))
		return refuse(HR_EPERM, "thread not granted to scheduler %u", s->id);
	if (x->state != HR_TS_BLOCKED)
		return HR_ESTATE;
	if (x->blocker < s->depth)
		return refuse(HR_EPERM, "thread %u blocked by an ancestor", x->id);
	x->state = HR_TS_READY;
	schedtree_publish(x);
	return 0;
}
