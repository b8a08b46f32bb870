/*
 * trace.c - the scheduling trace (trace.h): a ring of 16-byte records the hooks append to,
 * and its drain to the trace port, a serial line of its own so the console and its tests
 * never see it.  What goes out is text, one line each (docs/TRACE.md):
 *   hrtrace 1 tsc_hz=N            first: the format and the TSC rate
 *   r <32 hex digits>             a record (struct trace_rec's bytes)
 *   m ID DEPTH SUBSYSTEM HOME ROLE a live thread's names, after each drain and as it is freed
 *   end <tsc>                     the trace is complete
 * The kernel sees switches, activations, interrupts and the events it posts; budgets are
 * user-level schedulers' business (rm/sched.c), so they appear only as what they cause.
 * The hooks are the pointers of trace.h, which trace_init points at the wrappers here.
 */
#include "trace.h"
#include "fastpath.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"

#define TRACE_RING 4096 /* records: 64 KiB, drained as a whole when full */

uint8_t trace_on;
void (*trace_account)(struct thd *from, struct thd *to, int level) = schedtree_account;
void (*trace_activate)(struct comp *s) = schedtree_activate;
void (*trace_wake_up)(struct comp *s) = schedtree_wake_up;
void (*trace_irq)(unsigned vec) = trap_irq;
int (*trace_kev_put)(struct kev_q *q, struct hr_sched_region *r, struct hr_kevent ev) = kev_put;
int (*trace_kev_notice)(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n,
			uint16_t type, uint16_t comp) = kev_notice;

static struct trace_rec ring[TRACE_RING];
static unsigned used;

static void
puts_port(const char *s)
{
	while (*s)
		hw_trace_tx(*s++);
}

static void
put_hex(uint64_t v, int digits)
{
	while (digits--)
		hw_trace_tx("0123456789abcdef"[(v >> (4 * digits)) & 15]);
}

static void
put_dec(uint64_t v)
{
	char buf[24];
	int n = 0;

	do
		buf[n++] = (char) ('0' + v % 10);
	while (v /= 10);
	while (n)
		hw_trace_tx(buf[--n]);
}

/* c's path as the console tags it (kernel/console.c): "root", "web", "web/leaf", "#7". */
static void
put_path(const struct comp *c, int top)
{
	if (!c) {
		hw_trace_tx('-');
		return;
	}
	if (c == root_comp) {
		if (top)
			puts_port("root");
		return;
	}
	if (c->parent && c->parent != root_comp) {
		put_path(c->parent, 0);
		hw_trace_tx('/');
	}
	if (!c->name[0]) {
		hw_trace_tx('#');
		put_dec(c->id);
		return;
	}
	for (unsigned i = 0; i < sizeof(c->name) && c->name[i]; i++)
		hw_trace_tx(c->name[i]);
}

static void
put_meta(const struct thd *t)
{
	const struct comp *owner = t->chain[t->depth];
	int evt = owner && owner->evt == t;
	int cs = t->home && t->home->is_sched && t->home->cs == t;
	/* a child's c^s usually becomes its event thread too */
	const char *role = cs && evt ? "cs,evt" : cs ? "cs" : evt ? "evt" : "-";

	puts_port("m ");
	put_dec(t->id);
	hw_trace_tx(' ');
	put_dec(t->depth);
	hw_trace_tx(' ');
	put_path(owner, 1);
	hw_trace_tx(' ');
	put_path(t->home, 1);
	hw_trace_tx(' ');
	puts_port(role);
	hw_trace_tx('\n');
}

/* Send every record, then the names of every live thread (the records name them by id). */
static void
drain(void)
{
	for (unsigned i = 0; i < used; i++) {
		const uint8_t *p = (const uint8_t *) &ring[i];
		puts_port("r ");
		for (unsigned j = 0; j < sizeof(ring[i]); j++)
			put_hex(p[j], 2);
		hw_trace_tx('\n');
	}
	used = 0;
	for (unsigned i = 1; i < HR_THD_MAX; i++)
		if (thds[i].state != HR_TS_FREE)
			put_meta(&thds[i]);
}

/* The ring is full: send it, and note how long that took (time the trace shows nobody). */
static void
drain_full(void)
{
	uint64_t t0 = hw_tsc();

	drain();
	ring[used++] = (struct trace_rec){ t0, TRACE_DRAIN, 0, 0,
					   (uint32_t) MIN(hw_tsc() - t0, UINT32_MAX) };
}

/* Inlined into the switch hook: a switch record costs a few stores and an rdtsc. */
static inline __attribute__((always_inline)) void
put(uint8_t type, uint8_t x, uint16_t a, uint32_t b)
{
	if (__builtin_expect(used == TRACE_RING, 0))
		drain_full();
	ring[used++] = (struct trace_rec){ hw_tsc(), type, x, a, b };
}

static void
account_traced(struct thd *from, struct thd *to, int level)
{
	put(TRACE_SWITCH, (uint8_t) level, from ? from->id : 0, to ? to->id : 0);
	schedtree_account(from, to, level);
}

/* Recorded before it runs, so that it precedes the switch it may cause; whether it took the
 * CPU is filled in afterwards (unless the ring was drained in between). */
static void
activate_traced(struct comp *s)
{
	struct thd *e = s->evt;
	unsigned i;

	if (!e || e->state != HR_TS_EVWAIT) {
		schedtree_activate(s); /* nothing to wake: no record */
		return;
	}
	put(TRACE_ACTIVATE, 0, e->id, s->id);
	i = used - 1;
	schedtree_activate(s);
	if (i < used && ring[i].type == TRACE_ACTIVATE)
		ring[i].x = cur == e;
}

static void
irq_traced(unsigned vec)
{
	put(TRACE_IRQ, (uint8_t) vec, 0, 0);
	trap_irq(vec);
}

/* The scheduler a ring belongs to: the queue is its component's (comp.h: evq). */
static const struct comp *
evq_owner(const struct kev_q *q)
{
	return (const struct comp *) ((const char *) q - __builtin_offsetof(struct comp, evq));
}

static int
kev_put_traced(struct kev_q *q, struct hr_sched_region *r, struct hr_kevent ev)
{
	put(TRACE_KEV, (uint8_t) ev.type, evq_owner(q)->id, ev.thd ? ev.thd : ev.comp);
	return kev_put(q, r, ev);
}

static int
kev_notice_traced(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n, uint16_t type,
		  uint16_t comp)
{
	put(TRACE_KEV, (uint8_t) type, evq_owner(q)->id, comp);
	return kev_notice(q, r, n, type, comp);
}

void
trace_init(int on, uint64_t tsc_hz)
{
	if (!on)
		return;
	hw_trace_init();
	puts_port("hrtrace 1 tsc_hz=");
	put_dec(tsc_hz);
	hw_trace_tx('\n');
	trace_on = 1;
	fast_switch_max = 0;
	trace_account = account_traced;
	trace_activate = activate_traced;
	trace_wake_up = schedtree_wake_up_traced; /* its activations and notices through these */
	trace_irq = irq_traced;
	trace_kev_put = kev_put_traced;
	trace_kev_notice = kev_notice_traced;
}

void
trace_thd_free(const struct thd *t)
{
	/* its records, then its last names, then the record that ends its id's use: the
	 * decoder applies names to the thread the id stands for where they appear */
	drain();
	put_meta(t);
	put(TRACE_FREE, 0, t->id, 0);
}

void
trace_end(void)
{
	if (!trace_on)
		return;
	/* off from here: no hook records, and a panic inside the drain does not drain again */
	trace_on = 0;
	fast_switch_max = FP_THD_MAX - 1;
	trace_account = schedtree_account;
	trace_activate = schedtree_activate;
	trace_wake_up = schedtree_wake_up;
	trace_irq = trap_irq;
	trace_kev_put = kev_put;
	trace_kev_notice = kev_notice;
	drain();
	puts_port("end ");
	put_dec(hw_tsc());
	hw_trace_tx('\n');
}
