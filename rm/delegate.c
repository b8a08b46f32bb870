/*
 * delegate.c - our reservation book applied to real resources (delegate.h).
 *
 * Locking: requests arrive on our children's threads (parent.c) and may be preempted, so
 * they take `lock`; the event thread only ever tries it (delegate_turn, delegate_forget_try),
 * since spinning there on a preempted holder would stop the whole subsystem: whatever it
 * cannot do now it does on a later turn.
 *
 * Revocation of soft memory: the book shrinks a child's reservation (res_revoke_soft), we
 * write the pages it may keep into the page we share with it and wake it; its event thread
 * gives back free pages (delegate_turn on its side), or first revokes from its own soft
 * children and gives back what they return, and so on down the tree.  Its kernel bound
 * follows what it holds, never below.
 */
#include "delegate.h"
#include "caps.h"
#include "pages.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"

#include <stdio.h>
#include <string.h>

#define SHARES_MAX 16

struct share {
	uint64_t src, n; /* our pages, aliased into both */
	uint32_t a, b;	 /* the children's ids; 0 once that child is gone */
};

static struct res_mgr book;
static struct share shares[SHARES_MAX];
static struct hr_lock lock, comply_lock;
static uint32_t revisions_seen; /* our parent's revocations we have looked at */
static uint64_t our_target;	/* pages our parent wants us to be down to (0: none) */
static unsigned unforgotten;	/* children marked dead that forget_dead must still forget */

static void comply(void);

void
delegate_init(const struct desc_node *self, unsigned children)
{
	const struct hr_bootinfo *bi = hr_bootinfo();
	uint64_t own = CTOR_HEAP_MIN + (uint64_t) CTOR_STACKS_PER_CHILD * children;
	struct admit_supply cpu = { 0, 1 };

	if (bi->depth == 0)
		cpu = (struct admit_supply){ 1, 1 };
	else if (self->cpu_kind == RES_HARD || self->cpu_kind == RES_DEFERRABLE)
		cpu = (struct admit_supply){ self->budget, self->period };
	res_init(&book, self->policy, cpu, bi->mem_pages > own ? bi->mem_pages - own : 0,
		 bi->depth == 0 ? UINT32_MAX : 0);
}

static uint64_t
used(const struct child *c)
{
	long u = hr_mem_info(c->ctor.slot, HR_MI_USED, 0);
	return u > 0 ? (uint64_t) u : 0;
}

/* Kernel bound = what its reservations allow plus what we share with it, but never below
 * what it holds now. */
static void
apply_bound(struct child *c)
{
	uint64_t want = res_mem_of(&book, c->id) + c->shared, held = used(c);

	hr_mem_bound(c->ctor.slot, (long) (want > held ? want : held));
	c->mem_target = want < held ? want : 0;
}

/* Tell a child subsystem what it may keep, and make sure its scheduler runs soon. */
static void
notify(struct child *c)
{
	if (!c->ctor.pcb)
		return;
	c->ctor.pcb->mem_target = c->mem_target;
	c->ctor.pcb->revision++;
	c->ctor.pcb->events++;
	sched_wake(c->ent);
}

/* With lock held: revoke n pages of soft memory and tell every child that now owes some. */
static uint64_t
revoke_locked(uint64_t n)
{
	uint64_t freed = res_revoke_soft(&book, n);

	for (struct child *c = child_next(0); c; c = child_next(c)) {
		if (c->dead)
			continue;
		apply_bound(c);
		if (c->mem_target) {
			printf("revoking: '%s' must come down to %lu pages\n", c->name,
			       (unsigned long) c->mem_target);
			notify(c);
		}
	}
	return freed;
}

uint64_t
delegate_revoke(uint64_t n)
{
	uint64_t freed;

	hr_lock_take(&lock);
	freed = revoke_locked(n);
	hr_lock_give(&lock);
	return freed;
}

long
delegate_reserve(struct child *c, const struct desc_node *d, char *why, size_t len)
{
	uint32_t kind =
		d->type == DESC_SUBSYSTEM && d->memory_kind == RES_SOFT ? RES_SOFT : RES_HARD;
	struct res_spec mem = { .pages = d->memory_pages };
	struct res_spec cpu = { .budget = d->budget, .period = d->period, .prio = d->priority };
	long r;

	hr_lock_take(&lock);
	c->res_mem = res_create(&book, c->id, kind, RES_MEM);
	r = c->res_mem < 0 ? c->res_mem : res_bind(&book, c->id, c->res_mem, &mem, why, len);
	if (!r && d->cpu_kind) {
		c->res_cpu = res_create(&book, c->id, d->cpu_kind, RES_CPU);
		r = c->res_cpu < 0 ? c->res_cpu
				   : res_bind(&book, c->id, c->res_cpu, &cpu, why, len);
	}
	if (r)
		res_drop_owner(&book, c->id);
	hr_lock_give(&lock);
	return r;
}

long
delegate_task(const struct desc_node *d, char *why, size_t len)
{
	struct res_spec cpu = { .budget = d->budget, .period = d->period, .prio = d->priority };
	long id, r;

	if (!d->cpu_kind)
		return 0;
	hr_lock_take(&lock);
	id = res_create(&book, RES_OWNER_SELF, d->cpu_kind, RES_CPU);
	r = id < 0 ? id : res_bind(&book, RES_OWNER_SELF, id, &cpu, why, len);
	if (r && id >= 0)
		res_delete(&book, RES_OWNER_SELF, id);
	hr_lock_give(&lock);
	return r;
}

long
delegate_cpu_rebind(struct child *c, uint32_t budget, uint32_t period, char *why, size_t len)
{
	const struct res *r;
	struct res_spec spec, old;
	struct pol_param p;
	long err;

	hr_lock_take(&lock);
	if (c->res_cpu < 0 || c->ent < 0 || !(r = res_get(&book, c->id, c->res_cpu))) {
		hr_lock_give(&lock);
		snprintf(why, len, "'%s' has no CPU reservation", c->name);
		return HR_ENOENT;
	}
	spec = (struct res_spec){ .budget = budget, .period = period, .prio = r->spec.prio };
	p = (struct pol_param){
		.prio = r->spec.prio, .kind = r->kind, .budget = budget, .period = period
	};
	old = r->spec;
	if (!(err = res_bind(&book, c->id, c->res_cpu, &spec, why, len)) &&
	    (err = sched_set_param(c->ent, &p))) {
		snprintf(why, len, "cannot reschedule '%s': %s", c->name, hr_strerror(err));
		res_bind(&book, c->id, c->res_cpu, &old, 0, 0); /* it held a moment ago */
	}
	hr_lock_give(&lock);
	return err;
}

static void
forget_locked(struct child *c)
{
	res_drop_owner(&book, c->id);
	for (int i = 0; i < SHARES_MAX; i++) {
		struct share *s = &shares[i];
		if (s->a == c->id)
			s->a = 0;
		if (s->b == c->id)
			s->b = 0;
		if (s->n && !s->a && !s->b) {
			pages_free(s->src, s->n);
			memset(s, 0, sizeof(*s));
		}
	}
}

void
delegate_forget(struct child *c)
{
	hr_lock_take(&lock);
	forget_locked(c);
	hr_lock_give(&lock);
}

int
delegate_forget_try(struct child *c)
{
	if (!hr_lock_try(&lock)) {
		if (!c->dead)
			unforgotten++;
		c->dead = 1;
		return 0;
	}
	if (c->dead)
		unforgotten--;
	forget_locked(c);
	hr_lock_give(&lock);
	return 1;
}

/* ---- a child's requests --------------------------------------------------------------- */

long
delegate_res_create(struct child *c, uint32_t kind, uint32_t family)
{
	long r;

	hr_lock_take(&lock);
	r = res_create(&book, c->id, kind, family);
	hr_lock_give(&lock);
	return r;
}

long
delegate_res_delete(struct child *c, long id)
{
	const struct res *r;
	long err;

	hr_lock_take(&lock);
	r = res_get(&book, c->id, id);
	if (!r || id == c->res_mem || id == c->res_cpu) { /* the manifest's stay while it lives */
		hr_lock_give(&lock);
		return r ? HR_EPERM : HR_ENOENT;
	}
	err = res_delete(&book, c->id, id);
	apply_bound(c);
	/* whatever it still holds beyond its reservations is taken back by force */
	if (c->mem_target) {
		alias_take_top(&c->ctor.window, used(c) - c->mem_target);
		apply_bound(c);
	}
	hr_lock_give(&lock);
	return err;
}

long
delegate_res_bind(struct child *c, long id, uint64_t x, uint64_t y)
{
	const struct res *r;
	struct res_spec s = { 0 };
	char why[160];
	long err;

	hr_lock_take(&lock);
	if (!(r = res_get(&book, c->id, id))) {
		hr_lock_give(&lock);
		return HR_ENOENT;
	}
	if (r->family == RES_MEM)
		s.pages = x;
	else if (r->family == RES_CPU)
		s = (struct res_spec){ .budget = (uint32_t) x, .period = (uint32_t) y };
	else
		s = (struct res_spec){ .port = (uint32_t) x, .kbps = (uint32_t) y };
	if (x > UINT32_MAX && r->family != RES_MEM)
		err = HR_EINVAL;
	else if (!(err = res_bind(&book, c->id, id, &s, why, sizeof(why))) && r->family == RES_MEM)
		apply_bound(c);
	else if (err)
		printf("refused a reservation for '%s': %s\n", c->name, why);
	if (!err && res_mem_excess(&book))
		revoke_locked(res_mem_excess(&book));
	hr_lock_give(&lock);
	return err;
}

long
delegate_res_get(struct child *c, long id)
{
	const struct res *r;
	long v;

	hr_lock_take(&lock);
	r = res_get(&book, c->id, id);
	v = !r			   ? HR_ENOENT
	    : r->family == RES_MEM ? (long) r->spec.pages
	    : r->family == RES_CPU ? (long) r->spec.budget
				   : (long) r->spec.kbps;
	hr_lock_give(&lock);
	return v;
}

long
delegate_mem_grow(struct child *c, uint64_t n)
{
	long va;

	hr_lock_take(&lock);
	if (!n || n > res_mem_of(&book, c->id) || used(c) > res_mem_of(&book, c->id) - n)
		va = HR_ENOMEM;
	else
		va = alias_grow(&c->ctor.window, n);
	hr_lock_give(&lock);
	return va;
}

long
delegate_mem_return(struct child *c, uint64_t va, uint64_t n)
{
	long r;

	hr_lock_take(&lock);
	if (!(r = alias_shrink(&c->ctor.window, va, n))) {
		int was = c->mem_target != 0;
		apply_bound(c);
		if (was && !c->mem_target)
			printf("'%s' gave back what was revoked\n", c->name);
	}
	hr_lock_give(&lock);
	/* pages coming back may be what our own parent is waiting for: pass them on now, as
	 * our event thread may not run again before it is told to */
	if (!r)
		comply();
	return r;
}

static struct share *
free_share(void)
{
	for (int i = 0; i < SHARES_MAX; i++)
		if (!shares[i].n)
			return &shares[i];
	return 0;
}

long
delegate_mem_share(struct child *c, const char *with, uint64_t n)
{
	struct child *b = child_by_name(with);
	struct share *s;
	uint64_t src, va;
	long r = HR_ENOMEM;

	if (!b || b == c || !n || n > 1024)
		return HR_EINVAL;
	hr_lock_take(&lock);
	va = c->share_top > b->share_top ? c->share_top : b->share_top;
	c->shared += n, b->shared += n; /* shared pages are ours, lent on top of both bounds */
	apply_bound(c), apply_bound(b);
	if ((s = free_share()) && (src = pages_alloc(n))) {
		if (!(r = alias_pages(c->ctor.slot, src, va, n, HR_MEM_READ | HR_MEM_WRITE, 1)) &&
		    !(r = alias_pages(b->ctor.slot, src, va, n, HR_MEM_READ | HR_MEM_WRITE, 0))) {
			*s = (struct share){ src, n, c->id, b->id };
			c->share_top = b->share_top = va + n * HR_PAGE_SIZE;
		} else {
			for (uint64_t i = 0; i < n;
			     i++) { /* undo: their bounds stay as they were */
				hr_mem_remove(c->ctor.slot, (long) (va + i * HR_PAGE_SIZE));
				hr_mem_remove(b->ctor.slot, (long) (va + i * HR_PAGE_SIZE));
			}
			pages_free(src, n);
		}
	}
	if (r) {
		c->shared -= n, b->shared -= n;
		apply_bound(c), apply_bound(b);
	}
	hr_lock_give(&lock);
	return r ? r : (long) va;
}

/* ---- the event thread's turn ------------------------------------------------------------ */

/* Does any child still owe us pages we revoked? */
static int
children_owe(void)
{
	for (struct child *c = child_next(0); c; c = child_next(c))
		if (!c->dead && c->mem_target)
			return 1;
	return 0;
}

/* Our parent revoked from us: give back free pages, or pass the revocation down. */
static void
comply_once(void)
{
	struct hr_pcb *pcb = (struct hr_pcb *) HR_VA_PCB;
	long held;

	if (pcb->revision != revisions_seen) {
		revisions_seen = (uint32_t) pcb->revision;
		our_target = pcb->mem_target;
	}
	if (!our_target)
		return; /* the common case, on every turn of the scheduler: nothing owed */
	held = hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0);
	while (our_target && held > (long) our_target) {
		uint64_t got, va = pages_release((uint64_t) held - our_target, &got);
		if (!va)
			break;
		if (hr_invoke(HR_CAP_PARENT, PI_MEM_RETURN, (long) va, (long) got, 0)) {
			pages_free(va, got);
			break;
		}
		held -= (long) got;
	}
	/* what we cannot give from our own free pages, our children must: again and again until
	 * it is enough, since a revoked reservation need not have been backed by held pages */
	if (our_target && held > (long) our_target && !children_owe() && hr_lock_try(&lock)) {
		uint64_t freed;
		printf("passing a revocation of %ld pages down\n", held - (long) our_target);
		freed = revoke_locked((uint64_t) held - our_target);
		hr_lock_give(&lock);
		if (!freed) {
			printf("cannot give back %ld more pages: nothing soft left below\n",
			       held - (long) our_target);
			our_target = 0;
		}
	}
	if (our_target && held <= (long) our_target)
		our_target = 0;
}

/* One comply at a time: the event thread and a child's returning thread may both try. */
static void
comply(void)
{
	const struct hr_pcb *pcb = (const struct hr_pcb *) HR_VA_PCB;

	if (!hr_bootinfo()->depth)
		return;
	if (pcb->revision == revisions_seen && !our_target)
		return; /* nothing new from our parent, nothing owed: every turn's case */
	if (!hr_lock_try(&comply_lock))
		return;
	comply_once();
	hr_lock_give(&comply_lock);
}

/* Children that died while the lock was busy are forgotten now, if it is free. */
static void
forget_dead(void)
{
	if (!unforgotten)
		return; /* every turn's case: no walk over the children */
	for (struct child *c = child_next(0); c; c = child_next(c))
		if (c->dead && delegate_forget_try(c))
			child_free(c);
}

void
delegate_turn(void)
{
	forget_dead();
	comply();
}
