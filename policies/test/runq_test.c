/* runq_test.c - the round-robin order and its one-pass choice (policies/runq.c), and the
 * memo that lets next_event use pick's answer (policies/base.h). */
#include "check.h"
#include "policies/base.h"
#include "policies/runq.h"
#include "kernel/abi/hr_errno.h"

#include <string.h>

static struct runq q;
static uint64_t rng = 88172645463325252ull;

static uint64_t
rnd(uint64_t n) /* 0 .. n-1 */
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng % n;
}

/* What runq_pick_peer must answer, the long way: the most urgent level, the lowest
 * sequence in it; a peer is any other runnable one in mask on that level. */
static int32_t
reference(uint64_t mask, int by_prio, int *peer)
{
	int32_t best = POL_IDLE;

	POL_FOR_EACH(id, mask & q.runnable)
	{
		const struct runq_ent *a = &q.e[id], *b = best == POL_IDLE ? 0 : &q.e[best];
		if (!b || (by_prio && a->prio != b->prio ? a->prio < b->prio : a->seq < b->seq))
			best = (int32_t) id;
	}
	*peer = best != POL_IDLE && runq_has_peer(&q, (uint32_t) best, mask, by_prio);
	return best;
}

TEST(runq_pick_peer_agrees_with_the_long_way)
{
	for (int round = 0; round < 2000; round++) {
		runq_init(&q, 5);
		for (uint32_t id = 0; id < POL_MAX; id++) {
			struct pol_param p = { .prio = (uint32_t) rnd(4), .kind = RES_NONE };
			if (rnd(3))
				continue;
			CHECK_EQ(runq_check(&q, id, &p), 0);
			runq_add(&q, id, &p);
			if (rnd(3) == 0)
				runq_block(&q, id);
			if (rnd(2))
				runq_to_tail(&q, id);
		}
		for (int k = 0; k < 8; k++) {
			uint64_t mask = rnd(4) ? rng : ~0ull;
			for (int by_prio = 0; by_prio < 2; by_prio++) {
				int peer, want_peer;
				int32_t want = reference(mask, by_prio, &want_peer);
				CHECK_EQ(runq_pick_peer(&q, mask, by_prio, &peer), want);
				CHECK_EQ(runq_pick(&q, mask, by_prio), want);
				CHECK_EQ(peer, want_peer);
			}
		}
	}
}

TEST(runq_pick_peer_of_nothing_is_idle_without_a_peer)
{
	struct pol_param p = { .prio = 1, .kind = RES_NONE };
	int peer = 1;

	runq_init(&q, 5);
	CHECK_EQ(runq_pick_peer(&q, ~0ull, 1, &peer), POL_IDLE);
	CHECK_EQ(peer, 0);
	runq_add(&q, 3, &p);
	runq_block(&q, 3);
	peer = 1;
	CHECK_EQ(runq_pick_peer(&q, ~0ull, 1, &peer), POL_IDLE);
	CHECK_EQ(peer, 0);
	runq_wake(&q, 3);
	CHECK_EQ(runq_pick_peer(&q, ~0ull, 1, &peer), 3);
	CHECK_EQ(peer, 0);
	runq_add(&q, 9, &p);
	CHECK_EQ(runq_pick_peer(&q, ~0ull, 1, &peer), 3);
	CHECK_EQ(peer, 1);
	CHECK_EQ(runq_pick_peer(&q, RUNQ_BIT(9), 1, &peer), 9);
	CHECK_EQ(peer, 0);
}

/* next_event right after pick (its memo) answers as it does with nothing remembered. */
TEST(next_event_after_pick_answers_as_without_the_memo)
{
	static const char *const names[] = { "fprr", "ds", "edf" };
	uint64_t st[sizeof(struct base) / 8 + 1];

	for (int n = 0; n < 3; n++) {
		const struct policy *pol = policy_find(names[n]);
		for (int round = 0; round < 300; round++) {
			uint64_t now = 0;
			pol->init(st, 0, 3 + rnd(3));
			for (uint32_t id = 0; id < 12; id++) {
				uint32_t kind = (uint32_t) rnd(4), period = 10 + (uint32_t) rnd(20);
				struct pol_param p = { .prio = (uint32_t) rnd(4),
						       .kind = kind,
						       .budget = kind ? 1 + rnd(period / 4) : 0,
						       .period = kind ? period : 0,
						       .server = RES_SERVER_DEFERRABLE };
				CHECK_EQ(pol->add(st, id, &p, 0), 0);
			}
			for (int step = 0; step < 50; step++) {
				uint64_t with, without;
				uint32_t id = (uint32_t) rnd(12);
				int32_t p = pol->pick(st, now);
				with = pol->next_event(st, now);
				((struct base *) st)->gen++; /* forget the memo */
				without = pol->next_event(st, now);
				CHECK_EQ(with, without);
				if (p != POL_IDLE)
					pol->charge(st, (uint32_t) p, 1 + rnd(3), now + 2);
				if (rnd(3) == 0)
					pol->block(st, id, now + 2);
				else if (rnd(2))
					pol->wake(st, id, now + 2);
				now += 2 + rnd(5);
			}
		}
	}
}
