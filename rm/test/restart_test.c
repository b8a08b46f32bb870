/* restart_test.c - the restart policy of a faulted child (rm/restart.c). */
#include "check.h"
#include "rm/restart.h"

#define TICK 1000

TEST(never_is_never_restarted)
{
	struct restart r;

	restart_init(&r, RESTART_NEVER, 3, 10);
	CHECK_EQ(restart_fault(&r, 5000, TICK), RESTART_NOT_WANTED);
	CHECK_EQ(r.at, 0);
	CHECK(!restart_due(&r, 1ull << 60));
	CHECK_EQ(r.faults, 1);
}

TEST(on_fault_is_due_after_the_backoff)
{
	struct restart r;

	restart_init(&r, RESTART_ON_FAULT, 3, 10);
	CHECK_EQ(restart_fault(&r, 5000, TICK), RESTART_PENDING);
	CHECK(!restart_due(&r, 5000 + 10 * TICK - 1));
	CHECK(restart_due(&r, 5000 + 10 * TICK));
	CHECK_EQ(restart_finish(&r, 1), 1);
	CHECK(!restart_due(&r, 1ull << 60));
}

TEST(restart_max_restarts_then_it_stays_down)
{
	struct restart r;

	restart_init(&r, RESTART_ON_FAULT, 3, 1);
	for (uint32_t i = 1; i <= 3; i++) {
		CHECK_EQ(restart_fault(&r, 100 * i, TICK), RESTART_PENDING);
		CHECK_EQ(restart_finish(&r, 1), i);
	}
	CHECK_EQ(restart_fault(&r, 1000, TICK), RESTART_EXHAUSTED);
	CHECK_EQ(r.faults, 4);
	CHECK_EQ(r.done, 3);
	CHECK(!restart_due(&r, 1ull << 60));
}

TEST(restart_max_zero_never_restarts)
{
	struct restart r;

	restart_init(&r, RESTART_ON_FAULT, 0, 10);
	CHECK_EQ(restart_fault(&r, 5000, TICK), RESTART_EXHAUSTED);
}

TEST(a_failed_rebuild_is_not_counted_and_not_pending)
{
	struct restart r;

	restart_init(&r, RESTART_ON_FAULT, 3, 0);
	CHECK_EQ(restart_fault(&r, 0, TICK), RESTART_PENDING);
	CHECK(restart_due(&r, 1)); /* no backoff: due at once */
	CHECK_EQ(restart_finish(&r, 0), 0);
	CHECK(!restart_due(&r, 1ull << 60));
}
