/*
 * schedcore_test.c - the scheduler's decisions (rm/schedcore.c) under a fake CPU that plays
 * the kernel (fakecpu.c): budgets per period under every policy, what is published for
 * entities that may not run, the forfeit rule, sleepers, a randomized run over millions
 * of ticks checked from the fake CPU's own record, and the turn's short cuts (sleepers woken
 * together, one account charged alone) against the plain loops they stand for.
 */
#include "check.h"
#include "fakecpu.h"
#include "rm/parent.h"
#include "kernel/abi/hr_errno.h"

#include <stdlib.h>
#include <string.h>

#define T	FAKE_TICK
#define MIN_GAP (T / SCHEDCORE_MIN_GAP_PER_TICK)

static struct fake f;
static const char *const policies[] = { "fprr", "ds", "edf" };

#define FOR_EACH_POLICY(p) for (const char *const *p = policies; p < policies + 3; p++)

static int32_t
published(long id)
{
	return f.r.slot[f.t[id].tid].prio;
}

/*
 * A hard server of 3 every 10 ticks spins beside best effort that spins too.  After every
 * turn, the server is published idle exactly when it has had its 3 ticks this period.
 */
static long hard;

static void
hard_turn(struct fake *g, int32_t id)
{
	uint64_t p0 = g->now / (10 * T) * (10 * T);
	int spent = fake_ran(g, hard, p0, g->now) == 3 * T;

	CHECK_EQ(published(hard) == HR_PRIO_IDLE, spent);
	CHECK_EQ(id == hard, !spent);
}

static void
hard_budget(const char *policy)
{
	long b;

	fake_init(&f, policy, 5);
	hard = fake_add(&f, ENT_THREAD, 1, RES_HARD, RES_SERVER_DEFAULT, 3, 10, FAKE_SPIN);
	b = fake_add(&f, ENT_THREAD, 10, RES_NONE, 0, 0, 0, FAKE_SPIN);
	f.on_turn = hard_turn;
	fake_start(&f);
	fake_run(&f, 1000 * T);
	for (uint64_t p0 = 0; p0 < 1000 * T && !check_failed_now; p0 += 10 * T) {
		CHECK_EQ(fake_ran(&f, hard, p0, p0 + 10 * T), 3 * T);
		CHECK_EQ(fake_ran(&f, b, p0, p0 + 10 * T), 7 * T);
	}
	CHECK_EQ(schedcore_misses(&f.c, hard), 0);
	fake_free(&f);
}

TEST(schedcore_hard_server_gets_exactly_its_budget_under_fprr)
{
	hard_budget("fprr");
}

TEST(schedcore_hard_server_gets_exactly_its_budget_under_ds)
{
	hard_budget("ds");
}

TEST(schedcore_hard_server_gets_exactly_its_budget_under_edf)
{
	hard_budget("edf");
}

/*
 * A child that goes idle with budget left keeps its priority (its own timer must run it
 * without us), and we look again when it could have spent what it has left: then, out of
 * budget, it is published idle.  A thread blocked with budget left is published idle.
 */
TEST(schedcore_blocked_child_with_budget_keeps_its_priority)
{
	FOR_EACH_POLICY(pol)
	{
		long c, th;
		int32_t p;

		fake_init(&f, *pol, 5);
		c = fake_add(&f, ENT_CHILD, 1, RES_HARD, RES_SERVER_DEFAULT, 3, 10, FAKE_SPIN);
		th = fake_add(&f, ENT_THREAD, 2, RES_HARD, RES_SERVER_DEFAULT, 3, 10, FAKE_SPIN);
		fake_add(&f, ENT_THREAD, 10, RES_NONE, 0, 0, 0, FAKE_SPIN);
		fake_start(&f);
		fake_run(&f, T);
		p = published(c);
		CHECK(p < HR_PRIO_IDLE);
		/* the kernel's HR_KEV_IDLE, as our layer hears it; the thread blocks too */
		f.t[c].runnable = f.t[th].runnable = 0;
		f.t[c].outside = f.t[th].outside = 1;
		f.t[c].wish = f.t[th].wish = UINT64_MAX - 1;
		schedcore_block(&f.c, c, 0, f.now);
		schedcore_block(&f.c, th, 0, f.now);
		fake_run(&f, f.now + 1);
		/* edf's rank is the time to the deadline: it moves with now */
		CHECK(strcmp(*pol, "edf") ? published(c) == p : published(c) < HR_PRIO_IDLE);
		CHECK_EQ(published(th), HR_PRIO_IDLE);
		CHECK(schedcore_next_wakeup(&f.c, f.now, UINT64_MAX) <= T + 2 * T);
		/* the kernel runs the child on its own timer and it spends the rest */
		f.r.slot[f.t[c].tid].consumed += 2 * T;
		f.now = 3 * T;
		fake_run(&f, f.now + 1);
		CHECK_EQ(published(c), HR_PRIO_IDLE);
		fake_free(&f);
	}
}

/*
 * A child that goes idle with less budget left than min_gap is published idle: our timer
 * could not stop it in time (it would be put off to min_gap, an overrun), and we would
 * take a turn every min_gap waiting for it to spend the rest.  When its own timer fires it
 * comes through our turn, where the rest is forfeited.
 */
TEST(schedcore_idle_child_with_a_remainder_below_min_gap_is_published_idle)
{
	FOR_EACH_POLICY(pol)
	{
		long c;
		uint64_t turns;

		fake_init(&f, *pol, 5);
		c = fake_add(&f, ENT_CHILD, 1, RES_HARD, RES_SERVER_DEFERRABLE, 3, 10,
			     3 * T - MIN_GAP / 2);
		fake_add(&f, ENT_THREAD, 10, RES_NONE, 0, 0, 0, FAKE_SPIN);
		f.t[c].pause = 4 * T;
		f.t[c].next_work = FAKE_SPIN;
		fake_start(&f);
		fake_run(&f, 3 * T);
		CHECK_EQ(published(c), HR_PRIO_IDLE);
		turns = f.turns;
		fake_run(&f, 10 * T);
		CHECK(f.turns - turns < 10); /* no turn every min_gap */
		CHECK_EQ(fake_ran(&f, c, 0, 10 * T), 3 * T - MIN_GAP / 2);
		fake_run(&f, 20 * T);
		CHECK_EQ(fake_ran(&f, c, 10 * T, 20 * T), 3 * T);
		fake_free(&f);
	}
}

/*
 * A server that stops with less budget left than min_gap and wakes in the same period
 * forfeits the remainder: it is charged, never run (no overrun by up to min_gap), and the
 * server is published idle until its next period.
 */
TEST(schedcore_remainder_below_min_gap_is_forfeited_not_overrun)
{
	FOR_EACH_POLICY(pol)
	{
		long s;

		fake_init(&f, *pol, 5);
		s = fake_add(&f, ENT_THREAD, 1, RES_HARD, RES_SERVER_DEFERRABLE, 3, 10,
			     3 * T - MIN_GAP / 2);
		fake_add(&f, ENT_THREAD, 10, RES_NONE, 0, 0, 0, FAKE_SPIN);
		f.t[s].pause = T;
		f.t[s].next_work = FAKE_SPIN;
		fake_start(&f);
		fake_run(&f, 5 * T);
		CHECK_EQ(published(s), HR_PRIO_IDLE);
		CHECK(!f.c.ent[s].blocked); /* awake, yet with nothing it may run */
		fake_run(&f, 10 * T);
		CHECK_EQ(fake_ran(&f, s, 0, 10 * T), 3 * T - MIN_GAP / 2);
		fake_run(&f, 20 * T);
		CHECK_EQ(fake_ran(&f, s, 10 * T, 20 * T), 3 * T);
		fake_free(&f);
	}
}

/* Each time entity id wanted to run again (the end of a pause), it ran at once. */
static void
wakes_at_once(long id)
{
	for (size_t i = 0; i < f.t[id].off.n && !check_failed_now; i++) {
		uint64_t w = f.t[id].off.s[i].b;
		CHECK(w >= f.now || fake_ran(&f, id, w, w + 1) == 1);
	}
}

/* Run 1 tick, sleep (or block until an outside event) 2.5 ticks, again and again: each
 * time it wants to run again it does, at once (it is the most urgent). */
TEST(schedcore_sleepers_wake_at_their_time)
{
	FOR_EACH_POLICY(pol)
	{
		long a, b;

		fake_init(&f, *pol, 5);
		/* each wants at most 3 ticks of any 10: neither runs out of budget */
		a = fake_add(&f, ENT_THREAD, 1, RES_HARD, RES_SERVER_DEFAULT, 4, 10, T);
		b = fake_add(&f, ENT_THREAD, 2, RES_HARD, RES_SERVER_DEFAULT, 4, 10, T);
		fake_add(&f, ENT_THREAD, 10, RES_NONE, 0, 0, 0, FAKE_SPIN);
		f.t[a].pause = f.t[b].pause = 5 * T / 2;
		f.t[b].block = 1;
		fake_start(&f);
		fake_run(&f, 1000 * T);
		CHECK(f.t[a].off.n > 100);
		CHECK(f.t[b].off.n > 100);
		wakes_at_once(a);
		wakes_at_once(b);
		fake_free(&f);
	}
}

/*
 * A child that is all we have, and idles often: most of its idles idle us with it, without
 * a turn (schedcore_alone, kernel/schedtree.c: idle_up), and still it gets exactly its
 * budget in every period, never more.  Its runs of half a tick and idles of one tick want
 * a third of the CPU, more than its 3 ticks in 10; a thread of ours wakes every 7 ticks
 * for a quarter of a tick, which keeps some idles to a turn.
 */
TEST(schedcore_a_child_alone_idles_us_with_it_and_gets_its_budget_and_no_more)
{
	static const uint32_t servers[] = { RES_SERVER_DEFERRABLE, RES_SERVER_SPORADIC };

	FOR_EACH_POLICY(pol)
	for (unsigned k = 0; k < (strcmp(*pol, "edf") ? 2u : 1u); k++) { /* edf: no sporadic */
		long c, th;
		uint64_t turns = 0;

		fake_init(&f, *pol, 5);
		c = fake_add(&f, ENT_CHILD, 1, RES_HARD, servers[k], 3, 10, T / 2);
		th = fake_add(&f, ENT_THREAD, 2, RES_HARD, RES_SERVER_DEFAULT, 1, 10, T / 4);
		f.t[c].pause = T;
		f.t[th].pause = 7 * T;
		fake_start(&f);
		fake_run(&f, 1000 * T);
		turns = f.turns;
		printf("    %s, %s server: %llu idles of %zu without a turn, %llu turns\n", *pol,
		       k ? "sporadic" : "deferrable", (unsigned long long) f.idled_with,
		       f.t[c].off.n, (unsigned long long) turns);
		if (!k) { /* a sporadic one's idles mostly leave it short of min_gap: held */
			CHECK(f.idled_with > f.t[c].off.n / 3);
			/* fewer than one per idle and one per wake */
			CHECK(turns < 2 * f.t[c].off.n);
		}
		for (uint64_t a = 0; a + 10 * T <= 1000 * T && !check_failed_now; a += 10 * T) {
			uint64_t got = fake_ran(&f, c, a, a + 10 * T);
			if (servers[k] == RES_SERVER_SPORADIC || !strcmp(*pol, "edf"))
				CHECK(fake_ran(&f, c, a + 5 * T, a + 15 * T) <= 2 * 3 * T);
			else
				CHECK(got <= 3 * T && got + 2 * MIN_GAP >= 3 * T);
		}
		CHECK_EQ(schedcore_misses(&f.c, c), 0);
		fake_free(&f);
	}
}

TEST(schedcore_idle_forever_only_when_nothing_can_come)
{
	long a, c;

	fake_init(&f, "fprr", 5);
	a = fake_add(&f, ENT_THREAD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	c = fake_add(&f, ENT_CHILD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	CHECK(!schedcore_idle_forever(&f.c));
	schedcore_block(&f.c, a, 5 * T, 0);
	schedcore_remove(&f.c, c);
	CHECK(!schedcore_idle_forever(&f.c)); /* a sleeper comes back */
	schedcore_wake(&f.c, a, 0);
	schedcore_block(&f.c, a, 0, 0);
	CHECK(schedcore_idle_forever(&f.c));
	f.c.ent[a].parked = 1; /* asleep in our parent, which wakes it */
	CHECK(!schedcore_idle_forever(&f.c));
	fake_free(&f);
}

/* A child told something in the page we share (a memory target, hrtop's request) must take
 * its turn: the kernel would otherwise pass its scheduler (kernel/schedtree.c,
 * schedtree_through) and it would not look until its own next event. */
TEST(schedcore_a_child_with_news_in_our_shared_page_is_told_to_take_its_turn)
{
	static struct hr_pcb pcb;
	uint64_t flags;
	long a, c;

	fake_init(&f, "fprr", 5);
	a = fake_add(&f, ENT_THREAD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	c = fake_add(&f, ENT_CHILD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	CHECK(schedcore_dispatch(&f.c, (int32_t) a, &flags) == f.t[a].tid && !flags);
	CHECK(schedcore_dispatch(&f.c, (int32_t) c, &flags) == f.t[c].tid && !flags);
	f.c.ent[c].pcb = &pcb;
	CHECK(schedcore_dispatch(&f.c, (int32_t) c, &flags) == f.t[c].tid && !flags);
	pcb.events++; /* delegate.c notify, hrtop.c ask_children */
	CHECK(schedcore_dispatch(&f.c, (int32_t) c, &flags) == f.t[c].tid && flags == HR_SW_TURN);
	pcb.events_seen = pcb.events; /* its turn looked (rm/sched.c parent_look) */
	CHECK(schedcore_dispatch(&f.c, (int32_t) c, &flags) == f.t[c].tid && !flags);
	CHECK(schedcore_dispatch(&f.c, POL_IDLE, &flags) == 0 && !flags);
	fake_free(&f);
}

/* ---- what a turn keeps instead of searching: by thread, asked, sleepers, published ---- */

static const struct pol_param best_effort = { .prio = 4, .kind = RES_NONE };

TEST(schedcore_find_names_the_lowest_entity_of_a_thread)
{
	long a, b, c;

	fake_init(&f, "fprr", 5);
	a = schedcore_add(&f.c, &f.r, ENT_THREAD, 20, &best_effort, 0, 0);
	b = schedcore_add(&f.c, &f.r, ENT_THREAD, 21, &best_effort, 0, 0);
	c = schedcore_add(&f.c, &f.r, ENT_THREAD, 20, &best_effort, 0, 0); /* the same thread */
	CHECK(a >= 0 && b >= 0 && c >= 0);
	CHECK_EQ(schedcore_find(&f.c, 20), a);
	CHECK_EQ(schedcore_find(&f.c, 21), b);
	CHECK_EQ(schedcore_find(&f.c, 22), -1);
	schedcore_remove(&f.c, a);
	CHECK_EQ(schedcore_find(&f.c, 20), c);
	schedcore_remove(&f.c, c);
	CHECK_EQ(schedcore_find(&f.c, 20), -1);
	CHECK_EQ(schedcore_find(&f.c, HR_THD_MAX), -1);
	CHECK_EQ(schedcore_find(&f.c, UINT32_MAX), -1);
	CHECK_EQ(schedcore_add(&f.c, &f.r, ENT_THREAD, HR_THD_MAX, &best_effort, 0, 0), HR_EINVAL);
	a = schedcore_add(&f.c, &f.r, ENT_THREAD, 23, &best_effort, 0, 0); /* into a's slot */
	CHECK_EQ(schedcore_find(&f.c, 23), a);
	CHECK_EQ(schedcore_find(&f.c, 21), b);
	fake_free(&f);
}

TEST(schedcore_an_id_taken_again_is_born_again)
{
	long a, b;
	uint32_t first;

	fake_init(&f, "fprr", 5);
	a = schedcore_add(&f.c, &f.r, ENT_THREAD, 20, &best_effort, 0, 0);
	b = schedcore_add(&f.c, &f.r, ENT_THREAD, 21, &best_effort, 0, 0);
	first = schedcore_born(&f.c, a);
	CHECK(first != 0 && schedcore_born(&f.c, b) != 0 && schedcore_born(&f.c, b) != first);
	schedcore_remove(&f.c, a);
	CHECK_EQ(schedcore_born(&f.c, a), 0);
	/* the same id for the same thread number, as a task that exited and one made after
	 * it would get: only its birth tells them apart (rm/cpuwatch.c) */
	CHECK_EQ(schedcore_add(&f.c, &f.r, ENT_THREAD, 20, &best_effort, 0, 0), a);
	CHECK(schedcore_born(&f.c, a) != 0 && schedcore_born(&f.c, a) != first);
	CHECK_EQ(schedcore_born(&f.c, -1), 0);
	CHECK_EQ(schedcore_born(&f.c, POL_MAX), 0);
	fake_free(&f);
}

TEST(schedcore_requests_takes_each_asked_request_once)
{
	long a, b;

	fake_init(&f, "fprr", 5);
	a = fake_add(&f, ENT_THREAD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	b = fake_add(&f, ENT_THREAD, 2, RES_NONE, 0, 0, 0, FAKE_SPIN);
	CHECK_EQ(schedcore_ask(&f.c, POL_MAX, REQ_SLEEP, 1), HR_ENOENT);
	CHECK_EQ(schedcore_ask(&f.c, a, REQ_SLEEP, 700), 0);
	schedcore_requests(&f.c, 0);
	CHECK(f.c.ent[a].blocked);
	CHECK_EQ(f.c.ent[a].wake_at, 700);
	schedcore_wake(&f.c, a, 1);
	schedcore_requests(&f.c, 2); /* taken already: nothing again */
	CHECK(!f.c.ent[a].blocked);
	CHECK_EQ(schedcore_ask(&f.c, a, REQ_BLOCK, 0), 0);
	CHECK_EQ(schedcore_ask(&f.c, b, REQ_WAKE, (uint64_t) a), 0);
	schedcore_requests(&f.c, 3); /* in id order: a blocks, then b wakes it */
	CHECK(!f.c.ent[a].blocked);
	f.c.ent[b].param_new = (struct pol_param){ .prio = 9, .kind = RES_NONE };
	schedcore_ask_param(&f.c, b);
	schedcore_requests(&f.c, 4);
	CHECK_EQ(f.c.ent[b].param.prio, 9);
	/* asked, then gone: its request goes with it, and nothing reaches its successor */
	CHECK_EQ(schedcore_ask(&f.c, b, REQ_BLOCK, 0), 0);
	schedcore_remove(&f.c, b);
	b = fake_add(&f, ENT_THREAD, 2, RES_NONE, 0, 0, 0, FAKE_SPIN);
	schedcore_requests(&f.c, 5);
	CHECK(!f.c.ent[b].blocked);
	fake_free(&f);
}

TEST(schedcore_next_wakeup_is_the_earliest_sleeper_as_they_come_and_go)
{
	long a, b, c, d;

	fake_init(&f, "fprr", 0);
	a = fake_add(&f, ENT_THREAD, 1, RES_NONE, 0, 0, 0, FAKE_SPIN);
	b = fake_add(&f, ENT_THREAD, 2, RES_NONE, 0, 0, 0, FAKE_SPIN);
	c = fake_add(&f, ENT_THREAD, 3, RES_NONE, 0, 0, 0, FAKE_SPIN);
	d = fake_add(&f, ENT_THREAD, 4, RES_NONE, 0, 0, 0, FAKE_SPIN);
	schedcore_block(&f.c, a, 500, 0);
	schedcore_block(&f.c, b, 300, 0);
	schedcore_block(&f.c, c, 900, 0);
	schedcore_block(&f.c, d, 0, 0); /* until woken: no time */
	schedcore_choose(&f.c, &f.r, 0);
	CHECK_EQ(schedcore_next_wakeup(&f.c, 0, UINT64_MAX), 300);
	CHECK_EQ(schedcore_next_wakeup(&f.c, 0, 200), 200);
	schedcore_wake(&f.c, b, 10); /* woken early */
	schedcore_block(&f.c, b, 0, 10);
	CHECK_EQ(schedcore_next_wakeup(&f.c, 10, UINT64_MAX), 500);
	schedcore_remove(&f.c, a);
	CHECK_EQ(schedcore_next_wakeup(&f.c, 10, UINT64_MAX), 900);
	schedcore_timers(&f.c, 899);
	CHECK(f.c.ent[c].blocked);
	schedcore_timers(&f.c, 900);
	CHECK(!f.c.ent[c].blocked);
	CHECK(f.c.ent[d].blocked);
	schedcore_block(&f.c, c, 0, 900);
	CHECK_EQ(schedcore_next_wakeup(&f.c, 900, UINT64_MAX), UINT64_MAX);
	schedcore_block(&f.c, c, 950, 900); /* blocked already: nothing changes */
	CHECK_EQ(schedcore_next_wakeup(&f.c, 900, UINT64_MAX), UINT64_MAX);
	fake_free(&f);
}

/* A best-effort entity's published priority is worked out again only when it changes
 * (fresh): after a block, a wake or new parameters, never stale. */
/* Only decisions are put off to min_gap, and not when nothing runs; a sleeper is woken at
 * its time even just after a turn that dispatched something. */
TEST(schedcore_timer_puts_off_decisions_not_sleepers)
{
	long b;

	fake_init(&f, "fprr", 5);
	b = schedcore_add(&f.c, &f.r, ENT_THREAD, 21, &best_effort, 0, 0);
	CHECK(b >= 0); /* alone on its level, best effort: the policy has nothing to decide */
	CHECK_EQ(schedcore_choose(&f.c, &f.r, 1000), b); /* and the idle watch is unset */
	/* a decision of our own, closer than min_gap: put off, unless we dispatched nothing */
	CHECK_EQ(schedcore_timer(&f.c, 1000, 1000 + MIN_GAP / 4, 1000, 0), 1000 + MIN_GAP);
	CHECK_EQ(schedcore_timer(&f.c, 1000, 1000 + MIN_GAP / 4, 1000, 1), 1000 + MIN_GAP / 4);
	/* already passed: at once would be a turn after turn, idle or not */
	CHECK_EQ(schedcore_timer(&f.c, 1000, 900, 1000, 1), 1000 + MIN_GAP);
	/* a sleeper: at its time, whatever runs */
	schedcore_block(&f.c, b, 1000 + MIN_GAP / 2, 1000);
	CHECK_EQ(schedcore_timer(&f.c, 1000, UINT64_MAX, 1000, 0), 1000 + MIN_GAP / 2);
	CHECK_EQ(schedcore_timer(&f.c, 1000, 1000 + MIN_GAP / 4, 1000, 0), 1000 + MIN_GAP / 2);
	fake_free(&f);
}

TEST(schedcore_best_effort_priority_follows_block_wake_and_new_params)
{
	long a, k;

	fake_init(&f, "fprr", 5);
	a = fake_add(&f, ENT_THREAD, 4, RES_NONE, 0, 0, 0, FAKE_SPIN);
	k = fake_add(&f, ENT_CHILD, 6, RES_NONE, 0, 0, 0, FAKE_SPIN);
	fake_add(&f, ENT_THREAD, 3, RES_HARD, RES_SERVER_DEFAULT, 2, 10, FAKE_SPIN);
	for (int i = 0; i < 3; i++) { /* the same answers, whether worked out or kept */
		schedcore_choose(&f.c, &f.r, (uint64_t) i);
		CHECK_EQ(published(a), pol_publish(4));
		CHECK_EQ(published(k), pol_publish(6));
	}
	schedcore_block(&f.c, a, 0, 3);
	schedcore_block(&f.c, k, 0, 3);
	schedcore_choose(&f.c, &f.r, 3);
	CHECK_EQ(published(a), HR_PRIO_IDLE);
	CHECK_EQ(published(k), pol_publish(6)); /* an idle child keeps its priority */
	schedcore_wake(&f.c, a, 4);
	schedcore_choose(&f.c, &f.r, 4);
	CHECK_EQ(published(a), pol_publish(4));
	f.c.ent[a].param_new = (struct pol_param){ .prio = 7, .kind = RES_NONE };
	schedcore_apply_param(&f.c, a, 5);
	schedcore_choose(&f.c, &f.r, 5);
	CHECK_EQ(published(a), pol_publish(7));
	/* a server now: published from its budget, idle once it is spent */
	f.c.ent[a].param_new =
		(struct pol_param){ .prio = 1, .kind = RES_HARD, .budget = T, .period = 10 * T };
	schedcore_apply_param(&f.c, a, 6);
	CHECK_EQ(schedcore_choose(&f.c, &f.r, 6), a);
	CHECK_EQ(published(a), pol_publish(1));
	schedcore_charge(&f.c, &f.r, 6); /* nothing yet */
	f.r.slot[f.t[a].tid].consumed += T;
	schedcore_charge(&f.c, &f.r, 6 + T);
	schedcore_choose(&f.c, &f.r, 6 + T);
	CHECK_EQ(published(a), HR_PRIO_IDLE);
	fake_free(&f);
}

/* ---- randomized: random admitted sets, random sleeps and wakes, millions of ticks ---- */

#define RND_SERVERS 6
#define RND_SPAN    (400000ull * T) /* ticks per run: x 3 policies x RND_SEEDS */
#define RND_SEEDS   5

/*
 * Tolerance of the guarantee, per period: 2 * min_gap.  The core resolves time no finer
 * than min_gap: a server may forfeit a remainder below min_gap (once per period: it is then
 * out of budget), and a turn the core wanted sooner than min_gap from the last one is put
 * off to min_gap (schedcore_arm_time), so a replenishment or a wake-up may be acted on up
 * to min_gap late.  The response-time analysis knows neither.
 */
#define RND_TOL (2 * MIN_GAP)

static uint64_t rng;

static uint64_t
rnd(uint64_t lo, uint64_t hi) /* lo .. hi inclusive */
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return lo + rng % (hi - lo + 1);
}

static struct admit_res set[RND_SERVERS];
static long ids[RND_SERVERS];
static uint32_t server_of[RND_SERVERS];

/* A set admit_cpu accepts: hard, deferrable and soft servers, each with a random server
 * where the policy has a choice, prioritized by period. */
static void
random_set(const char *policy)
{
	char why[128];

	do {
		for (unsigned i = 0; i < RND_SERVERS; i++) {
			uint32_t period = (uint32_t) rnd(5, 80), kind = (uint32_t) rnd(1, 3);
			uint32_t server =
				kind == RES_DEFERRABLE ? RES_SERVER_DEFAULT : (uint32_t) rnd(0, 2);
			if (!strcmp(policy, "edf") && server == RES_SERVER_SPORADIC)
				server = RES_SERVER_DEFERRABLE;
			set[i] = (struct admit_res){ kind, (uint32_t) rnd(1, period / 3 + 1),
						     period, period, server };
		}
	} while (admit_cpu(policy, set, RND_SERVERS, (struct admit_supply){ 1, 1 }, why,
			   sizeof(why)));
	for (unsigned i = 0; i < RND_SERVERS; i++)
		server_of[i] = admit_server(policy, set[i].kind, set[i].server, why, sizeof(why));
}

/* Half the servers spin; the others work and stop (sleep or block) for random times. */
static void
random_stop(struct fake *g, long id)
{
	uint64_t p = g->c.ent[id].param.period;

	g->t[id].pause = rnd(p / 10, 2 * p);
	g->t[id].next_work = rnd(p / 5, 3 * p);
	g->t[id].block = (uint8_t) rnd(0, 1);
}

static void
random_run(const char *policy)
{
	fake_init(&f, policy, 5);
	f.on_stop = random_stop;
	for (unsigned i = 0; i < RND_SERVERS; i++) {
		uint64_t p = set[i].period * T;
		/* a third are children: idle ones keep their priority, and their own timer
		 * runs them without a turn of ours (fakecpu.h) */
		ids[i] = fake_add(&f, rnd(0, 2) ? ENT_THREAD : ENT_CHILD, set[i].prio, set[i].kind,
				  set[i].server, set[i].budget, set[i].period,
				  rnd(0, 1) ? FAKE_SPIN : rnd(1, 3 * p));
	}
	fake_add(&f, ENT_THREAD, 1000, RES_NONE, 0, 0, 0, FAKE_SPIN); /* takes the slack */
	fake_start(&f);
	fake_run(&f, RND_SPAN);
}

/* Most time entity id ran in any window of w starting when one of its runs starts. */
static uint64_t
max_window(long id, uint64_t w)
{
	const struct trace *t = &f.t[id].ran;
	uint64_t most = 0;

	for (size_t i = 0; i < t->n; i++) {
		uint64_t got = fake_ran(&f, id, t->s[i].a, t->s[i].a + w);
		most = got > most ? got : most;
	}
	return most;
}

/*
 * In each period of the grid: no more than the budget (but a soft server, which takes
 * slack), and within RND_TOL of it when it wanted to run throughout.
 *
 * Not when a child's own timer took the CPU from it in this period or the one before: the
 * core learns what an entity used only as a total at its next turn (the region's
 * `consumed`) and charges it as ending then (schedcore_charge), but this one stopped when
 * the child took over.  A run that crossed a period boundary is then charged to the new
 * period in full, which can cost a deferrable server up to what it ran before the boundary
 * (seen: 1984 of 11000 TSC under ds).  A limit of the region's interface, not of the core.
 */
static uint64_t robbed_periods;

static void
grid_check(unsigned i, uint64_t *worst)
{
	uint64_t p = set[i].period * T, b = set[i].budget * T;

	for (uint64_t a = 0; a + p <= RND_SPAN && !check_failed_now; a += p) {
		uint64_t got = fake_ran(&f, ids[i], a, a + p);
		if (set[i].kind != RES_SOFT)
			CHECK(got <= b);
		if (fake_off(&f, ids[i], a, a + p))
			continue;
		if (fake_robbed(&f, ids[i], a > p ? a - p : 0, a + p)) {
			robbed_periods++;
			continue;
		}
		CHECK(got + RND_TOL >= b);
		if (got < b && b - got > *worst)
			*worst = b - got;
	}
}

static void
random_check(const char *policy)
{
	uint64_t worst = 0, quiet = 0, idled_with = 0;

	robbed_periods = 0;
	for (unsigned seed = 1; seed <= RND_SEEDS && !check_failed_now; seed++) {
		rng = 0x9e3779b97f4a7c15ull * seed;
		random_set(policy);
		random_run(policy);
		quiet += f.quiet;
		idled_with += f.idled_with;
		for (unsigned i = 0; i < RND_SERVERS; i++) {
			uint64_t p = set[i].period * T, b = set[i].budget * T;
			if (server_of[i] == RES_SERVER_SPORADIC && set[i].kind != RES_SOFT) {
				/* its budget comes back a period after its activation: a run
				 * held up may be followed by the next at once, as a periodic
				 * task's late job by the next; one that never stops keeps its
				 * grid, and gets its budget in every period of it */
				CHECK(max_window(ids[i], p) <= 2 * b);
				if (f.t[ids[i]].work == FAKE_SPIN)
					grid_check(i, &worst);
			} else if (!strcmp(policy, "edf") && set[i].kind != RES_SOFT) {
				/*
				 * A constant-bandwidth server restarts its period on a wake-up,
				 * so its own books say which periods it missed.  A window of a
				 * period holds at most: the end of one grid period (budget), what
				 * it used between restarts (a restart needs what is left to
				 * exceed its rate to the deadline, so it used no more than its
				 * rate since the last one: budget over the window), and the
				 * budget of its last restart.  Not 2 * budget: a run of 323 before
				 * a sleep and a restart on waking gave 2.16 * budget (seed 2).
				 */
				if (!f.t[ids[i]].robbed.n) /* (grid_check: why) */
					CHECK_EQ(schedcore_misses(&f.c, ids[i]), 0);
				CHECK(max_window(ids[i], p) <= 3 * b);
			} else if (server_of[i] == RES_SERVER_DEFERRABLE && strcmp(policy, "edf"))
				grid_check(i, &worst);
		}
		fake_free(&f);
	}
	printf("    %s: worst shortfall %llu of tolerance %llu (TSC), %llu quiet wake-ups, %llu "
	       "idles without a turn, %llu periods unchecked after one\n",
	       policy, (unsigned long long) worst, (unsigned long long) RND_TOL,
	       (unsigned long long) quiet, (unsigned long long) idled_with,
	       (unsigned long long) robbed_periods);
}

TEST(schedcore_random_fprr_servers_get_their_budget_and_no_more)
{
	random_check("fprr");
}

TEST(schedcore_random_ds_servers_get_their_budget_and_no_more)
{
	random_check("ds");
}

TEST(schedcore_random_edf_servers_get_their_budget_and_no_more)
{
	random_check("edf");
}

/* ---- a turn's short cuts against the plain loops they stand for ---- */

static struct fake twin; /* the same entities and history, turned by the plain loops */

/* schedcore_timers as one loop: each due sleeper woken alone, lowest id first. */
static void
timers_one_by_one(struct schedcore *c, uint64_t now)
{
	POL_FOR_EACH(id, c->sleeping)
	if (c->ent[id].wake_at <= now)
		schedcore_wake(c, (long) id, now);
}

/* schedcore_charge as one loop: each account that moved charged alone, lowest id first. */
static void
charge_one_by_one(struct schedcore *c, const struct hr_sched_region *r, uint64_t now)
{
	SCHEDCORE_FOR_EACH(id, c)
	{
		uint64_t k = r->slot[c->ent[id].tid].consumed;
		if (k == c->ent[id].seen)
			continue;
		c->pol->charge(c->state, (uint32_t) id, k - c->ent[id].seen, now);
		c->ent[id].seen = k;
	}
}

/* The same random entities in f and twin: best effort and servers of every kind. */
static void
twins_add(const char *policy)
{
	unsigned n = (unsigned) rnd(1, 24);
	uint64_t slice = rnd(0, 3);

	fake_init(&f, policy, slice);
	fake_init(&twin, policy, slice);
	for (unsigned i = 0; i < n; i++) {
		uint64_t period = rnd(5, 40) * T;
		struct pol_param p = { .prio = (uint32_t) rnd(1, 12),
				       .kind = (uint32_t) rnd(0, 3),
				       .budget = rnd(1, period / 2),
				       .period = period,
				       .server = (uint32_t) rnd(0, 2) };
		uint32_t tid = 2 + (uint32_t) rnd(0, 40); /* a thread may carry two */
		enum ent_kind kind = rnd(0, 2) ? ENT_THREAD : ENT_CHILD;
		CHECK_EQ(schedcore_add(&f.c, &f.r, kind, tid, &p, 0, 0),
			 schedcore_add(&twin.c, &twin.r, kind, tid, &p, 0, 0));
	}
	schedcore_start_periods(&f.c, 0);
	schedcore_start_periods(&twin.c, 0);
}

/* Thread tid ran: its account moves the same in both. */
static void
twins_ran(uint32_t tid)
{
	uint64_t used = rnd(1, 2 * T);

	f.r.slot[tid].consumed += used;
	twin.r.slot[tid].consumed += used;
}

/* A random step at now, the same in both: one account moves (as on most turns) or several
 * do, and entities sleep, block and wake. */
static void
twins_step(uint64_t now)
{
	uint64_t one = rnd(0, POL_MAX - 1), many = !rnd(0, 3);

	if (f.c.used & (1ull << one))
		twins_ran(f.c.ent[one].tid);
	SCHEDCORE_FOR_EACH(id, &f.c)
	{
		uint64_t r = rnd(0, 9);
		if (r < 3 && many) {
			twins_ran(f.c.ent[id].tid);
		} else if (r == 3) {
			uint64_t at = rnd(0, 3) ? now + rnd(0, 4 * T) : 0;
			schedcore_block(&f.c, (long) id, at, now);
			schedcore_block(&twin.c, (long) id, at, now);
		} else if (r == 4) {
			schedcore_wake(&f.c, (long) id, now);
			schedcore_wake(&twin.c, (long) id, now);
		}
	}
}

/* Waking every due sleeper at once (one search for the earliest left) and charging the
 * one account that moved by a tail call leave the core exactly as the plain loops do:
 * the same policy state, sleepers, earliest and masks, byte for byte. */
TEST(schedcore_random_timers_and_charges_match_the_plain_loops)
{
	FOR_EACH_POLICY(pol)
	for (unsigned seed = 1; seed <= 20 && !check_failed_now; seed++) {
		uint64_t now = 0;

		rng = 0x2545f4914f6cdd1dull * seed;
		twins_add(*pol);
		for (int i = 0; i < 2000 && !check_failed_now; i++) {
			now += rnd(1, 3 * T);
			twins_step(now);
			schedcore_charge(&f.c, &f.r, now);
			charge_one_by_one(&twin.c, &twin.r, now);
			schedcore_timers(&f.c, now);
			timers_one_by_one(&twin.c, now);
			CHECK_EQ(f.c.sleep_next, twin.c.sleep_next);
			CHECK(!memcmp(&f.c, &twin.c, sizeof(f.c)));
		}
		fake_free(&f);
		fake_free(&twin);
	}
}
