/* res_test.c - the reservation book and its admission tests (rm/res.c). */
#include "check.h"
#include "rm/res.h"
#include "kernel/abi/hr_errno.h"

#include <string.h>

static struct res_mgr m;
static char why[160];

#define OWNERS 32

static void
fresh(uint64_t pages)
{
	CHECK_EQ(res_init(&m, "fprr", (struct admit_supply){ 1, 1 }, pages, 1000, OWNERS), 0);
}

static void
fresh_cpu(const char *policy, uint32_t budget, uint32_t period)
{
	CHECK_EQ(res_init(&m, policy, (struct admit_supply){ budget, period }, 0, 0, OWNERS), 0);
}

static long
mem(uint32_t owner, uint32_t kind, uint64_t pages)
{
	long id = res_create(&m, owner, kind, RES_MEM);
	struct res_spec s = { .pages = pages };
	long r = id < 0 ? id : res_bind(&m, owner, id, &s, why, sizeof(why));
	return r < 0 ? r : id;
}

TEST(create_rejects_unknown_family_and_kind)
{
	fresh(100);
	CHECK_EQ(res_create(&m, 1, RES_HARD, 0), HR_EINVAL);
	CHECK_EQ(res_create(&m, 1, RES_HARD, 9), HR_EINVAL);
	CHECK_EQ(res_create(&m, 1, 0, RES_MEM), HR_EINVAL);
	CHECK_EQ(res_create(&m, 1, 7, RES_MEM), HR_EINVAL);
	CHECK_EQ(res_create(&m, 1, RES_DEFERRABLE, RES_MEM), HR_EINVAL);
	CHECK(res_create(&m, 1, RES_DEFERRABLE, RES_CPU) >= 0);
}

TEST(create_fails_when_our_own_records_are_used_up)
{
	fresh(100);
	for (int i = 0; i < RES_SELF_MAX; i++)
		CHECK(res_create(&m, RES_OWNER_SELF, RES_HARD, RES_MEM) >= 0);
	CHECK_EQ(res_create(&m, RES_OWNER_SELF, RES_HARD, RES_MEM), HR_ENOMEM);
	CHECK(res_create(&m, 1, RES_HARD, RES_MEM) >= 0); /* children still can */
}

TEST(create_refuses_an_owner_beyond_the_book)
{
	fresh(100);
	CHECK_EQ(res_create(&m, OWNERS + 1, RES_HARD, RES_MEM), HR_EINVAL);
	CHECK(res_create(&m, OWNERS, RES_HARD, RES_MEM) >= 0);
}

TEST(every_child_gets_its_records_while_all_others_hold_theirs)
{
	fresh(100);
	for (int i = 0; i < RES_SELF_MAX; i++)
		CHECK(res_create(&m, RES_OWNER_SELF, RES_HARD, RES_MEM) >= 0);
	for (uint32_t owner = 1; owner <= OWNERS; owner++)
		for (int i = 0; i < RES_PER_CHILD; i++)
			CHECK(res_create(&m, owner, RES_HARD, RES_MEM) >= 0);
	res_drop_owner(&m, 5); /* a child that died comes back: all its records are there */
	for (int i = 0; i < RES_PER_CHILD; i++)
		CHECK(res_create(&m, 5, RES_HARD, RES_MEM) >= 0);
}

TEST(one_child_cannot_fill_the_book)
{
	fresh(100);
	for (int i = 0; i < RES_PER_CHILD; i++)
		CHECK(res_create(&m, 1, RES_HARD, RES_MEM) >= 0);
	CHECK_EQ(res_create(&m, 1, RES_HARD, RES_MEM), HR_ENOMEM);
	CHECK(res_create(&m, 2, RES_HARD, RES_MEM) >= 0); /* its siblings still can */
	res_delete(&m, 1, 0);
	CHECK(res_create(&m, 1, RES_HARD, RES_MEM) >= 0);
}

TEST(hard_memory_admitted_up_to_capacity_and_not_beyond)
{
	fresh(100);
	CHECK(mem(1, RES_HARD, 60) >= 0);
	CHECK(mem(2, RES_HARD, 40) >= 0);
	CHECK_EQ(mem(3, RES_HARD, 1), HR_ENOMEM);
	CHECK(strstr(why, "does not fit") != 0);
	CHECK_EQ(res_mem_of(&m, 1), 60);
	CHECK_EQ(res_mem_excess(&m), 0);
}

TEST(soft_memory_only_from_what_is_free)
{
	fresh(100);
	CHECK(mem(1, RES_HARD, 70) >= 0);
	CHECK(mem(2, RES_SOFT, 30) >= 0);
	CHECK_EQ(mem(3, RES_SOFT, 1), HR_ENOMEM);
}

TEST(hard_memory_may_displace_soft_which_must_give_back)
{
	fresh(100);
	long soft = mem(2, RES_SOFT, 80);
	CHECK(soft >= 0);
	CHECK(mem(1, RES_HARD, 50) >= 0);
	CHECK_EQ(res_mem_excess(&m), 30);
	CHECK_EQ(res_revoke_soft(&m, 30), 30);
	CHECK_EQ(res_get(&m, 2, soft)->spec.pages, 50);
	CHECK_EQ(res_get(&m, 2, soft)->gen, 1);
	CHECK_EQ(res_mem_excess(&m), 0);
}

TEST(soft_revocation_takes_newest_first_and_spans_several)
{
	fresh(100);
	long a = mem(1, RES_SOFT, 20), b = mem(2, RES_SOFT, 30);
	CHECK_EQ(res_revoke_soft(&m, 40), 40);
	CHECK_EQ(res_get(&m, 2, b)->spec.pages, 0);
	CHECK_EQ(res_get(&m, 1, a)->spec.pages, 10);
	CHECK_EQ(res_revoke_soft(&m, 1000), 10);
	CHECK_EQ(res_get(&m, 1, a)->spec.pages, 0);
}

TEST(hard_reservations_are_never_revoked)
{
	fresh(100);
	long h = mem(1, RES_HARD, 90);
	CHECK_EQ(res_revoke_soft(&m, 50), 0);
	CHECK_EQ(res_get(&m, 1, h)->spec.pages, 90);
}

TEST(owners_cannot_touch_each_others_reservations)
{
	fresh(100);
	long id = mem(1, RES_HARD, 10);
	struct res_spec s = { .pages = 5 };
	CHECK_EQ(res_bind(&m, 2, id, &s, why, sizeof(why)), HR_ENOENT);
	CHECK_EQ(res_delete(&m, 2, id), HR_ENOENT);
	CHECK(res_get(&m, 2, id) == 0);
	CHECK_EQ(res_get(&m, 1, id)->spec.pages, 10);
}

TEST(bad_ids_are_refused)
{
	struct res_spec s = { .pages = 5 };
	fresh(100);
	CHECK_EQ(res_bind(&m, 1, -1, &s, why, sizeof(why)), HR_ENOENT);
	CHECK_EQ(res_bind(&m, 1, m.nr, &s, why, sizeof(why)), HR_ENOENT);
	CHECK_EQ(res_delete(&m, 1, 12345), HR_ENOENT);
	CHECK_EQ(res_bind(&m, 1, 0, 0, why, sizeof(why)), HR_ENOENT);
}

TEST(delete_returns_capacity)
{
	fresh(100);
	long id = mem(1, RES_HARD, 100);
	CHECK_EQ(mem(2, RES_HARD, 1), HR_ENOMEM);
	CHECK_EQ(res_delete(&m, 1, id), 0);
	CHECK(mem(2, RES_HARD, 100) >= 0);
}

TEST(zero_pages_is_malformed)
{
	fresh(100);
	CHECK_EQ(mem(1, RES_HARD, 0), HR_EINVAL);
}

TEST(shrinking_is_always_admitted)
{
	fresh(100);
	long a = mem(1, RES_HARD, 100);
	struct res_spec s = { .pages = 40 };
	CHECK_EQ(res_bind(&m, 1, a, &s, why, sizeof(why)), 0);
	CHECK(mem(2, RES_HARD, 60) >= 0);
}

TEST(drop_owner_forgets_everything_of_a_dead_child)
{
	fresh(100);
	mem(3, RES_HARD, 30);
	mem(3, RES_SOFT, 30);
	res_drop_owner(&m, 3);
	CHECK_EQ(res_mem_of(&m, 3), 0);
	CHECK(mem(4, RES_HARD, 100) >= 0);
}

static long
cpu(uint32_t owner, uint32_t kind, uint32_t b, uint32_t p, uint32_t prio)
{
	long id = res_create(&m, owner, kind, RES_CPU);
	struct res_spec s = { .budget = b, .period = p, .prio = prio };
	long r = id < 0 ? id : res_bind(&m, owner, id, &s, why, sizeof(why));
	return r < 0 ? r : id;
}

TEST(cpu_admission_uses_the_policy_and_supply)
{
	fresh_cpu("edf", 1, 1);
	CHECK(cpu(1, RES_HARD, 5, 10, 0) >= 0);
	CHECK(cpu(2, RES_DEFERRABLE, 5, 10, 0) >= 0);
	CHECK_EQ(cpu(3, RES_HARD, 1, 10, 0), HR_ENOMEM);
	/* soft is served while it exists: it must fit what is left like any other */
	CHECK_EQ(cpu(3, RES_SOFT, 1, 10, 0), HR_ENOMEM);
}

/* Like memory: a hard reservation needs only what no other hard one holds; soft ones then
 * give back, newest first, each no more than it must. */
TEST(cpu_hard_bind_admitted_over_soft_which_is_revoked_newest_first)
{
	long a, b;

	fresh_cpu("edf", 1, 1);
	CHECK((a = cpu(1, RES_SOFT, 4, 10, 0)) >= 0);
	CHECK((b = cpu(2, RES_SOFT, 4, 10, 0)) >= 0);
	CHECK(res_cpu_fits(&m));
	CHECK(cpu(3, RES_HARD, 5, 10, 0) >= 0);
	CHECK(!res_cpu_fits(&m));
	CHECK_EQ(res_cpu_revoke_soft(&m), 1);
	CHECK(res_cpu_fits(&m));
	CHECK_EQ(res_get(&m, 2, b)->spec.budget, 1); /* the newest, down to what fits */
	CHECK_EQ(res_get(&m, 2, b)->gen, 1);
	CHECK_EQ(res_get(&m, 1, a)->spec.budget, 4);
	CHECK_EQ(res_get(&m, 1, a)->gen, 0);
	/* more hard: the newest goes to nothing (background only), then the older one */
	CHECK(cpu(4, RES_HARD, 3, 10, 0) >= 0);
	CHECK_EQ(res_cpu_revoke_soft(&m), 2);
	CHECK_EQ(res_get(&m, 2, b)->spec.budget, 0);
	CHECK_EQ(res_get(&m, 1, a)->spec.budget, 2);
	CHECK(res_cpu_fits(&m));
	CHECK_EQ(res_cpu_revoke_soft(&m), 0);
}

TEST(cpu_soft_bind_must_fit_everything_and_revokes_nothing)
{
	fresh_cpu("fprr", 1, 1);
	CHECK(cpu(1, RES_HARD, 6, 10, 0) >= 0);
	CHECK_EQ(cpu(2, RES_SOFT, 5, 10, 1), HR_ENOMEM);
	CHECK(cpu(2, RES_SOFT, 4, 10, 1) >= 0);
	CHECK(res_cpu_fits(&m));
}

/* A supply that shrinks (our parent revoked from our soft reservation) takes from our soft
 * reservations; a supply that is not guaranteed admits nothing guaranteed. */
TEST(cpu_supply_shrinks_soft_below_and_refuses_guaranteed_when_soft)
{
	long a;

	fresh_cpu("edf", 5, 10);
	CHECK(res_cpu_supply(&m, (struct admit_supply){ 5, 10 }, 0) == 0);
	CHECK_EQ(cpu(1, RES_HARD, 1, 10, 0), HR_ENOMEM);
	CHECK(strstr(why, "not guaranteed"));
	CHECK((a = cpu(1, RES_SOFT, 4, 10, 0)) >= 0);
	CHECK(res_cpu_supply(&m, (struct admit_supply){ 2, 10 }, 0) == 0);
	CHECK(!res_cpu_fits(&m));
	CHECK_EQ(res_cpu_revoke_soft(&m), 1);
	CHECK_EQ(res_get(&m, 1, a)->spec.budget, 2);
	CHECK_EQ(res_cpu_supply(&m, (struct admit_supply){ 3, 0 }, 0), HR_EINVAL);
	CHECK_EQ(res_cpu_supply(&m, (struct admit_supply){ 3, 2 }, 0), HR_EINVAL);
}

/* Revocation down the tree, as image test-cpu-revoke does it: the root admits a hard 8/10
 * over its soft child's 4/10, which comes down to 2/10; that child's book, with 2/10 as its
 * supply (not guaranteed), takes its own soft child from 3/10 down to 2/10; a level whose
 * supply goes to nothing keeps its soft reservations at budget 0 (background only). */
TEST(cpu_revocation_passes_down_a_level_at_a_time)
{
	long soft, inner;

	fresh_cpu("edf", 1, 1);
	CHECK((soft = cpu(1, RES_SOFT, 4, 10, 0)) >= 0);
	CHECK(cpu(2, RES_HARD, 8, 10, 0) >= 0);
	CHECK_EQ(res_cpu_revoke_soft(&m), 1);
	CHECK_EQ(res_get(&m, 1, soft)->spec.budget, 2);
	CHECK_EQ(res_get(&m, 1, soft)->spec.period, 10);

	fresh_cpu("edf", 4, 10);
	CHECK_EQ(res_cpu_supply(&m, (struct admit_supply){ 4, 10 }, 0), 0);
	CHECK((inner = cpu(1, RES_SOFT, 3, 10, 0)) >= 0);
	CHECK_EQ(res_cpu_supply(&m, (struct admit_supply){ 2, 10 }, 0), 0);
	CHECK(!res_cpu_fits(&m));
	CHECK_EQ(res_cpu_revoke_soft(&m), 1);
	CHECK_EQ(res_get(&m, 1, inner)->spec.budget, 2);
	CHECK_EQ(res_get(&m, 1, inner)->gen, 1);
	/* still guaranteed nothing: a hard bind is refused as before */
	CHECK_EQ(cpu(2, RES_HARD, 1, 10, 0), HR_ENOMEM);
	CHECK_EQ(res_cpu_supply(&m, (struct admit_supply){ 0, 10 }, 0), 0);
	CHECK_EQ(res_cpu_revoke_soft(&m), 1);
	CHECK_EQ(res_get(&m, 1, inner)->spec.budget, 0);
	CHECK(res_cpu_fits(&m));
}

TEST(cpu_admission_under_a_partial_supply)
{
	fresh_cpu("edf", 4, 10);
	CHECK(cpu(1, RES_HARD, 2, 10, 0) >= 0);
	CHECK(cpu(2, RES_HARD, 2, 10, 0) >= 0);
	CHECK_EQ(cpu(3, RES_HARD, 1, 10, 0), HR_ENOMEM);
}

TEST(cpu_spec_must_be_sane)
{
	fresh(0);
	CHECK_EQ(cpu(1, RES_HARD, 0, 10, 0), HR_EINVAL);
	CHECK_EQ(cpu(1, RES_HARD, 11, 10, 0), HR_EINVAL);
	CHECK_EQ(cpu(1, RES_HARD, 1, 0, 0), HR_EINVAL);
}

TEST(refused_bind_leaves_the_old_spec)
{
	fresh_cpu("edf", 1, 1);
	long a = cpu(1, RES_HARD, 3, 10, 0);
	cpu(2, RES_HARD, 5, 10, 0);
	struct res_spec s = { .budget = 6, .period = 10 };
	CHECK_EQ(res_bind(&m, 1, a, &s, why, sizeof(why)), HR_ENOMEM);
	CHECK_EQ(res_get(&m, 1, a)->spec.budget, 3);
}

TEST(cpu_of_finds_an_owners_cpu_reservation_only)
{
	fresh_cpu("edf", 1, 1);
	CHECK_EQ(res_cpu_of(&m, 1), HR_ENOENT);
	CHECK(res_create(&m, 1, RES_HARD, RES_MEM) >= 0);
	CHECK_EQ(res_cpu_of(&m, 1), HR_ENOENT);
	long a = res_create(&m, 1, RES_SOFT, RES_CPU); /* created, not yet bound: it counts */
	CHECK_EQ(res_cpu_of(&m, 1), a);
	CHECK_EQ(res_cpu_of(&m, 2), HR_ENOENT);
	res_delete(&m, 1, a);
	CHECK_EQ(res_cpu_of(&m, 1), HR_ENOENT);
}

TEST(supply_grows_always_and_shrinks_only_over_what_we_promised)
{
	fresh_cpu("edf", 0, 1); /* best effort: nothing to promise */
	CHECK_EQ(cpu(1, RES_HARD, 1, 10, 0), HR_ENOMEM);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 3, 10 }, why, sizeof(why)), 0);
	long a = cpu(1, RES_HARD, 2, 10, 0);
	CHECK(a >= 0);
	CHECK_EQ(res_supply_fits(&m, (struct admit_supply){ 2, 10 }, why, sizeof(why)), 0);
	CHECK_EQ(m.supply.budget, 3); /* only a question */
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 1, 10 }, why, sizeof(why)), HR_ENOMEM);
	CHECK(strstr(why, "exceeds") != 0);
	CHECK_EQ(m.supply.budget, 3); /* refused: the supply stays */
	CHECK_EQ(m.supply.period, 10);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 1, 5 }, why, sizeof(why)), 0);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 0, 1 }, why, sizeof(why)), HR_ENOMEM);
	res_delete(&m, 1, a);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 0, 1 }, why, sizeof(why)), 0);
}

TEST(supply_must_be_sane)
{
	fresh_cpu("edf", 1, 1);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 1, 0 }, why, sizeof(why)), HR_EINVAL);
	CHECK_EQ(res_supply(&m, (struct admit_supply){ 11, 10 }, why, sizeof(why)), HR_EINVAL);
	CHECK_EQ(m.supply.budget, 1);
}

TEST(io_ports_are_exclusive_and_bandwidth_bounded)
{
	fresh(0);
	long a = res_create(&m, 1, RES_HARD, RES_IO), b = res_create(&m, 2, RES_HARD, RES_IO);
	struct res_spec s = { .port = 80, .kbps = 600 };
	CHECK_EQ(res_bind(&m, 1, a, &s, why, sizeof(why)), 0);
	CHECK_EQ(res_bind(&m, 2, b, &s, why, sizeof(why)), HR_EEXIST);
	s.port = 8080;
	CHECK_EQ(res_bind(&m, 2, b, &s, why, sizeof(why)), HR_ENOMEM);
	s.kbps = 400;
	CHECK_EQ(res_bind(&m, 2, b, &s, why, sizeof(why)), 0);
	s.port = 70000;
	CHECK_EQ(res_bind(&m, 2, b, &s, why, sizeof(why)), HR_EINVAL);
}
