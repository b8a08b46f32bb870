/*
 * tree.c - walking and copying subsystem trees (tree.h).  Used by the sweep expansion and
 * by everything that needs the programs a subsystem hands down to its children.
 */
#include "tree.h"
#include "alloc.h"

#include <string.h>

struct node *
tree_clone(const struct node *n, struct node *parent)
{
	struct node *c = alloc_zero(1, sizeof(*c)), **tail = &c->kids;

	*c = *n;
	c->parent = parent;
	c->next = NULL;
	c->kids = NULL;
	for (const struct node *k = n->kids; k; k = k->next) {
		*tail = tree_clone(k, c);
		tail = &(*tail)->next;
	}
	return c;
}

void
tree_depths(struct node *n)
{
	n->depth = !n->parent ? 0 : n->parent->depth + (n->kind == NODE_SUBSYS);
	for (struct node *k = n->kids; k; k = k->next)
		tree_depths(k);
}

static unsigned
add_unique(const char *prog, const char **out, unsigned max, unsigned count)
{
	for (unsigned i = 0; i < count && i < max; i++)
		if (!strcmp(out[i], prog))
			return count;
	if (count < max)
		out[count] = prog;
	return count + 1;
}

static unsigned
collect(const struct node *n, const char **out, unsigned max, unsigned count)
{
	for (const struct node *k = n->kids; k; k = k->next) {
		if (k->kind != NODE_TASK)
			count = add_unique(k->program, out, max, count);
		count = collect(k, out, max, count);
	}
	return count;
}

unsigned
tree_modules(const struct node *s, const char **out, unsigned max)
{
	return collect(s, out, max, 0);
}
