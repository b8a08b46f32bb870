/* kev_test.c - the kernel-event ring: exits kept, notices coalesced (kernel/kev.c). */
#include "check.h"
#include "kev.h"
#include "abi/hr_errno.h"

#include <stdlib.h>

static struct hr_sched_region *
region(void)
{
	return calloc(1, sizeof(struct hr_sched_region));
}

static struct hr_kevent
ev(uint16_t type, uint16_t comp)
{
	return (struct hr_kevent){ .type = type, .comp = comp };
}

/* What a scheduler does: copy the entry at the tail, then advance the tail. */
static struct hr_kevent
take(struct hr_sched_region *r)
{
	struct hr_kevent e = r->ev[r->ev_tail % HR_KEV_RING];
	r->ev_tail++;
	return e;
}

TEST(notices_about_one_child_take_at_most_two_entries)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n = { 0 };

	for (int i = 0; i < 10000; i++)
		CHECK_EQ(kev_notice(&q, r, &n, i % 2 ? HR_KEV_IDLE : HR_KEV_WAKE, 7), 0);
	CHECK(q.head <= 2);
	CHECK_EQ(q.lost, 0);
	free(r);
}

TEST(latest_notice_wins)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n = { 0 };

	kev_notice(&q, r, &n, HR_KEV_IDLE, 3); /* at the tail: never rewritten */
	kev_notice(&q, r, &n, HR_KEV_WAKE, 3);
	CHECK_EQ(r->woke[0], 1ull << 3);
	kev_notice(&q, r, &n, HR_KEV_IDLE, 3);
	CHECK_EQ(q.head, 2);
	CHECK_EQ(r->woke[0], 0); /* idle, wake, idle: idle */
	CHECK_EQ(take(r).type, HR_KEV_IDLE);
	CHECK_EQ(take(r).type, HR_KEV_IDLE);
	free(r);
}

TEST(a_wake_up_is_a_bit_and_takes_no_entry)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n[2] = { 0 };

	CHECK_EQ(kev_notice(&q, r, &n[0], HR_KEV_WAKE, 5), 0);
	CHECK_EQ(kev_notice(&q, r, &n[1], HR_KEV_WAKE, HR_COMP_MAX - 1), 0);
	CHECK_EQ(q.head, 0);
	CHECK_EQ(r->ev_head, 0);
	CHECK_EQ(r->woke[0], 1ull << 5);
	CHECK_EQ(r->woke[1], 1ull << 63);
	/* an idle notice left unread, then a wake-up: read in that order, the child wakes */
	kev_notice(&q, r, &n[0], HR_KEV_IDLE, 5);
	kev_notice(&q, r, &n[0], HR_KEV_WAKE, 5);
	CHECK_EQ(take(r).type, HR_KEV_IDLE);
	CHECK_EQ(r->woke[0], 1ull << 5);
	free(r);
}

TEST(entry_at_the_tail_is_never_rewritten)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n = { 0 };

	kev_notice(&q, r, &n, HR_KEV_IDLE, 3);
	/* the scheduler has copied the entry at its tail but not yet advanced it */
	struct hr_kevent seen = r->ev[r->ev_tail % HR_KEV_RING];
	kev_notice(&q, r, &n, HR_KEV_WAKE, 3);
	r->ev_tail++;
	CHECK_EQ(seen.type, HR_KEV_IDLE);
	CHECK_EQ(r->woke[0], 1ull << 3); /* the wake-up is not lost */
	free(r);
}

TEST(exit_survives_a_flood_of_notices)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n[4] = { 0 };

	for (int i = 0; i < 100000; i++)
		kev_notice(&q, r, &n[i % 4], i % 3 ? HR_KEV_WAKE : HR_KEV_IDLE, (uint16_t) (i % 4));
	CHECK_EQ(kev_put(&q, r, ev(HR_KEV_EXIT, 9)), 0);
	CHECK_EQ(q.lost, 0);
	int exits = 0;
	while (r->ev_tail != r->ev_head)
		exits += take(r).type == HR_KEV_EXIT;
	CHECK_EQ(exits, 1);
	free(r);
}

TEST(full_ring_counts_what_it_loses)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };

	for (int i = 0; i < HR_KEV_RING; i++)
		CHECK_EQ(kev_put(&q, r, ev(HR_KEV_EXIT, (uint16_t) i)), 0);
	CHECK_EQ(kev_put(&q, r, ev(HR_KEV_EXIT, 1)), HR_ENOMEM);
	CHECK_EQ(r->ev_lost, 1);
	take(r);
	CHECK_EQ(kev_put(&q, r, ev(HR_KEV_EXIT, 1)), 0);
	free(r);
}

TEST(forged_tail_and_entries_change_only_the_liar)
{
	struct hr_sched_region *r = region();
	struct kev_q q = { 0 };
	struct kev_notice n = { 0 };

	kev_notice(&q, r, &n, HR_KEV_IDLE, 3);
	kev_notice(&q, r, &n, HR_KEV_IDLE, 3);
	r->ev[1] = ev(HR_KEV_EXIT, 3); /* the scheduler scribbles over its own ring */
	CHECK_EQ(kev_notice(&q, r, &n, HR_KEV_WAKE, 3), 0);
	CHECK_EQ(r->ev[1].type, HR_KEV_EXIT); /* not mistaken for the old notice */
	r->ev_tail = 0xdeadbeef; /* garbage: the ring looks full or empty, never overruns */
	for (int i = 0; i < 1000; i++)
		kev_put(&q, r, ev(HR_KEV_EXIT, 1));
	CHECK(q.head - 0xdeadbeefu <= HR_KEV_RING || q.lost > 0);
	free(r);
}
