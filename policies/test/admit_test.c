/* admit_test.c - CPU admission tests (policies/admit.c). */
#include "check.h"
#include "../admit.h"
#include "../../kernel/abi/hr_errno.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct admit_supply cpu = { 1, 1 };
static char why[160];

/* The HiRES paper's Fig. 6 mix: the best-effort subsystem's server (4 every `be` ticks) at
 * the top, the real-time servers below it by rate-monotonic order. */
static void
fig6_set(struct admit_res set[4], uint32_t be)
{
	set[0] = (struct admit_res){ RES_DEFERRABLE, 4, be, 0, 0 };
	set[1] = (struct admit_res){ RES_HARD, 1, 10, 1, 0 };
	set[2] = (struct admit_res){ RES_HARD, 3, 20, 2, 0 };
	set[3] = (struct admit_res){ RES_HARD, 4, 25, 3, 0 };
}

TEST(admit_edf_accepts_exactly_full_utilization)
{
	struct admit_res set[] = { { RES_HARD, 1, 2, 0, 0 },
				   { RES_HARD, 1, 4, 0, 0 },
				   { RES_DEFERRABLE, 1, 4, 0, 0 } };

	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, why, sizeof(why)), 0);
	CHECK_EQ(why[0], 0);
}

TEST(admit_edf_rejects_over_utilization_with_reason)
{
	struct admit_res set[] = { { RES_HARD, 6, 10, 0, 0 }, { RES_HARD, 5, 10, 0, 0 } };

	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why, "utilization 1.1000 exceeds the 1.0000 available"));
}

/* A soft reservation is served while it exists, so it must fit; best effort never counts. */
TEST(admit_edf_counts_soft_but_not_best_effort)
{
	struct admit_res set[] = { { RES_HARD, 9, 10, 0, 0 },
				   { RES_NONE, 0, 0, 0, 0 },
				   { RES_SOFT, 9, 10, 0, 0 } };

	CHECK_EQ(admit_cpu("edf", set, 2, cpu, why, sizeof(why)), 0);
	CHECK_EQ(admit_cpu("edf", set, 3, cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why, "utilization 1.8000 exceeds the 1.0000 available"));
}

TEST(admit_edf_admits_what_fixed_priority_rta_refuses)
{
	struct admit_res set[] = { { RES_HARD, 2, 5, 0, 0 }, { RES_HARD, 4, 7, 1, 0 } };

	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, why, sizeof(why)), 0);
	CHECK_EQ(admit_cpu("fprr", set, N(set), cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why,
		      "reservation 4/7 at priority 1 can miss its period (response time > 7)"));
}

/* With sporadic servers for the real-time tasks the deferrable best-effort server's double
 * hit still fits phases 2 and 3 (R(4/25) = 17 at 4/16). */
TEST(admit_ds_admits_fig6_phases_2_and_3_with_sporadic_tasks)
{
	struct admit_res set[4];

	fig6_set(set, 16);
	for (unsigned i = 1; i < 4; i++)
		set[i].server = RES_SERVER_SPORADIC;
	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), 0);
	set[0].period = 32;
	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), 0);
	/* fprr's servers are sporadic by default */
	fig6_set(set, 16);
	set[0].kind = RES_HARD;
	CHECK_EQ(admit_cpu("fprr", set, N(set), cpu, why, sizeof(why)), 0);
}

/* Every server deferrable: each interferes with a jitter of period - budget, and 4/25 no
 * longer provably meets its period at 4/16. */
TEST(admit_ds_counts_the_deferrable_double_hit)
{
	struct admit_res set[4];

	fig6_set(set, 16);
	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why,
		      "reservation 4/25 at priority 3 can miss its period (response time > 25)"));
	/* one task of half the CPU under a 1/2 deferrable server: 1 + 2 * 1 > 2 */
	struct admit_res two[] = { { RES_DEFERRABLE, 1, 2, 0, 0 },
				   { RES_HARD, 1, 2, 1, RES_SERVER_SPORADIC } };
	CHECK_EQ(admit_cpu("ds", two, N(two), cpu, why, sizeof(why)), HR_ENOMEM);
	two[0].server = 0, two[0].kind = RES_HARD;
	CHECK_EQ(admit_cpu("fprr", two, N(two), cpu, why, sizeof(why)), 0);
}

TEST(admit_refuses_a_server_the_policy_does_not_have)
{
	struct admit_res sp[] = { { RES_HARD, 1, 10, 0, RES_SERVER_SPORADIC } };
	struct admit_res dsp[] = { { RES_DEFERRABLE, 1, 10, 0, RES_SERVER_SPORADIC } };
	struct admit_res odd[] = { { RES_HARD, 1, 10, 0, 7 } };

	CHECK_EQ(admit_cpu("edf", sp, 1, cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "policy edf has no sporadic server"));
	CHECK_EQ(admit_cpu("ds", dsp, 1, cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "a deferrable reservation has no sporadic server"));
	CHECK_EQ(admit_cpu("fprr", odd, 1, cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "unknown server 7"));
	CHECK_EQ(admit_cpu("ds", sp, 1, cpu, why, sizeof(why)), 0);
}

TEST(admit_server_defaults_per_policy)
{
	CHECK_EQ(admit_server("fprr", RES_HARD, 0, why, sizeof(why)), RES_SERVER_SPORADIC);
	CHECK_EQ(admit_server("fprr", RES_SOFT, 0, why, sizeof(why)), RES_SERVER_SPORADIC);
	CHECK_EQ(admit_server("fprr", RES_DEFERRABLE, 0, why, sizeof(why)), RES_SERVER_DEFERRABLE);
	CHECK_EQ(admit_server("ds", RES_HARD, 0, why, sizeof(why)), RES_SERVER_DEFERRABLE);
	CHECK_EQ(admit_server("edf", RES_SOFT, 0, why, sizeof(why)), RES_SERVER_DEFERRABLE);
	CHECK_EQ(admit_server("ds", RES_HARD, RES_SERVER_SPORADIC, why, sizeof(why)),
		 RES_SERVER_SPORADIC);
	CHECK_EQ(admit_server("fprr", RES_HARD, RES_SERVER_DEFERRABLE, why, sizeof(why)),
		 RES_SERVER_DEFERRABLE);
}

/*
 * Phase 1 (4/8 on top) has utilization 0.91 but is not fixed-priority schedulable: with
 * every server released at once the 4/25 server's response time is
 * 4 + 4*ceil(R/8) + 1*ceil(R/10) + 3*ceil(R/20) = 29 > 25 (fig6_test.c sees that miss).
 */
TEST(admit_ds_refuses_fig6_phase_1_by_response_time)
{
	struct admit_res set[4];

	fig6_set(set, 8);
	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why,
		      "reservation 4/25 at priority 3 can miss its period (response time > 25)"));
	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, why, sizeof(why)), 0);
}

TEST(admit_rta_counts_equal_priorities_both_ways)
{
	struct admit_res same[] = { { RES_HARD, 1, 2, 0, 0 }, { RES_HARD, 2, 10, 0, 0 } };
	struct admit_res ordered[] = { { RES_HARD, 1, 2, 0, 0 }, { RES_HARD, 2, 10, 1, 0 } };

	CHECK_EQ(admit_cpu("fprr", same, N(same), cpu, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why,
		      "reservation 1/2 at priority 0 can miss its period (response time > 2)"));
	CHECK_EQ(admit_cpu("fprr", ordered, N(ordered), cpu, why, sizeof(why)), 0);
}

TEST(admit_rta_counts_soft_interference)
{
	struct admit_res set[] = { { RES_SOFT, 4, 10, 0, 0 }, { RES_HARD, 5, 10, 1, 0 } };

	CHECK_EQ(admit_cpu("fprr", set, N(set), cpu, why, sizeof(why)), 0);
	set[0].budget = 6;
	CHECK_EQ(admit_cpu("fprr", set, N(set), cpu, why, sizeof(why)), HR_ENOMEM);
}

TEST(admit_partial_supply_uses_utilization_only)
{
	struct admit_supply half = { 5, 10 };
	struct admit_res fits[] = { { RES_HARD, 1, 2, 0, 0 }, { RES_HARD, 4, 7, 1, 0 } };
	struct admit_res over[] = { { RES_HARD, 3, 10, 0, 0 }, { RES_DEFERRABLE, 3, 10, 1, 0 } };

	CHECK_EQ(admit_cpu("ds", fits, 1, half, why, sizeof(why)), 0);
	CHECK_EQ(admit_cpu("ds", over, N(over), half, why, sizeof(why)), HR_ENOMEM);
	CHECK(!strcmp(why, "utilization 0.6000 exceeds the 0.5000 available"));
}

TEST(admit_rejects_unknown_policy)
{
	struct admit_res set[] = { { RES_HARD, 1, 10, 0, 0 } };

	CHECK_EQ(admit_cpu("rr", set, N(set), cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "unknown policy 'rr'"));
	CHECK(!admit_policy_known("rr"));
	CHECK(admit_policy_known("fprr") && admit_policy_known("ds") && admit_policy_known("edf"));
}

TEST(admit_rejects_budget_above_period)
{
	struct admit_res set[] = { { RES_HARD, 1, 10, 0, 0 }, { RES_SOFT, 11, 10, 1, 0 } };

	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "budget 11 does not fit period 10"));
}

TEST(admit_rejects_zero_period)
{
	struct admit_res set[] = { { RES_DEFERRABLE, 0, 0, 0, 0 } };

	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), HR_EINVAL);
	CHECK(!strcmp(why, "budget 0 does not fit period 0"));
}

TEST(admit_best_effort_entry_needs_no_period)
{
	struct admit_res set[] = { { RES_HARD, 1, 10, 0, 0 }, { RES_NONE, 0, 0, 5, 0 } };

	CHECK_EQ(admit_cpu("ds", set, N(set), cpu, why, sizeof(why)), 0);
}

TEST(admit_truncates_reason_to_buffer)
{
	struct admit_res set[] = { { RES_HARD, 6, 10, 0, 0 }, { RES_HARD, 5, 10, 0, 0 } };
	char small[12];

	memset(small, 'x', sizeof(small));
	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, small, sizeof(small)), HR_ENOMEM);
	CHECK(!strcmp(small, "utilization"));
	CHECK_EQ(admit_cpu("edf", set, N(set), cpu, NULL, 0), HR_ENOMEM);
}

TEST(admit_ppm_rounds_up)
{
	CHECK_EQ(admit_ppm(1, 3), 333334);
	CHECK_EQ(admit_ppm(1, 4), 250000);
	CHECK_EQ(admit_ppm(1, 0), UINT64_MAX);
}
