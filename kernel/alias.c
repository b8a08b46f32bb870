/*
 * alias.c - the alias/remove derivation trees (see alias.h) and memory bounds.
 *
 * Nodes live in one array carved at boot, linked by 32-bit indices (0 = none): to the
 * parent mapping, the first derived mapping, siblings, and the list of the component's
 * own mappings (so destroying a component needs no page-table scan).  A component's
 * mem_used counts the pages aliased into it and may not pass mem_bound, which its parent
 * sets out of its own bound (sum of children's bounds <= own bound).
 *
 * Every mapping is one node and counts in its holder's mem_used, so a bound is also the
 * number of nodes its holder may take: each bound is promised out of the pool when it is
 * set (alias_bound), and one the pool cannot back is refused then.  A page mapped at every
 * level of a deep subtree takes a node at each, so the bounds of a subtree may add up to
 * several times its memory; promised this way, no component running at its bound can take
 * the nodes a sibling's bound promised it (a pool shared first-come, first-served let a
 * deep child's aliases starve its siblings' alias of nodes).
 */
#include "alias.h"
#include "syscall.h"
#include "comp.h"
#include "thd.h"
#include "frame.h"
#include "ptq.h"

struct node {
	uint32_t parent, child, next, prev; /* derivation tree */
	uint32_t cnext, cprev;		    /* the component's list */
	uint16_t comp;
	uint8_t rights; /* HR_MEM_*: what the holder may pass on and protect up to */
	uint8_t resv;
	uint32_t resv2;
	uint64_t va;
};

static struct node *nodes;
static uint32_t nnodes, free_head, nfree;
static uint64_t promised; /* sum of the live components' mem_bound: nodes they may take */

void
alias_init(uint64_t n)
{
	uint64_t pa;

	if (n > 0xffffffffull)
		n = 0xffffffffull;
	pa = frame_take(n * sizeof(struct node), HR_PAGE_SIZE);
	if (!pa)
		panic("no memory for %lu mapping nodes", n);
	nodes = hw_phys_to_virt(pa);
	nnodes = (uint32_t) n;
	for (uint32_t i = nnodes - 1; i > 0; i--) {
		nodes[i].next = free_head;
		free_head = i;
		nfree++;
	}
}

uint64_t
alias_free_nodes(void)
{
	return nfree;
}

long
alias_bound(struct comp *c, uint64_t pages)
{
	uint64_t room = nnodes - 1 - promised; /* node 0 is "none" */

	if (pages > c->mem_bound && pages - c->mem_bound > room)
		return refuse(HR_ENOMEM,
			      "a bound of %lu pages needs %lu more mapping nodes than "
			      "the %lu not promised",
			      pages, pages - c->mem_bound - room, room);
	promised = promised - c->mem_bound + pages;
	c->mem_bound = pages;
	return 0;
}

static uint32_t
node_alloc(void)
{
	uint32_t i = free_head;

	free_head = nodes[i].next;
	nfree--;
	nodes[i] = (struct node){ 0 };
	return i;
}

static void
node_release(uint32_t i)
{
	nodes[i] = (struct node){ 0 };
	nodes[i].next = free_head;
	free_head = i;
	nfree++;
}

static void
comp_link(struct comp *c, uint32_t i)
{
	nodes[i].comp = c->id;
	nodes[i].cnext = c->node_head;
	if (c->node_head)
		nodes[c->node_head].cprev = i;
	c->node_head = i;
}

static void
comp_unlink(struct comp *c, uint32_t i)
{
	struct node *n = &nodes[i];

	if (n->cprev)
		nodes[n->cprev].cnext = n->cnext;
	else
		c->node_head = n->cnext;
	if (n->cnext)
		nodes[n->cnext].cprev = n->cprev;
}

static void
tree_link(uint32_t parent, uint32_t i)
{
	nodes[i].parent = parent;
	nodes[i].next = nodes[parent].child;
	if (nodes[parent].child)
		nodes[nodes[parent].child].prev = i;
	nodes[parent].child = i;
}

static void
tree_unlink(uint32_t i)
{
	struct node *n = &nodes[i];

	if (n->prev)
		nodes[n->prev].next = n->next;
	else if (n->parent)
		nodes[n->parent].child = n->next;
	if (n->next)
		nodes[n->next].prev = n->prev;
	n->parent = n->next = n->prev = 0;
}

/* The node of c's mapping at va, with its page-table entry; 0 if none. */
static uint32_t
node_at(struct comp *c, uint64_t va, uint64_t **pte)
{
	uint64_t *e = pt_entry(c->pgtbl, va, 0);

	if (!e || !pt_present(*e))
		return 0;
	if (pte)
		*pte = e;
	return (uint32_t) *pt_shadow(e);
}

/* Unmap one leaf mapping and free its node; tables that empty go back to the pool. */
static void
unmap_one(uint32_t i)
{
	struct comp *c = &comps[nodes[i].comp];

	ptq_refund(c, pt_unmap(c->pgtbl, nodes[i].va));
	c->mem_used--;
	comp_unlink(c, i);
	tree_unlink(i);
	node_release(i);
}

/* Remove the mapping i and every mapping derived from it, leaves first, no recursion. */
static void
remove_tree(uint32_t root)
{
	uint32_t i = root;

	for (;;) {
		while (nodes[i].child)
			i = nodes[i].child;
		uint32_t p = nodes[i].parent;
		int last = i == root;
		unmap_one(i);
		if (last)
			return;
		i = p;
	}
}

void
alias_comp_clear(struct comp *c)
{
	while (c->node_head)
		remove_tree(c->node_head);
	c->mem_used = 0;
}

static long
map_new(struct comp *c, uint64_t *e, uint64_t va, uint64_t pa, unsigned perms, uint32_t parent)
{
	uint32_t i = node_alloc();

	nodes[i].va = va;
	nodes[i].rights = (uint8_t) perms;
	comp_link(c, i);
	if (parent)
		tree_link(parent, i);
	pt_map(c->pgtbl, va, e, pt_make(pa, perms));
	*pt_shadow(e) = i;
	c->mem_used++;
	return 0;
}

long
alias_origin(struct comp *c, uint64_t va, uint64_t pa, unsigned perms)
{
	struct pt_budget b = ptq_budget(c);
	uint64_t *e = pt_entry(c->pgtbl, va, 0);

	if (e && pt_present(*e))
		return HR_EEXIST;
	if (!nfree || pt_missing(c->pgtbl, va) > b.left)
		return HR_ENOMEM;
	/* decoded: from here nothing fails */
	e = pt_entry(c->pgtbl, va, &b);
	ptq_charge(c, b.made);
	return map_new(c, e, va, pa, perms, 0);
}

static int
va_ok(uint64_t va)
{
	if (!PAGE_ALIGNED(va) || va < HR_VA_IMAGE_MIN || va >= HR_VA_USER_END)
		return 0;
	return !(va >= HR_VA_SCHED && va < HR_VA_SCHED + HR_SCHED_REGION_PAGES * HR_PAGE_SIZE);
}

/* ---- system calls -------------------------------------------------------------------- */

long
sys_mem_alias(struct thd *t, uint64_t src, uint64_t dst, uint64_t dva, uint64_t perms)
{
	struct comp *s = t->comp, *d;
	uint64_t *se, *de;
	struct pt_budget b;
	uint32_t sn;

	if (!va_ok(src) || !va_ok(dva))
		return refuse(HR_EINVAL, "address %lx or %lx", src, dva);
	if (!(perms & HR_MEM_READ) || (perms & ~(uint64_t) HR_MEM_ALL))
		return refuse(HR_EINVAL, "permissions %lx", perms);
	if (!(d = comp_from_cap(s, dst)) || d->parent != s || d->state != COMP_LIVE)
		return refuse(HR_ECAP, "slot %lu names no live child", dst);
	if (!(sn = node_at(s, src, &se)))
		return refuse(HR_ENOENT, "nothing aliasable at %lx", src);
	if (perms & ~(uint64_t) nodes[sn].rights)
		return refuse(HR_EPERM, "permissions beyond the source's rights");
	if (d->mem_used >= d->mem_bound)
		return refuse(HR_ENOMEM, "component %u is at its bound (%lu pages)", d->id,
			      d->mem_bound);
	if (!nfree)
		return refuse(HR_ENOMEM, "mapping nodes exhausted");
	if ((de = pt_entry(d->pgtbl, dva, 0)) && pt_present(*de))
		return refuse(HR_EEXIST, "%lx already mapped", dva);
	b = ptq_budget(d);
	if (pt_missing(d->pgtbl, dva) > b.left)
		return refuse(HR_ENOMEM, "component %u may have no more page tables (%u held)",
			      d->id, d->pt_used);
	/* decoded: from here nothing fails */
	de = pt_entry(d->pgtbl, dva, &b);
	ptq_charge(d, b.made);
	return map_new(d, de, dva, pt_pa(*se), (unsigned) perms, sn);
}

long
sys_mem_remove(struct thd *t, uint64_t comp, uint64_t va)
{
	struct comp *s = t->comp, *c = comp_arg(s, comp);
	uint32_t n;

	if (!c || (c != s && c->parent != s))
		return refuse(HR_ECAP, "slot %lu names neither us nor a child", comp);
	if (!va_ok(va) || !(n = node_at(c, va, 0)))
		return refuse(HR_ENOENT, "no alias at %lx", va);
	/* a parent removes what it aliased; a component gives back what it received */
	if (c != s && nodes[nodes[n].parent].comp != s->id)
		return refuse(HR_EPERM, "mapping at %lx did not come from us", va);
	if (c == s && !nodes[n].parent)
		return refuse(HR_EPERM, "an original mapping cannot be removed");
	remove_tree(n);
	return 0;
}

long
sys_mem_protect(struct thd *t, uint64_t comp, uint64_t va, uint64_t perms)
{
	struct comp *s = t->comp, *c = comp_arg(s, comp);
	uint64_t *e;
	uint32_t n;

	if (!c || (c != s && c->parent != s))
		return refuse(HR_ECAP, "slot %lu names neither us nor a child", comp);
	if (!va_ok(va) || !(n = node_at(c, va, &e)))
		return refuse(HR_ENOENT, "no alias at %lx", va);
	if (perms & ~(uint64_t) nodes[n].rights)
		return refuse(HR_EPERM, "permissions %lx beyond the mapping's rights %x", perms,
			      nodes[n].rights);
	if (perms && !(perms & HR_MEM_READ))
		return refuse(HR_EINVAL, "permissions %lx without read", perms);
	*e = pt_make(pt_pa(*e), (unsigned) perms);
	pt_flush(c->pgtbl, va);
	return 0;
}

long
sys_mem_bound(struct thd *t, uint64_t slot, uint64_t pages)
{
	struct comp *s = t->comp, *c = comp_from_cap(s, slot);
	uint64_t given;
	long err;

	if (!c || c->parent != s)
		return refuse(HR_ECAP, "slot %lu names no child", slot);
	if (pages < c->mem_used)
		return refuse(HR_EBUSY, "child uses %lu pages", c->mem_used);
	if (pages > s->mem_bound || s->mem_given - c->mem_bound > s->mem_bound - pages)
		return refuse(HR_ENOMEM, "bound %lu exceeds what we hold", pages);
	given = s->mem_given - c->mem_bound + pages;
	if ((err = alias_bound(c, pages)))
		return err;
	s->mem_given = given;
	return 0;
}

long
sys_mem_info(struct thd *t, uint64_t comp, uint64_t what, uint64_t arg)
{
	struct comp *s = t->comp, *c = comp_arg(s, comp);

	if (!c || (c != s && c->parent != s))
		return refuse(HR_ECAP, "slot %lu names neither us nor a child", comp);
	switch (what) {
	case HR_MI_BOUND:
		return (long) c->mem_bound;
	case HR_MI_USED:
		return (long) c->mem_used;
	case HR_MI_GIVEN:
		return (long) c->mem_given;
	case HR_MI_FREEPOOL:
		return (long) nfree;
	case HR_MI_PTABLES:
		return (long) c->pt_used;
	case HR_MI_PERMS:
	case HR_MI_MAPPED: {
		uint64_t va = arg & ~(HR_PAGE_SIZE - 1), *e;
		uint32_t n;
		if (va >= HR_VA_USER_END || !(e = pt_entry(c->pgtbl, va, 0)) || !pt_present(*e))
			return HR_ENOENT;
		n = (uint32_t) *pt_shadow(e);
		if (what == HR_MI_MAPPED || !n)
			return pt_perms(*e); /* kernel mappings (no node): what is mapped */
		return nodes[n].rights;
	}
	default:
		return refuse(HR_EINVAL, "query %lu", what);
	}
}
