/*
 * alias_test.c - the derivation trees of kernel/alias.c over a fake page table: an alias
 * hangs under its source, a removal takes everything derived from it, a refused alias
 * changes nothing (no node, no table, no count), and a bound promises its nodes.
 */
#include "check.h"
#include "alias.h"
#include "comp.h"
#include "thd.h"
#include "ptq.h"
#include "frame.h"
#include "syscall.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a fake page table: one leaf table per component, made on demand ---------------------- */

#define NPAGES 16 /* pages from HR_VA_IMAGE_MIN each fake address space maps */

struct fake_pt {
	int present; /* the leaf table exists */
	uint64_t e[NPAGES];
	uint64_t shadow[NPAGES];
};

static struct fake_pt fpt[HR_COMP_MAX];
static unsigned tables_made; /* tables allocated, ever */
int kdebug;
struct comp comps[HR_COMP_MAX];

static int
page_of(uint64_t va)
{
	if (va < HR_VA_IMAGE_MIN || va >= HR_VA_IMAGE_MIN + NPAGES * HR_PAGE_SIZE)
		return -1;
	return (int) ((va - HR_VA_IMAGE_MIN) / HR_PAGE_SIZE);
}

uint64_t *
pt_entry(uint64_t pgtbl, uint64_t va, struct pt_budget *b)
{
	struct fake_pt *p = &fpt[pgtbl];
	int i = page_of(va);

	if (i < 0)
		return 0;
	if (!p->present) {
		if (!b || !b->left)
			return 0;
		b->left--;
		b->made++;
		tables_made++;
		p->present = 1;
	}
	return &p->e[i];
}

unsigned
pt_missing(uint64_t pgtbl, uint64_t va)
{
	(void) va;
	return !fpt[pgtbl].present;
}

void
pt_map(uint64_t pgtbl, uint64_t va, uint64_t *e, uint64_t pte)
{
	(void) pgtbl, (void) va;
	*e = pte;
}

unsigned
pt_unmap(uint64_t pgtbl, uint64_t va)
{
	struct fake_pt *p = &fpt[pgtbl];
	int i = page_of(va);

	p->e[i] = p->shadow[i] = 0;
	for (int k = 0; k < NPAGES; k++)
		if (p->e[k])
			return 0;
	p->present = 0;
	return 1;
}

uint64_t *
pt_shadow(uint64_t *e)
{
	return e + NPAGES;
}

uint64_t
pt_make(uint64_t pa, unsigned perms)
{
	return pa | (uint64_t) perms << 1 | 1;
}

uint64_t
pt_pa(uint64_t e)
{
	return e & ~0xfffull;
}

unsigned
pt_perms(uint64_t e)
{
	return (unsigned) (e >> 1) & HR_MEM_ALL;
}

void
pt_flush(uint64_t pgtbl, uint64_t va)
{
	(void) pgtbl, (void) va;
}

/* ---- page-table quota: a fixed number of tables each ---------------------------------------- */

static unsigned pt_limit = 4;

struct pt_budget
ptq_budget(const struct comp *c)
{
	return (struct pt_budget){ pt_limit > c->pt_used ? pt_limit - c->pt_used : 0, 0 };
}

void
ptq_charge(struct comp *c, unsigned n)
{
	c->pt_used += n;
}

void
ptq_refund(struct comp *c, unsigned n)
{
	c->pt_used -= n;
}

/* ---- the rest of the kernel alias.c calls ---------------------------------------------- */

uint64_t
frame_take(uint64_t bytes, uint64_t align)
{
	void *p = aligned_alloc(align, (bytes + align - 1) / align * align);

	memset(p, 0, bytes);
	return hw_virt_to_phys(p);
}

_Noreturn void
panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	abort();
}

void
kprintf(const char *fmt, ...)
{
	(void) fmt;
}

/* slot k names component k, when it is in use */
struct comp *
comp_from_cap(struct comp *self, uint64_t slot)
{
	(void) self;
	return slot && slot < HR_COMP_MAX && comps[slot].state != COMP_FREE ? &comps[slot] : 0;
}

struct comp *
comp_arg(struct comp *self, uint64_t slot)
{
	return slot == HR_CAP_SELF ? self : comp_from_cap(self, slot);
}

/* ---- helpers ------------------------------------------------------------------------------ */

enum { ROOT = 1, A = 2, B = 3, A2 = 4 };
#define VA(i) (HR_VA_IMAGE_MIN + (uint64_t) (i) *HR_PAGE_SIZE)
#define RW    (HR_MEM_READ | HR_MEM_WRITE)

static struct thd t_root, t_a;

/* root (bound 12) with children A (bound 6, whose child is B, bound 3) and A2 (bound 2);
 * the root holds its pages 0..3 as original mappings. */
static void
setup(uint64_t pool)
{
	static int inited;

	if (!inited) /* alias.c's pool is carved once, as at boot */
		alias_init(pool);
	inited = 1;
	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		if (comps[i].state != COMP_FREE)
			alias_comp_clear(&comps[i]);
	for (unsigned i = 1; i < HR_COMP_MAX; i++)
		alias_bound(&comps[i], 0);
	memset(comps, 0, sizeof(comps));
	memset(fpt, 0, sizeof(fpt));
	tables_made = 0;
	pt_limit = 4;
	for (unsigned i = ROOT; i <= A2; i++) {
		comps[i].id = (uint16_t) i;
		comps[i].state = COMP_LIVE;
		comps[i].pgtbl = i;
	}
	comps[A].parent = comps[A2].parent = &comps[ROOT];
	comps[B].parent = &comps[A];
	CHECK_EQ(alias_bound(&comps[ROOT], 12), 0);
	CHECK_EQ(alias_bound(&comps[A], 6), 0);
	CHECK_EQ(alias_bound(&comps[B], 3), 0);
	CHECK_EQ(alias_bound(&comps[A2], 2), 0);
	comps[ROOT].mem_given = 8;
	comps[A].mem_given = 3;
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(alias_origin(&comps[ROOT], VA(i), 0x100000 + i * HR_PAGE_SIZE, RW), 0);
	t_root.comp = &comps[ROOT];
	t_a.comp = &comps[A];
}

static int
mapped(unsigned c, unsigned page)
{
	return fpt[c].present && (fpt[c].e[page] & 1);
}

/* ---- tests ---------------------------------------------------------------------------------- */

TEST(alias_maps_the_source_page_and_counts_it)
{
	setup(64);
	uint64_t before = alias_free_nodes();
	CHECK_EQ(sys_mem_alias(&t_root, VA(1), A, VA(5), HR_MEM_READ), 0);
	CHECK(mapped(A, 5));
	CHECK_EQ(pt_pa(fpt[A].e[5]), 0x100000 + HR_PAGE_SIZE);
	CHECK_EQ(sys_mem_info(&t_root, A, HR_MI_PERMS, VA(5)), HR_MEM_READ);
	CHECK_EQ(comps[A].mem_used, 1);
	CHECK_EQ(comps[A].pt_used, 1);
	CHECK_EQ(alias_free_nodes(), before - 1);
}

TEST(remove_takes_everything_derived_from_the_mapping)
{
	setup(64);
	uint64_t before = alias_free_nodes();
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A, VA(2), RW), 0);
	CHECK_EQ(sys_mem_alias(&t_a, VA(2), B, VA(7), HR_MEM_READ), 0);
	CHECK_EQ(sys_mem_alias(&t_a, VA(2), B, VA(8), RW), 0);
	CHECK_EQ(sys_mem_alias(&t_root, VA(1), A, VA(3), RW), 0);
	CHECK(mapped(B, 7) && mapped(B, 8));
	CHECK_EQ(sys_mem_remove(&t_root, A, VA(2)), 0);
	CHECK(!mapped(B, 7) && !mapped(B, 8) && !mapped(A, 2));
	CHECK(mapped(A, 3)); /* a sibling mapping stays */
	CHECK_EQ(comps[B].mem_used, 0);
	CHECK_EQ(comps[B].pt_used, 0); /* B's table emptied: refunded */
	CHECK_EQ(comps[A].mem_used, 1);
	CHECK_EQ(alias_free_nodes(), before - 1);
	CHECK(mapped(ROOT, 0)); /* the source stays */
}

TEST(clearing_a_component_removes_what_derives_from_its_mappings)
{
	setup(64);
	uint64_t before = alias_free_nodes();
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A, VA(2), RW), 0);
	CHECK_EQ(sys_mem_alias(&t_a, VA(2), B, VA(7), RW), 0);
	alias_comp_clear(&comps[A]);
	CHECK(!mapped(B, 7));
	CHECK_EQ(comps[B].mem_used, 0);
	CHECK_EQ(comps[A].mem_used, 0);
	CHECK_EQ(alias_free_nodes(), before);
}

TEST(remove_refuses_originals_and_mappings_from_others)
{
	setup(64);
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A, VA(2), RW), 0);
	CHECK_EQ(sys_mem_alias(&t_a, VA(2), B, VA(7), RW), 0);
	CHECK_EQ(sys_mem_remove(&t_root, HR_CAP_SELF, VA(0)), HR_EPERM);
	CHECK_EQ(sys_mem_remove(&t_root, A2, VA(7)), HR_ENOENT);
	t_a.comp = &comps[A];
	CHECK_EQ(sys_mem_remove(&t_a, HR_CAP_SELF, VA(2)), 0); /* given back */
	CHECK(!mapped(B, 7));
}

/* the decode-then-perform rule: a refused alias leaves no node, table or count behind */
static void
check_unchanged(uint64_t nodes, unsigned made, uint32_t pt_used, uint64_t used)
{
	CHECK_EQ(alias_free_nodes(), nodes);
	CHECK_EQ(tables_made, made);
	CHECK_EQ(comps[A2].pt_used, pt_used);
	CHECK_EQ(comps[A2].mem_used, used);
}

TEST(alias_onto_a_mapped_address_changes_nothing)
{
	setup(64);
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A2, VA(4), RW), 0);
	uint64_t nodes = alias_free_nodes();
	unsigned made = tables_made;
	CHECK_EQ(sys_mem_alias(&t_root, VA(1), A2, VA(4), RW), HR_EEXIST);
	check_unchanged(nodes, made, 1, 1);
	CHECK_EQ(pt_pa(fpt[A2].e[4]), 0x100000);
}

TEST(alias_refused_by_the_table_budget_allocates_no_table)
{
	setup(64);
	pt_limit = 0;
	uint64_t nodes = alias_free_nodes();
	unsigned made = tables_made;
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A2, VA(4), RW), HR_ENOMEM);
	check_unchanged(nodes, made, 0, 0);
	CHECK(!fpt[A2].present);
	pt_limit = 1;
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A2, VA(4), RW), 0);
	CHECK_EQ(comps[A2].pt_used, 1);
}

TEST(alias_refused_for_the_bound_allocates_no_table)
{
	setup(64);
	CHECK_EQ(alias_bound(&comps[A2], 0), 0);
	uint64_t nodes = alias_free_nodes();
	unsigned made = tables_made;
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A2, VA(4), RW), HR_ENOMEM);
	check_unchanged(nodes, made, 0, 0);
	CHECK(!fpt[A2].present);
}

TEST(alias_beyond_the_bound_or_the_rights_changes_nothing)
{
	setup(64);
	CHECK_EQ(sys_mem_alias(&t_root, VA(0), A2, VA(4), HR_MEM_READ), 0);
	CHECK_EQ(sys_mem_alias(&t_root, VA(1), A2, VA(5), RW), 0);
	uint64_t nodes = alias_free_nodes();
	unsigned made = tables_made;
	CHECK_EQ(sys_mem_alias(&t_root, VA(2), A2, VA(6), RW), HR_ENOMEM); /* bound 2 */
	check_unchanged(nodes, made, 1, 2);
	CHECK_EQ(sys_mem_alias(&t_root, VA(3), A, VA(6), RW | HR_MEM_EXEC), HR_EPERM);
	CHECK(!mapped(A, 6));
}

TEST(origin_refused_changes_nothing)
{
	setup(64);
	unsigned made = tables_made;
	CHECK_EQ(alias_origin(&comps[ROOT], VA(0), 0x200000, RW), HR_EEXIST);
	CHECK_EQ(pt_pa(fpt[ROOT].e[0]), 0x100000);
	pt_limit = 0;
	uint64_t nodes = alias_free_nodes();
	CHECK_EQ(alias_origin(&comps[A2], VA(0), 0x200000, RW), HR_ENOMEM);
	CHECK_EQ(alias_free_nodes(), nodes);
	CHECK_EQ(tables_made, made);
	CHECK_EQ(comps[A2].mem_used, 0);
}

TEST(origin_without_a_node_allocates_no_table)
{
	setup(64);
	for (unsigned k = 5; alias_free_nodes(); k++) {
		comps[k].id = (uint16_t) k;
		comps[k].state = COMP_LIVE;
		comps[k].pgtbl = k;
		for (unsigned p = 0; p < NPAGES && alias_free_nodes(); p++)
			CHECK_EQ(alias_origin(&comps[k], VA(p), 0x100000, HR_MEM_READ), 0);
	}
	unsigned made = tables_made;
	CHECK_EQ(alias_origin(&comps[A2], VA(0), 0x200000, RW), HR_ENOMEM);
	CHECK_EQ(tables_made, made);
	CHECK_EQ(comps[A2].pt_used, 0);
	CHECK(!fpt[A2].present);
}

TEST(bound_promises_its_nodes_and_refuses_what_the_pool_cannot_back)
{
	/* nodes: 63 usable; promised 12 + 6 + 3 + 2 = 23 */
	setup(64);
	struct comp *c = &comps[5];
	c->id = 5;
	c->state = COMP_LIVE;
	c->parent = &comps[ROOT];
	CHECK_EQ(alias_bound(c, 41), HR_ENOMEM);
	CHECK_EQ(c->mem_bound, 0);
	CHECK_EQ(alias_bound(c, 40), 0);
	CHECK_EQ(alias_bound(&comps[A2], 3), HR_ENOMEM); /* all 63 promised */
	CHECK_EQ(comps[A2].mem_bound, 2);
	CHECK_EQ(alias_bound(c, 10), 0); /* shrinking gives nodes back to the pool */
	CHECK_EQ(alias_bound(&comps[A2], 32), 0);
}

TEST(mem_bound_refused_by_the_pool_changes_nothing)
{
	setup(64);
	comps[ROOT].mem_given = 8;
	comps[ROOT].mem_bound = 200; /* the parent may give more than the pool backs */
	CHECK_EQ(sys_mem_bound(&t_root, A2, 100), HR_ENOMEM);
	CHECK_EQ(comps[A2].mem_bound, 2);
	CHECK_EQ(comps[ROOT].mem_given, 8);
	CHECK_EQ(sys_mem_bound(&t_root, A2, 4), 0);
	CHECK_EQ(comps[ROOT].mem_given, 10);
	comps[ROOT].mem_bound = 12; /* as promised, for the next setup */
}
