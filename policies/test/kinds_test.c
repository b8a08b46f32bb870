/*
 * kinds_test.c - one rule everywhere: under every policy, every reservation kind gets what
 * it was promised and no more, measured while the reserved work spins (the fake CPU).
 * Entity 0 holds the reservation (1 every 10, the most urgent); entity 1 is best effort
 * that spins too, less urgent.
 */
#include "check.h"
#include "sim.h"
#include "../../kernel/abi/hr_errno.h"

#include <string.h>

static struct sim s;
static const char *const policies[] = { "fprr", "ds", "edf" };

#define FOR_EACH_POLICY(p) for (const char *const *p = policies; p < policies + 3; p++)

static void
pair(const char *policy, uint32_t kind, int peer_spins)
{
	sim_init(&s, policy, 1, 0);
	CHECK_EQ(sim_add(&s, 0, 1, kind, 1, 10), 0);
	CHECK_EQ(sim_add(&s, 1, 5, RES_NONE, 0, 0), 0);
	if (!peer_spins)
		s.pol->block(s.st, 1, 0);
	sim_run(&s, 1000);
}

TEST(kinds_hard_gets_exactly_its_share_under_every_policy)
{
	FOR_EACH_POLICY(p)
	{
		pair(*p, RES_HARD, 1);
		CHECK_EQ(s.ran[0], 100);
		CHECK_EQ(s.ran[1], 900);
		CHECK_EQ(s.pol->misses(s.st, 0), 0);
	}
}

TEST(kinds_hard_is_a_limit_even_on_an_idle_cpu)
{
	FOR_EACH_POLICY(p)
	{
		pair(*p, RES_HARD, 0);
		CHECK_EQ(s.ran[0], 100);
		CHECK_EQ(s.idle, 900);
	}
}

TEST(kinds_deferrable_gets_exactly_its_share_under_every_policy)
{
	FOR_EACH_POLICY(p)
	{
		pair(*p, RES_DEFERRABLE, 1);
		CHECK_EQ(s.ran[0], 100);
		CHECK_EQ(s.ran[1], 900);
		pair(*p, RES_DEFERRABLE, 0);
		CHECK_EQ(s.ran[0], 100);
	}
}

TEST(kinds_soft_gets_its_share_beside_work_and_the_slack_without)
{
	FOR_EACH_POLICY(p)
	{
		pair(*p, RES_SOFT, 1);
		CHECK_EQ(s.ran[0], 100);
		CHECK_EQ(s.ran[1], 900);
		pair(*p, RES_SOFT, 0);
		CHECK_EQ(s.ran[0], 1000);
		CHECK_EQ(s.pol->misses(s.st, 0), 0);
	}
}

TEST(kinds_best_effort_runs_at_its_priority_or_behind_servers)
{
	FOR_EACH_POLICY(p)
	{
		pair(*p, RES_NONE, 1);
		/* fprr and ds: the more urgent best effort takes all; edf: round robin */
		CHECK_EQ(s.ran[0] + s.ran[1], 1000);
		CHECK(p[0][0] == 'e' ? s.ran[0] == 500 : s.ran[0] == 1000);
	}
}

/* A soft reservation revoked to nothing is served in the background only, and only a soft
 * one may have no budget. */
TEST(kinds_soft_without_budget_runs_only_in_the_background)
{
	FOR_EACH_POLICY(p)
	{
		sim_init(&s, *p, 1, 0);
		CHECK_EQ(sim_add(&s, 0, 0, RES_SOFT, 0, 10), 0);
		CHECK_EQ(sim_add(&s, 1, 5, RES_NONE, 0, 0), 0);
		sim_run(&s, 100);
		CHECK_EQ(s.ran[0], 0);
		s.pol->block(s.st, 1, 100);
		sim_run(&s, 200);
		CHECK_EQ(s.ran[0], 100);
		CHECK_EQ(s.pol->rank(s.st, 0, 200), POL_RANK_BACKGROUND);
		CHECK_EQ(sim_add(&s, 2, 0, RES_HARD, 0, 10), HR_EINVAL);
		CHECK_EQ(sim_add(&s, 2, 0, RES_DEFERRABLE, 0, 10), HR_EINVAL);
		CHECK_EQ(sim_add(&s, 2, 0, RES_SOFT, 0, 0), HR_EINVAL);
	}
}

/* A soft server out of budget runs behind best effort as well as behind servers. */
TEST(kinds_soft_background_is_behind_best_effort_of_any_priority)
{
	FOR_EACH_POLICY(p)
	{
		sim_init(&s, *p, 1, 0);
		CHECK_EQ(sim_add(&s, 0, 1, RES_SOFT, 2, 10), 0);
		CHECK_EQ(sim_add(&s, 1, 200, RES_NONE, 0, 0), 0);
		CHECK_EQ(sim_add(&s, 2, 0, RES_HARD, 3, 10), 0);
		sim_run(&s, 1000);
		CHECK_EQ(s.ran[2], 300);
		CHECK_EQ(s.ran[0], 200);
		CHECK_EQ(s.ran[1], 500);
	}
}

/* Published priorities never wrap: every rank maps into 1 .. HR_PRIO_IDLE - 1, in order. */
TEST(kinds_publish_clamps_every_rank_below_idle)
{
	CHECK_EQ(pol_publish(0), 1);
	CHECK_EQ(pol_publish(41), 42);
	CHECK_EQ(pol_publish(POL_RANK_SERVER_MAX), HR_PRIO_IDLE - 3);
	CHECK_EQ(pol_publish(POL_RANK_BEST), HR_PRIO_IDLE - 2);
	CHECK_EQ(pol_publish(POL_RANK_BACKGROUND), HR_PRIO_IDLE - 1);
	CHECK_EQ(pol_publish(POL_RANK_BACKGROUND + 1), HR_PRIO_IDLE - 1);
	CHECK_EQ(pol_publish(INT32_MAX), HR_PRIO_IDLE - 1);
	CHECK_EQ(pol_publish(UINT32_MAX), HR_PRIO_IDLE - 1);
}

/* The UBSan finding: edf's best effort ranked ahead of every server once published. */
TEST(kinds_edf_best_effort_publishes_behind_every_server)
{
	sim_init(&s, "edf", 1, 0);
	CHECK_EQ(sim_add(&s, 0, 0, RES_HARD, 1, 1000000), 0);
	CHECK_EQ(sim_add(&s, 1, 0, RES_NONE, 0, 0), 0);
	CHECK(pol_publish(s.pol->rank(s.st, 0, 0)) < pol_publish(s.pol->rank(s.st, 1, 0)));
	CHECK(pol_publish(s.pol->rank(s.st, 1, 0)) < HR_PRIO_IDLE);
	CHECK(pol_publish(s.pol->rank(s.st, 1, 0)) > 0);
}

TEST(kinds_fprr_extreme_priorities_keep_their_order)
{
	FOR_EACH_POLICY(p)
	{
		sim_init(&s, *p, 1, 0);
		CHECK_EQ(sim_add(&s, 0, UINT32_MAX, RES_NONE, 0, 0), 0);
		CHECK_EQ(sim_add(&s, 1, UINT32_MAX - 1, RES_HARD, 1, 2), 0);
		CHECK_EQ(sim_add(&s, 2, 0, RES_SOFT, 1, 2), 0);
		for (uint32_t id = 0; id < 3; id++) {
			int32_t pub = pol_publish(s.pol->rank(s.st, id, 0));
			CHECK(pub > 0 && pub < HR_PRIO_IDLE);
		}
		if (strcmp(*p, "edf")) /* edf ranks by deadline: both are 2 away */
			CHECK(pol_publish(s.pol->rank(s.st, 2, 0)) <
			      pol_publish(s.pol->rank(s.st, 1, 0)));
	}
}
