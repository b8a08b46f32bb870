/* cap_test.c - capability table operations (kernel/cap.c). */
#include "check.h"
#include "cap.h"
#include "abi/hr_errno.h"
#include "abi/hr_syscall.h"

static struct cap_table t;

TEST(lookup_rejects_self_and_out_of_range_slots)
{
	CHECK(!cap_lookup(&t, HR_CAP_SELF, CAP_COMP));
	CHECK(!cap_lookup(&t, HR_CAP_MAX, CAP_COMP));
	CHECK(!cap_lookup(&t, (uint64_t) -1, CAP_INVOKE));
}

TEST(lookup_requires_matching_type)
{
	struct cap_table c = { 0 };
	cap_put(&c, 5, (struct cap){ .type = CAP_INVOKE, .comp = 3, .badge = 9 });
	CHECK(cap_lookup(&c, 5, CAP_INVOKE));
	CHECK_EQ(cap_lookup(&c, 5, CAP_INVOKE)->badge, 9);
	CHECK(!cap_lookup(&c, 5, CAP_COMP));
	CHECK(!cap_lookup(&c, 6, CAP_INVOKE));
	CHECK(!cap_lookup(&c, 5, CAP_NONE));
}

TEST(free_slot_checks_range_and_occupancy)
{
	struct cap_table c = { 0 };
	CHECK_EQ(cap_free_slot(&c, 0), HR_EINVAL);
	CHECK_EQ(cap_free_slot(&c, HR_CAP_MAX), HR_EINVAL);
	CHECK_EQ(cap_free_slot(&c, 1), 0);
	cap_put(&c, 1, (struct cap){ .type = CAP_COMP, .comp = 2 });
	CHECK_EQ(cap_free_slot(&c, 1), HR_EEXIST);
}

TEST(delete_empties_slot_and_rejects_empty)
{
	struct cap_table c = { 0 };
	cap_put(&c, 7, (struct cap){ .type = CAP_COMP, .comp = 2 });
	CHECK_EQ(cap_delete(&c, 7), 0);
	CHECK(!cap_lookup(&c, 7, CAP_COMP));
	CHECK_EQ(cap_delete(&c, 7), HR_ECAP);
	CHECK_EQ(cap_delete(&c, 0), HR_EINVAL);
	CHECK_EQ(cap_delete(&c, 1000), HR_EINVAL);
}
