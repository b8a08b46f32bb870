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
 *
 * Revocation of soft CPU (delegate.h) goes the same way, except that nothing has to be given
 * back: we serve the child with less at once, and tell it, so that it serves its own
 * children with less in turn.
 */
#include "delegate.h"
#include "caps.h"
#include "pages.h"
#include "parent.h"
#include "runtime.h"
#include "sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A child's window may span at most this many times its reservation: our bookkeeping of
 * it (window.c) grows with the span, and a child that grows and gives back out of order
 * would otherwise push it up for ever, on our heap, which its siblings need too. */
#define WINDOW_SPAN 2

struct share {
	uint64_t src, va, n; /* our pages, at va in both children */
	uint32_t payer;	     /* the child that asked: the pages count against its reservation */
	uint32_t with;	     /* its sibling, to which they are lent */
};

static struct res_mgr book;
static struct share *shares; /* room for every child's SHARES_PER_CHILD */
static unsigned shares_len;
static struct hr_lock lock, comply_lock;
static uint32_t revisions_seen; /* our parent's revocations we have looked at */
static uint64_t our_target;	/* pages our parent wants us to be down to (0: none) */
static unsigned unforgotten;	/* children marked dead that forget_dead must still forget */
/* comply or cpu_comply has something left for a later turn (a lock was busy, pages are
 * still owed): delegate_turn calls them then even if our parent says nothing new */
static int comply_left;

static uint64_t cpu_revisions_seen; /* our parent's CPU revocations we have applied */

static void comply(void);
static void revoke_cpu_locked(void);
static struct pol_param cpu_param(long ent, const struct res *r);

void
delegate_init(const struct desc_node *self, unsigned children, unsigned builds)
{
	const struct hr_bootinfo *bi = hr_bootinfo();
	uint64_t own = CTOR_HEAP_MIN + (uint64_t) CTOR_STACKS_PER_CHILD * builds;
	struct admit_supply cpu = { 0, 1 };

	/* what we hold is what we may promise (guaranteed or not: hrimage checks that only a
	 * guaranteed supply backs guaranteed children, as images/admission.c says) */
	if (bi->depth == 0)
		cpu = (struct admit_supply){ 1, 1 };
	else if (self->cpu_kind != RES_NONE)
		cpu = (struct admit_supply){ self->budget, self->period };
	shares_len = children * SHARES_PER_CHILD;
	if (res_init(&book, self->policy, cpu, bi->mem_pages > own ? bi->mem_pages - own : 0,
		     self->net_kbps, children) ||
	    (shares_len && !(shares = calloc(shares_len, sizeof(*shares)))))
		hr_die("no memory for the reservation book of %u children", children);
	res_cpu_supply(&book, cpu, bi->depth == 0 || admit_guaranteed(self->cpu_kind));
}

static uint64_t
used(const struct child *c)
{
	long u = hr_mem_info(c->ctor.slot, HR_MI_USED, 0);
	return u > 0 ? (uint64_t) u : 0;
}

/* Pages c holds out of its own reservations: all it holds but what siblings lent it. */
static uint64_t
spent(const struct child *c)
{
	uint64_t u = used(c);
	return u > c->shared ? u - c->shared : 0;
}

/* Kernel bound = what its reservations allow plus what siblings lent it, but never below
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
		if (!child_live(c))
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

/* With lock held: a reservation of c's, admitted with spec; its id, or an HR_E* code with
 * a sentence in why. */
static long
reserve_one(struct child *c, uint32_t kind, uint32_t family, const struct res_spec *spec, char *why,
	    size_t len)
{
	long id = res_create(&book, c->id, kind, family), r;

	if (id < 0) {
		snprintf(why, len, "no %s reservation of kind %u for '%s': %s",
			 family == RES_MEM   ? "memory"
			 : family == RES_CPU ? "cpu"
					     : "I/O",
			 kind, c->name, hr_strerror(id));
		return id;
	}
	if ((r = res_bind(&book, c->id, id, spec, why, len))) {
		res_delete(&book, c->id, id);
		return r;
	}
	return id;
}

long
delegate_reserve(struct child *c, const struct desc_node *d, char *why, size_t len)
{
	uint32_t kind =
		d->type == DESC_SUBSYSTEM && d->memory_kind == RES_SOFT ? RES_SOFT : RES_HARD;
	struct res_spec mem = { .pages = d->memory_pages };
	struct res_spec cpu = {
		.budget = d->budget, .period = d->period, .prio = d->priority, .server = d->server
	};
	struct res_spec io = { .kbps = d->net_kbps };
	long r = 0;

	hr_lock_take(&lock);
	if ((c->res_mem = reserve_one(c, kind, RES_MEM, &mem, why, len)) < 0)
		r = c->res_mem;
	else if (d->cpu_kind &&
		 (c->res_cpu = reserve_one(c, d->cpu_kind, RES_CPU, &cpu, why, len)) < 0)
		r = c->res_cpu;
	else if (d->net_kbps && (c->res_io = reserve_one(c, RES_HARD, RES_IO, &io, why, len)) < 0)
		r = c->res_io;
	if (r) {
		res_drop_owner(&book, c->id);
		c->res_mem = c->res_cpu = c->res_io = -1;
	}
	hr_lock_give(&lock);
	return r;
}

/* With lock held: the bandwidth c's reservations add up to, made what the kernel enforces. */
static long
apply_rate(struct child *c)
{
	return hr_net_rate(c->ctor.slot, (long) res_kbps_of(&book, c->id), 0);
}

long
delegate_net(struct child *c, const struct desc_node *d, char *why, size_t len)
{
	long r = 0;

	if (!d->net_nspans && !d->net_kbps)
		return 0;
	hr_lock_take(&lock);
	for (uint32_t i = 0; i < d->net_nspans && !r; i++)
		if ((r = hr_net_bind(c->ctor.slot, d->net_span[i][0], d->net_span[i][1])))
			snprintf(why, len, "ports %u..%u for '%s': %s", d->net_span[i][0],
				 d->net_span[i][1], c->name, hr_strerror(r));
	if (!r && (r = apply_rate(c)))
		snprintf(why, len, "%u kbit/s for '%s': %s", d->net_kbps, c->name, hr_strerror(r));
	hr_lock_give(&lock);
	return r;
}

int
delegate_busy(void)
{
	return lock.holder != 0;
}

/* Our own tasks' CPU reservations and the entities that serve them, so that a revocation
 * of a soft one serves its task with less (revoke_cpu_locked), as it does a child. */
static struct {
	long res, ent;
	uint32_t gen; /* res's gen before a revocation */
} own[RES_SELF_MAX];
static unsigned nown;

long
delegate_task(const struct desc_node *d, long *res, char *why, size_t len)
{
	struct res_spec cpu = {
		.budget = d->budget, .period = d->period, .prio = d->priority, .server = d->server
	};
	long id, r;

	*res = -1;
	if (!d->cpu_kind)
		return 0;
	hr_lock_take(&lock);
	id = res_create(&book, RES_OWNER_SELF, d->cpu_kind, RES_CPU);
	r = id < 0 ? id : res_bind(&book, RES_OWNER_SELF, id, &cpu, why, len);
	if (r && id >= 0)
		res_delete(&book, RES_OWNER_SELF, id);
	if (!r)
		*res = id;
	hr_lock_give(&lock);
	return r;
}

void
delegate_task_served(long res, long ent)
{
	hr_lock_take(&lock);
	if (res >= 0 && nown < RES_SELF_MAX)
		own[nown++] = (typeof(own[0])){ .res = res, .ent = ent };
	hr_lock_give(&lock);
}

/* With lock held: serve our tasks whose soft reservation a revocation changed. */
static void
serve_own_changed(void)
{
	for (unsigned i = 0; i < nown; i++) {
		const struct res *r = res_get(&book, RES_OWNER_SELF, own[i].res);
		struct pol_param p;
		if (!r || !sched_ent(own[i].ent) || r->gen == own[i].gen)
			continue;
		p = cpu_param(own[i].ent, r);
		printf("revoking: our task's cpu down to %u/%u\n", r->spec.budget, r->spec.period);
		if (sched_set_param(own[i].ent, &p))
			printf("cannot serve our task as its CPU reservation says\n");
	}
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
	spec = (struct res_spec){
		.budget = budget, .period = period, .prio = r->spec.prio, .server = r->spec.server
	};
	p = (struct pol_param){ .prio = r->spec.prio,
				.kind = r->kind,
				.budget = budget,
				.period = period,
				.server = r->spec.server };
	old = r->spec;
	if (!(err = res_bind(&book, c->id, c->res_cpu, &spec, why, len)) &&
	    (err = sched_set_param(c->ent, &p))) {
		snprintf(why, len, "cannot reschedule '%s': %s", c->name, hr_strerror(err));
		res_bind(&book, c->id, c->res_cpu, &old, 0, 0); /* it held a moment ago */
	}
	if (!err) /* grown guaranteed, it may have been admitted over soft ones */
		revoke_cpu_locked();
	hr_lock_give(&lock);
	return err;
}

/* Take the pages of share s out of child c (live) again. */
static void
unmap(struct child *c, const struct share *s)
{
	for (uint64_t i = 0; i < s->n; i++)
		hr_mem_remove(c->ctor.slot, (long) (s->va + i * HR_PAGE_SIZE));
}

/*
 * With lock held: a share ends with either of its children.  The pages came out of the
 * payer's reservation, which goes with it, so its sibling may not keep them (that would
 * promise them twice); and the payer gets back what it paid when its sibling goes.
 */
static void
share_end(struct share *s)
{
	struct child *payer = child_by_id(s->payer), *with = child_by_id(s->with);

	if (payer) {
		unmap(payer, s);
		payer->nshares--;
	}
	if (with) {
		unmap(with, s);
		with->shared -= s->n;
		apply_bound(with);
	}
	pages_free(s->src, s->n);
	memset(s, 0, sizeof(*s));
}

/* c is gone (no longer live: child_by_id does not find it). */
static void
forget_locked(struct child *c)
{
	res_drop_owner(&book, c->id);
	for (unsigned i = 0; i < shares_len; i++)
		if (shares[i].n && (shares[i].payer == c->id || shares[i].with == c->id))
			share_end(&shares[i]);
}

void
delegate_forget(struct child *c)
{
	int live = !c->dead;

	hr_lock_take(&lock);
	c->dead = 1; /* its shares' other halves must not look for it */
	forget_locked(c);
	c->dead = !live;
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
	c->dead = 1; /* its shares' other halves must not look for it */
	forget_locked(c);
	c->dead = 0;
	hr_lock_give(&lock);
	return 1;
}

/* ---- a child's requests --------------------------------------------------------------- */

long
delegate_res_create(struct child *c, uint32_t kind, uint32_t family)
{
	long r;

	hr_lock_take(&lock);
	/* a child is one entity in our scheduler, served by one server: one CPU reservation */
	if (family == RES_CPU && res_cpu_of(&book, c->id) >= 0)
		r = HR_EEXIST;
	else
		r = res_create(&book, c->id, kind, family);
	hr_lock_give(&lock);
	return r;
}

/* The parameters entity ent is served with under CPU reservation r (unbound, or NULL:
 * best effort), at the priority it has (its manifest entry's). */
static struct pol_param
cpu_param(long ent, const struct res *r)
{
	const struct sched_ent *e = sched_ent(ent);
	struct pol_param p = { .prio = e ? e->param.prio : 0 };

	if (r && r->spec.period)
		p = (struct pol_param){ .prio = p.prio,
					.kind = r->kind,
					.budget = r->spec.budget,
					.period = r->spec.period,
					.server = r->spec.server };
	return p;
}

/* With lock held: serve c as its CPU reservation r (or best effort) says, from now on.
 * The book admitted r and c's entity exists (callers check): the policy accepts it. */
static void
serve_cpu(struct child *c, const struct res *r)
{
	struct pol_param p = cpu_param(c->ent, r);
	long err = sched_set_param(c->ent, &p);

	if (err)
		printf("cannot serve '%s' as its CPU reservation says: %s\n", c->name,
		       hr_strerror(err));
}

/* c's CPU reservation (it holds one at most), or NULL. */
static const struct res *
cpu_res(const struct child *c)
{
	long id = res_cpu_of(&book, c->id);

	return id >= 0 ? res_get(&book, c->id, id) : 0;
}

/* Tell child c (a subsystem) that we serve it as r says now, and make its scheduler run. */
static void
notify_cpu(struct child *c, const struct res *r)
{
	if (!c->ctor.pcb)
		return;
	c->ctor.pcb->cpu_budget = r->spec.budget;
	c->ctor.pcb->cpu_period = r->spec.period;
	c->ctor.pcb->cpu_revision++; /* after the two: the child reads it first */
	notify(c);
}

/* With lock held: if the CPU we promised no longer fits what we hold, shrink soft
 * reservations until it does, and serve and tell every child whose reservation shrank. */
static void
revoke_cpu_locked(void)
{
	const struct res *r;

	if (res_cpu_fits(&book))
		return; /* every bind's case */
	for (struct child *c = child_next(0); c; c = child_next(c))
		c->cpu_gen = (r = cpu_res(c)) ? r->gen : 0;
	for (unsigned i = 0; i < nown; i++)
		own[i].gen = (r = res_get(&book, RES_OWNER_SELF, own[i].res)) ? r->gen : 0;
	res_cpu_revoke_soft(&book);
	serve_own_changed();
	for (struct child *c = child_next(0); c; c = child_next(c)) {
		if (!child_live(c) || !(r = cpu_res(c)) || r->gen == c->cpu_gen)
			continue;
		printf("revoking: '%s' cpu down to %u/%u\n", c->name, r->spec.budget,
		       r->spec.period);
		if (sched_ent(c->ent))
			serve_cpu(c, r);
		notify_cpu(c, r);
	}
}

long
delegate_res_delete(struct child *c, long id)
{
	const struct res *r;
	long err;
	int cpu;
	uint32_t port;

	hr_lock_take(&lock);
	r = res_get(&book, c->id, id);
	if (!r || id == c->res_mem || id == c->res_cpu || id == c->res_io) {
		/* the manifest's stay while it lives */
		hr_lock_give(&lock);
		return r ? HR_EPERM : HR_ENOENT;
	}
	cpu = r->family == RES_CPU;
	port = r->family == RES_IO ? r->spec.port : 0;
	err = res_delete(&book, c->id, id);
	if (cpu) /* back to what it had before: best effort (it had no other CPU reservation) */
		serve_cpu(c, 0);
	if (port) /* the port comes back, from wherever in its subtree it went */
		hr_net_unbind(c->ctor.slot, port, port);
	if (port || r->family == RES_IO)
		apply_rate(c);
	apply_bound(c);
	/* whatever it still holds beyond its reservations is taken back by force */
	if (c->mem_target) {
		window_take_top(&c->ctor.window, used(c) - c->mem_target);
		apply_bound(c);
	}
	hr_lock_give(&lock);
	return err;
}

/*
 * With lock held: r, an I/O reservation of c's just bound (it held old before), made real:
 * its port passed to c (which the kernel refuses unless it is ours: a port the manifest
 * gave another child), the old one taken back, c's rate set to its total.  On a refusal
 * the book is put back as it was.
 */
static long
apply_io(struct child *c, const struct res *r, const struct res_spec *old)
{
	long err = 0;

	if (r->spec.port && r->spec.port != old->port)
		err = hr_net_bind(c->ctor.slot, r->spec.port, r->spec.port);
	if (!err && (err = apply_rate(c)) && r->spec.port && r->spec.port != old->port)
		hr_net_unbind(c->ctor.slot, r->spec.port, r->spec.port);
	if (err) {
		res_bind(&book, c->id, r - book.r, old, 0, 0);
		return err;
	}
	if (old->port && old->port != r->spec.port)
		hr_net_unbind(c->ctor.slot, old->port, old->port);
	return 0;
}

long
delegate_res_bind(struct child *c, long id, uint64_t x, uint64_t y)
{
	const struct res *r;
	struct res_spec s = { 0 }, old;
	char why[160];
	long err;

	hr_lock_take(&lock);
	if (!(r = res_get(&book, c->id, id))) {
		hr_lock_give(&lock);
		return HR_ENOENT;
	}
	old = r->spec;
	if (r->family == RES_MEM)
		s.pages = x;
	else if (r->family == RES_CPU) /* the priority and server it has, or c's and the default */
		s = (struct res_spec){ .budget = (uint32_t) x,
				       .period = (uint32_t) y,
				       .prio = cpu_param(c->ent, r).prio,
				       .server = r->spec.server };
	else
		s = (struct res_spec){ .port = (uint32_t) x, .kbps = (uint32_t) y };
	if ((x > UINT32_MAX || y > UINT32_MAX) && r->family != RES_MEM)
		err = HR_EINVAL;
	else if (id == c->res_cpu)
		err = HR_EPERM; /* the manifest's: ours to change (delegate_cpu_rebind) */
	else if (r->family == RES_CPU && !sched_ent(c->ent))
		err = HR_ESTATE; /* not (or no longer) in our scheduler: nothing to serve */
	else if ((err = res_bind(&book, c->id, id, &s, why, sizeof(why))))
		printf("refused a reservation for '%s': %s\n", c->name, why);
	else if (r->family == RES_MEM)
		apply_bound(c);
	else if (r->family == RES_CPU)
		serve_cpu(c, r);
	else if ((err = apply_io(c, r, &old)))
		printf("refused a reservation for '%s': the kernel said %s\n", c->name,
		       hr_strerror(err));
	if (!err && res_mem_excess(&book))
		revoke_locked(res_mem_excess(&book));
	if (!err && r->family == RES_CPU) /* a guaranteed one is admitted over soft ones */
		revoke_cpu_locked();
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
	uint64_t res;
	long va;

	hr_lock_take(&lock);
	res = res_mem_of(&book, c->id);
	if (!n || n > res || spent(c) > res - n) {
		va = HR_ENOMEM;
	} else {
		c->ctor.window.span_max = WINDOW_SPAN * res;
		va = window_grow(&c->ctor.window, n);
	}
	hr_lock_give(&lock);
	return va;
}

long
delegate_mem_return(struct child *c, uint64_t va, uint64_t n)
{
	long r;

	hr_lock_take(&lock);
	if (!(r = window_shrink(&c->ctor.window, va, n))) {
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
	for (unsigned i = 0; i < shares_len; i++)
		if (!shares[i].n)
			return &shares[i];
	return 0;
}

/* With lock held: n fresh pages of ours at the same address in c and b, paid by c. */
static long
share_locked(struct child *c, struct child *b, uint64_t n)
{
	uint64_t res = res_mem_of(&book, c->id), src = 0;
	uint64_t va = c->share_top > b->share_top ? c->share_top : b->share_top;
	struct share *s = free_share();
	long r;

	/* out of c's own reservation (its kernel bound has room for them then), and only so
	 * many at once: the table holds every child's SHARES_PER_CHILD */
	if (!s || c->nshares >= SHARES_PER_CHILD || n > res || spent(c) > res - n ||
	    !(src = pages_alloc(n)))
		return HR_ENOMEM;
	*s = (struct share){ src, va, n, c->id, b->id };
	b->shared += n; /* lent to b beyond its reservations */
	apply_bound(b);
	if ((r = window_alias(c->ctor.slot, src, va, n, HR_MEM_READ | HR_MEM_WRITE, 1)) ||
	    (r = window_alias(b->ctor.slot, src, va, n, HR_MEM_READ | HR_MEM_WRITE, 0))) {
		c->nshares++; /* share_end takes it back with the rest */
		share_end(s);
		return r;
	}
	c->nshares++;
	c->share_top = b->share_top = va + n * HR_PAGE_SIZE;
	return (long) va;
}

long
delegate_mem_share(struct child *c, const char *with, uint64_t n)
{
	struct child *b = child_by_name(with);
	long r;

	if (!b || b == c || !n)
		return HR_EINVAL;
	hr_lock_take(&lock);
	r = share_locked(c, b, n);
	hr_lock_give(&lock);
	return r;
}

/* ---- our own CPU reservation at our parent (the child's side) ---------------------------- */

/* The CPU reservation we created at our parent at run time (HR_ENOENT: none): our supply
 * follows what is bound to it.  Taken with lock held. */
static long own_cpu = HR_ENOENT;

long
delegate_own_create(uint32_t kind, uint32_t family)
{
	long id = pi_res_create(kind, family);

	if (id >= 0 && family == RES_CPU) {
		hr_lock_take(&lock);
		own_cpu = id; /* our parent gives us one at most (delegate_res_create) */
		hr_lock_give(&lock);
	}
	return id;
}

/* With lock held: our reservation id at our parent changes to budget/period (0 0: gone),
 * if what we promised fits what we would hold then; the parent's answer or HR_EBUSY. */
static long
own_change(long id, uint64_t budget, uint64_t period, int del)
{
	struct admit_supply now =
		del ? (struct admit_supply){ 0, 1 }
		    : (struct admit_supply){ (uint32_t) budget, (uint32_t) period };
	char why[160];
	long err;

	if (!del && (budget > UINT32_MAX || period > UINT32_MAX || !period || budget > period))
		return HR_EINVAL;
	if (res_supply_fits(&book, now, why, sizeof(why))) {
		printf("cannot hold less CPU than we promised: %s\n", why);
		return HR_EBUSY;
	}
	err = del ? pi_res_delete(id) : pi_res_bind(id, budget, period);
	if (!err)
		res_cpu_supply(&book, now, book.cpu_guaranteed); /* it fits: checked above */
	if (!err && del)
		own_cpu = HR_ENOENT;
	return err;
}

long
delegate_own_bind(long id, uint64_t x, uint64_t y)
{
	long err;

	if (id < 0 || id != own_cpu || !book.r) /* not our CPU, or we keep no book (component) */
		return pi_res_bind(id, x, y);
	hr_lock_take(&lock);
	err = id == own_cpu ? own_change(id, x, y, 0) : pi_res_bind(id, x, y);
	hr_lock_give(&lock);
	return err;
}

long
delegate_own_delete(long id)
{
	long err;

	if (id < 0 || id != own_cpu || !book.r)
		return pi_res_delete(id);
	hr_lock_take(&lock);
	err = id == own_cpu ? own_change(id, 0, 0, 1) : pi_res_delete(id);
	hr_lock_give(&lock);
	return err;
}

struct admit_supply
delegate_supply(void)
{
	return book.supply;
}

void
delegate_cpu_now(const struct child *c, uint32_t *kind, uint32_t *budget, uint32_t *period)
{
	const struct res *r = cpu_res(c);

	*kind = r && r->spec.period ? r->kind : RES_NONE;
	*budget = *kind ? r->spec.budget : 0;
	*period = *kind ? r->spec.period : 0;
}

/* With lock held: our parent revoked CPU from us: what it serves us with now is our supply
 * (guaranteed or not as before: only soft reservations are revoked), and what we promised
 * our own children must fit it. */
static void
cpu_comply_locked(void)
{
	const volatile struct hr_pcb *pcb = parent_page();
	uint64_t rev;
	struct admit_supply now;

	if (!pcb)
		return;		 /* the root: nobody to revoke from it */
	rev = pcb->cpu_revision; /* first: the parent writes it last */
	now = (struct admit_supply){ pcb->cpu_budget, pcb->cpu_period };
	if (rev == cpu_revisions_seen)
		return;
	cpu_revisions_seen = rev;
	if (res_cpu_supply(&book, now, book.cpu_guaranteed))
		return; /* malformed: our parent serves us as it will, we keep our book */
	printf("our cpu is now %u/%u\n", now.budget, now.period);
	revoke_cpu_locked();
}

long
delegate_cpu_held(struct admit_supply *held)
{
	if (!book.r)
		return HR_ESTATE;
	hr_lock_take(&lock);
	cpu_comply_locked();
	*held = book.supply;
	hr_lock_give(&lock);
	return 0;
}

/* ---- the event thread's turn ------------------------------------------------------------ */

/* Does any child still owe us pages we revoked? */
static int
children_owe(void)
{
	for (struct child *c = child_next(0); c; c = child_next(c))
		if (child_live(c) && c->mem_target)
			return 1;
	return 0;
}

/* Our parent revoked from us: give back free pages, or pass the revocation down. */
static void
comply_once(const struct hr_pcb *pcb)
{
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
		if (pi_mem_return(va, got)) {
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
	const struct hr_pcb *pcb = parent_page();

	if (!pcb)
		return;
	if (pcb->revision == revisions_seen && !our_target)
		return; /* nothing new from our parent, nothing owed */
	if (!hr_lock_try(&comply_lock)) {
		comply_left = 1; /* its holder may have read the revision already: look again */
		return;
	}
	comply_once(pcb);
	hr_lock_give(&comply_lock);
	if (our_target)
		comply_left = 1; /* still owed: our children give back on later turns */
}

/* Children that died while the lock was busy are forgotten now, if it is free. */
static void
forget_dead(void)
{
	if (!unforgotten)
		return; /* every turn's case: no walk over the children */
	for (struct child *c = child_next(0); c; c = child_next(c))
		if (c->dead && delegate_forget_try(c))
			child_retire(c);
}

/* Our parent revoked CPU from us: apply it if the lock is free, else on a later turn (the
 * revision stays unseen till then). */
static void
cpu_comply(void)
{
	const volatile struct hr_pcb *pcb = parent_page();

	if (!pcb || pcb->cpu_revision == cpu_revisions_seen)
		return;
	if (!hr_lock_try(&lock)) {
		comply_left = 1;
		return;
	}
	cpu_comply_locked();
	hr_lock_give(&lock);
}

/* On every turn of the scheduler: each part looks again for itself, but the common case
 * (nothing dead, nothing new from our parent, nothing left from an earlier turn) is
 * decided here, at once, without reading our parent's page. */
void
delegate_turn(void)
{
	if (unforgotten)
		forget_dead();
	if (!sched_parent_news && !comply_left)
		return;
	comply_left = 0;
	comply();
	cpu_comply();
}
