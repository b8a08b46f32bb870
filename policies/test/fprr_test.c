/* fprr_test.c - fixed priority round robin (policies/fprr.c) with a fake clock. */
#include "check.h"
#include "../policy.h"
#include "../../kernel/abi/hr_errno.h"

#include <string.h>

static const struct policy *pol = &policy_fprr;
static _Alignas(8) unsigned char st[16384];

static void
fresh(uint64_t slice)
{
	CHECK(pol->size <= sizeof(st));
	pol->init(st, 0, slice);
}

static int
add(uint32_t id, uint32_t prio)
{
	struct pol_param p = { .prio = prio, .kind = RES_NONE };

	return pol->add(st, id, &p, 0);
}

TEST(fprr_picks_most_urgent_priority)
{
	fresh(10);
	CHECK_EQ(add(0, 5), 0);
	CHECK_EQ(add(1, 2), 0);
	CHECK_EQ(add(2, 9), 0);
	CHECK_EQ(pol->pick(st, 0), 1);
}

TEST(fprr_rotates_equal_priorities_each_slice)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	add(2, 3);
	add(3, 7);
	CHECK_EQ(pol->pick(st, 0), 0);
	pol->charge(st, 0, 10, 10);
	CHECK_EQ(pol->pick(st, 10), 1);
	pol->charge(st, 1, 10, 20);
	CHECK_EQ(pol->pick(st, 20), 2);
	pol->charge(st, 2, 10, 30);
	CHECK_EQ(pol->pick(st, 30), 0);
}

TEST(fprr_partial_slice_keeps_the_head)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	pol->charge(st, 0, 4, 4);
	CHECK_EQ(pol->pick(st, 4), 0);
	CHECK_EQ(pol->next_event(st, 4), 10);
	pol->charge(st, 0, 6, 10);
	CHECK_EQ(pol->pick(st, 10), 1);
}

TEST(fprr_preempted_entity_keeps_place_and_rest_of_slice)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	add(2, 1);
	pol->block(st, 2, 0);
	pol->charge(st, 0, 4, 4);
	pol->wake(st, 2, 4);
	CHECK_EQ(pol->pick(st, 4), 2);
	pol->charge(st, 2, 5, 9);
	pol->block(st, 2, 9);
	CHECK_EQ(pol->pick(st, 9), 0);
	CHECK_EQ(pol->next_event(st, 9), 15);
}

TEST(fprr_slice_expiry_is_no_event_without_peer)
{
	fresh(10);
	add(0, 3);
	add(1, 4);
	CHECK_EQ(pol->pick(st, 0), 0);
	CHECK_EQ(pol->next_event(st, 0), UINT64_MAX);
}

TEST(fprr_zero_slice_never_rotates)
{
	fresh(0);
	add(0, 3);
	add(1, 3);
	pol->charge(st, 0, 1000000, 1000000);
	CHECK_EQ(pol->pick(st, 1000000), 0);
	CHECK_EQ(pol->next_event(st, 1000000), UINT64_MAX);
}

TEST(fprr_skips_blocked_entities)
{
	fresh(10);
	add(0, 1);
	add(1, 2);
	CHECK_EQ(pol->block(st, 0, 0), 0);
	CHECK_EQ(pol->pick(st, 0), 1);
}

TEST(fprr_wake_makes_entity_pickable_at_tail_of_level)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	add(2, 3);
	pol->block(st, 0, 0);
	CHECK_EQ(pol->wake(st, 0, 1), 0);
	CHECK_EQ(pol->pick(st, 1), 1);
	pol->charge(st, 1, 10, 11);
	CHECK_EQ(pol->pick(st, 11), 2);
	pol->charge(st, 2, 10, 21);
	CHECK_EQ(pol->pick(st, 21), 0);
}

TEST(fprr_wake_of_runnable_entity_keeps_its_place)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	CHECK_EQ(pol->wake(st, 0, 1), 0);
	CHECK_EQ(pol->pick(st, 1), 0);
}

TEST(fprr_wake_preempts_less_urgent)
{
	fresh(10);
	add(0, 1);
	add(1, 2);
	pol->block(st, 0, 0);
	CHECK_EQ(pol->pick(st, 0), 1);
	pol->wake(st, 0, 3);
	CHECK_EQ(pol->pick(st, 3), 0);
}

TEST(fprr_yield_goes_to_tail_of_level)
{
	fresh(10);
	add(0, 3);
	add(1, 3);
	add(2, 3);
	pol->yield(st, 0, 2);
	CHECK_EQ(pol->pick(st, 2), 1);
	pol->yield(st, 1, 3);
	CHECK_EQ(pol->pick(st, 3), 2);
	pol->yield(st, 2, 4);
	CHECK_EQ(pol->pick(st, 4), 0);
}

TEST(fprr_remove_forgets_entity)
{
	fresh(10);
	add(0, 1);
	add(1, 2);
	CHECK_EQ(pol->remove(st, 0), 0);
	CHECK_EQ(pol->pick(st, 0), 1);
	CHECK_EQ(pol->remove(st, 0), HR_ENOENT);
	CHECK_EQ(pol->block(st, 0, 0), HR_ENOENT);
	CHECK_EQ(add(0, 5), 0);
	CHECK_EQ(pol->pick(st, 0), 1);
}

TEST(fprr_idle_when_nothing_runnable)
{
	fresh(10);
	CHECK_EQ(pol->pick(st, 0), POL_IDLE);
	CHECK_EQ(pol->next_event(st, 0), UINT64_MAX);
	add(0, 1);
	add(1, 1);
	pol->block(st, 0, 0);
	pol->block(st, 1, 0);
	CHECK_EQ(pol->pick(st, 5), POL_IDLE);
	CHECK_EQ(pol->next_event(st, 5), UINT64_MAX);
}

TEST(fprr_enforces_a_hard_reservation)
{
	struct pol_param p = { .prio = 1, .kind = RES_HARD, .budget = 1, .period = 100 };

	fresh(0);
	CHECK_EQ(pol->add(st, 0, &p, 0), 0);
	add(1, 2);
	pol->charge(st, 0, 1, 1);
	CHECK_EQ(pol->pick(st, 1), 1);
	CHECK_EQ(pol->eligible(st, 0, 1), 0);
	/* sporadic by default: the budget comes back a period after its activation (0) */
	CHECK_EQ(pol->next_event(st, 1), 100);
	CHECK_EQ(pol->pick(st, 100), 0);
}

TEST(fprr_prio_publishes_fixed_priority)
{
	fresh(10);
	add(4, 17);
	CHECK_EQ(pol->rank(st, 4, 0), 17);
	CHECK_EQ(pol->rank(st, 5, 0), POL_RANK_BACKGROUND);
	CHECK_EQ(pol->rank(st, POL_MAX, 0), POL_RANK_BACKGROUND);
}

TEST(fprr_rejects_bad_arguments_without_state_change)
{
	unsigned char before[sizeof(st)];
	struct pol_param none = { .prio = 1, .kind = RES_NONE };
	struct pol_param bad[] = {
		{ .kind = 4 },
		{ .kind = RES_HARD, .budget = 0, .period = 10 },
		{ .kind = RES_SOFT, .budget = 11, .period = 10 },
		{ .kind = RES_DEFERRABLE, .budget = 1, .period = 0 },
	};

	fresh(10);
	add(3, 1);
	pol->block(st, 3, 0);
	add(5, 2);
	memcpy(before, st, sizeof(st));
	CHECK_EQ(pol->add(st, POL_MAX, &none, 0), HR_EINVAL);
	CHECK_EQ(pol->add(st, UINT32_MAX, &none, 0), HR_EINVAL);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(pol->add(st, 7, &bad[i], 0), HR_EINVAL);
	CHECK_EQ(pol->add(st, 5, &none, 0), HR_EEXIST);
	CHECK_EQ(pol->remove(st, 7), HR_ENOENT);
	CHECK_EQ(pol->remove(st, POL_MAX), HR_ENOENT);
	CHECK_EQ(pol->block(st, 7, 0), HR_ENOENT);
	CHECK_EQ(pol->wake(st, POL_MAX, 0), HR_ENOENT);
	pol->charge(st, 7, 5, 5);
	pol->charge(st, POL_MAX, 5, 5);
	pol->yield(st, 7, 5);
	pol->yield(st, UINT32_MAX, 5);
	CHECK_EQ(pol->misses(st, POL_MAX), 0);
	CHECK(!memcmp(before, st, sizeof(st)));
}

TEST(fprr_best_effort_needs_no_budget_or_period)
{
	struct pol_param p = { .prio = 1, .kind = RES_NONE, .budget = 0, .period = 0 };

	fresh(10);
	CHECK_EQ(pol->add(st, 0, &p, 0), 0);
}

TEST(fprr_holds_pol_max_entities)
{
	fresh(10);
	for (uint32_t id = 0; id < POL_MAX; id++)
		CHECK_EQ(add(id, POL_MAX - id), 0);
	CHECK_EQ(pol->pick(st, 0), POL_MAX - 1);
}
