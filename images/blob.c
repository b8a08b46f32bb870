/*
 * blob.c - writing the boot descriptor with libfdt's sequential-write API (blob.h).
 * Every number is one 32-bit cell; nodes keep their manifest names and order.
 */
#include "blob.h"
#include "alloc.h"
#include "diag.h"
#include "memory.h"
#include "network.h"
#include "tree.h"

#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

/* The first libfdt error sticks; later writes do nothing. */
struct writer {
	void *fdt;
	int err;
};

static void
w_raw(struct writer *w, const char *name, const void *v, int len)
{
	if (!w->err)
		w->err = fdt_property(w->fdt, name, v, len);
}

static void
w_u32(struct writer *w, const char *name, uint32_t v)
{
	fdt32_t cell = cpu_to_fdt32(v);

	w_raw(w, name, &cell, 4);
}

static void
w_str(struct writer *w, const char *name, const char *s)
{
	w_raw(w, name, s, (int) strlen(s) + 1);
}

/* The most cells of one property: net-ports, net-ranges (pairs), cpu and restart (3). */
#define W_CELLS_MAX 16
_Static_assert(PORTS_MAX <= W_CELLS_MAX && 2 * RANGES_MAX <= W_CELLS_MAX, "cells fit");

static void
w_cells(struct writer *w, const char *name, const uint32_t *v, unsigned n)
{
	fdt32_t cells[W_CELLS_MAX];

	for (unsigned i = 0; i < n; i++)
		cells[i] = cpu_to_fdt32(v[i]);
	w_raw(w, name, cells, (int) (n * 4));
}

static void
w_cpu(struct writer *w, const struct node *n)
{
	uint32_t cpu[3] = { n->cpu.kind, n->cpu.budget, n->cpu.period };

	w_cells(w, "cpu", cpu, 3);
	if (n->cpu.server)
		w_cells(w, "server", &n->cpu.server, 1);
}

/* The programs s hands down, as a string list (zero length when there are none). */
static void
w_modules(struct writer *w, const struct node *s)
{
	const char *mods[TREE_MODULES_MAX];
	unsigned n = tree_modules(s, mods, TREE_MODULES_MAX);
	char buf[TREE_MODULES_MAX * 64];
	size_t len = 0;

	for (unsigned i = 0; i < n && i < TREE_MODULES_MAX; i++) {
		size_t l = strlen(mods[i]) + 1;
		if (len + l > sizeof(buf))
			break;
		memcpy(buf + len, mods[i], l);
		len += l;
	}
	w_raw(w, "modules", buf, (int) len);
}

static void
w_subsys(struct writer *w, const struct image *img, const struct node *n)
{
	w_str(w, "type", "subsystem");
	w_str(w, "program", n->program);
	w_str(w, "policy", n->policy);
	w_cpu(w, n);
	w_u32(w, "priority", n->priority);
	w_u32(w, "memory-pages", n->parent ? (uint32_t) n->mem_pages : memory_usable_pages(img));
	w_u32(w, "memory-kind", n->mem_kind);
	if (n->args)
		w_str(w, "args", n->args);
	if (n->nports)
		w_cells(w, "net-ports", n->ports, n->nports);
	if (n->nranges)
		w_cells(w, "net-ranges", n->ranges, 2 * n->nranges);
	if (network_has_kbps(n))
		w_u32(w, "net-kbps", network_kbps(n));
	w_modules(w, n);
	w_cells(w, "restart", (uint32_t[]){ n->restart, n->restart_max, n->restart_backoff }, 3);
}

static void
w_node(struct writer *w, const struct image *img, const struct node *n)
{
	if (!w->err)
		w->err = fdt_begin_node(w->fdt, n->parent ? n->name : "");
	if (!n->parent) {
		w_u32(w, "hires-descriptor", 1);
		w_str(w, "image", img->name);
		w_u32(w, "hz", img->hz);
		w_u32(w, "net-cards", n->net_cards);
	}
	if (n->kind == NODE_SUBSYS) {
		w_subsys(w, img, n);
	} else if (n->kind == NODE_TASK) {
		w_str(w, "type", "task");
		w_str(w, "entry", n->program);
		w_cpu(w, n);
		w_u32(w, "priority", n->priority);
		w_u32(w, "arg", n->arg);
	} else {
		w_str(w, "type", "component");
		w_str(w, "program", n->program);
		w_u32(w, "memory-pages", (uint32_t) n->mem_pages);
		w_u32(w, "priority", n->priority);
		if (n->args)
			w_str(w, "args", n->args);
	}
	for (const struct node *k = n->kids; k; k = k->next)
		w_node(w, img, k);
	if (!w->err)
		w->err = fdt_end_node(w->fdt);
}

void *
blob_build(const struct image *img, size_t *size)
{
	for (int cap = 16384; cap <= (1 << 26); cap *= 2) {
		struct writer w = { alloc_zero(1, (size_t) cap), 0 };
		w.err = fdt_create(w.fdt, cap);
		if (!w.err)
			w.err = fdt_finish_reservemap(w.fdt);
		w_node(&w, img, img->root);
		if (!w.err)
			w.err = fdt_finish(w.fdt);
		if (!w.err) {
			*size = fdt_totalsize(w.fdt);
			return w.fdt;
		}
		free(w.fdt);
		if (w.err != -FDT_ERR_NOSPACE)
			diag_fatal("cannot write the descriptor of image '%s': %s", img->name,
				   fdt_strerror(w.err));
	}
	diag_fatal("the descriptor of image '%s' is too large", img->name);
}
