/* policy_test.c - properties every policy shares (policies/policy.c, base.c, runq.c). */
#include "check.h"
#include "sim.h"
#include "../../kernel/abi/hr_errno.h"

#include <string.h>

static const char *const names[] = { "fprr", "ds", "edf" };
#define NPOL (sizeof(names) / sizeof(names[0]))

static struct sim s;

TEST(policy_find_knows_the_shipped_policies)
{
	CHECK(policy_find("fprr") == &policy_fprr);
	CHECK(policy_find("ds") == &policy_ds);
	CHECK(policy_find("edf") == &policy_edf);
	CHECK(!policy_find("rr"));
	CHECK(!policy_find(""));
	CHECK(!policy_find(NULL));
	for (unsigned i = 0; i < NPOL; i++) {
		CHECK(!strcmp(policy_find(names[i])->name, names[i]));
		CHECK(admit_policy_known(names[i]));
	}
}

TEST(policy_state_sizes_are_multiples_of_8)
{
	for (unsigned i = 0; i < NPOL; i++) {
		CHECK(policy_find(names[i])->size % 8 == 0);
		CHECK(policy_find(names[i])->size <= SIM_STATE_MAX);
	}
}

TEST(policy_every_bad_add_is_rejected_without_state_change)
{
	static unsigned char before[SIM_STATE_MAX];
	struct pol_param bad[] = {
		{ .kind = RES_DEFERRABLE + 1 },
		{ .kind = RES_HARD, .budget = 0, .period = 10 },
		{ .kind = RES_SOFT, .budget = 11, .period = 10 },
		{ .kind = RES_DEFERRABLE, .budget = 1, .period = 0 },
	};
	struct pol_param ok = { .kind = RES_HARD, .budget = 1, .period = 10 };

	for (unsigned i = 0; i < NPOL; i++) {
		sim_init(&s, names[i], 5, 0);
		sim_add(&s, 2, 1, RES_HARD, 3, 10);
		s.pol->charge(s.st, 2, 1, 1);
		memcpy(before, s.st, sizeof(before));
		for (unsigned j = 0; j < sizeof(bad) / sizeof(bad[0]); j++)
			CHECK_EQ(s.pol->add(s.st, 3, &bad[j], 1), HR_EINVAL);
		CHECK_EQ(s.pol->add(s.st, POL_MAX, &ok, 1), HR_EINVAL);
		CHECK_EQ(s.pol->add(s.st, 2, &ok, 1), HR_EEXIST);
		CHECK_EQ(s.pol->remove(s.st, 3), HR_ENOENT);
		CHECK_EQ(s.pol->block(s.st, POL_MAX, 1), HR_ENOENT);
		CHECK_EQ(s.pol->wake(s.st, 3, 1), HR_ENOENT);
		CHECK_EQ(s.pol->rank(s.st, 3, 1), POL_RANK_BACKGROUND);
		CHECK(!memcmp(before, s.st, sizeof(before)));
	}
}

static uint32_t rng = 2463534242u;

static uint32_t
xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A mix of every kind, with blocks and wakes at pseudo-random times. */
static void
busy_mix(const char *name)
{
	sim_init(&s, name, 3, 0);
	sim_add(&s, 0, 1, RES_HARD, 2, 7);
	sim_add(&s, 1, 1, RES_DEFERRABLE, 3, 11);
	sim_add(&s, 2, 2, RES_SOFT, 2, 5);
	sim_add(&s, 3, 1, RES_NONE, 0, 0);
	sim_add(&s, 4, 3, RES_NONE, 0, 0);
	sim_add(&s, 5, 0, RES_HARD, 1, 13);
}

static void
toggle_one(uint64_t now, uint8_t blocked[6])
{
	uint32_t id = xorshift() % 6;

	if (blocked[id])
		s.pol->wake(s.st, id, now);
	else
		s.pol->block(s.st, id, now);
	blocked[id] = !blocked[id];
}

/* Run in unit steps: until next_event, pick() must keep its answer when only charged. */
static void
check_next_event_never_late(const char *name)
{
	uint8_t blocked[6] = { 0 };
	int32_t p = POL_IDLE;
	uint64_t ne = 0;

	busy_mix(name);
	for (uint64_t t = 0; t < 3000; t++) {
		if (t && p != POL_IDLE)
			s.pol->charge(s.st, (uint32_t) p, 1, t);
		if (t && t < ne && s.pol->pick(s.st, t) != p) {
			printf("    %s: pick changed at %llu, before next_event %llu\n", name,
			       (unsigned long long) t, (unsigned long long) ne);
			CHECK(0);
			return;
		}
		if (xorshift() % 8 == 0)
			toggle_one(t, blocked);
		p = s.pol->pick(s.st, t);
		ne = s.pol->next_event(s.st, t);
		CHECK(ne > t);
	}
}

TEST(policy_fprr_next_event_is_never_late)
{
	check_next_event_never_late("fprr");
}

TEST(policy_ds_next_event_is_never_late)
{
	check_next_event_never_late("ds");
}

TEST(policy_edf_next_event_is_never_late)
{
	check_next_event_never_late("edf");
}

TEST(policy_misses_are_zero_for_unknown_ids)
{
	for (unsigned i = 0; i < NPOL; i++) {
		sim_init(&s, names[i], 5, 0);
		CHECK_EQ(s.pol->misses(s.st, 0), 0);
		CHECK_EQ(s.pol->misses(s.st, POL_MAX), 0);
	}
}
