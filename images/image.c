/*
 * image.c - whole-image checks (image.h).  The kernel passes at most HR_MODULES_MAX boot
 * modules (the programs and the descriptor) and each subsystem maps at most
 * HR_DESC_MAX_PAGES of descriptor; the scheduler hierarchy is at most HR_DEPTH_MAX deep.
 */
#include "image.h"
#include "admission.h"
#include "blob.h"
#include "diag.h"
#include "memory.h"
#include "network.h"
#include "tree.h"
#include "kernel/abi/hr_bootinfo.h"
#include "kernel/abi/hr_layout.h"
#include "kernel/abi/hr_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first subsystem deeper than the scheduler hierarchy allows. */
static const struct node *
too_deep(const struct node *n)
{
	const struct node *d;

	if (n->kind == NODE_SUBSYS && n->depth > HR_DEPTH_MAX)
		return n;
	for (const struct node *k = n->kids; k; k = k->next)
		if ((d = too_deep(k)))
			return d;
	return NULL;
}

unsigned
image_programs(const struct image *img, const char **out, unsigned max)
{
	const char *below[TREE_MODULES_MAX];
	unsigned n = tree_modules(img->root, below, TREE_MODULES_MAX), count = 1;

	out[0] = img->root->program;
	for (unsigned i = 0; i < n && i < TREE_MODULES_MAX; i++) {
		if (!strcmp(below[i], img->root->program))
			continue;
		if (count < max)
			out[count] = below[i];
		count++;
	}
	return count;
}

void
image_check(struct image *img)
{
	const char *progs[TREE_MODULES_MAX];
	const struct node *deep = too_deep(img->root);
	unsigned modules = image_programs(img, progs, TREE_MODULES_MAX) + 1;
	size_t size;
	void *blob = blob_build(img, &size);
	uint64_t desc_pages = (size + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;

	char context[64];

	free(blob);
	snprintf(context, sizeof(context), "in image '%s'", img->name);
	diag_context(img->generated ? context : NULL);
	if (deep)
		diag_error(deep->line,
			   "subsystem '%s' is at depth %u but the deepest allowed is %d, counting "
			   "the root as 0",
			   deep->name, deep->depth, HR_DEPTH_MAX);
	if (modules > HR_MODULES_MAX)
		diag_error(img->line,
			   "the image needs %u boot modules (%u programs and the descriptor) but "
			   "the kernel passes at most %d",
			   modules, modules - 1, HR_MODULES_MAX);
	if (desc_pages > HR_DESC_MAX_PAGES)
		diag_error(img->line, "the image's descriptor is %llu pages; at most %llu fit",
			   (unsigned long long) desc_pages, HR_DESC_MAX_PAGES);
	memory_check(img, desc_pages);
	admission_check(img);
	network_check(img);
	diag_context(NULL);
}
