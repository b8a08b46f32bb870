/*
 * subsys.c - the generic subsystem (subsys.h): descriptor in, children built, scheduler
 * running.  Every line it prints starts with "[name]" so the console of a whole tree
 * reads as one log; tests/ and eval/ parse these lines.
 *
 * Each child's reservations are made with our reservation manager before it is built
 * (delegate.c), and its scheduler entity gets exactly the CPU reservation that was
 * admitted.  A child that faults is torn down; if its manifest entry asks for it
 * (restart.h), it is built again from its descriptor node once its backoff is over, on our
 * event thread, whose timer includes the earliest such rebuild.
 */
#include "subsys.h"
#include "caps.h"
#include "child.h"
#include "ctor.h"
#include "delegate.h"
#include "net.h"
#include "desc.h"
#include "events.h"
#include "hrtop.h"
#include "parent.h"
#include "restart.h"
#include "runtime.h"
#include "sched.h"
#include "lib/treeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLICE_TICKS 2

#define TASKS_MAX DESC_TASKS_MAX

static const void *fdt;
static const char *me;
/* Our parent's hrtop request in the page it shares with us (NULL for the root), and
 * whether it held 1 when our parent last told us something (sched_parent_news: it bumps
 * the page's events when it changes it), which every turn asks (hrtop.h). */
static const volatile uint32_t *parent_asks;
static int parent_wants_top;
static int failures;
static unsigned pending; /* children waiting to be rebuilt (restart.h) */
static struct {
	char name[HR_NAME_MAX];
	long ent;
} tasks[TASKS_MAX]; /* our tasks by manifest name, for subsys_entity */
static unsigned ntasks;

extern const struct hr_task __start_hr_tasks[] __attribute__((weak));
extern const struct hr_task __stop_hr_tasks[] __attribute__((weak));

static const struct hr_task *
find_task(const char *name)
{
	/* the linker places every HR_TASK between these two symbols */
	// cppcheck-suppress comparePointers
	for (const struct hr_task *t = __start_hr_tasks; t && t < __stop_hr_tasks; t++)
		if (!strcmp(t->name, name))
			return t;
	return 0;
}

static struct pol_param
param(const struct desc_node *d)
{
	return (struct pol_param){ .prio = d->priority,
				   .kind = d->cpu_kind,
				   .budget = d->budget,
				   .period = d->period,
				   .server = d->server };
}

static void
failed(const char *what, const char *name, const char *why)
{
	printf("%s '%s': %s\n", what, name, why);
	failures++;
}

static void
announce_component(const struct desc_node *d)
{
	char line[200];

	treeline_component(line, sizeof(line), d->name, (uint64_t) d->memory_pages * 4);
	printf("%s\n", line);
}

/* Reserve, construct and schedule c as d describes: 0, or an HR_E* code with a sentence in
 * why, and then nothing of it is left but its record. */
static long
build_into(struct child *c, const struct desc_node *d, char *why, size_t len)
{
	struct ctor_spec s = { .name = d->name,
			       .program = d->program,
			       .mem_pages = d->memory_pages,
			       .desc = fdt,
			       .node = d->offset,
			       .subsystem = d->type == DESC_SUBSYSTEM };
	struct pol_param p = param(d);
	long r;

	if ((r = delegate_reserve(c, d, why, len)) || (r = ctor_build(&s, &c->ctor, why, len))) {
		delegate_forget(c);
		return r;
	}
	if ((r = delegate_net(c, d, why, len))) {
		ctor_destroy(&c->ctor);
		delegate_forget(c);
		return r;
	}
	if ((r = sched_add(s.subsystem ? ENT_CHILD : ENT_THREAD, (uint32_t) c->ctor.tid, &p, c)) <
	    0) {
		ctor_destroy(&c->ctor);
		delegate_forget(c);
		snprintf(why, len, "cannot schedule '%s': %s", d->name, hr_strerror(r));
		return r;
	}
	c->ent = r;
	sched_ent(c->ent)->pcb = c->ctor.pcb;
	if (!s.subsystem)
		announce_component(d);
	return 0;
}

static void
build_child(const struct desc_node *d)
{
	struct child *c = child_new(d->name, d->type);
	char why[160] = "";

	if (!c)
		return failed("cannot construct", d->name, "too many children");
	c->node = d->offset;
	restart_init(&c->restart, d->restart_policy, d->restart_max, d->restart_backoff);
	if (build_into(c, d, why, sizeof(why))) {
		child_free(c);
		return failed("cannot construct", d->name, why);
	}
}

static void
start_task(const struct desc_node *d)
{
	const struct hr_task *t = find_task(d->entry);
	struct pol_param p = param(d);
	char why[160];
	long tid, ent, res;

	if (!t)
		return failed("task", d->name, "this program has no such entry");
	if (delegate_task(d, &res, why, sizeof(why)))
		return failed("task", d->name, why);
	if ((tid = hr_thread_create(t->fn, (void *) (uintptr_t) d->arg)) < 0 ||
	    (ent = sched_add(ENT_THREAD, (uint32_t) tid, &p, 0)) < 0)
		return failed("task cannot start", d->name, hr_strerror(tid < 0 ? tid : HR_ENOMEM));
	delegate_task_served(res, ent);
	if (ntasks < TASKS_MAX) {
		snprintf(tasks[ntasks].name, sizeof(tasks[ntasks].name), "%s", d->name);
		tasks[ntasks++].ent = ent;
	}
}

/* Programs that care define hr_child_ended and hr_child_restarted; the weak defaults do
 * nothing. */
__attribute__((weak)) void
hr_child_ended(const char *name, int faulted, long status)
{
	(void) name, (void) faulted, (void) status;
}

__attribute__((weak)) void
hr_child_restarted(const char *name, unsigned n)
{
	(void) name, (void) n;
}

/* On the event thread: the child's kernel objects go now, its bookkeeping when we can.
 * What this life was charged is kept: its row counts every life, so that a rate between
 * two looks across a restart is what both lives took (hrtop), not the new life's total
 * against the old one's. */
static void
child_gone(struct child *c)
{
	if (c->ent >= 0) {
		c->spent_before += sched_consumed(c->ent);
		sched_remove(c->ent);
	}
	c->ent = -1;
	ctor_destroy(&c->ctor);
	events_forget(c);
	if (delegate_forget_try(c))
		child_retire(c); /* else it is marked dead, and forgotten on a later turn */
}

/* A child faulted: it goes, as every faulted child, and comes back later if its manifest
 * entry says so (restart.h). */
static void
child_faulted(struct child *c, const struct hr_kevent *ev)
{
	printf("child '%s' faulted (vector %lu at ip %#lx, address %#lx)\n", c->name,
	       (unsigned long) ev->a, (unsigned long) ev->b, (unsigned long) ev->c);
	hr_child_ended(c->name, 1, 0);
	switch (restart_fault(&c->restart, hr_tsc(), hr_tick_tsc())) {
	case RESTART_PENDING:
		pending++;
		break;
	case RESTART_EXHAUSTED:
		printf("child '%s' faulted %u time%s: not restarted (restart-max %u)\n", c->name,
		       c->restart.faults, c->restart.faults == 1 ? "" : "s", c->restart.max);
		failures++;
		break;
	case RESTART_NOT_WANTED:
		failures++;
		break;
	}
	child_gone(c);
}

/* On the event thread, once c is down and its backoff is over: build it again from its
 * descriptor node, with the reservations it declares admitted again. */
static void
rebuild(struct child *c)
{
	struct desc_node d;
	const char *err;
	char why[160] = "";
	unsigned n;

	pending--;
	c->down = 0;
	if (desc_read(fdt, c->node, &d, &err)) {
		snprintf(why, sizeof(why), "its descriptor node: %s", err);
	} else if (!build_into(c, &d, why, sizeof(why))) {
		n = restart_finish(&c->restart, 1);
		printf("restarted '%s' (%u of %u)\n", c->name, n, c->restart.max);
		hr_child_restarted(c->name, n);
		return;
	}
	restart_finish(&c->restart, 0);
	failed("cannot restart", c->name, why);
	child_free(c);
}

/* Children whose backoff is over.  Building takes the reservation book's lock, which the
 * event thread does not wait for: if a child's request holds it, a later turn builds. */
static void
rebuild_due(void)
{
	uint64_t now = hr_tsc();

	for (struct child *c = child_next(0); c && pending && !delegate_busy(); c = child_next(c))
		if (c->down && restart_due(&c->restart, now))
			rebuild(c);
}

static void
on_kevent(const struct hr_kevent *ev)
{
	struct child *c = ev->comp ? child_by_comp(ev->comp) : 0;

	if (ev->type == HR_KEV_IDLE && c) {
		sched_block(c->ent, 0); /* until its timer fires (HR_KEV_WAKE) or we wake it */
	} else if (ev->type == HR_KEV_WAKE && c) {
		sched_wake(c->ent);
	} else if (ev->type == HR_KEV_FAULT && c) {
		child_faulted(c, ev);
	} else if (ev->type == HR_KEV_EXIT && c) {
		printf("child '%s' exited with status %ld\n", c->name, (long) ev->a);
		failures += ev->a != 0;
		hr_child_ended(c->name, 0, (long) ev->a);
		child_gone(c);
	} else if (ev->type == HR_KEV_EXIT) {
		long id = sched_find(ev->thd);
		struct child *owner = id >= 0 ? sched_ent(id)->owner : 0;
		if (owner)
			owner->ent = -1; /* a passive component: its first thread retired */
		sched_remove(id);
	}
}

_Noreturn void
subsys_exit(int more_failures)
{
	failures += more_failures;
	printf("finished (%d failure%s)\n", failures, failures == 1 ? "" : "s");
	exit(failures ? 1 : 0);
}

/* Nothing left to schedule: we are finished, unless a child is still to be rebuilt or a
 * thread waits for frames (which come from outside, not from a timer of ours). */
static void
on_finished(void)
{
	if (!pending && !net_waiting())
		subsys_exit(0);
}

/*
 * The kernel dropped events: each child's state says whether it ended (the fault's details
 * are gone: "vector 0"), and a child subsystem whose wake-up was lost is simply woken; if
 * it has nothing to do it idles again.
 */
static void
on_lost(void)
{
	for (struct child *c = child_next(0); c; c = child_next(c)) {
		long st = c->dead ? 0 : hr_comp_state(c->ctor.slot);
		struct hr_kevent ev = { .comp = (uint16_t) c->ctor.comp };

		if (st < 0)
			continue;
		if ((st & 0xff) == HR_CS_FAULTED || (st & 0xff) == HR_CS_EXITED) {
			ev.type = (st & 0xff) == HR_CS_FAULTED ? HR_KEV_FAULT : HR_KEV_EXIT;
			ev.a = (uint64_t) ((st >> 8) & 0xff);
			on_kevent(&ev);
		} else if (c->type == DESC_SUBSYSTEM && c->ent >= 0) {
			sched_wake(c->ent);
		}
	}
}

/* The layer's turn when hrtop looks or a child is to be rebuilt; returns when the next
 * child is due to be rebuilt or our report to hrtop (UINT64_MAX: none). */
static __attribute__((noinline)) uint64_t
layer_turn(void)
{
	int wanted = hrtop_wanted(parent_wants_top);
	uint64_t t;

	if (wanted)
		hrtop_turn();
	if (pending)
		rebuild_due();
	t = wanted ? hrtop_next() : UINT64_MAX;
	for (struct child *c = pending ? child_next(0) : 0; c; c = child_next(c))
		if (c->restart.at && c->restart.at < t)
			t = c->restart.at;
	return t;
}

/* The layer's turn; returns when it wants one of its own (UINT64_MAX: none), which the
 * rest of the turn does not change.  Most turns nobody looks and nothing is to be rebuilt:
 * layer_turn is apart, so that they keep no registers. */
static uint64_t
on_turn(void)
{
	delegate_turn();
	net_turn();
	if (sched_parent_news)
		parent_wants_top = parent_asks && *parent_asks == 1;
	if (hrtop_wanted(parent_wants_top) || pending)
		return layer_turn();
	return UINT64_MAX;
}

static const struct sched_hooks hooks = {
	.kevent = on_kevent,
	.finished = on_finished,
	.turn = on_turn,
	.lost = on_lost,
};

long
subsys_entity_of(uint32_t comp)
{
	struct child *c = child_by_comp(comp);
	return c ? c->ent : -1;
}

long
subsys_connect(uint32_t caller, const char *name)
{
	struct child *from = child_by_comp(caller), *to = child_by_name(name);
	long r;

	if (!from || !to || to->type != DESC_COMPONENT)
		return HR_ENOENT;
	/* a child may have filled slots of its own table itself: take the next free one */
	do {
		if (from->next_cap >= HR_CAP_MAX)
			return HR_ENOMEM;
		r = hr_cap_invoke(from->ctor.slot, from->next_cap, to->ctor.slot, 0);
	} while (r == HR_EEXIST && ++from->next_cap);
	if (r)
		return r;
	return from->next_cap++;
}

long
subsys_child_slot(const char *name)
{
	struct child *c = child_by_name(name);
	return c ? c->ctor.slot : HR_ENOENT;
}

long
subsys_entity(const char *name)
{
	struct child *c = child_by_name(name);

	if (c)
		return c->ent >= 0 ? c->ent : HR_ENOENT;
	for (unsigned i = 0; i < ntasks; i++)
		if (!strcmp(tasks[i].name, name))
			return sched_ent(tasks[i].ent) ? tasks[i].ent : HR_ENOENT;
	return HR_ENOENT;
}

long
subsys_rebind_cpu(const char *name, uint32_t budget, uint32_t period, char *why, size_t len)
{
	struct child *c = child_by_name(name);

	if (!c) {
		snprintf(why, len, "no child called '%s'", name);
		return HR_ENOENT;
	}
	return delegate_cpu_rebind(c, budget, period, why, len);
}

long
subsys_cap_to(const char *name)
{
	struct child *c = child_by_name(name);
	long slot, r;

	if (!c || c->type != DESC_COMPONENT)
		return HR_ENOENT;
	if ((slot = caps_alloc()) < 0)
		return slot;
	if ((r = hr_cap_invoke(HR_CAP_SELF, slot, c->ctor.slot, 0))) {
		caps_free(slot);
		return r;
	}
	return slot;
}

_Noreturn void
subsys_main(void)
{
	struct desc_node d;
	struct hr_pcb *pp = parent_page();
	const char *why;
	unsigned kids = 0;
	long r;

	me = hr_bootinfo()->name;
	if (pp)
		parent_asks = &pp->top_want;
	if (!(fdt = desc_self(&why)) || desc_read(fdt, 0, &d, &why))
		hr_die("boot descriptor: %s", why);
	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n))
		kids++;
	delegate_init(&d, kids, desc_builds(fdt, 0));
	if ((r = sched_init(d.policy, SLICE_TICKS, &hooks)) || (r = events_init(kids)) ||
	    (r = parent_serve(desc_builds(fdt, 0))))
		hr_die("scheduler or services: %s", hr_strerror(r));
	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n)) {
		struct desc_node k;
		if (desc_read(fdt, n, &k, &why))
			failed("bad descriptor node", "?", why);
		else if (k.type == DESC_TASK)
			start_task(&k);
		else
			build_child(&k);
	}
	sched_run();
}
