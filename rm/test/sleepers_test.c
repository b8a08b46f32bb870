/* sleepers_test.c - the table of threads sleeping in our services (rm/sleepers.c). */
#include "check.h"
#include "rm/events.h"
#include "rm/sleepers.h"
#include "kernel/abi/hr_errno.h"

#include <stdlib.h>

static struct sleepers t;

static void
fresh(unsigned children)
{
	free(t.s);
	free(t.busy);
	CHECK_EQ(sleepers_init(&t, children), 0);
}

/* Every child may have its share asleep, whatever its siblings do; never more. */
TEST(sleepers_every_child_gets_its_share_and_no_more)
{
	unsigned asleep[40] = { 0 };

	fresh(40);
	for (uint32_t c = 0; c < 40; c++)
		for (unsigned k = 0; k < SLEEPERS_PER_CHILD; k++) {
			CHECK(sleepers_add(&t, 100 + c, c, asleep[c], 1000 + c) >= 0);
			asleep[c]++;
		}
	CHECK_EQ(t.n, 40 * SLEEPERS_PER_CHILD);
	for (uint32_t c = 0; c < 40; c++)
		CHECK_EQ(sleepers_add(&t, 100 + c, c, asleep[c], 1), HR_ENOMEM);
}

TEST(sleepers_due_ones_in_order_and_the_earliest_left)
{
	long a, b, c;

	fresh(2);
	CHECK_EQ(sleepers_earliest(&t), 0);
	a = sleepers_add(&t, 10, 0, 0, 500);
	b = sleepers_add(&t, 11, 0, 1, 300);
	c = sleepers_add(&t, 12, 1, 0, 900);
	CHECK_EQ(sleepers_earliest(&t), 300);
	CHECK_EQ(sleepers_due(&t, 299, 0), -1);
	CHECK_EQ(sleepers_due(&t, 500, 0), a < b ? a : b);
	CHECK_EQ(sleepers_due(&t, 500, (int) (a < b ? a : b) + 1), a < b ? b : a);
	sleepers_vacate(&t, (int) a);
	sleepers_vacate(&t, (int) b);
	sleepers_vacate(&t, (int) b); /* twice: nothing more */
	CHECK_EQ(t.n, 1);
	CHECK_EQ(sleepers_due(&t, 500, 0), -1);
	CHECK_EQ(sleepers_earliest(&t), 900);
	CHECK_EQ(sleepers_due(&t, 900, 0), c);
}

TEST(sleepers_forget_frees_a_childs_slots_only)
{
	uint32_t tids[8];

	fresh(3);
	for (unsigned k = 0; k < SLEEPERS_PER_CHILD; k++) {
		sleepers_add(&t, 20 + k, 1, k, 100);
		sleepers_add(&t, 30 + k, 2, k, 200);
	}
	CHECK_EQ(sleepers_forget(&t, 1, tids, 2), 2); /* room for 2: the rest freed anyway */
	CHECK_EQ(tids[0], 20);
	CHECK_EQ(tids[1], 21);
	CHECK_EQ(t.n, SLEEPERS_PER_CHILD);
	CHECK_EQ(sleepers_earliest(&t), 200);
	CHECK_EQ(sleepers_forget(&t, 2, tids, 8), SLEEPERS_PER_CHILD);
	CHECK_EQ(t.n, 0);
	CHECK_EQ(sleepers_earliest(&t), 0);
	/* freed slots are reused */
	CHECK(sleepers_add(&t, 40, 1, 0, 5) >= 0);
}

/* Randomized against a plain model: any mix of adds, wakes and forgets. */
TEST(sleepers_random_against_a_model)
{
	enum { KIDS = 9 };
	uint64_t model[KIDS * SLEEPERS_PER_CHILD];
	uint32_t of[KIDS * SLEEPERS_PER_CHILD], tids[SLEEPERS_PER_CHILD];
	unsigned asleep[KIDS] = { 0 }, seed = 7;

	fresh(KIDS);
	for (int i = 0; i < KIDS * SLEEPERS_PER_CHILD; i++)
		model[i] = 0;
	for (int step = 0; step < 200000 && !check_failed_now; step++) {
		uint32_t c = (uint32_t) rand_r(&seed) % KIDS;
		uint64_t now = (uint64_t) step * 10, next = 0;
		long i =
			sleepers_add(&t, c, c, asleep[c], now + 1 + (uint64_t) rand_r(&seed) % 500);
		CHECK_EQ(i >= 0, asleep[c] < SLEEPERS_PER_CHILD);
		if (i >= 0)
			model[i] = t.s[i].until, of[i] = c, asleep[c]++;
		for (int d = 0; (d = sleepers_due(&t, now, d)) >= 0; d++) {
			CHECK(model[d] && model[d] <= now);
			asleep[of[d]]--, model[d] = 0;
			sleepers_vacate(&t, d);
		}
		if (rand_r(&seed) % 50 == 0) {
			unsigned n = sleepers_forget(&t, c, tids, SLEEPERS_PER_CHILD);
			CHECK_EQ(n, asleep[c]);
			for (int k = 0; k < KIDS * SLEEPERS_PER_CHILD; k++)
				if (model[k] && of[k] == c)
					model[k] = 0;
			asleep[c] = 0;
		}
		for (int k = 0; k < KIDS * SLEEPERS_PER_CHILD; k++) {
			CHECK(!model[k] || model[k] > now);
			if (model[k] && (!next || model[k] < next))
				next = model[k];
		}
		CHECK_EQ(sleepers_earliest(&t), next);
	}
}
