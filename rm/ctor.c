/*
 * ctor.c - the generic constructor (ctor.h).
 *
 * The pages a child gets from us are one run of our own pages laid out as
 * [program image][stack][boot info][pcb][descriptor], and its memory window, which the
 * aliaser (window.c) fills with zeroed pages of ours; the modules it needs are read-only
 * aliases of our own module mappings.  Every page counts against the bound
 * we set for it; the memory rule of docs/MANIFEST.md (CTOR_* in ctor.h) reserves at least
 * what this spends, so an image the builder accepted always fits here.
 */
#include "ctor.h"
#include "caps.h"
#include "desc.h"
#include "lib/elf.h"
#include "pages.h"
#include "parent.h"
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan {
	struct elf_image img;
	const uint8_t *file; /* the program's bytes */
	uint64_t file_size;
	uint64_t image, info, pcb, desc, window, fixed; /* pages */
	uint64_t desc_bytes;
	void *desc_blob;
	uint64_t maps;	   /* page mappings made so far */
	uint64_t fail_map; /* the one a test makes fail first (0: none) */
};

/* Why a step failed, as "<what>: <error>" in why; returns r. */
__attribute__((format(printf, 4, 5))) static long
say(char *why, size_t len, long r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(why, len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t) n < len)
		snprintf(why + n, len - (size_t) n, ": %s", hr_strerror(r));
	return r;
}

/* Count n page mappings about to be made: HR_ENOMEM if a test wants one of them to fail. */
static long
count_maps(struct plan *p, uint64_t n)
{
	if (p->fail_map && n && p->fail_map <= p->maps + n)
		return HR_ENOMEM;
	p->maps += n;
	return 0;
}

/* window_alias, but for what a test makes fail (ctor_spec.fail_map). */
static long
map(struct plan *p, long slot, uint64_t src, uint64_t dst, uint64_t n, unsigned perms, int zero)
{
	long r = count_maps(p, n);

	return r ? r : window_alias(slot, src, dst, n, perms, zero);
}

static const struct hr_module *
find_module(const char *name)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	for (uint32_t i = 0; i < bi->nmodules && i < HR_MODULES_MAX; i++)
		if (!strncmp(bi->modules[i].name, name, HR_NAME_MAX))
			return &bi->modules[i];
	return 0;
}

static uint64_t
span(uint64_t base, uint64_t size)
{
	uint64_t lo = base & ~(HR_PAGE_SIZE - 1);
	return (base + size - lo + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;
}

/* Modules named by the child's descriptor node; calls fn for each, stops on error. */
static long
each_module(const struct ctor_spec *s, long (*fn)(const struct hr_module *, void *), void *ctx,
	    char *why, size_t len)
{
	struct desc_node d;
	const char *err;

	if (!s->subsystem || !s->desc || desc_read(s->desc, s->node, &d, &err))
		return 0;
	for (int off = 0; off < d.modules_len; off += (int) strlen(d.modules + off) + 1) {
		const struct hr_module *m = find_module(d.modules + off);
		long r;
		if (!d.modules[off])
			continue;
		if (!m) {
			snprintf(why, len, "module '%s' needed below '%s' is not ours to give",
				 d.modules + off, s->name);
			return HR_ENOENT;
		}
		if ((r = fn(m, ctx)))
			return r;
	}
	return 0;
}

static long
count_module(const struct hr_module *m, void *ctx)
{
	*(uint64_t *) ctx += span(m->base, m->size);
	return 0;
}

/* Heap and invocation stacks the child's runtime needs (the CTOR_* rule). */
static uint64_t
runtime_pages(const struct ctor_spec *s)
{
	unsigned kids = s->subsystem && s->desc ? desc_builds(s->desc, s->node) : 0;

	return CTOR_HEAP_MIN + (uint64_t) kids * CTOR_STACKS_PER_CHILD;
}

/* The child's descriptor: cut from ours (or the test's override), checked before use. */
static long
cut_descriptor(const struct ctor_spec *s, struct plan *p, char *why, size_t len)
{
	uint64_t cap = s->desc_blob ? s->desc_bytes : s->desc ? desc_size(s->desc) : 0;
	const char *err;

	if (!cap)
		return 0;
	if (!(p->desc_blob = malloc(cap))) {
		snprintf(why, len, "no memory for the descriptor of '%s'", s->name);
		return HR_ENOMEM;
	}
	if (s->desc_blob) {
		memcpy(p->desc_blob, s->desc_blob, cap);
		p->desc_bytes = cap;
	} else {
		long n = desc_extract(s->desc, s->node, p->desc_blob, cap);
		if (n < 0) {
			snprintf(why, len, "no memory to cut the descriptor of '%s'", s->name);
			return HR_ENOMEM;
		}
		p->desc_bytes = (uint64_t) n;
	}
	if (desc_check(p->desc_blob, p->desc_bytes, &err)) {
		snprintf(why, len, "descriptor of '%s' is corrupt: %s", s->name, err);
		return HR_EINVAL;
	}
	p->desc = (p->desc_bytes + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;
	return 0;
}

static long
make_plan(const struct ctor_spec *s, struct plan *p, char *why, size_t len)
{
	const char *err;
	uint64_t modules = 0, fixed;
	long r;

	memset(p, 0, sizeof(*p));
	p->fail_map = s->fail_map;
	if (s->image) {
		p->file = s->image;
		p->file_size = s->image_size;
	} else {
		const struct hr_module *m = find_module(s->program);
		if (!m) {
			snprintf(why, len, "program '%s' is not among our modules", s->program);
			return HR_ENOENT;
		}
		p->file = (const uint8_t *) m->base;
		p->file_size = m->size;
	}
	if (elf_parse(p->file, p->file_size, &p->img, &err)) {
		snprintf(why, len, "program '%s': %s", s->program, err);
		return HR_EINVAL;
	}
	for (unsigned i = 0; i < p->img.nseg; i++)
		p->image += span(p->img.seg[i].vaddr, p->img.seg[i].memsz);
	if ((r = cut_descriptor(s, p, why, len)))
		return r;
	if ((r = each_module(s, count_module, &modules, why, len)))
		return r;
	p->info = CTOR_BOOTINFO;
	p->pcb = s->subsystem ? CTOR_PCB : 0;
	fixed = p->image + HR_STACK_PAGES + p->info + p->pcb + p->desc + modules;
	if (s->mem_pages < fixed + runtime_pages(s)) {
		snprintf(why, len, "'%s' needs at least %lu pages but its reservation is %u",
			 s->name, (unsigned long) (fixed + runtime_pages(s)), s->mem_pages);
		return HR_ENOMEM;
	}
	p->window = s->mem_pages - fixed;
	p->fixed = p->image + HR_STACK_PAGES + p->info + p->pcb + p->desc;
	return 0;
}

/* Copy each segment into our pages at *at and alias them at the segment's address. */
static long
load_image(const struct ctor_spec *s, struct plan *p, long slot, uint64_t *at, char *why,
	   size_t len)
{
	const uint8_t *file = p->file;

	for (unsigned i = 0; i < p->img.nseg; i++) {
		const struct elf_seg *g = &p->img.seg[i];
		uint64_t lo = g->vaddr & ~(HR_PAGE_SIZE - 1), n = span(g->vaddr, g->memsz);
		uint8_t *mem = (uint8_t *) *at;
		long r;
		memset(mem, 0, n * HR_PAGE_SIZE);
		memcpy(mem + (g->vaddr - lo), file + g->offset, g->filesz);
		if ((r = map(p, slot, *at, lo, n, g->perms, 0)))
			return say(why, len, r,
				   "cannot map segment %u of the program of '%s' at %#lx", i,
				   s->name, (unsigned long) lo);
		*at += n * HR_PAGE_SIZE;
	}
	return 0;
}

struct module_ctx {
	long slot;
	struct hr_bootinfo *bi;
	uint64_t va;
	struct plan *plan;
	const char *child;
	char *why;
	size_t len;
};

static long
give_module(const struct hr_module *m, void *ctx)
{
	struct module_ctx *c = ctx;
	uint64_t lo = m->base & ~(HR_PAGE_SIZE - 1), n = span(m->base, m->size);
	struct hr_module *out;
	long r;

	if (c->bi->nmodules >= HR_MODULES_MAX)
		return say(c->why, c->len, HR_ENOMEM, "'%s' would need more than %d modules",
			   c->child, HR_MODULES_MAX);
	if ((r = map(c->plan, c->slot, lo, c->va, n, HR_MEM_READ, 0)))
		return say(c->why, c->len, r, "cannot give '%s' the program '%.*s'", c->child,
			   HR_NAME_MAX, m->name);
	out = &c->bi->modules[c->bi->nmodules++];
	*out = *m;
	out->base = c->va + (m->base - lo);
	c->va += n * HR_PAGE_SIZE;
	return 0;
}

static void
fill_info(struct hr_bootinfo *bi, const struct ctor_spec *s, const struct plan *p, long id)
{
	const struct hr_bootinfo *me = hr_bootinfo();

	memset(bi, 0, HR_PAGE_SIZE);
	bi->magic = HR_BOOTINFO_MAGIC;
	bi->comp_id = (uint32_t) id;
	bi->parent_id = me->comp_id;
	bi->depth = me->depth + (s->subsystem ? 1 : 0);
	bi->cap_parent = HR_CAP_PARENT;
	snprintf(bi->name, sizeof(bi->name), "%s", s->name);
	snprintf(bi->parent_name, sizeof(bi->parent_name), "%s", me->name);
	bi->mem_base = HR_VA_MEM;
	bi->mem_pages = p->window;
	bi->desc_base = p->desc ? HR_VA_DESC : 0;
	bi->desc_size = p->desc_bytes;
	bi->tsc_hz = me->tsc_hz;
	bi->timer_hz = me->timer_hz;
	bi->arg = s->arg;
}

/* The window: the rest of the child's reservation, as zeroed pages of ours. */
static long
give_window(const struct ctor_spec *s, struct plan *p, struct ctor_child *c, char *why, size_t len)
{
	long r;

	if (!(r = count_maps(p, p->window)) && (r = window_grow(&c->window, p->window)) > 0)
		r = 0;
	return r ? say(why, len, r, "cannot give '%s' its memory window of %lu pages", s->name,
		       (unsigned long) p->window)
		 : 0;
}

/* Its stack, the page we share, its descriptor, the modules it needs and its window. */
static long
give_memory(const struct ctor_spec *s, struct plan *p, struct ctor_child *c, uint64_t stack,
	    struct hr_bootinfo *bi, char *why, size_t len)
{
	uint64_t pcb = (uint64_t) bi + HR_PAGE_SIZE, desc = pcb + p->pcb * HR_PAGE_SIZE;
	struct module_ctx mc = { c->slot, bi, HR_VA_MODULES, p, s->name, why, len };
	long r;

	if ((r = map(p, c->slot, stack, HR_VA_STACK_TOP - HR_STACK_PAGES * HR_PAGE_SIZE,
		     HR_STACK_PAGES, HR_MEM_READ | HR_MEM_WRITE, 0)))
		return say(why, len, r, "cannot give '%s' its stack", s->name);
	if ((r = map(p, c->slot, pcb, HR_VA_PCB, p->pcb, HR_MEM_READ | HR_MEM_WRITE, 0)))
		return say(why, len, r, "cannot share a page with '%s'", s->name);
	if ((r = map(p, c->slot, desc, HR_VA_DESC, p->desc, HR_MEM_READ, 0)))
		return say(why, len, r, "cannot give '%s' its descriptor", s->name);
	if ((r = each_module(s, give_module, &mc, why, len)))
		return r;
	return give_window(s, p, c, why, len);
}

/* Everything but the program image, once the component exists. */
static long
give_rest(const struct ctor_spec *s, struct plan *p, struct ctor_child *c, uint64_t at, char *why,
	  size_t len)
{
	uint64_t stack = at, info = stack + HR_STACK_PAGES * HR_PAGE_SIZE;
	uint64_t pcb = info + HR_PAGE_SIZE, desc = pcb + p->pcb * HR_PAGE_SIZE;
	struct hr_bootinfo *bi = (struct hr_bootinfo *) info;
	uint64_t sp;
	long r;

	fill_info(bi, s, p, (long) c->comp);
	memset((void *) stack, 0, HR_STACK_PAGES * HR_PAGE_SIZE);
	sp = elf_stack((void *) (info - HR_PAGE_SIZE), HR_PAGE_SIZE, HR_VA_STACK_TOP, s->name,
		       &p->img);
	if (p->desc)
		memcpy((void *) desc, p->desc_blob, p->desc_bytes);
	if (p->pcb) {
		memset((void *) pcb, 0, HR_PAGE_SIZE);
		c->pcb = (struct hr_pcb *) pcb;
	}
	if ((r = give_memory(s, p, c, stack, bi, why, len)))
		return r;
	if ((r = hr_cap_invoke(c->slot, HR_CAP_PARENT, HR_CAP_SELF, 0)))
		return say(why, len, r, "no capability to us for '%s'", s->name);
	if ((c->tid = hr_thd_create(c->slot, (long) p->img.entry, (long) sp, 0, 0)) < 0)
		return say(why, len, c->tid, "no thread for '%s'", s->name);
	bi->self_tid = (uint32_t) c->tid;
	if ((r = map(p, c->slot, info, HR_VA_BOOTINFO, 1, HR_MEM_READ, 0)))
		return say(why, len, r, "cannot give '%s' its boot information", s->name);
	return 0;
}

static long
create(const struct ctor_spec *s, struct ctor_child *c, const struct plan *p, char *why, size_t len)
{
	uint32_t threads = 0, comps = 0; /* a component creates neither threads nor components */
	long id;

	if (s->subsystem && s->desc)
		ctor_quota(s->desc, s->node, &threads, &comps);
	if ((c->slot = caps_alloc()) < 0)
		return say(why, len, c->slot, "no capability slot for '%s'", s->name);
	if ((c->fixed = pages_alloc(p->fixed)))
		c->fixed_pages = p->fixed;
	if (!c->fixed || pages_left() < p->window)
		return say(why, len, HR_ENOMEM, "no %lu free pages for '%s'",
			   (unsigned long) (p->fixed + p->window), s->name);
	if ((id = hr_comp_create(c->slot, threads, comps)) < 0)
		return say(why, len, id, "no component for '%s' (%u threads, %u components)",
			   s->name, threads, comps);
	c->comp = (uint32_t) id;
	/* the kernel tags what the child writes with this name (the test runner trusts it) */
	if ((id = hr_comp_name(c->slot, (long) s->name, (long) strlen(s->name)))) {
		snprintf(why, len, "naming '%s': %s", s->name, hr_strerror(id));
		return id;
	}
	window_init(&c->window, c->slot);
	if ((id = hr_mem_bound(c->slot, s->mem_pages)))
		return say(why, len, id, "memory bound of %u pages for '%s'", s->mem_pages,
			   s->name);
	return 0;
}

long
ctor_build(const struct ctor_spec *s, struct ctor_child *c, char *why, size_t len)
{
	struct plan p;
	uint64_t at;
	long r;

	memset(c, 0, sizeof(*c));
	c->slot = -1;
	why[0] = 0;
	if (!(r = make_plan(s, &p, why, len)) && !(r = create(s, c, &p, why, len))) {
		at = c->fixed;
		if (!(r = load_image(s, &p, c->slot, &at, why, len)) &&
		    !(r = give_rest(s, &p, c, at, why, len)) && s->subsystem &&
		    (r = hr_sched_promote(c->slot, c->tid)))
			say(why, len, r, "promoting '%s'", s->name);
	}
	free(p.desc_blob);
	if (r && !why[0]) /* every step says why; this is only a net under them */
		say(why, len, r, "building '%s' failed", s->name);
	if (r)
		ctor_destroy(c);
	return r;
}

void
ctor_destroy(struct ctor_child *c)
{
	if (c->comp)
		hr_comp_kill(c->slot);
	if (c->slot >= 0)
		caps_free(c->slot);
	if (c->fixed)
		pages_free(c->fixed, c->fixed_pages);
	window_free(&c->window);
	memset(c, 0, sizeof(*c));
	c->slot = -1;
}

void
ctor_quota(const void *desc, int node, uint32_t *threads, uint32_t *comps)
{
	struct desc_node d;
	const char *why;

	*threads = 4;
	*comps = 0;
	for (int n = desc_child(desc, node); n >= 0; n = desc_sibling(desc, n)) {
		if (desc_read(desc, n, &d, &why))
			continue;
		*threads += 1;
		if (d.type == DESC_SUBSYSTEM) {
			uint32_t t, k;
			ctor_quota(desc, n, &t, &k);
			*threads += t;
			*comps += 1 + k;
		} else if (d.type == DESC_COMPONENT) {
			*comps += 1;
		}
	}
}
