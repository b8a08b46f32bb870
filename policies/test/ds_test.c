/* ds_test.c - fixed priority with deferrable servers (policies/ds.c, server.c). */
#include "check.h"
#include "sim.h"
#include "../../kernel/abi/hr_errno.h"

static struct sim s;

TEST(ds_cpu_bound_server_gets_exactly_budget_per_period)
{
	sim_init(&s, "ds", 5, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 3, 10);
	sim_add(&s, 1, 2, RES_NONE, 0, 0);
	sim_run(&s, 1000);
	CHECK_EQ(s.ran[0], 300);
	CHECK_EQ(s.ran[1], 700);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
}

TEST(ds_replenishes_at_add_time_plus_period)
{
	sim_init(&s, "ds", 0, 0);
	s.now = 5;
	sim_add(&s, 0, 1, RES_HARD, 3, 10);
	sim_run(&s, 8);
	CHECK_EQ(sim_pick(&s, 8), POL_IDLE);
	CHECK_EQ(sim_pick(&s, 14), POL_IDLE);
	CHECK_EQ(sim_pick(&s, 15), 0);
	s.now = 15;
	sim_run(&s, 40);
	CHECK_EQ(s.ran[0], 3 + 3 + 3 + 3);
}

TEST(ds_exhausted_server_waits_for_replenishment)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 4, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	CHECK_EQ(sim_pick(&s, 0), 0);
	CHECK_EQ(sim_next_event(&s, 0), 4);
	s.pol->charge(s.st, 0, 4, 4);
	CHECK_EQ(sim_pick(&s, 4), 1);
	CHECK_EQ(sim_next_event(&s, 4), 10);
	s.pol->charge(s.st, 1, 6, 10);
	CHECK_EQ(sim_pick(&s, 10), 0);
}

TEST(ds_keeps_unused_budget_across_a_block_within_the_period)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 4, 20);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	s.pol->charge(s.st, 0, 1, 1);
	s.pol->block(s.st, 0, 1);
	s.pol->charge(s.st, 1, 11, 12);
	s.pol->wake(s.st, 0, 12);
	CHECK_EQ(sim_pick(&s, 12), 0);
	CHECK_EQ(sim_next_event(&s, 12), 15);
	s.pol->charge(s.st, 0, 3, 15);
	CHECK_EQ(sim_pick(&s, 15), 1);
}

TEST(ds_unused_budget_is_not_carried_into_the_next_period)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 4, 10);
	s.pol->charge(s.st, 0, 1, 1);
	s.pol->block(s.st, 0, 1);
	s.pol->wake(s.st, 0, 15);
	CHECK_EQ(sim_pick(&s, 15), 0);
	CHECK_EQ(sim_next_event(&s, 15), 19);
}

TEST(ds_deferred_budget_crossing_a_boundary_lasts_a_full_budget_more)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 4, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	s.pol->block(s.st, 0, 0);
	s.pol->charge(s.st, 1, 8, 8);
	s.pol->wake(s.st, 0, 8);
	/* 4 left at 8 would last to 12, but at 10 it is refilled: dry at 14 */
	CHECK_EQ(sim_next_event(&s, 8), 14);
	s.now = 8;
	sim_run(&s, 20);
	CHECK_EQ(s.ran[0], 6);
	CHECK_EQ(s.ran[1], 6);
}

TEST(ds_charge_spanning_a_boundary_is_split_between_periods)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 4, 10);
	s.pol->block(s.st, 0, 0);
	s.pol->wake(s.st, 0, 8);
	s.pol->charge(s.st, 0, 4, 12); /* 2 before the boundary at 10, 2 after */
	CHECK_EQ(sim_pick(&s, 12), 0);
	CHECK_EQ(sim_next_event(&s, 12), 14);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
}

TEST(ds_best_effort_runs_only_without_more_urgent_eligible_entity)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 4, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	sim_add(&s, 2, 9, RES_HARD, 2, 10);
	sim_run(&s, 100);
	CHECK_EQ(s.ran[0], 40);
	CHECK_EQ(s.ran[1], 60);
	CHECK_EQ(s.ran[2], 0);
}

TEST(ds_soft_reservation_gets_its_share_and_no_more_while_others_run)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_SOFT, 1, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	sim_run(&s, 100);
	CHECK_EQ(s.ran[0], 10);
	CHECK_EQ(s.ran[1], 90);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
}

TEST(ds_soft_reservation_takes_the_slack_in_the_background)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_SOFT, 1, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	s.pol->block(s.st, 1, 0);
	sim_run(&s, 100);
	CHECK_EQ(s.ran[0], 100);
	CHECK_EQ(s.pol->rank(s.st, 0, 100), 1); /* refilled at 100: at its priority again */
	s.pol->charge(s.st, 0, 1, 101);
	CHECK_EQ(s.pol->rank(s.st, 0, 101), POL_RANK_BACKGROUND);
	CHECK_EQ(s.pol->budget_left(s.st, 0, 101), UINT64_MAX);
	CHECK_EQ(s.pol->eligible(s.st, 0, 101), 1);
}

TEST(ds_equal_priority_servers_share_by_slice_within_budgets)
{
	sim_init(&s, "ds", 1, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 10);
	sim_add(&s, 1, 1, RES_HARD, 5, 10);
	sim_add(&s, 2, 2, RES_NONE, 0, 0);
	sim_run(&s, 100);
	CHECK_EQ(s.ran[0], 20);
	CHECK_EQ(s.ran[1], 50);
	CHECK_EQ(s.ran[2], 30);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 0);
}

TEST(ds_next_event_is_refill_of_more_urgent_exhausted_server)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 10);
	sim_add(&s, 1, 5, RES_NONE, 0, 0);
	s.pol->charge(s.st, 0, 2, 2);
	CHECK_EQ(sim_pick(&s, 3), 1);
	CHECK_EQ(sim_next_event(&s, 3), 10);
}

TEST(ds_next_event_ignores_refill_of_less_urgent_server)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_NONE, 0, 0);
	sim_add(&s, 1, 5, RES_HARD, 2, 10);
	s.pol->block(s.st, 0, 0);
	s.pol->charge(s.st, 1, 2, 2);
	s.pol->wake(s.st, 0, 2);
	CHECK_EQ(sim_pick(&s, 2), 0);
	CHECK_EQ(sim_next_event(&s, 2), UINT64_MAX);
}

TEST(ds_next_event_is_refill_that_adds_a_round_robin_peer)
{
	sim_init(&s, "ds", 3, 0);
	sim_add(&s, 0, 1, RES_NONE, 0, 0);
	sim_add(&s, 1, 1, RES_HARD, 3, 100);
	sim_run(&s, 6);
	CHECK_EQ(s.ran[0], 3);
	CHECK_EQ(s.ran[1], 3);
	CHECK_EQ(sim_pick(&s, 6), 0);
	/* alone at its level, 0 has no slice expiry until 1 is refilled at 100 */
	CHECK_EQ(sim_next_event(&s, 6), 100);
	s.pol->charge(s.st, 0, 94, 100);
	CHECK_EQ(sim_pick(&s, 100), 1);
	CHECK_EQ(sim_next_event(&s, 100), 103);
}

TEST(ds_next_event_none_for_full_cpu_server)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 10, 10);
	CHECK_EQ(sim_pick(&s, 0), 0);
	CHECK_EQ(sim_next_event(&s, 0), UINT64_MAX);
}

TEST(ds_counts_miss_when_runnable_server_is_starved)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 0, RES_NONE, 0, 0);
	sim_add(&s, 1, 5, RES_HARD, 2, 10);
	sim_run(&s, 35);
	CHECK_EQ(sim_pick(&s, 35), 0);
	CHECK_EQ(s.ran[1], 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 3);
}

TEST(ds_counts_miss_when_server_gets_part_of_its_budget)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 7, 10);
	sim_add(&s, 1, 5, RES_HARD, 4, 10);
	sim_run(&s, 10);
	CHECK_EQ(sim_pick(&s, 10), 0);
	CHECK_EQ(s.ran[1], 3);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 1);
}

TEST(ds_counts_no_miss_for_a_server_that_blocked)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 0, RES_NONE, 0, 0);
	sim_add(&s, 1, 5, RES_HARD, 2, 10);
	s.pol->block(s.st, 0, 0);
	s.pol->charge(s.st, 1, 1, 1);
	s.pol->block(s.st, 1, 1);
	s.pol->wake(s.st, 0, 1);
	s.pol->wake(s.st, 1, 5);
	sim_run(&s, 10);
	CHECK_EQ(sim_pick(&s, 10), 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 0);
	/* a fresh period in which it stays runnable and starved counts again */
	sim_run(&s, 20);
	CHECK_EQ(sim_pick(&s, 20), 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 1);
}

TEST(ds_counts_every_starved_period_between_calls)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 10);
	CHECK_EQ(sim_pick(&s, 50), 0);
	CHECK_EQ(s.pol->misses(s.st, 0), 5);
}

TEST(ds_charge_spanning_whole_periods_counts_no_miss)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 10);
	s.pol->charge(s.st, 0, 35, 35);
	CHECK_EQ(sim_pick(&s, 35), POL_IDLE);
	CHECK_EQ(sim_next_event(&s, 35), 40);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
}

TEST(ds_readded_server_starts_its_periods_anew)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 10);
	s.pol->charge(s.st, 0, 2, 2);
	CHECK_EQ(s.pol->remove(s.st, 0), 0);
	s.now = 3;
	CHECK_EQ(sim_add(&s, 0, 1, RES_HARD, 4, 20), 0);
	CHECK_EQ(sim_pick(&s, 3), 0);
	CHECK_EQ(sim_next_event(&s, 3), 7);
	s.pol->charge(s.st, 0, 4, 7);
	CHECK_EQ(sim_next_event(&s, 7), 23);
}

TEST(ds_prio_is_the_fixed_priority)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 3, 12, RES_HARD, 2, 10);
	s.pol->charge(s.st, 3, 2, 2);
	CHECK_EQ(s.pol->rank(s.st, 3, 2), 12);
	CHECK_EQ(s.pol->rank(s.st, 4, 2), POL_RANK_BACKGROUND);
}

TEST(ds_eligible_follows_block_budget_and_replenishment)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 2, 10);
	CHECK(s.pol->eligible(s.st, 0, 0));
	s.pol->charge(s.st, 0, 2, 2);
	CHECK(!s.pol->eligible(s.st, 0, 2)); /* exhausted */
	CHECK(s.pol->eligible(s.st, 0, 10)); /* replenished at the period */
	s.pol->block(s.st, 0, 10);
	CHECK(!s.pol->eligible(s.st, 0, 10)); /* blocked */
	CHECK(!s.pol->eligible(s.st, 7, 10)); /* unknown */
	CHECK(!s.pol->eligible(s.st, POL_MAX + 3, 10));
}

TEST(ds_budget_left_counts_down_and_refills_even_while_blocked)
{
	sim_init(&s, "ds", 0, 0);
	sim_add(&s, 0, 1, RES_DEFERRABLE, 4, 10);
	sim_add(&s, 1, 2, RES_NONE, 0, 0);
	CHECK_EQ(s.pol->budget_left(s.st, 0, 0), 4);
	s.pol->charge(s.st, 0, 3, 3);
	s.pol->block(s.st, 0, 3);
	CHECK_EQ(s.pol->budget_left(s.st, 0, 5), 1); /* blocked: still what it has left */
	s.pol->charge(s.st, 0, 1, 6);
	CHECK_EQ(s.pol->budget_left(s.st, 0, 6), 0);
	CHECK_EQ(s.pol->budget_left(s.st, 0, 10), 4);	       /* the next period */
	CHECK_EQ(s.pol->budget_left(s.st, 1, 10), UINT64_MAX); /* no server */
	CHECK_EQ(s.pol->budget_left(s.st, 7, 10), 0);	       /* unknown */
	CHECK_EQ(s.pol->budget_left(s.st, POL_MAX + 3, 10), 0);
}

TEST(fprr_eligible_is_runnable)
{
	sim_init(&s, "fprr", 0, 0);
	sim_add(&s, 2, 1, RES_NONE, 0, 0);
	CHECK(s.pol->eligible(s.st, 2, 0));
	s.pol->block(s.st, 2, 0);
	CHECK(!s.pol->eligible(s.st, 2, 0));
	s.pol->wake(s.st, 2, 1);
	CHECK(s.pol->eligible(s.st, 2, 1));
}
