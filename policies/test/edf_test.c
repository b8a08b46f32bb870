/* edf_test.c - earliest deadline first over servers (policies/edf.c, server.c). */
#include "check.h"
#include "sim.h"
#include "../../kernel/abi/hr_errno.h"

static struct sim s;

TEST(edf_runs_earliest_deadline_first)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 2, 20);
	sim_add(&s, 1, 9, RES_HARD, 2, 10);
	CHECK_EQ(sim_pick(&s, 0), 1);
	CHECK_EQ(sim_next_event(&s, 0), 2);
	s.pol->charge(s.st, 1, 2, 2);
	CHECK_EQ(sim_pick(&s, 2), 0);
}

TEST(edf_breaks_deadline_ties_by_lowest_id)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 5, 0, RES_HARD, 2, 10);
	sim_add(&s, 2, 9, RES_SOFT, 2, 10);
	sim_add(&s, 7, 0, RES_DEFERRABLE, 2, 10);
	CHECK_EQ(sim_pick(&s, 0), 2);
}

TEST(edf_replenishes_and_moves_the_deadline)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 2, 10);
	sim_add(&s, 1, 0, RES_HARD, 5, 15);
	sim_run(&s, 7);
	CHECK_EQ(s.ran[0], 2);
	CHECK_EQ(s.ran[1], 5);
	CHECK_EQ(sim_pick(&s, 7), POL_IDLE);
	CHECK_EQ(sim_next_event(&s, 7), 10);
	/* at 10: 0's deadline is 20, 1's is still 15 but 1 is exhausted until then */
	CHECK_EQ(sim_pick(&s, 10), 0);
	s.pol->charge(s.st, 0, 1, 11);
	CHECK_EQ(sim_next_event(&s, 11), 12);
	s.pol->charge(s.st, 0, 1, 12);
	CHECK_EQ(sim_pick(&s, 12), POL_IDLE);
	CHECK_EQ(sim_next_event(&s, 12), 15);
	CHECK_EQ(sim_pick(&s, 15), 1);
	CHECK(s.pol->rank(s.st, 1, 15) > s.pol->rank(s.st, 0, 15));
}

TEST(edf_kept_budget_runs_out_by_its_deadline)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_DEFERRABLE, 5, 10);
	s.now = 2;
	sim_add(&s, 1, 0, RES_HARD, 5, 10);
	s.pol->charge(s.st, 0, 3, 3);
	s.pol->block(s.st, 0, 3);
	s.pol->charge(s.st, 1, 1, 4);
	s.pol->wake(s.st, 0, 6);
	/* 2 left, 4 before its deadline at 10: no faster than its rate of 1/2, so it keeps
	 * its deadline, runs first and runs out at 8 */
	CHECK_EQ(sim_pick(&s, 6), 0);
	CHECK_EQ(sim_next_event(&s, 6), 8);
	s.pol->charge(s.st, 0, 2, 8);
	CHECK_EQ(sim_pick(&s, 8), 1);
}

/* The constant-bandwidth rule: a server that wakes with more budget than it could use by
 * its deadline at its rate starts a fresh period, rather than hit the others twice. */
TEST(edf_wakeup_with_too_much_budget_left_starts_a_fresh_period)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_DEFERRABLE, 5, 10);
	s.now = 2;
	sim_add(&s, 1, 0, RES_HARD, 5, 10);
	s.pol->block(s.st, 0, 2);
	s.pol->charge(s.st, 1, 1, 3);
	s.pol->wake(s.st, 0, 8);
	CHECK_EQ(sim_pick(&s, 8), 1); /* 0's deadline is 18 now, 1's 12 */
	CHECK_EQ(s.pol->budget_left(s.st, 0, 8), 5);
	CHECK_EQ(s.pol->rank(s.st, 0, 8), 10);
}

TEST(edf_best_effort_runs_only_when_no_server_is_eligible)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_NONE, 0, 0);
	sim_add(&s, 1, 9, RES_HARD, 3, 10);
	sim_run(&s, 100);
	CHECK_EQ(s.ran[1], 30);
	CHECK_EQ(s.ran[0], 70);
	s.pol->charge(s.st, 0, 0, 100);
	CHECK_EQ(sim_pick(&s, 100), 1);
}

TEST(edf_best_effort_is_plain_round_robin)
{
	sim_init(&s, "edf", 2, 0);
	sim_add(&s, 0, 9, RES_NONE, 0, 0);
	sim_add(&s, 1, 0, RES_NONE, 0, 0);
	sim_add(&s, 2, 5, RES_NONE, 0, 0);
	CHECK_EQ(sim_pick(&s, 0), 0);
	CHECK_EQ(sim_next_event(&s, 0), 2);
	sim_run(&s, 60);
	CHECK_EQ(s.ran[0], 20);
	CHECK_EQ(s.ran[1], 20);
	CHECK_EQ(s.ran[2], 20);
}

TEST(edf_next_event_is_refill_of_exhausted_server)
{
	sim_init(&s, "edf", 5, 0);
	sim_add(&s, 0, 0, RES_NONE, 0, 0);
	sim_add(&s, 1, 0, RES_HARD, 3, 10);
	s.pol->charge(s.st, 1, 3, 3);
	CHECK_EQ(sim_pick(&s, 3), 0);
	CHECK_EQ(sim_next_event(&s, 3), 10);
}

TEST(edf_soft_reservation_has_a_server)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_SOFT, 2, 10);
	sim_add(&s, 1, 0, RES_NONE, 0, 0);
	sim_run(&s, 50);
	CHECK_EQ(s.ran[0], 10);
	CHECK_EQ(s.ran[1], 40);
}

TEST(edf_schedules_a_fully_utilized_set_without_misses)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 1, 2);
	sim_add(&s, 1, 0, RES_HARD, 1, 3);
	sim_add(&s, 2, 0, RES_HARD, 1, 6);
	sim_add(&s, 3, 0, RES_NONE, 0, 0);
	sim_run(&s, 600);
	sim_pick(&s, 600);
	CHECK_EQ(s.ran[0], 300);
	CHECK_EQ(s.ran[1], 200);
	CHECK_EQ(s.ran[2], 100);
	CHECK_EQ(s.ran[3], 0);
	for (uint32_t id = 0; id < 3; id++)
		CHECK_EQ(s.pol->misses(s.st, id), 0);
}

TEST(edf_counts_misses_of_an_overloaded_set)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 6, 10);
	sim_add(&s, 1, 0, RES_HARD, 6, 10);
	sim_run(&s, 100);
	sim_pick(&s, 100);
	/* 10 per period for 12 asked: one server falls short every period */
	CHECK_EQ(s.pol->misses(s.st, 0) + s.pol->misses(s.st, 1), 10);
}

TEST(edf_counts_no_miss_for_a_server_that_blocked)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 6, 10);
	sim_add(&s, 1, 0, RES_HARD, 6, 10);
	s.pol->block(s.st, 1, 0);
	s.pol->wake(s.st, 1, 8);
	sim_run(&s, 10);
	sim_pick(&s, 10);
	CHECK_EQ(s.pol->misses(s.st, 0), 0);
	CHECK_EQ(s.pol->misses(s.st, 1), 0);
}

TEST(edf_prio_follows_the_deadline)
{
	sim_init(&s, "edf", 0, 0);
	sim_add(&s, 0, 0, RES_HARD, 2, 20);
	sim_add(&s, 1, 0, RES_HARD, 2, 10);
	sim_add(&s, 2, 0, RES_NONE, 0, 0);
	CHECK_EQ(s.pol->rank(s.st, 1, 4), 6);
	CHECK_EQ(s.pol->rank(s.st, 0, 4), 16);
	CHECK_EQ(s.pol->rank(s.st, 2, 4), POL_RANK_BEST);
	CHECK_EQ(s.pol->rank(s.st, 3, 4), POL_RANK_BACKGROUND);
	/* past its boundary the deadline moves on */
	CHECK_EQ(s.pol->rank(s.st, 1, 12), 8);
}
