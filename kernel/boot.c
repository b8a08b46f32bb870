/*
 * boot.c - the root component.
 *
 * The first multiboot module is the root's program.  The kernel loads it like any parent
 * loads a child (rm/ctor.c does the rest of the tree), then gives the root everything
 * else: every module read-only at HR_VA_MODULES and every remaining frame at HR_VA_MEM.
 * All of these are origin mappings, the roots of the derivation trees.
 */
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "alias.h"
#include "frame.h"
#include "boot.h"
#include "../lib/elf.h"

static uint64_t
user_frame(void)
{
	uint64_t pa = frame_next_user();

	if (!pa)
		panic("out of memory while building the root");
	memset(hw_phys_to_virt(pa), 0, HR_PAGE_SIZE);
	return pa;
}

static void
map(struct comp *c, uint64_t va, uint64_t pa, unsigned perms)
{
	if (alias_origin(c, va, pa, perms))
		panic("cannot map %lx into the root", va);
}

static void
load_segments(struct comp *c, const uint8_t *file, const struct elf_image *img)
{
	for (unsigned s = 0; s < img->nseg; s++) {
		const struct elf_seg *g = &img->seg[s];
		uint64_t start = g->vaddr & ~(HR_PAGE_SIZE - 1);
		for (uint64_t va = start; va < g->vaddr + g->memsz; va += HR_PAGE_SIZE) {
			uint64_t pa = user_frame();
			uint64_t lo = MAX(va, g->vaddr),
				 hi = MIN(va + HR_PAGE_SIZE, g->vaddr + g->filesz);
			if (lo < hi)
				memcpy((uint8_t *) hw_phys_to_virt(pa) + (lo - va),
				       file + g->offset + (lo - g->vaddr), hi - lo);
			map(c, va, pa, g->perms);
		}
	}
}

static uint64_t
build_stack(struct comp *c, const struct elf_image *img)
{
	uint64_t top = 0;

	for (uint64_t i = 1; i <= HR_STACK_PAGES; i++) {
		uint64_t pa = user_frame();
		if (i == 1)
			top = pa;
		map(c, HR_VA_STACK_TOP - i * HR_PAGE_SIZE, pa, HR_MEM_READ | HR_MEM_WRITE);
	}
	return elf_stack(hw_phys_to_virt(top), HR_PAGE_SIZE, HR_VA_STACK_TOP, "root", img);
}

static void
copy_name(char *d, const char *s)
{
	unsigned i = 0;
	for (; s && s[i] && i < HR_NAME_MAX - 1; i++)
		d[i] = s[i];
	d[i] = 0;
}

static void
map_modules(struct comp *c, const struct hw_boot *b, struct hr_bootinfo *bi)
{
	uint64_t va = HR_VA_MODULES;

	for (unsigned m = 0; m < b->nmod && m < HR_MODULES_MAX; m++) {
		uint64_t start = b->mod[m].start & ~(HR_PAGE_SIZE - 1);
		struct hr_module *hm = &bi->modules[bi->nmodules++];
		copy_name(hm->name, b->mod[m].cmdline);
		hm->base = va + (b->mod[m].start - start);
		hm->size = b->mod[m].end - b->mod[m].start;
		for (uint64_t pa = start; pa < b->mod[m].end;
		     pa += HR_PAGE_SIZE, va += HR_PAGE_SIZE)
			map(c, va, pa, HR_MEM_READ);
		if (!strncmp(hm->name, "descriptor", HR_NAME_MAX)) {
			bi->desc_base = hm->base;
			bi->desc_size = hm->size;
		}
	}
}

static void
map_window(struct comp *c, struct hr_bootinfo *bi)
{
	uint64_t pa, n = 0;

	bi->mem_base = HR_VA_MEM;
	while ((pa = frame_next_user())) {
		/* all rights, so that it can become a child's code; mapped as data (W^X: the
		 * root itself never executes it) */
		map(c, HR_VA_MEM + n * HR_PAGE_SIZE, pa, HR_MEM_ALL);
		n++;
	}
	bi->mem_pages = n;
}

struct thd *
boot_root(const struct hw_boot *b, uint64_t tsc_hz, uint64_t timer_hz)
{
	const uint8_t *file = hw_phys_to_virt(b->mod[0].start);
	struct elf_image img;
	const char *why;
	struct comp *c;
	struct thd *t;
	uint64_t bi_pa, sp;

	if (elf_parse(file, b->mod[0].end - b->mod[0].start, &img, &why))
		panic("root module '%s': %s", b->mod[0].cmdline, why);
	if (!(c = comp_new(0)) || !(t = thd_alloc()))
		panic("no component for the root");
	root_comp = c;
	if (alias_bound(c, frame_total_user())) /* its page tables are charged against this */
		panic("no mapping nodes for the root's memory");
	copy_name(c->name, "root");
	c->thd_quota = HR_THD_MAX - 2;
	c->comp_quota = HR_COMP_MAX - 2;
	load_segments(c, file, &img);
	sp = build_stack(c, &img);
	bi_pa = user_frame();
	struct hr_bootinfo *bi = hw_phys_to_virt(bi_pa);
	map(c, HR_VA_BOOTINFO, bi_pa, HR_MEM_READ);
	map_modules(c, b, bi);
	map_window(c, bi);
	alias_bound(c, c->mem_used); /* shrinking: never refused */

	hw_frame_init_user(&t->regs, img.entry, sp);
	t->comp = t->home = c;
	t->comp_gen = c->gen;
	t->state = HR_TS_READY;
	c->nthds = 1;
	if (schedtree_make(c, 0, t))
		panic("no page tables for the root's scheduler region");

	bi->magic = HR_BOOTINFO_MAGIC;
	bi->comp_id = c->id;
	bi->self_tid = t->id;
	bi->tsc_hz = tsc_hz;
	bi->timer_hz = timer_hz;
	copy_name(bi->name, "root");
	kprintf("[k] root: %u segments, entry %lx, %lu pages of memory, %u modules\n", img.nseg,
		img.entry, bi->mem_pages, bi->nmodules);
	return t;
}
