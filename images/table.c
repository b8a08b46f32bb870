/*
 * table.c - the per-image summary (table.h).  Names are indented by their level in the
 * tree, so nesting reads as it does in the manifest.
 */
#include "table.h"
#include "admission.h"
#include "memory.h"
#include "kernel/abi/hr_layout.h"

#include <string.h>

static int
name_width(const struct node *n, int level)
{
	int w = 2 * level + (int) strlen(n->name);

	for (const struct node *k = n->kids; k; k = k->next) {
		int kw = name_width(k, level + 1);
		w = kw > w ? kw : w;
	}
	return w;
}

static void
row(FILE *f, const struct node *n, int level, int width)
{
	char cpu[48], depth[8] = "-", mem[24] = "-";

	if (!n->parent)
		snprintf(cpu, sizeof(cpu), "whole CPU");
	else if (n->kind == NODE_COMP)
		snprintf(cpu, sizeof(cpu), "-");
	else
		admission_describe(&n->cpu, cpu, sizeof(cpu));
	if (n->kind == NODE_SUBSYS)
		snprintf(depth, sizeof(depth), "%u", n->depth);
	if (n->kind != NODE_TASK)
		snprintf(mem, sizeof(mem), "%llu KiB",
			 (unsigned long long) (n->mem_pages * (HR_PAGE_SIZE / 1024)));
	fprintf(f, "  %*s%-*s  %-9s  %5s  %-6s  %-16s  %12s\n", 2 * level, "", width - 2 * level,
		n->name, node_kind_name(n->kind), depth, n->kind == NODE_SUBSYS ? n->policy : "-",
		cpu, mem);
	for (const struct node *k = n->kids; k; k = k->next)
		row(f, k, level + 1, width);
}

void
table_print(const struct image *img, FILE *f)
{
	int width = name_width(img->root, 0);

	if (width < 4)
		width = 4;
	fprintf(f, "image %s%s: hz %u, %u MiB of RAM (%u KiB usable), timeout %u s\n", img->name,
		img->is_default ? " (default)" : "", img->hz, img->memory_mib,
		memory_usable_pages(img) * 4, img->timeout_s);
	fprintf(f, "  %-*s  %-9s  %5s  %-6s  %-16s  %12s\n", width, "NODE", "KIND", "DEPTH",
		"POLICY", "CPU", "MEMORY");
	row(f, img->root, 0, width);
}
