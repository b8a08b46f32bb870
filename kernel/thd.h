/*
 * thd.h - threads.
 *
 * A thread has saved registers, an invocation stack (the components it migrated through)
 * and a chain of schedulers that can see it: chain[0] is the root, chain[depth] its
 * owner, the deepest scheduler it has been granted to.  A scheduler S may dispatch a thread
 * iff chain[S->depth] == S.  Everything the kernel knows about a thread sits here, sized
 * by the compile-time bounds, so no operation on it allocates.
 */
#ifndef THD_H
#define THD_H

#include "kernel.h"
#include "comp.h" /* thd_enter */

#define THD_INV_MAX 32

struct inv_frame {
	struct comp *comp; /* caller */
	uint32_t gen;	   /* caller's generation: a caller that died (or whose id was
			    * reused) is never returned into */
	int32_t stk;	   /* invocation stack taken in the callee */
	uint64_t rip, rsp, fs;
};

/*
 * Interrupts from user mode push their frame at TSS.rsp0 = &regs + 1, and the CPU first
 * aligns that to 16 bytes: regs must end on a 16-byte boundary, hence the alignment.
 */
struct __attribute__((aligned(16))) thd {
	struct regs regs;  /* must stay the first member: entry.S saves into it */
	struct hw_fpu fpu; /* valid while another thread owns the FPU registers */
	uint64_t fs;
	uint16_t id;
	uint32_t gen;	 /* bumped on every reuse of this id */
	uint8_t state;	 /* enum hr_thd_state */
	uint8_t depth;	 /* depth of the owner, chain[depth] */
	uint8_t blocker; /* depth of the scheduler that blocked it */
	/* the bytes of inv[] in use, ninv frames' worth (thd_ninv): the fast paths
	 * (arch/x86_64/fastpath.S) index inv[] by it without a multiply */
	uint16_t inv_top;
	struct comp *comp;  /* component it executes in now */
	uint32_t comp_gen;  /* comp's generation when entered: a reused id is not comp */
	struct comp *home;  /* component it was created in */
	struct comp *payer; /* component whose thread quota it uses */
	struct comp *chain[HR_DEPTH_MAX + 1];
	struct inv_frame inv[THD_INV_MAX];
	struct thd *preempted; /* event threads: whom their activation interrupted */
	uint32_t preempted_gen;
	uint32_t preempted_news; /* schedtree.c's news_gen then */
	struct thd *free_next;
};

/* How many invocation frames t has pushed: t->inv[thd_ninv(t) - 1] is the last. */
static inline int
thd_ninv(const struct thd *t)
{
	return t->inv_top / sizeof(struct inv_frame);
}

extern struct thd thds[HR_THD_MAX];
extern struct thd *cur;

struct thd *thd_lookup(uint64_t id); /* live thread with this id, or NULL */
struct thd *thd_alloc(void);
void thd_free(struct thd *t);
/* Run t next: page table and FS base (hw_set_space), register frame, accounting
 * (schedtree.c). */
/* t, running, used x87/SSE while the registers held another thread's state (#NM): save
 * that state, load t's, and let t go on. */
void thd_fpu_claim(struct thd *t)
	__attribute__((no_caller_saved_registers)); /* rare: the fast paths keep their registers */
/* t, running, moves into another component (an invocation or its return): the registers
 * must hold t's own state there, not a thread's of the component it leaves (thd.c). */
extern struct thd *fpu_owner; /* whose x87/SSE state the registers hold (thd.c) */
/* fpu_owner when no thread's state is there: thds[0], never a thread, whose comp is NULL
 * (so one test tells "another thread of t's component") */
#define FPU_NOBODY (&thds[0])
static inline void
thd_fpu_settle(struct thd *t)
{
	if (fpu_owner != t)
		thd_fpu_claim(t);
}
void thd_dispatch(struct thd *t, int from_level);
void schedtree_catch_up_in(const struct comp *c); /* schedtree.h, which includes this */
/* t is about to run in its component: what the component's region shows must be up to
 * date (schedtree.c, behind), and its page table and t's FS base are loaded */
static inline void
thd_space(const struct thd *t)
{
	if (__builtin_expect(t->comp->behind, 0))
		schedtree_catch_up_in(t->comp);
	hw_set_space(t->comp->pgtbl, t->fs);
}
/*
 * t, now cur, is about to run: its FPU state, register frame, page table and FS base.
 * Between threads of one component the FPU switch is lazy: the registers keep fpu_owner's
 * state until t touches them (#NM: thd_fpu_claim), so threads that never use x87/SSE never
 * pay fxsave and fxrstor, 512 bytes each.  Into another component it is eager: registers
 * left holding one component's values while another runs could be read speculatively on
 * CPUs open to LazyFP (CVE-2018-3665).
 */
static inline void
thd_enter(struct thd *t)
{
	if (fpu_owner == t)
		hw_fpu_trap(0);
	else if (fpu_owner->comp == t->comp)
		hw_fpu_trap(1);
	else
		thd_fpu_claim(t);
	hw_set_current(&t->regs);
	thd_space(t);
}
/* t, running, goes on in t->comp, another component (an invocation, its return, an unwind
 * past a faulted or ended callee): its FPU state and the component's space. */
static inline void
thd_move(struct thd *t)
{
	thd_fpu_settle(t);
	thd_space(t);
}
/* Pop frames returning into dead components; 0 if t can run, HR_ESTATE if it never can
 * again (the caller frees it).  The check is inline, as threads seldom have frames to pop
 * and every activation asks; thd_prepare_unwind pops them. */
long thd_prepare_unwind(struct thd *t);
static inline long
thd_prepare(struct thd *t)
{
	if (__builtin_expect(t->comp->gen == t->comp_gen && t->comp->state == COMP_LIVE, 1))
		return 0;
	return thd_prepare_unwind(t);
}
/* 1 if every component on t's invocation stack (the one it executes in and each frame's
 * caller) has ended or gone:  Then thd_prepare would fail: t can never run again. */
int thd_dead(const struct thd *t);
/* Free every thread but cur that thd_dead says can never run again: called where a
 * component ends, so a thread is freed where its last live frame dies, never on the failing
 * path of a call that names it. */
void thd_reap(void);
/* Pop the innermost invocation frame; the caller sets the return value. */
void thd_unwind(struct thd *t);
/* cur stops running (it blocked, died or parks): close its accounting, cur = NULL. */
void thd_stop(void);
/* Run something after cur stopped: the event thread of s or of an ancestor, else idle. */
_Noreturn void thd_reschedule(struct comp *s);
/* Idle until an interrupt makes a thread current. */
_Noreturn void thd_idle(void);
/* Thread exit (Linux exit): free t, tell its owner, run something else. */
_Noreturn void thd_exit(struct thd *t, long status);
void thd_pool_init(void);

#endif
