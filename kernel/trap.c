/*
 * trap.c - interrupts and exceptions.
 *
 * An exception in user mode is the fault of the component the thread executes in.  Inside
 * an invocation, the callee is marked faulted and the thread returns to its caller with
 * HR_EFAULTED; otherwise the thread cannot continue and its responsible scheduler hears
 * of it through a kernel event.  Either way the kernel reports what happened on the
 * console and carries on.  An exception in kernel mode is a kernel bug: panic.  An NMI is
 * neither: the hardware's (the kernel sends none), counted wherever it lands (trap_nmi) and
 * reported at the next tick.
 */
#include "console.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "net.h"
#include "trace.h"
#include "trap.h"

static const char *const names[32] = {
	"divide error",
	"debug",
	"NMI",
	"breakpoint",
	"overflow",
	"bound range",
	"invalid opcode",
	"device not available",
	"double fault",
	"coprocessor overrun",
	"invalid TSS",
	"segment not present",
	"stack fault",
	"general protection",
	"page fault",
	"reserved",
	"x87 error",
	"alignment check",
	"machine check",
	"SIMD error",
	"virtualization",
	"control protection",
};

/* NMIs taken (trap_nmi) and reported (nmi_report) */
static volatile uint64_t nmis;
static uint64_t nmis_told;

/* Say that NMIs came since the last tick, once: from the tick, where printing is safe. */
static void
nmi_report(void)
{
	uint64_t n = nmis;

	if (n == nmis_told)
		return;
	nmis_told = n;
	kprintf("[k] non-maskable interrupt ignored\n");
}

static uint64_t
fault_addr(uint64_t vec)
{
	uint64_t a = 0;
	if (vec == 14)
		__asm__ volatile("mov %%cr2, %0" : "=r"(a));
	return a;
}

/* Interrupts let in at a preemption point and not yet handled (bit v: vector v), and
 * whether the kernel stands at one (only there and in the idle loop are interrupts on). */
static uint64_t latched;
static uint8_t at_point;
_Static_assert(HW_VECTORS <= 64, "latched: a bit a vector");

int
trap_point(void)
{
	at_point = 1;
	hw_irq_window(); /* trap_kernel notes what comes in */
	at_point = 0;
	return latched != 0;
}

void
trap_drain(void)
{
	while (latched) {
		unsigned vec = (unsigned) __builtin_ctzll(latched);
		latched &= latched - 1;
		trace_irq(vec); /* trap_irq, traced or not */
	}
}

void
trap_irq(unsigned vec)
{
	unsigned cards;

	if (vec == HW_VEC_SPURIOUS)
		return; /* no acknowledgement, by the APIC's rules */
	if (vec == HW_VEC_DEADLINE) {
		hw_deadline_ack();
		schedtree_deadline();
		return;
	}
	if ((cards = hw_net_cards_on(vec))) {
		net_irq(cards); /* their line is down before the end of interrupt */
		hw_irq_ack(vec);
		return;
	}
	hw_irq_ack(vec);
	if (vec == HW_VEC_TIMER) {
		nmi_report();
		console_drain(); /* what the UART takes now: at most its FIFO */
		net_poll();
		schedtree_tick();
	}
}

static void
user_fault(struct thd *t, struct regs *r)
{
	struct comp *c = t->comp;
	/* read the frame before unwinding rewrites it (r is t's own frame) */
	uint64_t vec = r->vector, ip = r->rip, addr = fault_addr(vec);
	const char *what = vec < 32 && names[vec] ? names[vec] : "exception";

	kprintf("[k] fault: %s in component %u (thread %u) at ip %lx addr %lx err %lx cs %lx\n",
		what, c->id, t->id, ip, addr, r->err, r->cs);
	if (t->inv_top) {
		/* the caller gets an error; the callee will never run again */
		thd_unwind(t);
		t->regs.rax = (uint64_t) HR_EFAULTED;
		comp_end(c, COMP_FAULTED, t, vec, ip, addr);
		if (t == cur && thd_prepare(t) == 0) {
			thd_move(t);
			return;
		}
		if (t != cur)
			return;
	} else {
		comp_end(c, COMP_FAULTED, t, vec, ip, addr);
		if (t != cur)
			return;
	}
	struct comp *owner = t->chain[t->depth];
	thd_stop();
	thd_free(t);
	thd_reschedule(owner);
}

void trap(struct regs *r);
void trap_kernel(struct regs *r);
void trap_nmi(struct regs *r);
void trap_bad_return(void);

void
trap(struct regs *r)
{
	assert(hw_kernel_flags_clean());
	if (r->vector >= HW_IRQ_BASE && r->vector < HW_VECTORS) {
		trace_irq((unsigned) r->vector); /* trap_irq, traced or not */
		return;
	}
	if (r->vector == 8) /* its frame is on the IST stack, not the thread's: a kernel bug */
		panic("double fault from user mode at ip %lx", r->rip);
	if (r->vector == 7) { /* device not available: the lazy FPU switch (thd.c) */
		thd_fpu_claim(cur);
		return;
	}
	user_fault(cur, r);
}

/* An NMI, wherever it landed (entry.S: its own stack); r is not a thread's frame.  It may
 * have stopped the kernel anywhere, even in kprintf: only the count changes here. */
void
trap_nmi(struct regs *r)
{
	(void) r;
	nmis++;
}

void
trap_kernel(struct regs *r)
{
	assert(hw_kernel_flags_clean());
	if (r->vector >= HW_IRQ_BASE && r->vector < HW_VECTORS) {
		/* at a preemption point the path it stopped is halfway: noted, and handled
		 * (acknowledged too) once that path stands still (trap_drain) */
		if (at_point)
			latched |= 1ull << r->vector;
		else
			trace_irq((unsigned) r->vector); /* trap_irq, traced or not */
		return;
	}
	panic("kernel %s (vector %lu, error %lx) at ip %lx addr %lx",
	      r->vector < 32 && names[r->vector] ? names[r->vector] : "exception", r->vector,
	      r->err, r->rip, fault_addr(r->vector));
}

/*
 * entry.S found cur about to return outside the user half (a syscall in the last bytes
 * of it): that is the thread's fault, reported as the general protection fault its next
 * instruction fetch would have raised.
 */
void
trap_bad_return(void)
{
	struct regs *r = &cur->regs;

	r->vector = 13;
	r->err = 0;
	user_fault(cur, r);
}
