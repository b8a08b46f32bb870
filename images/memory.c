/*
 * memory.c - the memory rule (memory.h).  In pages of 4 KiB:
 *   base(P)     = image(P) + stack + boot info + descriptor + minimum heap
 *   overhead(S) = base(S) + modules(S) + pcb (unless S is the root)
 *                 + one invocation stack per child of S
 *   overhead(S) + sum of the memory of S's child subsystems and components <= memory(S)
 *   base(C) <= memory(C) for a component C
 * where modules(S) counts, for each distinct program used strictly below S, its file in
 * pages plus one (S keeps a copy to build its children from).  The constants are rm/ctor.h's.
 */
#include "memory.h"
#include "diag.h"
#include "prog.h"
#include "tree.h"
#include "kernel/abi/hr_layout.h"

#define KIB(pages) ((unsigned long long) (pages) * (HR_PAGE_SIZE / 1024))

uint32_t
memory_usable_pages(const struct image *img)
{
	return (uint32_t) ((uint64_t) img->memory_mib * 256 * MEMORY_USABLE_PERCENT / 100);
}

/* What a program needs to run at all: image, stack, boot info, descriptor, minimum heap. */
static uint64_t
base_pages(const char *program, uint64_t desc_pages)
{
	return prog_find(program)->image_pages + HR_STACK_PAGES + CTOR_BOOTINFO + desc_pages +
	       CTOR_HEAP_MIN;
}

/* The page shared with the parent and each child's invocation stacks (rm/ctor.h; tasks are
 * our own threads and call nothing of ours). */
static uint64_t
service_pages(const struct node *s)
{
	uint64_t kids = 0;

	for (const struct node *k = s->kids; k; k = k->next)
		kids += k->kind != NODE_TASK;
	return (s->parent ? CTOR_PCB : 0) + kids * CTOR_STACKS_PER_CHILD;
}

static uint64_t
module_pages(const struct node *s)
{
	const char *mods[TREE_MODULES_MAX];
	unsigned n = tree_modules(s, mods, TREE_MODULES_MAX);
	uint64_t pages = 0;

	for (unsigned i = 0; i < n && i < TREE_MODULES_MAX; i++)
		pages += (prog_find(mods[i])->file_size + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE + 1;
	return pages;
}

static uint64_t
overhead(const struct node *s, uint64_t desc_pages)
{
	return base_pages(s->program, desc_pages) + module_pages(s) + service_pages(s);
}

/* Bottom up: declared sizes, the root's RAM, and the outer sweep copies' minimum. */
static void
fill(struct node *n, const struct image *img, uint64_t desc_pages)
{
	uint64_t kids = 0;

	for (struct node *k = n->kids; k; k = k->next) {
		fill(k, img, desc_pages);
		if (k->kind != NODE_TASK)
			kids += k->mem_pages;
	}
	n->mem_pages = n->mem_kib / 4;
	if (!n->parent && (!n->mem_kib || n->mem_pages > memory_usable_pages(img)))
		n->mem_pages = memory_usable_pages(img);
	if (n->mem_grow && overhead(n, desc_pages) + kids > n->mem_pages)
		n->mem_pages = overhead(n, desc_pages) + kids;
}

static void
report_overhead(const struct node *s, uint64_t desc_pages)
{
	diag_error(s->line_mem,
		   "subsystem '%s' needs %llu KiB for itself (program %llu, stack %llu, boot info "
		   "%llu, "
		   "descriptor %llu, modules %llu, heap %llu, services %llu) but has %llu KiB",
		   s->name, KIB(overhead(s, desc_pages)), KIB(prog_find(s->program)->image_pages),
		   KIB(HR_STACK_PAGES), KIB(CTOR_BOOTINFO), KIB(desc_pages), KIB(module_pages(s)),
		   KIB(CTOR_HEAP_MIN), KIB(service_pages(s)), KIB(s->mem_pages));
}

static void
check_component(const struct node *c, uint64_t desc_pages)
{
	if (base_pages(c->program, desc_pages) > c->mem_pages)
		diag_error(
			c->line_mem,
			"component '%s' needs at least %llu KiB for program '%s' but has %llu KiB",
			c->name, KIB(base_pages(c->program, desc_pages)), c->program,
			KIB(c->mem_pages));
}

/* Top down, in manifest order: S itself, then each child against what is left. */
static void
check(const struct node *s, uint64_t desc_pages)
{
	uint64_t own = overhead(s, desc_pages), left;

	if (own > s->mem_pages)
		return report_overhead(s, desc_pages);
	left = s->mem_pages - own;
	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind == NODE_TASK)
			continue;
		if (k->mem_pages > left) {
			diag_error(k->line_mem,
				   "child '%s' asks for %llu KiB but parent '%s' has %llu KiB left",
				   k->name, KIB(k->mem_pages), s->name, KIB(left));
			return;
		}
		left -= k->mem_pages;
		if (k->kind == NODE_COMP)
			check_component(k, desc_pages);
		else
			check(k, desc_pages);
	}
}

/* Add the bounds of s's subtree to *sum, in manifest order; 0 once one crosses cap (named
 * in the error).  Depth is bounded by the nesting rule (node.c). */
static int
add_bounds(const struct image *img, const struct node *s, uint64_t cap, uint64_t *sum)
{
	if (s->kind != NODE_TASK && (*sum += s->mem_pages) > cap) {
		diag_error(s->line,
			   "the memory of image '%s' adds up to %llu KiB with '%s', more than the "
			   "kernel can map (%llu x its %llu KiB of usable RAM): a page given "
			   "through d levels is mapped d times",
			   img->name, KIB(*sum), s->name, HR_MAP_NODES_PER_PAGE,
			   KIB(memory_usable_pages(img)));
		return 0;
	}
	for (const struct node *k = s->kids; k; k = k->next)
		if (!add_bounds(img, k, cap, sum))
			return 0;
	return 1;
}

/* The bounds of all components add up to at most the kernel's mapping nodes (hr_layout.h):
 * each bound promises its nodes when it is set. */
static void
check_nodes(const struct image *img)
{
	uint64_t sum = 0;

	add_bounds(img, img->root, HR_MAP_NODES_PER_PAGE * memory_usable_pages(img), &sum);
}

void
memory_check(struct image *img, uint64_t desc_pages)
{
	struct node *root = img->root;

	fill(root, img, desc_pages);
	if (root->mem_kib / 4 > memory_usable_pages(img))
		diag_error(root->line_mem,
			   "root '%s' asks for %u KiB but image '%s' has %llu KiB of usable RAM "
			   "(%d%% of memory-mib %u)",
			   root->name, root->mem_kib, img->name, KIB(memory_usable_pages(img)),
			   MEMORY_USABLE_PERCENT, img->memory_mib);
	else
		check(root, desc_pages);
	if (!diag_count())
		check_nodes(img);
}
