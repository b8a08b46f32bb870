/* child.c - the table of this subsystem's children (child.h). */
#include "child.h"
#include "caps.h"

#include <stdio.h>
#include <string.h>

static struct child children[CHILD_MAX];
/*
 * By component id, 1 + the record child_by_comp last found for it (0: none yet), checked
 * before it is believed: a record whose component went (dead, down, freed, rebuilt under
 * another id) no longer matches, and the search finds the one that does.  A component id
 * names at most one record: ours are live kernel components, each killed before its
 * record lets go of its id (ctor_destroy), so the one found is the one a search from the
 * first record would find.  Every kernel event about a child asks (subsys.c).
 */
static uint8_t by_comp[HR_COMP_MAX];
_Static_assert(CHILD_MAX < 256, "by_comp holds 1 + a record's index in a byte");

static void
init(struct child *c, const char *name, enum desc_type type)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->type = type;
	c->id = (uint32_t) (c - children) + 1;
	c->ent = -1;
	c->res_mem = c->res_cpu = c->res_io = -1;
	c->next_cap = HR_CAP_FROM_PARENT;
	c->share_top = HR_VA_FREE;
	c->ctor.slot = -1;
}

struct child *
child_new(const char *name, enum desc_type type)
{
	for (int i = 0; i < CHILD_MAX; i++) {
		if (children[i].name[0])
			continue;
		init(&children[i], name, type);
		return &children[i];
	}
	return 0;
}

void
child_free(struct child *c)
{
	memset(c, 0, sizeof(*c));
}

void
child_retire(struct child *c)
{
	struct child was = *c;

	if (!was.restart.at)
		return child_free(c);
	init(c, was.name, was.type);
	c->node = was.node;
	c->restart = was.restart;
	c->spent_before = was.spent_before;
	c->down = 1;
}

int
child_live(const struct child *c)
{
	return c->name[0] && !c->dead && !c->down;
}

struct child *
child_by_comp(uint32_t comp)
{
	int known = comp && comp < HR_COMP_MAX;
	struct child *c;

	if (known && by_comp[comp]) {
		c = &children[by_comp[comp] - 1];
		if (child_live(c) && c->ctor.comp == comp)
			return c;
	}
	for (int i = 0; i < CHILD_MAX; i++)
		if (child_live(&children[i]) && children[i].ctor.comp == comp) {
			if (known)
				by_comp[comp] = (uint8_t) (i + 1);
			return &children[i];
		}
	return 0;
}

struct child *
child_by_name(const char *name)
{
	for (int i = 0; i < CHILD_MAX; i++)
		if (child_live(&children[i]) && !strcmp(children[i].name, name))
			return &children[i];
	return 0;
}

struct child *
child_by_id(uint32_t id)
{
	if (!id || id > CHILD_MAX || !child_live(&children[id - 1]))
		return 0;
	return &children[id - 1];
}

struct child *
child_next(struct child *c)
{
	for (int i = c ? (int) (c - children) + 1 : 0; i < CHILD_MAX; i++)
		if (children[i].name[0])
			return &children[i];
	return 0;
}
