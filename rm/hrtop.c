/*
 * hrtop.c - the live view of our subtree (hrtop.h): its rows gathered from our scheduler
 * region, our scheduler, our reservation book and our children's reports, printed by a task
 * of ours, and our own report to our parent, published by our event thread.
 */
#include "hrtop.h"
#include "kernel/abi/hr_net.h"
#include "child.h"
#include "delegate.h"
#include "desc.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"
#include "subsys.h"

#include <stdio.h>
#include <string.h>

static volatile int viewing;		     /* a task of ours runs hrtop_run */
volatile uint32_t hrtop_looking;	     /* viewing, or we asked our children (hrtop.h) */
static uint64_t published_at;		     /* event thread: our last report to our parent */
static struct toprow report[HRTOP_ROWS_MAX]; /* event thread: that report */

static uint64_t
ms_tsc(uint64_t ms)
{
	return hr_bootinfo()->tsc_hz * ms / 1000;
}

static uint32_t
mem(long slot, uint64_t what)
{
	long v = hr_mem_info((uint64_t) slot, what, 0);
	return v >= 0 && v < (long) TOPROW_NONE ? (uint32_t) v : 0;
}

static void
named(struct toprow *r, const char *name, const char *policy)
{
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->policy, sizeof(r->policy), "%s", policy ? policy : "");
}

/* What the kernel charged to our threads, and to our children's (their c^s) unless own. */
static uint64_t
consumed(int own)
{
	struct hr_sched_region *reg = hr_region();
	uint32_t want = own ? HR_SLOT_OWNED : HR_SLOT_OWNED | HR_SLOT_CS;
	uint64_t sum = 0;

	for (unsigned t = 1; t < HR_THD_MAX; t++)
		if (reg->slot[t].flags & want && !(own && reg->slot[t].flags & HR_SLOT_CS))
			sum += reg->slot[t].consumed;
	return sum;
}

uint64_t
hrtop_consumed_self(void)
{
	return consumed(0);
}

uint64_t
hrtop_consumed_own(void)
{
	return consumed(1);
}

/* Ourselves: what the kernel charged to all our threads and children, our supply. */
static void
own_row(struct toprow *r, const struct desc_node *self, uint64_t now)
{
	struct admit_supply s = delegate_supply();

	*r = (struct toprow){ .kind = TOPROW_SUBSYSTEM, .at = now };
	named(r, hr_bootinfo()->name, self->policy);
	if (hr_bootinfo()->depth == 0) {
		r->res = RES_HARD; /* the whole CPU */
		r->budget = r->period = 1;
	} else if (self->cpu_kind) {
		r->res = (uint8_t) self->cpu_kind;
		r->budget = s.budget;
		r->period = s.period;
	}
	r->consumed = hrtop_consumed_self();
	r->mem_used = mem(HR_CAP_SELF, HR_MI_USED);
	r->mem_bound = mem(HR_CAP_SELF, HR_MI_BOUND);
}

/* Entity ent of ours, as our scheduler and the kernel's accounting see it. */
static void
entity_row(struct toprow *r, long ent, uint64_t now)
{
	r->depth = 1;
	r->at = now;
	r->consumed = ent >= 0 ? sched_consumed(ent) : 0;
	r->misses = ent >= 0 ? sched_misses(ent) : 0;
}

static void
task_row(struct toprow *r, const struct desc_node *d, uint64_t now)
{
	*r = (struct toprow){ .kind = TOPROW_TASK,
			      .res = (uint8_t) d->cpu_kind,
			      .budget = d->budget,
			      .period = d->period,
			      .mem_used = TOPROW_NONE,
			      .mem_bound = TOPROW_NONE };
	named(r, d->name, 0);
	entity_row(r, subsys_entity(d->name), now);
}

static void
child_row(struct toprow *r, const struct desc_node *d, struct child *c, uint64_t now)
{
	uint32_t kind, budget, period;
	uint64_t before;

	delegate_cpu_now(c, &kind, &budget, &period);
	*r = (struct toprow){ .kind = d->type == DESC_SUBSYSTEM ? TOPROW_SUBSYSTEM
								: TOPROW_COMPONENT,
			      .res = (uint8_t) kind,
			      .budget = budget,
			      .period = period };
	named(r, d->name, d->type == DESC_SUBSYSTEM ? d->policy : 0);
	/* Every life's (child_gone).  From a task (hrtop_snapshot), our event thread may
	 * retire a life between our reads (it preempts the task, never the other way round):
	 * had it, the sum kept has moved, and the life's own CPU read before would count
	 * twice.  On the event thread (hrtop_turn) nothing moves. */
	do {
		before = __atomic_load_n(&c->spent_before, __ATOMIC_ACQUIRE);
		entity_row(r, child_live(c) ? c->ent : -1, now);
	} while (before != __atomic_load_n(&c->spent_before, __ATOMIC_ACQUIRE));
	r->consumed += before;
	r->mem_used = child_live(c) ? mem(c->ctor.slot, HR_MI_USED) : 0;
	r->mem_bound = child_live(c) ? mem(c->ctor.slot, HR_MI_BOUND) : 0;
}

/* Our subtree into rows[0..max): how many.  Our children's rows follow each, as they
 * reported them (claims). */
static unsigned
gather(struct toprow *rows, unsigned max)
{
	const char *why;
	const void *fdt = desc_self(&why);
	struct desc_node self, d;
	uint64_t now = hr_tsc();
	unsigned k = 0;

	if (!fdt || !max || desc_read(fdt, 0, &self, &why))
		return 0;
	own_row(&rows[k++], &self, now);
	for (int n = desc_child(fdt, 0); n >= 0 && k < max; n = desc_sibling(fdt, n)) {
		struct child *c = 0;
		if (desc_read(fdt, n, &d, &why) ||
		    (d.type != DESC_TASK && !(c = child_by_name(d.name))))
			continue;
		if (c)
			child_row(&rows[k], &d, c, now);
		else
			task_row(&rows[k], &d, now);
		rows[0].misses += rows[k++].misses;
		if (c && child_live(c) && c->ctor.pcb)
			k += toprow_wire_get(&c->ctor.pcb->top, rows + k, max - k, 1);
	}
	return k;
}

/* Ask each child subsystem to report (want 1) or stop; a change wakes its scheduler.  While
 * someone looks, every turn (a child rebuilt has a fresh page); otherwise once. */
static uint32_t wanted; /* what we last asked our children (ask_children) */

static void
ask_children(uint32_t want)
{
	wanted = want;
	hrtop_looking = viewing || wanted;
	for (struct child *c = child_next(0); c; c = child_next(c)) {
		if (!child_live(c) || !c->ctor.pcb || c->ctor.pcb->top_want == want)
			continue;
		c->ctor.pcb->top_want = want;
		c->ctor.pcb->events++;
		if (c->ent >= 0)
			sched_wake(c->ent);
	}
}

void
hrtop_turn(void)
{
	struct hr_pcb *pcb = parent_page();
	int asked = pcb && pcb->top_want == 1;
	uint64_t now;
	unsigned n;

	ask_children(viewing || asked);
	now = hr_tsc();
	if (!asked || (published_at && now < published_at + ms_tsc(HRTOP_PUBLISH_MS)))
		return;
	published_at = now;
	n = gather(report, HRTOP_ROWS_MAX);
	toprow_wire_put(&pcb->top, report + 1, n ? n - 1 : 0);
}

uint64_t
hrtop_next(void)
{
	struct hr_pcb *pcb = parent_page();

	if (!pcb || pcb->top_want != 1)
		return UINT64_MAX;
	return published_at + ms_tsc(HRTOP_PUBLISH_MS);
}

unsigned
hrtop_snapshot(struct toprow *rows, unsigned max)
{
	viewing = 1;
	hrtop_looking = 1;
	return gather(rows, max);
}

long
hrtop_row_comp(const struct toprow *r)
{
	if (r->depth == 0)
		return HR_CAP_SELF;
	return r->depth == 1 && r->kind == TOPROW_SUBSYSTEM ? subsys_child_slot(r->name) : -1;
}

long
hrtop_net(const struct toprow *r)
{
	static long cards = -1; /* the kernel finds its cards at boot: ask once */
	long comp = hrtop_row_comp(r), in, out;

	if (cards < 0)
		cards = hr_net_info(HR_CAP_SELF, HR_NI_CARDS, 0);
	if (comp < 0 || cards <= 0)
		return -1; /* not ours to read, or a machine without a card */
	in = hr_net_info(comp, HR_NI_RX_FRAMES, 0);
	out = hr_net_info(comp, HR_NI_TX_FRAMES, 0);
	return in < 0 || out < 0 ? -1 : in + out;
}

uint64_t
hrtop_uptime(void)
{
	const struct hr_kinfo *k = (const struct hr_kinfo *) HR_VA_KINFO;
	return k->ticks * k->tick_tsc;
}

static void
frame(const struct toprow *rows, unsigned n, const struct toprow *prev, unsigned nprev)
{
	char line[200];
	uint64_t up = hrtop_uptime(), ds = up * 10 / hr_bootinfo()->tsc_hz;
	double busy = toprow_share(rows, 0, prev, nprev);

	/* the form feed: a new page on a terminal, if we are the root (kernel/console.h) */
	printf("\f-- hrtop %s at %lu.%lu s: busy %.1f%% over the last interval\n", rows[0].name,
	       (unsigned long) (ds / 10), (unsigned long) (ds % 10), busy < 0 ? 0 : busy);
	toprow_header(line, sizeof(line));
	printf("%s\n", line);
	for (unsigned i = 0; i < n; i++) {
		toprow_line(line, sizeof(line), &rows[i], toprow_share(rows, i, prev, nprev), up,
			    hrtop_net(&rows[i]));
		printf("%s\n", line);
	}
}

static void
sleep_to(uint64_t t)
{
	while (hr_tsc() < t)
		sched_sleep(t);
}

void
hrtop_run(const struct hrtop_opts *o)
{
	static struct toprow rows[2][HRTOP_ROWS_MAX];
	unsigned n[2], cur = 0;
	uint64_t step = ms_tsc(o->interval_ms ? o->interval_ms : 1000), start = hr_tsc();
	uint64_t end = o->seconds ? start + ms_tsc(1000ull * o->seconds) : UINT64_MAX;

	printf("hrtop: this subtree every %u ms%s: CPU%% = share of the whole CPU over the last "
	       "interval, BOOT%% = since boot, MISS = periods short of budget, MEM = pages held/"
	       "bound; seen = measured here, claim = reported by a child about its subtree\n",
	       o->interval_ms ? o->interval_ms : 1000, o->seconds ? "" : " for ever");
	n[0] = hrtop_snapshot(rows[0], HRTOP_ROWS_MAX);
	for (uint64_t next = start + step; next <= end; next += step) {
		sleep_to(next);
		cur ^= 1;
		n[cur] = gather(rows[cur], HRTOP_ROWS_MAX);
		frame(rows[cur], n[cur], rows[cur ^ 1], n[cur ^ 1]);
	}
	viewing = 0;
}
