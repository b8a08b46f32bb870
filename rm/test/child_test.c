/* child_test.c - the table of a subsystem's children and its index by component
 * (rm/child.c). */
#include "check.h"
#include "rm/child.h"

#include <stdio.h>

/* Frees every record, so that each test starts from an empty table. */
static void
empty(void)
{
	for (struct child *c = child_next(0); c; c = child_next(c))
		child_free(c);
}

static struct child *
built(const char *name, uint32_t comp)
{
	struct child *c = child_new(name, DESC_SUBSYSTEM);

	CHECK(c != 0);
	if (c)
		c->ctor.comp = comp;
	return c;
}

TEST(child_by_comp_finds_each_live_child_again_and_again)
{
	struct child *c[CHILD_MAX];
	char name[16];

	empty();
	for (int i = 0; i < CHILD_MAX; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		c[i] = built(name, (uint32_t) (HR_COMP_MAX - 1 - i));
	}
	for (int round = 0; round < 3; round++) /* the first finds by search, the others by index */
		for (int i = 0; i < CHILD_MAX; i++)
			CHECK(child_by_comp((uint32_t) (HR_COMP_MAX - 1 - i)) == c[i]);
	CHECK(child_by_comp(HR_COMP_MAX - 1 - CHILD_MAX) == 0);
}

TEST(child_by_comp_skips_dead_and_down_children)
{
	struct child *a, *b;

	empty();
	a = built("a", 7);
	b = built("b", 9);
	CHECK(child_by_comp(7) == a);
	CHECK(child_by_comp(9) == b);
	a->dead = 1;
	CHECK(child_by_comp(7) == 0);
	b->down = 1;
	CHECK(child_by_comp(9) == 0);
	a->dead = 0;
	CHECK(child_by_comp(7) == a);
}

TEST(child_by_comp_follows_a_component_id_to_its_new_record)
{
	struct child *a, *b, *c;

	empty();
	a = built("a", 5);
	b = built("b", 6);
	CHECK(child_by_comp(5) == a);
	child_free(a); /* its component killed: the kernel may give id 5 out again */
	CHECK(child_by_comp(5) == 0);
	c = built("c", 5); /* into a's old record */
	CHECK(c == a);
	CHECK(child_by_comp(5) == c);
	child_free(c);
	b->ctor.comp = 5; /* b rebuilt: a new component, id 5 now */
	CHECK(child_by_comp(6) == 0);
	CHECK(child_by_comp(5) == b);
}

TEST(child_by_comp_of_zero_or_beyond_the_ids_is_a_plain_search)
{
	struct child *a, *b;

	empty();
	a = built("a", 0); /* being built: no component yet */
	b = built("b", 0);
	CHECK(child_by_comp(0) == a);
	CHECK(child_by_comp(0) == a);
	a->dead = 1;
	CHECK(child_by_comp(0) == b);
	CHECK(child_by_comp(HR_COMP_MAX) == 0);
	CHECK(child_by_comp(UINT32_MAX) == 0);
	b->ctor.comp = UINT32_MAX;
	CHECK(child_by_comp(UINT32_MAX) == b);
}

TEST(child_retire_keeps_a_child_to_rebuild_out_of_the_index)
{
	struct child *a;

	empty();
	a = built("a", 11);
	CHECK(child_by_comp(11) == a);
	a->restart.at = 100; /* waits to be rebuilt */
	a->spent_before = 12345;
	child_retire(a);
	CHECK(a->down);
	CHECK_EQ(a->spent_before, 12345); /* its row goes on counting every life */
	CHECK(child_by_comp(11) == 0);
	CHECK(child_by_name("a") == 0);
	a->down = 0;
	a->ctor.comp = 12; /* rebuilt, with another component */
	CHECK(child_by_comp(11) == 0);
	CHECK(child_by_comp(12) == a);
}
