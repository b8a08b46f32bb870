/*
 * sweep.c - depth-sweep expansion (sweep.h).  Image D of a sweep replaces the repeat node R
 * by R-1 > R-2 > ... > R-D, each a copy of R without children; R-D gets R's children.
 * D = 0 removes R and hands its children to R's parent.  The outer copies' memory-kib is
 * a minimum: memory.c raises it to what the copies inside them need.  R's tasks marked
 * `outer` go instead to the outer copies, R-1 .. R-(D-1) (none when D <= 1); a task for
 * R's parent at every depth is the parent's own, declared there.
 */
#include "sweep.h"
#include "alloc.h"
#include "diag.h"
#include "tree.h"

#include <stdio.h>
#include <string.h>

static struct node *
find_repeat(struct node *n)
{
	struct node *r;

	if (n->repeat)
		return n;
	for (struct node *k = n->kids; k; k = k->next)
		if ((r = find_repeat(k)))
			return r;
	return NULL;
}

/* The link that points at n in its parent's list of children. */
static struct node **
link_to(struct node *n)
{
	struct node **l = &n->parent->kids;

	while (*l != n)
		l = &(*l)->next;
	return l;
}

/* D = 0: n's children take its place, in order. */
static void
splice_out(struct node *n)
{
	struct node **l = link_to(n), *last = NULL;

	for (struct node *k = n->kids; k; k = k->next) {
		k->parent = n->parent;
		last = k;
	}
	if (last) {
		last->next = n->next;
		*l = n->kids;
	} else {
		*l = n->next;
	}
}

static void
name_copy(struct node *c, const char *base, unsigned i)
{
	char name[64];

	snprintf(name, sizeof(name), "%s-%u", base, i);
	if (strlen(name) > NAME_LEN_MAX)
		diag_error(c->line, "sweep copy name '%s' is longer than %d characters", name,
			   NAME_LEN_MAX);
	snprintf(c->name, sizeof(c->name), "%.*s", NAME_LEN_MAX, name);
}

/* D >= 1: r becomes r-1 and gets r-2 .. r-D nested inside; r-D holds r's children. */
static void
chain(struct node *r, unsigned d)
{
	struct node *kids = r->kids, *c = r;
	char base[NAME_LEN_MAX + 1];

	snprintf(base, sizeof(base), "%s", r->name);
	r->repeat = 0;
	name_copy(r, base, 1);
	for (unsigned i = 2; i <= d; i++) {
		struct node *in = alloc_zero(1, sizeof(*in));
		*in = *r;
		in->parent = c;
		in->next = in->kids = NULL;
		name_copy(in, base, i);
		c->kids = in;
		c = in;
	}
	c->kids = kids;
	for (struct node *k = kids; k; k = k->next)
		k->parent = c;
	for (struct node *o = r; o != c; o = o->kids)
		o->mem_grow = 1;
}

/* Take r's children marked outer out of its list; return them, linked by next. */
static struct node *
take_outer(struct node *r)
{
	struct node *outer = NULL, **tail = &outer, **l = &r->kids;

	while (*l) {
		struct node *k = *l;

		if (!k->outer) {
			l = &k->next;
			continue;
		}
		*l = k->next;
		k->next = NULL;
		*tail = k;
		tail = &k->next;
	}
	return outer;
}

/* A copy of each of the outer tasks after level's children. */
static void
give_outer(struct node *level, const struct node *outer)
{
	struct node **tail = &level->kids;

	while (*tail)
		tail = &(*tail)->next;
	for (const struct node *o = outer; o; o = o->next) {
		*tail = tree_clone(o, level);
		tail = &(*tail)->next;
	}
}

/* Splicing children up can bring two equal names together. */
static void
check_siblings(const struct node *n)
{
	for (const struct node *k = n->kids; k; k = k->next) {
		for (const struct node *o = n->kids; o != k; o = o->next)
			if (!strcmp(o->name, k->name))
				diag_error(k->line, "two nodes named '%s' under '%s'", k->name,
					   n->name);
		check_siblings(k);
	}
}

static struct image *
generate(const struct image *t, unsigned d)
{
	struct image *img = alloc_zero(1, sizeof(*img));
	char name[64];
	struct node *r, *outer, *level;

	*img = *t;
	img->next = NULL;
	img->sweep = img->is_default = 0;
	snprintf(name, sizeof(name), "%s-d%u", t->name, d);
	if (strlen(name) > NAME_LEN_MAX)
		diag_error(t->line, "generated image name '%s' is longer than %d characters", name,
			   NAME_LEN_MAX);
	snprintf(img->name, sizeof(img->name), "%.*s", NAME_LEN_MAX, name);
	img->generated = 1;
	snprintf(name, sizeof(name), "in image '%s'", img->name);
	diag_context(name);
	img->root = tree_clone(t->root, NULL);
	r = find_repeat(img->root);
	outer = take_outer(r);
	if (d == 0)
		splice_out(r);
	else
		chain(r, d);
	/* the outer copies, r (now r-1) .. r-(d-1), each the only child of the one before */
	level = r;
	for (unsigned i = 1; i < d; i++) {
		struct node *in = level->kids;

		give_outer(level, outer);
		level = in;
	}
	tree_depths(img->root);
	check_siblings(img->root);
	diag_context(NULL);
	return img;
}

/* A generated name may clash with a declared image or another sweep's. */
static void
check_names(const struct image *list)
{
	for (const struct image *i = list; i; i = i->next)
		for (const struct image *j = list; j != i; j = j->next)
			if (!strcmp(i->name, j->name))
				diag_error(i->line, "image name '%s' is used twice", i->name);
}

struct image *
sweep_images(struct image *declared)
{
	struct image *list = NULL, **tail = &list;

	for (struct image *t = declared; t; t = t->next) {
		if (t->bad)
			continue;
		if (!t->sweep) {
			*tail = alloc_zero(1, sizeof(**tail));
			**tail = *t;
			(*tail)->next = NULL;
			tail = &(*tail)->next;
			continue;
		}
		for (unsigned d = t->sweep_lo; d <= t->sweep_hi; d++) {
			*tail = generate(t, d);
			tail = &(*tail)->next;
		}
	}
	check_names(list);
	return list;
}
