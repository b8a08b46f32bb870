/*
 * comp.c - components: creation by a scheduler, the invocation entry they register,
 * capabilities they hand to their children, the end of a component (fault or exit) and
 * its destruction by the parent.  Page tables are in arch/, mappings in alias.c.
 */
#include "comp.h"
#include "net.h"
#include "syscall.h"
#include "thd.h"
#include "schedtree.h"
#include "alias.h"
#include "frame.h"
#include "console.h"
#include "trace.h"
#include "ptq.h"

struct comp comps[HR_COMP_MAX];
struct comp *root_comp;

void
comp_pool_init(void)
{
	for (unsigned i = 0; i < HR_COMP_MAX; i++)
		comps[i].id = (uint16_t) i;
}

struct comp *
comp_new(struct comp *parent)
{
	for (unsigned i = 1; i < HR_COMP_MAX; i++) {
		struct comp *c = &comps[i];
		struct pt_budget b = { PT_LEVELS, 0 }; /* the clock page's tables */
		uint64_t pgtbl;
		if (c->state != COMP_FREE)
			continue;
		if (!(pgtbl = pt_new()))
			return 0;
		if (schedtree_map_kinfo(pgtbl, &b)) {
			pt_free(pgtbl);
			return 0;
		}
		uint32_t gen = c->gen + 1;
		memset(c, 0, sizeof(*c));
		c->up_slot = &schedtree_nobody;
		ptq_join(c);
		ptq_charge(c, 1 + b.made);
		c->id = (uint16_t) i;
		c->gen = gen;
		c->state = COMP_LIVE;
		c->pgtbl = pgtbl;
		c->parent = parent;
		c->sub = parent ? parent : c;
		return c;
	}
	return 0;
}

struct comp *
comp_from_cap(struct comp *self, uint64_t slot)
{
	const struct cap *cap = cap_lookup(&self->caps, slot, CAP_COMP);
	struct comp *c;

	if (!cap)
		return 0;
	c = &comps[cap->comp];
	if (c->gen != cap->gen || c->state == COMP_FREE)
		return 0;
	return c;
}

struct comp *
comp_arg(struct comp *self, uint64_t slot)
{
	return slot == HR_CAP_SELF ? self : comp_from_cap(self, slot);
}

int
comp_is_ancestor(const struct comp *a, const struct comp *c)
{
	for (; c; c = c->parent)
		if (c == a)
			return 1;
	return 0;
}

struct comp *
comp_responsible(const struct comp *c)
{
	return c->is_sched ? c->parent : c->sub;
}

void
comp_end(struct comp *c, enum comp_state why, struct thd *t, uint64_t a, uint64_t b, uint64_t cc)
{
	struct hr_kevent ev = { .type = why == COMP_FAULTED ? HR_KEV_FAULT : HR_KEV_EXIT,
				.comp = c->id,
				.thd = t ? t->id : 0,
				.a = a,
				.b = b,
				.c = cc };

	if (c->state != COMP_LIVE)
		return;
	c->state = (uint8_t) why;
	c->exit_code = why == COMP_EXITED ? (int32_t) a : -1;
	console_end(c);
	if (c->is_sched)
		net_release(c); /* a subsystem that ended holds no ports or bandwidth */
	if (c == root_comp) {
		kprintf("[k] root component %s (status %d): powering off\n",
			why == COMP_EXITED ? "exited" : "faulted", (int) c->exit_code);
		trace_end();
		console_sync();
		hw_poweroff(why == COMP_EXITED ? (int) (a & 0x7f) : 0x7e);
	}
	/* Threads inside c with a live caller unwind lazily (thd_prepare); those with none
	 * are freed now, after the post (which may have preempted t, and then t too). */
	schedtree_post(comp_responsible(c), ev);
	thd_reap();
}

/*
 * Free every thread executing in c.  Threads of c executing in an ancestor (a migrated
 * invocation) live on until they return into c, which has then gone; they forget c now so
 * nothing reaches a reused component through them.
 */
static void
reap_threads(struct comp *c)
{
	for (unsigned i = 1; i < HR_THD_MAX; i++) {
		struct thd *t = &thds[i];
		if (t->state == HR_TS_FREE || t == cur)
			continue;
		if (t->comp == c && t->comp_gen == c->gen) {
			thd_free(t);
			continue;
		}
		if (t->home == c)
			t->home = 0;
		if (t->payer == c)
			t->payer = 0;
		if (c->is_sched && schedtree_sees(c, t))
			t->depth = (uint8_t) (c->depth - 1);
	}
}

static void
drop_parent_cap(struct comp *c)
{
	struct comp *p = c->parent;

	for (unsigned s = 1; p && s < HR_CAP_MAX; s++) {
		struct cap *cap = &p->caps.slot[s];
		if (cap->type == CAP_COMP && cap->comp == c->id && cap->gen == c->gen)
			*cap = (struct cap){ 0 };
	}
}

void
comp_destroy(struct comp *c)
{
	struct comp *p = c->parent;

	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		if (comps[i].state != COMP_FREE && comps[i].parent == c)
			comp_destroy(&comps[i]);
	if (c->state == COMP_LIVE)
		c->state = COMP_EXITED;
	console_end(c);
	net_destroy(c);
	reap_threads(c);
	alias_comp_clear(c);
	if (c->is_sched)
		schedtree_unmake(c);
	pt_free(c->pgtbl);
	ptq_leave(c);
	drop_parent_cap(c);
	if (p && p->state != COMP_FREE) {
		p->thd_quota += c->thd_paid;
		p->comp_quota += c->comp_paid + 1;
		p->mem_given -= c->mem_bound;
	}
	alias_bound(c, 0); /* its nodes are back in the pool: no longer promised */
	c->state = COMP_FREE;
}

/* ---- system calls -------------------------------------------------------------------- */

long
sys_comp_entry(struct thd *t, uint64_t entry, uint64_t base, uint64_t count, uint64_t stride,
	       uint64_t tcb, uint64_t quota)
{
	struct comp *c = t->comp;
	uint64_t all = count == 64 ? ~0ull : (1ull << count) - 1;

	if (entry < HR_VA_IMAGE_MIN || entry >= HR_VA_USER_END)
		return refuse(HR_EINVAL, "entry %lx", entry);
	if (count == 0 || count > COMP_STACKS_MAX || stride < HR_PAGE_SIZE || stride % 16 ||
	    base % 16 || tcb >= stride)
		return refuse(HR_EINVAL, "stack pool shape");
	if (base >= HR_VA_USER_END || stride > (HR_VA_USER_END - base) / count)
		return refuse(HR_EINVAL, "stack pool outside the user half");
	if (quota > count)
		return refuse(HR_EINVAL, "per-caller quota %lu above the pool of %lu", quota,
			      count);
	if (c->entry && c->stk_free != c->stk_all)
		return refuse(HR_EBUSY, "stacks in use");
	c->entry = entry;
	c->stk_sp0 = base + stride;
	c->stk_stride = stride;
	c->stk_fs0 = base + tcb;
	c->stk_free = c->stk_all = all;
	c->stk_quota = (uint8_t) quota;
	memset(c->stk_held, 0, sizeof(c->stk_held)); /* all free: nobody holds one */
	return 0;
}

long
sys_comp_create(struct thd *t, uint64_t slot, uint64_t thq, uint64_t cq)
{
	struct comp *s = t->comp, *c;
	long err;

	if (!s->is_sched)
		return refuse(HR_EPERM, "component %u is not a scheduler", s->id);
	if ((err = cap_free_slot(&s->caps, slot)))
		return refuse(err, "slot %lu", slot);
	if (thq > s->thd_quota || cq >= s->comp_quota)
		return refuse(HR_ENOMEM, "quota: asked %lu threads %lu comps", thq, cq);
	if (!(c = comp_new(s)))
		return refuse(HR_ENOMEM, "no free component or page table");
	c->thd_quota = c->thd_paid = (uint32_t) thq;
	c->comp_quota = c->comp_paid = (uint32_t) cq;
	s->thd_quota -= (uint32_t) thq;
	s->comp_quota -= (uint32_t) cq + 1;
	cap_put(&s->caps, slot, (struct cap){ .type = CAP_COMP, .comp = c->id, .gen = c->gen });
	return c->id;
}

static struct comp *
child_arg(struct comp *s, uint64_t slot)
{
	struct comp *c = comp_from_cap(s, slot);
	return c && c->parent == s ? c : 0;
}

long
sys_comp_kill(struct thd *t, uint64_t slot)
{
	struct comp *c = child_arg(t->comp, slot);

	if (!c)
		return refuse(HR_ECAP, "slot %lu names no child", slot);
	comp_destroy(c);
	thd_reap(); /* threads whose last live frame was in the subtree */
	/* cur may have been a thread of c executing in us: it lives on until it returns */
	return 0;
}

long
sys_comp_state(struct thd *t, uint64_t slot)
{
	struct comp *c = child_arg(t->comp, slot);

	if (!c)
		return refuse(HR_ECAP, "slot %lu names no child", slot);
	return c->state | ((long) (c->exit_code & 0xff) << 8);
}

long
sys_cap_invoke(struct thd *t, uint64_t dst_slot, uint64_t dslot, uint64_t target_slot,
	       uint64_t badge)
{
	struct comp *s = t->comp, *dst, *target;
	long err;

	if (!(dst = comp_arg(s, dst_slot)) || !(target = comp_arg(s, target_slot)))
		return refuse(HR_ECAP, "component slot");
	if (dst != s && dst->parent != s)
		return refuse(HR_EPERM, "not our child");
	if (target != s && target->parent != s)
		return refuse(HR_EPERM, "not our child");
	/* a path downwards into a child subsystem would let it run our threads */
	if (target != s && target->is_sched && dst != target)
		return refuse(HR_EPERM, "invocation into child scheduler %u", target->id);
	if ((err = cap_free_slot(&dst->caps, dslot)))
		return refuse(err, "slot %lu", dslot);
	cap_put(&dst->caps, dslot,
		(struct cap){ .type = CAP_INVOKE,
			      .comp = target->id,
			      .gen = target->gen,
			      .badge = badge });
	return 0;
}

long
sys_cap_delete(struct thd *t, uint64_t comp, uint64_t slot)
{
	struct comp *c = comp_arg(t->comp, comp);

	if (!c || (c != t->comp && c->parent != t->comp))
		return refuse(HR_ECAP, "component slot");
	if (cap_lookup(&c->caps, slot, CAP_COMP))
		return refuse(HR_EPERM, "component caps go with comp_kill");
	return cap_delete(&c->caps, slot);
}
