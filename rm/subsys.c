/*
 * subsys.c - the generic subsystem (subsys.h): descriptor in, children built, scheduler
 * running.  Every line it prints starts with "[name]" so the console of a whole tree
 * reads as one log; tests/ and eval/ parse these lines.
 */
#include "subsys.h"
#include "caps.h"
#include "ctor.h"
#include "desc.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"
#include "treeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHILD_MAX   32
#define SLICE_TICKS 2

struct child {
	char name[HR_NAME_MAX];
	enum desc_type type;
	struct ctor_child ctor;
	long ent;	   /* scheduler entity, -1 once its thread is gone */
	uint32_t next_cap; /* next slot we fill in its capability table */
};

static struct child children[CHILD_MAX];
static const void *fdt;
static const char *me;
static int failures;

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
	return (struct pol_param){
		.prio = d->priority, .kind = d->cpu_kind, .budget = d->budget, .period = d->period
	};
}

static struct child *
child_slot(void)
{
	for (int i = 0; i < CHILD_MAX; i++)
		if (!children[i].name[0])
			return &children[i];
	return 0;
}

static void
build_child(const struct desc_node *d)
{
	struct child *c = child_slot();
	struct ctor_spec s = { .name = d->name,
			       .program = d->program,
			       .mem_pages = d->memory_pages,
			       .desc = fdt,
			       .node = d->offset,
			       .subsystem = d->type == DESC_SUBSYSTEM };
	struct pol_param p = param(d);
	char why[160];

	if (!c) {
		printf("[%s] cannot construct '%s': too many children\n", me, d->name);
		failures++;
		return;
	}
	if (ctor_build(&s, &c->ctor, why, sizeof(why))) {
		printf("[%s] cannot construct '%s': %s\n", me, d->name, why);
		failures++;
		return;
	}
	snprintf(c->name, sizeof(c->name), "%s", d->name);
	c->type = d->type;
	c->next_cap = HR_CAP_FROM_PARENT;
	c->ent = sched_add(s.subsystem ? ENT_CHILD : ENT_THREAD, (uint32_t) c->ctor.tid, &p, c);
	if (c->ent < 0) {
		printf("[%s] cannot schedule '%s': %s\n", me, d->name, hr_strerror(c->ent));
		ctor_destroy(&c->ctor);
		memset(c, 0, sizeof(*c));
		failures++;
		return;
	}
	sched_ent(c->ent)->pcb = c->ctor.pcb;
	if (!s.subsystem) {
		char line[200];
		treeline_component(line, sizeof(line), d->name, me, (uint64_t) d->memory_pages * 4);
		printf("%s\n", line);
	}
}

static void
start_task(const struct desc_node *d)
{
	const struct hr_task *t = find_task(d->entry);
	struct pol_param p = param(d);
	long tid, ent;

	if (!t) {
		printf("[%s] task '%s': this program has no entry '%s'\n", me, d->name, d->entry);
		failures++;
		return;
	}
	if ((tid = hr_thread_create(t->fn, (void *) (uintptr_t) d->arg)) < 0 ||
	    (ent = sched_add(ENT_THREAD, (uint32_t) tid, &p, 0)) < 0) {
		printf("[%s] task '%s' cannot start: %s\n", me, d->name,
		       hr_strerror(tid < 0 ? tid : HR_ENOMEM));
		failures++;
	}
}

static struct child *
child_by_comp(uint32_t comp)
{
	for (int i = 0; i < CHILD_MAX; i++)
		if (children[i].name[0] && children[i].ctor.comp == comp)
			return &children[i];
	return 0;
}

/* Programs that care define hr_child_ended; the weak default does nothing. */
__attribute__((weak)) void
hr_child_ended(const char *name, int faulted, long status)
{
	(void) name, (void) faulted, (void) status;
}

static void
child_gone(struct child *c)
{
	if (c->ent >= 0)
		sched_remove(c->ent);
	ctor_destroy(&c->ctor);
	memset(c, 0, sizeof(*c));
}

static void
on_kevent(const struct hr_kevent *ev)
{
	struct child *c = ev->comp ? child_by_comp(ev->comp) : 0;

	if (ev->type == HR_KEV_IDLE && c) {
		if (c->ent >= 0)
			sched_block(c->ent, 0); /* until its published wake-up (timers) */
	} else if (ev->type == HR_KEV_FAULT && c) {
		printf("[%s] child '%s' faulted (vector %lu at ip %#lx, address %#lx)\n", me,
		       c->name, (unsigned long) ev->a, (unsigned long) ev->b,
		       (unsigned long) ev->c);
		failures++;
		hr_child_ended(c->name, 1, 0);
		child_gone(c);
	} else if (ev->type == HR_KEV_EXIT && c) {
		printf("[%s] child '%s' exited with status %ld\n", me, c->name, (long) ev->a);
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

static void
on_finished(void)
{
	printf("[%s] finished (%d failure%s)\n", me, failures, failures == 1 ? "" : "s");
	exit(failures ? 1 : 0);
}

static const struct sched_hooks hooks = { on_kevent, on_finished };

long
subsys_entity_of(uint32_t comp)
{
	struct child *c = child_by_comp(comp);
	return c ? c->ent : -1;
}

long
subsys_connect(uint32_t caller, const char *name)
{
	struct child *from = child_by_comp(caller), *to = 0;
	long r;

	for (int i = 0; i < CHILD_MAX && from; i++)
		if (children[i].name[0] && !strcmp(children[i].name, name))
			to = &children[i];
	if (!from || !to || to->type != DESC_COMPONENT)
		return HR_ENOENT;
	if (from->next_cap >= HR_CAP_MAX)
		return HR_ENOMEM;
	if ((r = hr_cap_invoke(from->ctor.slot, from->next_cap, to->ctor.slot, 0)))
		return r;
	return from->next_cap++;
}

long
subsys_cap_to(const char *name)
{
	long slot, r;

	for (int i = 0; i < CHILD_MAX; i++) {
		struct child *c = &children[i];
		if (!c->name[0] || strcmp(c->name, name) || c->type != DESC_COMPONENT)
			continue;
		if ((slot = caps_alloc()) < 0)
			return slot;
		if ((r = hr_cap_invoke(HR_CAP_SELF, slot, c->ctor.slot, 0))) {
			caps_free(slot);
			return r;
		}
		return slot;
	}
	return HR_ENOENT;
}

_Noreturn void
subsys_main(void)
{
	struct desc_node d;
	const char *why;
	long r;

	me = hr_bootinfo()->name;
	if (!(fdt = desc_self(&why)) || desc_read(fdt, 0, &d, &why))
		hr_die("boot descriptor: %s", why);
	unsigned kids = 0;
	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n))
		kids++;
	if ((r = sched_init(d.policy, SLICE_TICKS, &hooks)) || (r = parent_serve(kids)))
		hr_die("scheduler or services: %s", hr_strerror(r));
	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n)) {
		struct desc_node k;
		if (desc_read(fdt, n, &k, &why)) {
			printf("[%s] bad descriptor node: %s\n", me, why);
			failures++;
		} else if (k.type == DESC_TASK) {
			start_task(&k);
		} else {
			build_child(&k);
		}
	}
	sched_run();
}
