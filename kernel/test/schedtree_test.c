/*
 * schedtree_test.c - the armed-timer list of kernel/schedtree.c: a scheduler is on it exactly
 * while its timer is armed, a tick fires the due ones (and only those) and sets the
 * deadline to the earliest of the rest.  The clock is the host's TSC: "due" is a TSC of 1..3,
 * "not due" one far in the future.  Also which levels a switch charges, and who hears that a
 * scheduler below an idle parent woke (wake_up).
 */
#include "check.h"
#include "schedtree.h"
#include "comp.h"
#include "thd.h"
#include "ptq.h"
#include "syscall.h"
#include "trace.h"
#include "trap.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- what schedtree.c needs from the rest of the kernel ------------------------------------ */

int kdebug;
struct comp comps[HR_COMP_MAX];
struct thd thds[HR_THD_MAX];
struct thd *cur;

static uint64_t deadline; /* the last hw_deadline_set */
static unsigned deadline_sets;

void
hw_deadline_set(uint64_t tsc)
{
	deadline = tsc;
	deadline_sets++;
}

void
kprintf(const char *fmt, ...)
{
	(void) fmt;
}

/* no scheduler in these tests has an event thread, a region mapping or a child */
struct comp *
comp_from_cap(struct comp *self, uint64_t slot)
{
	(void) self, (void) slot;
	abort();
}
uint64_t *
pt_entry(uint64_t pgtbl, uint64_t va, struct pt_budget *b)
{
	(void) pgtbl, (void) va, (void) b;
	abort();
}
uint64_t
pt_make(uint64_t pa, unsigned perms)
{
	(void) pa, (void) perms;
	abort();
}
void
pt_map(uint64_t pgtbl, uint64_t va, uint64_t *e, uint64_t pte)
{
	(void) pgtbl, (void) va, (void) e, (void) pte;
	abort();
}
unsigned
pt_missing(uint64_t pgtbl, uint64_t va)
{
	(void) pgtbl, (void) va;
	abort();
}
uint64_t *
pt_shadow(uint64_t *e)
{
	(void) e;
	abort();
}
/* the test's schedulers have no page tables: unmaking one unmaps nothing */
unsigned
pt_unmap(uint64_t pgtbl, uint64_t va)
{
	(void) pgtbl, (void) va;
	return 0;
}
struct pt_budget
ptq_budget(const struct comp *c)
{
	(void) c;
	abort();
}
void
ptq_charge(struct comp *c, unsigned n)
{
	(void) c, (void) n;
	abort();
}
void
ptq_refund(struct comp *c, unsigned n)
{
	(void) c;
	if (n)
		abort();
}
/* kernel/trace.c with tracing off: the hooks name the functions themselves */
uint8_t trace_on;
void (*trace_activate)(struct comp *s) = schedtree_activate;
void (*trace_wake_up)(struct comp *s) = schedtree_wake_up;
int (*trace_kev_put)(struct kev_q *q, struct hr_sched_region *r, struct hr_kevent ev) = kev_put;
int (*trace_kev_notice)(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n,
			uint16_t type, uint16_t comp) = kev_notice;

/* the wake-up tests dispatch: t runs now (the timer tests never get here) */
void
thd_dispatch(struct thd *t, int from_level)
{
	schedtree_account(cur, t, from_level);
	cur = t;
}
void
thd_free(struct thd *t)
{
	(void) t;
	abort();
}
/* the wake-up tests' threads by id (wtree), for sched_hold */
static struct thd *wthd(uint64_t id);
struct thd *
thd_lookup(uint64_t id)
{
	return wthd(id);
}
long
thd_prepare_unwind(struct thd *t)
{
	(void) t;
	return 0; /* every thread's component lives: thd_prepare's check says so first */
}
/* the idle tests: where the CPU went once no thread was dispatched (NULL: it idles) */
static jmp_buf resched_jb;
static struct comp *resched_from;
_Noreturn void
thd_reschedule(struct comp *s)
{
	resched_from = s;
	longjmp(resched_jb, 1);
}
void
thd_stop(void)
{
	cur = 0;
}
/* kernel/trap.c's preemption points: an interrupt is pending from point number irq_at on
 * (0: never); trap_drain handles it with irq_work */
static unsigned points, irq_at, drained;
static void (*irq_work)(void);
int
trap_point(void)
{
	points++;
	return irq_at && points >= irq_at;
}
void
trap_drain(void)
{
	if (!irq_at || points < irq_at)
		return;
	irq_at = 0;
	drained++;
	irq_work();
}

/* ---- helpers ------------------------------------------------------------------------------ */

#define FAR (UINT64_MAX / 2) /* a TSC no test lives to see */
#define NS  6

static struct comp *s[NS];
static struct thd t[NS];

/* NS top-level schedulers, none armed, none with events pending */
static void
setup(void)
{
	for (int i = 0; i < NS; i++) {
		s[i] = &comps[i + 1];
		if (s[i]->wake_at)
			CHECK_EQ(sys_timer_next(&t[i], 0), 0);
		s[i]->id = (uint16_t) (i + 1);
		s[i]->state = COMP_LIVE;
		s[i]->is_sched = 1;
		s[i]->evt_pending = 0;
		t[i].comp = s[i];
	}
}

static void
arm(int i, uint64_t at)
{
	CHECK_EQ(sys_timer_next(&t[i], at), 0);
}

/* Walk the list from one armed scheduler to both ends: how many are on it, checking every
 * link is mirrored and every one on it is armed (and that it ends). */
static int
list_len(int from)
{
	struct comp *head = s[from], *c;
	int n = 0, up = 0;

	while (head->armed_prev && up++ <= NS) { /* bounded: a broken list may be a loop */
		CHECK(head->armed_prev->armed_next == head);
		head = head->armed_prev;
	}
	for (c = head; c && n <= NS; c = c->armed_next) {
		CHECK(c->wake_at);
		CHECK(!c->armed_next || c->armed_next->armed_prev == c);
		n++;
	}
	CHECK(up <= NS && n <= NS);
	return n;
}

static int
linked(int i)
{
	return s[i]->armed_next || s[i]->armed_prev;
}

/* ---- tests ---------------------------------------------------------------------------------- */

TEST(tick_fires_the_due_timers_only)
{
	setup();
	arm(0, 1);
	arm(1, FAR + 5);
	arm(2, 2);
	arm(3, FAR + 3);
	CHECK_EQ(list_len(0), 4);
	schedtree_tick();
	CHECK(s[0]->evt_pending && s[2]->evt_pending);
	CHECK(!s[1]->evt_pending && !s[3]->evt_pending);
	CHECK(!s[0]->wake_at && !s[2]->wake_at && !linked(0) && !linked(2));
	CHECK_EQ(list_len(1), 2);
	CHECK_EQ(deadline, FAR + 3); /* the earliest left */
	arm(1, 0);
	arm(3, 0);
}

TEST(disarming_the_middle_keeps_the_rest_linked)
{
	setup();
	arm(0, FAR + 1);
	arm(1, FAR + 2);
	arm(2, FAR + 3);
	arm(1, 0);
	CHECK(!linked(1));
	CHECK_EQ(list_len(0), 2);
	CHECK_EQ(list_len(2), 2);
	arm(0, 0); /* the tail */
	CHECK_EQ(list_len(2), 1);
	arm(2, 0); /* the last: the list is empty */
	CHECK(!linked(2));
	arm(4, 1);
	CHECK_EQ(list_len(4), 1); /* nothing stale left on it */
	schedtree_tick();
	CHECK(s[4]->evt_pending);
	CHECK(!s[0]->evt_pending && !s[1]->evt_pending && !s[2]->evt_pending);
}

TEST(rearming_moves_the_timer_without_a_second_entry)
{
	setup();
	arm(0, FAR + 7);
	arm(1, FAR + 8);
	arm(0, 1);
	CHECK_EQ(list_len(0), 2);
	schedtree_tick();
	CHECK(s[0]->evt_pending && !s[1]->evt_pending);
	CHECK_EQ(list_len(1), 1);
	CHECK_EQ(deadline, FAR + 8);
	arm(1, 0);
}

TEST(a_tick_with_nothing_armed_due_clears_the_deadline)
{
	setup();
	arm(5, 3);
	schedtree_tick();
	CHECK(s[5]->evt_pending && !linked(5));
	CHECK_EQ(deadline, 0);
	unsigned sets = deadline_sets;
	schedtree_tick(); /* nothing due before UINT64_MAX: no work, no deadline */
	CHECK_EQ(deadline_sets, sets);
}

TEST(timer_next_from_a_non_scheduler_is_refused_and_arms_nothing)
{
	setup();
	s[0]->is_sched = 0;
	CHECK_EQ(sys_timer_next(&t[0], 1), HR_EPERM);
	CHECK(!s[0]->wake_at && !linked(0));
	s[0]->is_sched = 1;
}

/* ---- accounting: which levels a switch charges (diverge) ---------------------------------- */

static struct hr_sched_region reg[4];
static struct thd cs1, cs2, ta, tb, tc;

/*
 * root R (depth 0) with child schedulers C1 and C2 (depth 1), which R sees as their c^s
 * cs1 and cs2; ta and tb are C1's threads, tc is C2's.
 */
static void
tree(void)
{
	struct comp *r = &comps[10], *c1 = &comps[11], *c2 = &comps[12];

	schedtree_catch_up(); /* nothing behind from the test before */
	memset(reg, 0, sizeof(reg));
	for (int i = 0; i < 3; i++) {
		comps[10 + i] = (struct comp){ .id = (uint16_t) (10 + i),
					       .state = COMP_LIVE,
					       .up_slot = &schedtree_nobody }; /* as comp_new */
		comps[10 + i].is_sched = 1;
		comps[10 + i].region = &reg[i];
	}
	c1->depth = c2->depth = 1;
	c1->parent = c2->parent = r;
	schedtree_path(r, 0);
	schedtree_path(c1, r);
	schedtree_path(c2, r);
	c1->cs = &cs1;
	c2->cs = &cs2;
	cs1 = (struct thd){ .id = 1, .chain = { r } };
	cs2 = (struct thd){ .id = 2, .chain = { r } };
	c1->up_slot = &reg[0].slot[cs1.id]; /* as schedtree_make sets it */
	c2->up_slot = &reg[0].slot[cs2.id];
	ta = (struct thd){ .id = 3, .depth = 1, .chain = { r, c1 } };
	tb = (struct thd){ .id = 4, .depth = 1, .chain = { r, c1 } };
	tc = (struct thd){ .id = 5, .depth = 1, .chain = { r, c2 } };
}

/* Charge from's time by switching from it to `to`, at the switching scheduler's level. */
static void
charge(struct thd *from, struct thd *to, int level)
{
	uint64_t t0;

	schedtree_account(0, from, 0); /* from runs: every level opens now */
	memset(reg, 0, sizeof(reg));
	for (t0 = hw_tsc(); hw_tsc() == t0;)
		; /* some time passes: a charged level's consumed grows */
	schedtree_account(from, to, level);
	schedtree_catch_up(); /* what the regions say once a thread runs where they are read */
}

TEST(switch_inside_a_subsystem_charges_only_its_level)
{
	tree();
	charge(&ta, &tb, 1);
	CHECK(reg[1].slot[ta.id].consumed);	   /* C1 charges ta */
	CHECK_EQ(reg[0].slot[cs1.id].consumed, 0); /* R still sees C1 running */
	charge(&ta, &tb, 0);			   /* R's switch between C1's threads: the same */
	CHECK(reg[1].slot[ta.id].consumed);
	CHECK_EQ(reg[0].slot[cs1.id].consumed, 0);
}

TEST(switch_across_subsystems_charges_every_level)
{
	tree();
	charge(&ta, &tc, 0);
	CHECK(reg[1].slot[ta.id].consumed);
	CHECK(reg[0].slot[cs1.id].consumed);
	CHECK_EQ(reg[2].slot[tc.id].consumed, 0);
	/* a level above where the chains differ is no level both know equal: still all */
	charge(&ta, &tc, 1);
	CHECK(reg[0].slot[cs1.id].consumed);
}

TEST(switch_to_the_childs_cs_leaves_the_parent_charging_it)
{
	tree();
	/* R switches from C1's thread to C1's own c^s: R charges cs1 either way */
	charge(&ta, &cs1, 0);
	CHECK(reg[1].slot[ta.id].consumed);
	CHECK_EQ(reg[0].slot[cs1.id].consumed, 0);
}

/* Which slots a charge touched, as a bit per (region, slot) in out (3 regions). */
static void
charged(uint8_t out[3][HR_THD_MAX])
{
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < HR_THD_MAX; i++)
			out[r][i] = reg[r].slot[i].consumed != 0;
}

/* Switch from -> to with the general accounting or the fast paths' (down), then back: the
 * slots charged each way. */
static void
there_and_back(struct thd *from, struct thd *to, int k, int down, uint8_t there[3][HR_THD_MAX],
	       uint8_t back[3][HR_THD_MAX])
{
	uint64_t t0;

	schedtree_account(0, from, 0);
	memset(reg, 0, sizeof(reg));
	for (t0 = hw_tsc(); hw_tsc() == t0;)
		;
	if (down)
		schedtree_account_down(from, from->chain[k], to, k);
	else
		schedtree_account(from, to, k);
	schedtree_catch_up(); /* as charge does */
	charged(there);
	memset(reg, 0, sizeof(reg));
	for (t0 = hw_tsc(); hw_tsc() == t0;)
		;
	schedtree_account(to, from, 0); /* what to's switch opened, closed */
	schedtree_catch_up();
	charged(back);
}

TEST(account_down_charges_and_opens_what_account_does)
{
	static uint8_t a[2][3][HR_THD_MAX], b[2][3][HR_THD_MAX];
	/* R's own threads (in the kernel a c^s has its child's depth, so cs1 is not one) */
	static struct thd r1, r2;
	struct {
		struct thd *from, *to;
		int k;
	} cases[] = {
		{ &ta, &tb, 1 }, /* C1 between its own threads */
		{ &r1, &ta, 0 }, /* R from its own thread to one of C1's */
		{ &r1, &r2, 0 }, /* R between its own threads */
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tree();
		r1 = (struct thd){ .id = 6, .chain = { &comps[10] } };
		r2 = (struct thd){ .id = 7, .chain = { &comps[10] } };
		there_and_back(cases[i].from, cases[i].to, cases[i].k, 0, a[0], a[1]);
		tree();
		r1 = (struct thd){ .id = 6, .chain = { &comps[10] } };
		r2 = (struct thd){ .id = 7, .chain = { &comps[10] } };
		there_and_back(cases[i].from, cases[i].to, cases[i].k, 1, b[0], b[1]);
		CHECK(!memcmp(a, b, sizeof(a)));
		CHECK(a[0][cases[i].k][cases[i].from->id]); /* from was charged at all */
		/* every level it opened, it opened at once: closed together, each charged alike */
		if (cases[i].to->depth > cases[i].k)
			CHECK_EQ(reg[cases[i].k]
					 .slot[schedtree_rep(cases[i].to, cases[i].k)]
					 .consumed,
				 reg[cases[i].k + 1].slot[cases[i].to->id].consumed);
	}
}

/* A chain of 12 schedulers (40..51, depth 0..11) that forks at depth 10 into 50 and 52;
 * xa is 51's (depth 11), xb is 52's (depth 10); csa, csb, csc are the c^s of 50, 51, 52.
 * Past the first eight levels the parting is found in the path's second word. */
static struct hr_sched_region dreg[13];
static struct thd xa, xb, csa, csb, csc;

static void
deep_tree(void)
{
	struct comp *c = &comps[40];

	schedtree_catch_up(); /* nothing behind from the test before */
	memset(dreg, 0, sizeof(dreg));
	for (int i = 0; i <= 12; i++) {
		c[i] = (struct comp){ .id = (uint16_t) (40 + i),
				      .state = COMP_LIVE,
				      .is_sched = 1,
				      .up_slot = &schedtree_nobody }; /* no c^s yet */
		c[i].region = &dreg[i];
		c[i].depth = (uint8_t) (i == 12 ? 10 : i);
		c[i].parent = i == 0 ? 0 : &c[i == 12 ? 9 : i - 1];
		schedtree_path(&c[i], c[i].parent);
	}
	xa = (struct thd){ .id = 7, .depth = 11 };
	xb = (struct thd){ .id = 8, .depth = 10 };
	for (int i = 0; i <= 11; i++)
		xa.chain[i] = &c[i];
	for (int i = 0; i <= 10; i++)
		xb.chain[i] = &c[i == 10 ? 12 : i];
	csa = (struct thd){ .id = 9 };
	csb = (struct thd){ .id = 10 };
	csc = (struct thd){ .id = 11 };
	c[10].cs = &csa;
	c[11].cs = &csb;
	c[12].cs = &csc;
	for (int i = 10; i <= 12; i++) /* as schedtree_make sets it */
		c[i].up_slot = &c[i].parent->region->slot[c[i].cs->id];
}

/* Let the TSC move on: the next switch's time differs from the last. */
static void
tick_over(void)
{
	for (uint64_t t0 = hw_tsc(); hw_tsc() == t0;)
		;
}

TEST(threads_parting_deep_are_charged_from_where_they_part)
{
	deep_tree();
	schedtree_account(0, &xa, 0);
	tick_over();
	schedtree_account(&xa, &xb, 0);
	CHECK(comps[50].behind);     /* xa's level 10, what 50 sees of 51 */
	schedtree_catch_up();	     /* as a thread about to run in 50 would */
	for (int i = 0; i <= 8; i++) /* charged alike down to depth 8 */
		for (int k = 0; k < HR_THD_MAX; k++)
			CHECK_EQ(dreg[i].slot[k].consumed, 0);
	CHECK(dreg[9].slot[csa.id].consumed); /* 49 charges 50's c^s, not 52's */
	CHECK_EQ(dreg[9].slot[csc.id].consumed, 0);
	CHECK(dreg[10].slot[csb.id].consumed);
	CHECK(dreg[11].slot[xa.id].consumed);
}

/* Opening level k stamps it and every level below it at once, and leaves the levels above
 * it as they were: what each level reads after a run of openings, one stamp each. */
TEST(an_opening_stamps_its_level_and_every_one_below_and_keeps_those_above)
{
	static const struct {
		int k;
		uint64_t at;
	} runs[] = { { 0, 100 },  { 5, 200 }, { 9, 300 }, { 3, 400 },
		     { 16, 500 }, { 9, 600 }, { 0, 700 } };
	uint64_t want[HR_DEPTH_MAX + 1];

	for (unsigned r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		schedtree_open(runs[r].k, runs[r].at);
		for (int i = runs[r].k; i <= HR_DEPTH_MAX; i++)
			want[i] = runs[r].at;
		for (int i = 0; i <= HR_DEPTH_MAX; i++)
			CHECK_EQ(schedtree_opened(i), want[i]);
	}
}

/* xa runs, xb from t1 (parting at 9), xa again from t2: xa's levels 0 .. 8 opened at the
 * first dispatch, 9 .. 11 at t2 */
static void
xa_back_from_xb(uint64_t *t1, uint64_t *t2)
{
	deep_tree();
	schedtree_account(0, &xa, 0);
	tick_over();
	schedtree_account(&xa, &xb, 0);
	*t1 = schedtree_opened(9);
	CHECK_EQ(schedtree_opened(8), schedtree_opened(0)); /* the first dispatch's */
	CHECK(*t1 > schedtree_opened(8));
	tick_over();
	schedtree_account(&xb, &xa, 0);
	*t2 = schedtree_opened(9);
	CHECK_EQ(dreg[9].slot[csc.id].consumed, *t2 - *t1); /* xb ran from t1 to t2 */
	CHECK_EQ(dreg[12].slot[xb.id].consumed, *t2 - *t1);
	tick_over();
}

/* xa runs, xb (parting at level 9) runs, xa again, then the CPU idles: every slot is charged
 * exactly the time its entity ran, levels 9 .. 11 each opened by a switch that parted at 9
 * while the levels above stayed open from the first dispatch. */
TEST(levels_opened_by_a_switch_deep_down_are_charged_from_that_switch_exactly)
{
	uint64_t t1, t2;

	xa_back_from_xb(&t1, &t2);
	schedtree_account(&xa, 0, 0);
	schedtree_catch_up(); /* xa's level 10 fell behind at the switch to xb */
	/* xa ran until t1 and from t2: alike at its three levels, and more than t2 - t1's
	 * share would be if a level had kept the first dispatch's stamp */
	CHECK_EQ(dreg[9].slot[csa.id].consumed, dreg[11].slot[xa.id].consumed);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, dreg[11].slot[xa.id].consumed);
	CHECK(dreg[11].slot[xa.id].consumed > t1 - schedtree_opened(0));
	CHECK_EQ(dreg[9].slot[csc.id].consumed, t2 - t1); /* closed once, not again */
	for (int i = 0; i <= 8; i++)
		for (int k = 0; k < HR_THD_MAX; k++)
			CHECK_EQ(dreg[i].slot[k].consumed, 0);
}

/* xa closes from level 0 (the CPU idles): levels 0 .. 8 opened together, 9 and 10 since.
 * Levels 1 .. 10 wait in one record, as levels that closed together do, and 9 and 10 are
 * written at once only with what they did not take (t2 less the first dispatch): a close
 * writes the levels below the first that opened apart, not every level (walktwo-dD, whose
 * thread at depth D + 1 its scheduler dispatched in a turn of its own, closed D levels at
 * 14 instructions each at every tick). */
TEST(levels_that_opened_together_above_ones_opened_since_wait_as_one_sum)
{
	uint64_t t1, t2;

	xa_back_from_xb(&t1, &t2);
	schedtree_account(&xa, 0, 0);
	for (int i = 1; i <= 10; i++)
		CHECK(xa.chain[i]->behind);
	CHECK(!xa.chain[11]->behind); /* xa waits: its own level written at once */
	schedtree_catch_up();
	CHECK_EQ(dreg[9].slot[csa.id].consumed, dreg[11].slot[xa.id].consumed);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, dreg[11].slot[xa.id].consumed);
	for (int i = 1; i <= 10; i++)
		CHECK(!xa.chain[i]->behind);
}

/* xa's levels 9 .. 11 open together (back from xb); a switch to xc, a thread of level
 * 10's own, and back opens 10 and 11 on their own: a close from level 9 then charges 9
 * from its opening and 10 and 11 from theirs, not all from the latest. */
TEST(a_close_charges_each_level_from_its_own_opening_when_they_opened_apart)
{
	static struct thd xc;
	uint64_t t2, t4, t5, was9, was10, was11;

	deep_tree();
	xc = (struct thd){ .id = 12, .depth = 10 };
	for (int i = 0; i <= 10; i++)
		xc.chain[i] = xa.chain[i];
	schedtree_account(0, &xa, 0);
	tick_over();
	schedtree_account(&xa, &xb, 0);
	tick_over();
	schedtree_account(&xb, &xa, 0);
	t2 = schedtree_opened(9);
	tick_over();
	schedtree_account(&xa, &xc, 0);
	tick_over();
	schedtree_account(&xc, &xa, 0);
	t4 = schedtree_opened(10);
	CHECK(schedtree_opened(9) == t2 && t4 > t2);
	was9 = dreg[9].slot[csa.id].consumed;
	was10 = dreg[10].slot[csb.id].consumed;
	was11 = dreg[11].slot[xa.id].consumed;
	tick_over();
	schedtree_account(&xa, &xb, 0); /* parts at 9, just above 10's opening */
	t5 = schedtree_opened(9);
	CHECK_EQ(dreg[9].slot[csa.id].consumed - was9, t5 - t2);
	CHECK_EQ(dreg[10].slot[csb.id].consumed - was10, t5 - t4);
	CHECK_EQ(dreg[11].slot[xa.id].consumed - was11, t5 - t4);
}

/* ---- levels behind: a thread preempted from far above ---------------------------------- */

/* xe: a thread of 48's own (depth 8), which preempts xa from level 8: xa's levels 8 .. 11
 * close together (opened by one dispatch), level 8's slot (49's up_slot, nobody's here) at
 * once, levels 9 and 10 (what 49 and 50 see of 50 and 51) and 11 (xa's own, in 51's
 * region) behind. */
static struct thd xe;

static void
preempt_tree(void)
{
	deep_tree();
	xe = (struct thd){ .id = 13, .depth = 8 };
	for (int i = 0; i <= 8; i++)
		xe.chain[i] = xa.chain[i];
	xa.state = HR_TS_READY; /* preempted, not waiting */
}

/* xa preempted by xe and resumed n times from one dispatch: what xa ran in all */
static uint64_t
preempt_xa(int n)
{
	uint64_t ran = 0, t0;

	schedtree_account(0, &xa, 0);
	for (int i = 0; i < n; i++) {
		t0 = schedtree_opened(8);
		tick_over();
		schedtree_account(&xa, &xe, 0);
		ran += schedtree_opened(8) - t0;
		tick_over();
		schedtree_account(&xe, &xa, 0);
	}
	return ran;
}

TEST(levels_that_close_together_below_the_preempting_level_wait_as_one_sum)
{
	uint64_t ran;

	preempt_tree();
	ran = preempt_xa(3);
	/* the two between and the owner, marked; the preempting level is not */
	CHECK(comps[49].behind && comps[50].behind && comps[51].behind);
	CHECK(!comps[48].behind);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, 0); /* no one can read them yet */
	CHECK_EQ(dreg[10].slot[csb.id].consumed, 0);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, 0);
	schedtree_catch_up(); /* a thread is about to run in 49, 50 or 51 */
	CHECK_EQ(dreg[9].slot[csa.id].consumed, ran);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran);
	CHECK(!comps[49].behind && !comps[50].behind && !comps[51].behind);
	schedtree_catch_up(); /* once only */
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran);
}

/* A thread that waits is closed from above too (the CPU idles: k is 0), but its owner may
 * well be the next to run: its own level goes to its slot at once, and the owner's
 * component is not marked. */
TEST(a_thread_that_waits_has_its_own_level_written_at_once)
{
	uint64_t ran;

	preempt_tree();
	xa.state = HR_TS_BLOCKED;
	ran = preempt_xa(2);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran);
	CHECK(comps[49].behind && comps[50].behind && !comps[51].behind);
	schedtree_catch_up();
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran);
}

/* xa waits while xe runs: its own level is written at once and the levels between fall
 * behind (a record down to level 10).  Preempted later (ready), xa falls behind from 8
 * again with its own level too: that level joins the record it has (51 marked with the
 * same bit), owed from there on only, rather than a second record from 8 that would
 * evict another (eval/walk.sh). */
TEST(a_thread_that_waits_and_then_is_preempted_keeps_one_record_its_own_level_joining)
{
	uint64_t ran, more;

	preempt_tree();
	xa.state = HR_TS_BLOCKED;
	ran = preempt_xa(1);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran); /* its own at once */
	CHECK(comps[50].behind == 1 && !comps[51].behind);
	xa.state = HR_TS_READY;
	more = preempt_xa(2);
	CHECK_EQ(comps[49].behind, 1); /* one record */
	CHECK_EQ(comps[51].behind, 1);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran); /* its own waits now */
	schedtree_catch_up();
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran + more);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, ran + more);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran + more);
	CHECK(!comps[49].behind && !comps[51].behind);
}

/* xd, 51's other thread: a switch between xa and xd reopens their own level only, so when xe
 * preempts xa the levels above close with the time since the dispatch from the root and
 * xa's own with the time since xd gave it the CPU; both wait, each as its own sum. */
TEST(a_thread_whose_own_level_reopened_falls_behind_with_two_sums)
{
	static struct thd xd;
	uint64_t t0, step, above = 0, own = 0, owed = 0, written;

	preempt_tree();
	xd = xa;
	xd.id = 14;
	schedtree_account(0, &xa, 0);
	for (int i = 0; i < 2; i++) {
		t0 = schedtree_opened(8);
		tick_over();
		schedtree_account(&xa, &xd, 0);
		tick_over();
		schedtree_account(&xd, &xa, 0);
		own = schedtree_opened(11);
		tick_over();
		schedtree_account(&xa, &xe, 0);
		step = schedtree_opened(8) - t0;
		above += step;
		own = schedtree_opened(8) - own;
		owed += own;
		CHECK(own < step); /* the two sums differ */
		CHECK(comps[51].behind);
		tick_over();
		schedtree_account(&xe, &xa, 0); /* xa again, all its levels opening at once */
	}
	written = dreg[11].slot[xa.id].consumed; /* its turns before xd's, at once (level 11) */
	schedtree_catch_up();
	CHECK_EQ(dreg[11].slot[xa.id].consumed - written, owed);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, above);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, above);
	CHECK(dreg[11].slot[xd.id].consumed);
	CHECK_EQ(dreg[11].slot[xa.id].consumed + dreg[11].slot[xd.id].consumed, above);
}

/* xa's owner (51) takes a turn between two of xe's preemptions: its level alone is caught
 * up, the others stay behind, and the next close marks it again, as it is owed again; once
 * all are caught up each level took what xa ran, its owner's not twice. */
TEST(a_level_caught_up_alone_is_marked_again_by_the_next_close)
{
	uint64_t ran, more;

	preempt_tree();
	ran = preempt_xa(1);
	schedtree_catch_up_in(&comps[51]);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran);
	CHECK(!comps[51].behind && comps[49].behind && comps[50].behind);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, 0);
	more = preempt_xa(2);
	CHECK(comps[51].behind);
	schedtree_catch_up_in(&comps[51]);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran + more);
	schedtree_catch_up_in(&comps[51]); /* nothing owed now: not marked, nothing paid */
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran + more);
	schedtree_catch_up();
	CHECK_EQ(dreg[9].slot[csa.id].consumed, ran + more);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran + more);
	CHECK_EQ(dreg[11].slot[xa.id].consumed, ran + more);
	CHECK(!comps[49].behind && !comps[50].behind && !comps[51].behind);
}

/* While xa's levels are behind, xb (52's, depth 10) runs from xe and is preempted by it
 * too: its levels 8 .. 10 close together, level 8 at once, and 9 and 10 fall behind in a
 * record of their own (bit 1: 49 bears both).  A thread about to run in 52 catches up xb's
 * level there; one about to run in 49 each record's level there, and xa's levels below
 * stay as they were. */
TEST(a_close_of_another_thread_falls_behind_in_a_record_of_its_own)
{
	preempt_tree();
	xb.state = HR_TS_READY;
	preempt_xa(1);
	tick_over();
	schedtree_account(&xa, &xe, 0); /* xa's second preemption: into the same sum */
	tick_over();
	schedtree_account(&xe, &xb, 0);
	tick_over();
	schedtree_account(&xb, &xe, 0);
	CHECK_EQ(comps[49].behind, 3);
	CHECK_EQ(comps[50].behind, 1);
	CHECK_EQ(comps[52].behind, 2);
	CHECK_EQ(dreg[12].slot[xb.id].consumed, 0);
	schedtree_catch_up_in(&comps[52]);
	CHECK(dreg[12].slot[xb.id].consumed);
	CHECK_EQ(comps[52].behind, 0);
	CHECK_EQ(comps[49].behind, 3); /* not entered: both records' still */
	CHECK_EQ(dreg[9].slot[csc.id].consumed, 0);
	schedtree_catch_up_in(&comps[49]);
	CHECK_EQ(dreg[9].slot[csc.id].consumed, dreg[12].slot[xb.id].consumed);
	CHECK(dreg[9].slot[csa.id].consumed);
	CHECK_EQ(comps[49].behind, 0);
	CHECK_EQ(comps[50].behind, 1); /* xa's level below, still */
	CHECK_EQ(dreg[10].slot[csb.id].consumed, 0);
	/* xa closes from level 9 (xb runs after it): not from where its levels fell behind,
	 * so into another record; caught up, every level took what xa ran */
	tick_over();
	schedtree_account(&xe, &xa, 0);
	tick_over();
	schedtree_account(&xa, &xb, 0);
	schedtree_catch_up();
	CHECK(dreg[9].slot[csa.id].consumed);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, dreg[11].slot[xa.id].consumed);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, dreg[11].slot[xa.id].consumed);
	CHECK(!comps[49].behind && !comps[50].behind && !comps[51].behind);
}

/* xa preempted from levels 8 - SCHEDTREE_BEHIND_MAX .. 7 in turn (by threads of the
 * schedulers there) takes every record; preempted from 8 next, one record is caught up
 * (its levels written) and taken for that close, and what the levels show once all are
 * caught up is all xa ran. */
TEST(with_every_record_taken_a_close_takes_one_in_turn)
{
	enum { N = SCHEDTREE_BEHIND_MAX, ALL = (1 << N) - 1 };
	static struct thd p[N], e51;
	uint64_t before;

	preempt_tree();
	schedtree_account(0, &xa, 0);
	for (int j = 8 - N; j < 8; j++) {
		struct thd *q = &p[j - (8 - N)];
		*q = (struct thd){ .id = (uint16_t) (20 + j), .depth = (uint8_t) j };
		for (int i = 0; i <= j; i++)
			q->chain[i] = xa.chain[i];
		tick_over();
		schedtree_account(&xa, q, 0);
		tick_over();
		schedtree_account(q, &xa, 0);
	}
	CHECK_EQ(comps[49].behind, ALL);
	before = dreg[9].slot[csa.id].consumed;
	tick_over();
	schedtree_account(&xa, &xe, 0);
	CHECK(dreg[9].slot[csa.id].consumed > before);	       /* written: a record was caught up */
	CHECK_EQ(comps[49].behind, ALL);		       /* and taken again, from 8 */
	CHECK_EQ(__builtin_popcount(comps[48].behind), N - 1); /* level 8: not from 8 */
	/* a frame for 51, every record another's: its levels are written, no record evicted */
	e51 = xa;
	e51.id = 16;
	comps[51].evt = &e51;
	before = dreg[10].slot[csb.id].consumed;
	schedtree_charge(&comps[51], 100);
	schedtree_owed_pay();
	CHECK_EQ(dreg[10].slot[csb.id].consumed, before + 100);
	CHECK_EQ(dreg[11].slot[e51.id].consumed, 100);
	CHECK_EQ(comps[49].behind, ALL);
	schedtree_catch_up();
	CHECK(!comps[45].behind && !comps[51].behind); /* every one caught up */
	CHECK_EQ(dreg[9].slot[csa.id].consumed, dreg[11].slot[xa.id].consumed + 100);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, dreg[11].slot[xa.id].consumed + 100);
}

/* A mark no record made (a kernel bug) is left for syscall_dispatch to report, and the
 * catch-up touches nothing, where it would have followed a free record's thread. */
TEST(a_mark_without_its_record_is_left_and_catches_up_nothing)
{
	preempt_tree();
	comps[50].behind = 4;
	schedtree_catch_up_in(&comps[50]);
	CHECK_EQ(comps[50].behind, 4);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, 0);
	comps[50].behind = 0;
}

/* A scheduler between goes (demoted, destroyed: schedtree_unmake) while xa's levels are
 * behind: they are caught up first, through the chain as it was. */
TEST(unmaking_a_scheduler_catches_up_the_levels_behind_first)
{
	uint64_t ran;

	preempt_tree();
	ran = preempt_xa(2);
	schedtree_unmake(&comps[50]);
	CHECK_EQ(dreg[9].slot[csa.id].consumed, ran);
	CHECK_EQ(dreg[10].slot[csb.id].consumed, ran);
	CHECK(!comps[49].behind && !comps[50].behind);
}

/*
 * Against a model that writes every level at every close: random switches among six
 * threads of the deep tree (xa, xb, xe, xc, 50's own at depth 10, x0, the root's, and xd,
 * 51's beside xa), and
 * between them a thread about to run in a random scheduler's component (catching up when
 * it is behind, as thd_enter does), and frames for 50, 51 and 52 charged to them and paid
 * (their levels into records of their event threads, xc, xd and xb, while one is free):
 * what that component's region shows is the model's, and
 * at the end, caught up, every region is.  The model keeps, for the running thread, when
 * each of its levels opened: a switch parting at k closes levels k and below of the one
 * that leaves and opens them for the one that comes.
 */
static uint64_t model[13][HR_THD_MAX];
static uint64_t model_open[HR_DEPTH_MAX + 1];

/* The slot at level i of x's chain, as region and thread index into dreg and model. */
static int
model_slot(const struct thd *x, int i, int *id)
{
	const struct hr_slot *sl;

	if (i == x->depth) {
		*id = x->id;
		return x->chain[i]->id - 40;
	}
	sl = x->chain[i + 1]->up_slot;
	if (sl == &schedtree_nobody)
		return -1;
	for (int r = 0; r < 13; r++)
		if (sl >= dreg[r].slot && sl < dreg[r].slot + HR_THD_MAX) {
			*id = (int) (sl - dreg[r].slot);
			return r;
		}
	abort();
}

static void
model_switch(const struct thd *from, const struct thd *to)
{
	uint32_t open = schedtree_acct.open_mask;
	int k = 31 - __builtin_clz(open); /* the switch's opening: the highest in force */
	uint64_t now = schedtree_acct.since[k];
	int id, r;

	for (int i = k; from && i <= from->depth; i++)
		if ((r = model_slot(from, i, &id)) >= 0)
			model[r][id] += now - model_open[i];
	for (int i = k; i <= to->depth; i++)
		model_open[i] = now;
}

/* The model of schedtree_charge(s, tsc) and the dispatch's pay after it: s's own view of its
 * event thread, and each ancestor's of its child on the path. */
static void
model_charge(const struct comp *owner, uint64_t tsc)
{
	if (owner->evt)
		model[owner->id - 40][owner->evt->id] += tsc;
	for (const struct comp *c = owner; c->parent; c = c->parent)
		for (int r = 0; r < 13 && c->up_slot != &schedtree_nobody; r++)
			if (c->up_slot >= dreg[r].slot && c->up_slot < dreg[r].slot + HR_THD_MAX)
				model[r][c->up_slot - dreg[r].slot] += tsc;
}

static int
region_is_model(int r)
{
	for (int id = 0; id < HR_THD_MAX; id++)
		if (dreg[r].slot[id].consumed != model[r][id])
			return 0;
	return 1;
}

TEST(what_each_component_reads_when_a_thread_runs_there_is_every_close_written_at_once)
{
	static struct thd xc, x0, xd;
	struct thd *pick[] = { &xa, &xb, &xe, &xc, &x0, &xd }, *now, *next;
	uint32_t seed = 12345;
	int behind_seen = 0, apart = 0;

	preempt_tree();
	xc = (struct thd){ .id = 12, .depth = 10 };
	for (int i = 0; i <= 10; i++)
		xc.chain[i] = xa.chain[i];
	x0 = (struct thd){ .id = 14, .depth = 0, .chain = { xa.chain[0] } };
	xd = xa; /* 51's other thread: between it and xa only their own level reopens */
	xd.id = 15;
	/* event threads, for frames' charges: 50's and 52's at depth 10, 51's at 11 */
	comps[50].evt = &xc, comps[51].evt = &xd, comps[52].evt = &xb;
	memset(model, 0, sizeof(model));
	now = &xa;
	schedtree_account(0, now, 0);
	model_switch(0, now);
	for (int step = 0; step < 2000; step++) {
		seed = seed * 1103515245 + 12345;
		if (seed >> 28 == 3) { /* a frame for 50, 51 or 52, paid as a dispatch would */
			struct comp *owner = &comps[50 + (seed >> 16) % 3];
			schedtree_charge(owner, 1 + (seed >> 8 & 0xff));
			schedtree_owed_pay();
			model_charge(owner, 1 + (seed >> 8 & 0xff));
			continue;
		}
		if (seed >> 28 < 3) { /* a thread about to run in scheduler 40 + r's component */
			int r = (int) (seed >> 16) % 13;
			behind_seen += comps[40 + r].behind != 0;
			schedtree_catch_up_in(&comps[40 + r]); /* as thd_space does */
			CHECK(region_is_model(r));
			continue;
		}
		next = pick[(seed >> 16) % 6];
		if (next == now)
			continue;
		tick_over();
		/* preempted or waiting: what is owed is the same, only when it is written */
		now->state = (seed >> 8) & 1 ? HR_TS_READY : HR_TS_BLOCKED;
		schedtree_account(now, next, 0);
		apart += __builtin_popcount(schedtree_acct.open_mask) > 2;
		model_switch(now, next);
		now = next;
	}
	schedtree_catch_up();
	for (int r = 0; r < 13; r++)
		CHECK(region_is_model(r));
	CHECK(behind_seen > 10); /* the walk met levels behind, and opened apart */
	CHECK(apart > 10);
}

/* ---- wake-ups below idle parents: every ancestor told HR_KEV_IDLE hears HR_KEV_WAKE ------ */

static struct hr_sched_region wreg[4];
static struct thd er, eu, eo, ei, tu, ti;
static struct comp *wr, *wu, *wo, *wi;

/*
 * The shape of web-depth-d2: root R (fprr) with children U (priority 5) and O (priority
 * 10); O's child I (depth 2).  Each has one event thread, which is also its c^s; tu is U's
 * task, ti I's.  Every event thread waits.
 */
static void
wtree(void)
{
	struct comp *c[4] = { &comps[20], &comps[21], &comps[22], &comps[23] };
	struct thd *e[4] = { &er, &eu, &eo, &ei };

	schedtree_catch_up(); /* nothing behind from the test before */
	memset(wreg, 0, sizeof(wreg));
	wr = c[0], wu = c[1], wo = c[2], wi = c[3];
	for (int i = 0; i < 4; i++) {
		*c[i] = (struct comp){ .id = (uint16_t) (20 + i),
				       .state = COMP_LIVE,
				       .up_slot = &schedtree_nobody }; /* as comp_new */
		c[i]->is_sched = 1;
		c[i]->region = &wreg[i];
		*e[i] = (struct thd){ .id = (uint32_t) (1 + i), .state = HR_TS_EVWAIT };
		e[i]->comp = e[i]->home = c[i];
		c[i]->evt = c[i]->cs = e[i];
	}
	wu->parent = wo->parent = wr;
	wi->parent = wo;
	wu->depth = wo->depth = 1;
	wi->depth = 2;
	for (int i = 0; i < 4; i++) /* as schedtree_make sets it */
		c[i]->depth_bit = 1u << c[i]->depth;
	schedtree_path(wr, 0);
	schedtree_path(wu, wr);
	schedtree_path(wo, wr);
	schedtree_path(wi, wo);
	er.chain[0] = eu.chain[0] = eo.chain[0] = ei.chain[0] = wr;
	eu.chain[1] = wu;
	eo.chain[1] = ei.chain[1] = wo;
	ei.chain[2] = wi;
	eu.depth = eo.depth = 1;
	ei.depth = 2;
	tu = (struct thd){ .id = 5, .depth = 1, .state = HR_TS_READY, .chain = { wr, wu } };
	tu.comp = tu.home = wu;
	ti = (struct thd){ .id = 6, .depth = 2, .state = HR_TS_READY, .chain = { wr, wo, wi } };
	ti.comp = ti.home = wi;
	for (int i = 1; i < 4; i++) { /* as schedtree_make sets them */
		c[i]->woke_word = kev_woke_word(c[i]->parent->region, c[i]->id);
		c[i]->woke_bit = kev_woke_bit(c[i]->id);
	}
	wu->up_slot = &wreg[0].slot[eu.id];
	wo->up_slot = &wreg[0].slot[eo.id];
	wi->up_slot = &wreg[2].slot[ei.id];
	wu->up_slot->prio = 5;
	wo->up_slot->prio = 10;
	wi->up_slot->prio = 10;
}

/* I's thread sleeps: I idles, so O does (nothing else of it runs), and R hears of O. */
static void
both_idle(void)
{
	ei.state = HR_TS_READY;
	cur = &ei;
	CHECK_EQ(sys_event_wait(&ei), 1);
	CHECK(cur == &eo); /* O ran to hear of I */
	CHECK_EQ(sys_event_wait(&eo), 1);
	CHECK(cur == &er); /* R ran to hear of O */
}

/* R reads its ring (it now sees O blocked) and waits again. */
static void
root_reads(void)
{
	wreg[0].ev_tail = wreg[0].ev_head;
	memset(wreg[0].woke, 0, sizeof(wreg[0].woke));
	wr->evt_pending = 0;
	er.state = HR_TS_EVWAIT;
}

/* Does R hold, untaken, the notice that O woke (its bit of woke, abi/hr_sched.h)? */
static int
root_told_o_woke(void)
{
	return !!(*kev_woke_word(&wreg[0], wo->id) & kev_woke_bit(wo->id));
}

static struct thd *
wthd(uint64_t id)
{
	struct thd *all[] = { &er, &eu, &eo, &ei, &tu, &ti };

	return id >= 1 && id <= 6 ? all[id - 1] : 0;
}

static void
frame_for_i(void)
{
	schedtree_notify(wi, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wi->id });
}

TEST(a_wake_below_an_idle_parent_reaches_the_grandparent_when_the_cpu_is_busy)
{
	wtree();
	both_idle();
	root_reads();
	cur = &tu; /* U, more urgent than O at R, runs */
	frame_for_i();
	CHECK(cur == &tu);		/* I's event thread does not preempt U ... */
	CHECK(ei.state == HR_TS_READY); /* ... but has something to do */
	thd_dispatch(&er, 0);		/* U ended: R's event thread runs */
	CHECK(root_told_o_woke());	/* else R never dispatches O again */
	cur = 0;
}

TEST(a_wake_below_an_idle_parent_reaches_the_grandparent_when_the_cpu_idles)
{
	wtree();
	both_idle();
	root_reads();
	cur = 0;
	frame_for_i();
	CHECK(cur == &ei); /* I runs at once, without O or R */
	thd_dispatch(&ti, 2);
	/* nothing for R yet: the path to the woken thread costs the same at any depth */
	CHECK(!root_told_o_woke());
	thd_dispatch(&er, 0); /* U preempts ti and ends, say: R's event thread runs */
	CHECK(root_told_o_woke());
	cur = 0;
}

TEST(an_ancestor_activated_after_a_wake_below_hears_of_it_in_the_turn_it_starts)
{
	wtree();
	both_idle();
	root_reads();
	cur = 0;
	frame_for_i(); /* I runs at once: R is to hear that O woke at a dispatch above */
	CHECK(cur == &ei && !root_told_o_woke());
	schedtree_post(wr, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wr->id });
	CHECK(cur == &er);	   /* R preempts I ... */
	CHECK(root_told_o_woke()); /* ... told on the way ... */
	CHECK(!wr->evt_pending);   /* ... and its turn reads it: no second turn for it */
	cur = 0;
}

TEST(a_wake_under_running_parents_tells_only_the_parent)
{
	wtree();
	both_idle();
	root_reads();
	cur = 0;
	frame_for_i();
	thd_dispatch(&er, 0); /* R now knows O woke */
	root_reads();
	ei.state = HR_TS_EVWAIT; /* I's event thread switched to its task, which runs */
	cur = 0;
	frame_for_i();
	thd_dispatch(&er, 0);
	CHECK(!root_told_o_woke()); /* nothing more for R: it sees O runnable */
	cur = 0;
}

/* ---- idling with a child: a parent that said the child is all it has takes no turn ---- */

/* O said I is all it has, and R that O is (abi/hr_sched.h: alone_until). */
static void
alone_marks(void)
{
	wreg[2].slot[ei.id].alone_until = FAR;
	wreg[0].slot[eo.id].alone_until = FAR;
}

/* The thread of event thread e's scheduler sleeps, and the scheduler idles: 1 if the CPU
 * went to no thread (resched_from says who was to find one), 0 if a thread was dispatched
 * (cur). */
static int
idles(struct thd *e)
{
	e->state = HR_TS_READY;
	cur = e;
	resched_from = &comps[0];
	if (setjmp(resched_jb))
		return 1;
	CHECK_EQ(sys_event_wait(e), 1);
	return 0;
}

/* Does scheduler c's ring hold, unread, just the notice that child k idled? */
static int
told_idle(const struct comp *c, const struct comp *k)
{
	const struct hr_sched_region *r = c->region;

	return r->ev_head - r->ev_tail == 1 && r->ev[r->ev_tail].type == HR_KEV_IDLE &&
	       r->ev[r->ev_tail].comp == k->id;
}

TEST(a_child_that_was_all_its_parents_had_idles_them_without_a_turn)
{
	wtree();
	alone_marks();
	CHECK(idles(&ei));
	/* the CPU idles, neither O nor R took a turn, and each hears of it on its next */
	CHECK(resched_from == 0);
	CHECK(eo.state == HR_TS_EVWAIT && er.state == HR_TS_EVWAIT);
	CHECK(told_idle(wo, wi) && told_idle(wr, wo));
	/* and a wake-up below reaches R, as after their turns */
	frame_for_i();
	CHECK(cur == &ei);
	thd_dispatch(&er, 0);
	CHECK(root_told_o_woke());
	cur = 0;
}

TEST(a_parent_with_other_news_takes_its_turn_its_child_idles_with_the_one_below)
{
	wtree();
	alone_marks();
	*kev_woke_word(&wreg[0], wu->id) |= kev_woke_bit(wu->id); /* U woke, R not yet told */
	CHECK(!idles(&ei));
	CHECK(cur == &er); /* R runs to hear of O and of U */
	CHECK(eo.state == HR_TS_EVWAIT && told_idle(wo, wi) && told_idle(wr, wo));
	cur = 0;
}

TEST(a_parent_whose_word_has_lapsed_takes_its_turn)
{
	wtree();
	alone_marks();
	wreg[2].slot[ei.id].alone_until = 1;
	CHECK(!idles(&ei));
	CHECK(cur == &eo);
	CHECK(er.state == HR_TS_EVWAIT && wreg[0].ev_head == 0); /* R heard nothing */
	cur = 0;
}

TEST(a_parent_whose_event_thread_does_not_wait_takes_its_turn)
{
	wtree();
	alone_marks();
	eo.state = HR_TS_READY; /* O's event thread was woken, and something outranked it */
	CHECK(idles(&ei));
	CHECK(resched_from == wo); /* the CPU goes to O */
	CHECK(told_idle(wo, wi) && wreg[0].ev_head == 0);
	cur = 0;
}

TEST(a_parent_whose_activation_preempted_a_thread_still_ready_takes_its_turn)
{
	wtree();
	alone_marks();
	eo.preempted = &tu; /* O's event thread took the CPU from U's task, which is ready */
	eo.preempted_gen = tu.gen;
	CHECK(!idles(&ei));
	CHECK(cur == &eo); /* O runs, and on its way to idling resumes U's task */
	CHECK(er.state == HR_TS_EVWAIT && wreg[0].ev_head == 0);
	cur = 0;
}

/* ---- resuming past schedulers that would only choose the same thread again ---------- */

/* I's task runs (O and I waiting, having dispatched it) when R's event thread is woken and
 * takes the CPU from it. */
static void
root_preempts_i_task(void)
{
	wtree();
	ei.state = eo.state = HR_TS_EVWAIT;
	cur = &ti;
	schedtree_post(wr, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wr->id });
	CHECK(cur == &er && er.preempted == &ti);
}

TEST(a_parent_back_to_a_child_with_nothing_to_decide_resumes_the_preempted_thread_past_it)
{
	root_preempts_i_task();
	CHECK(schedtree_through(&er, &eo, 0) == &ti);	  /* O and I would only choose ti again */
	CHECK(eo.state == HR_TS_EVWAIT && !er.preempted); /* O untouched; the record taken */
	CHECK(schedtree_through(&er, &eo, 0) == &eo);
	cur = 0;
}

/* R dispatched its own thread and waits; that thread ends, and the kernel event that says
 * so activates R with nothing to preempt: the record of ti stands (preempt-d16's first
 * timer sample made every level take a turn when it did not), unless news came below. */
TEST(an_activation_that_preempts_nothing_keeps_the_record_of_the_one_before)
{
	struct hr_kevent exit = { .type = HR_KEV_EXIT, .thd = 9 };

	root_preempts_i_task();
	er.state = HR_TS_EVWAIT, cur = 0;
	schedtree_post(wr, exit);
	CHECK(cur == &er && er.preempted == &ti);
	CHECK(schedtree_through(&er, &eo, 0) == &ti);
	root_preempts_i_task();
	er.state = HR_TS_EVWAIT, cur = 0;
	frame_for_i(); /* the CPU idles: I's event thread runs */
	CHECK(cur == &ei);
	ei.state = HR_TS_EVWAIT, cur = 0;
	schedtree_post(wr, exit);
	CHECK(cur == &er && er.preempted == &ti);
	/* I had a turn since, O none: I decides again, past O (which would only choose I) */
	CHECK(schedtree_through(&er, &eo, 0) == &ei);
	CHECK(ei.preempted == &ti && eo.state == HR_TS_EVWAIT);
	cur = 0;
}

/* O's turn, asked for (a memory target in the page they share: HR_SW_PEVT, HR_SW_TURN),
 * decides below without news of its own: were the record kept, R could resume ti past O
 * later, after O chose otherwise. */
TEST(a_switch_that_asks_for_the_child_s_turn_takes_the_record)
{
	root_preempts_i_task();
	CHECK(schedtree_through(&er, &eo, HR_SW_TURN) == &eo && !er.preempted);
	root_preempts_i_task();
	CHECK(schedtree_through(&er, &eo, HR_SW_PEVT) == &eo && !er.preempted);
	cur = 0;
}

/* I had idled, and O dispatched a task of its own (to) when R's event thread took the CPU
 * from it: the shape of image test-wake-parked. */
static struct thd to;

static void
root_preempts_o_task(void)
{
	wtree();
	ei.state = HR_TS_READY;
	cur = &ei;
	CHECK_EQ(sys_event_wait(&ei), 1); /* I idles: O runs to hear of it */
	CHECK(cur == &eo && wi->notice.idle);
	to = (struct thd){ .id = 7, .depth = 1, .state = HR_TS_READY, .chain = { wr, wo } };
	to.comp = to.home = wo;
	eo.state = HR_TS_EVWAIT;
	cur = &to;
	wo->evt_pending = 0; /* O's turn read it */
	schedtree_post(wr, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wr->id });
	CHECK(cur == &er && er.preempted == &to);
}

TEST(a_wake_told_to_a_scheduler_since_the_activation_makes_it_take_its_turn)
{
	root_preempts_o_task();
	frame_for_i(); /* during R's turn: I cannot run now, O is told quietly */
	CHECK(cur == &er && wo->evt_pending && eo.state == HR_TS_EVWAIT);
	CHECK(schedtree_through(&er, &eo, 0) == &eo); /* O must read it (image test-wake-parked) */
	cur = 0;
}

/* O decided with I idle (it runs to); I's timer then gave I the CPU, O told quietly, and
 * I's event thread, its task asleep again, resumed to without telling O that I idled.
 * R's event thread preempts to, and I wakes again: O, with that notice unread, must be
 * told again (news), or R resumes to past O and I waits while to spins (image
 * test-wake-parked, when a wake to a parent that would not hear its child idle was not
 * told at all). */
TEST(a_wake_to_a_parent_with_a_notice_unread_is_news_though_it_will_not_hear_an_idle)
{
	root_preempts_o_task();
	cur = &to; /* R's turn over: to runs again */
	er.state = HR_TS_EVWAIT, er.preempted = 0;
	wreg[2].slot[to.id].prio = 20; /* less urgent in O than I */
	frame_for_i();
	CHECK(cur == &ei && ei.preempted == &to && wo->evt_pending && !wi->notice.idle);
	ei.state = HR_TS_READY;
	CHECK_EQ(sys_event_wait(&ei), 1);
	CHECK(cur == &to); /* resumed, O not told that I idles */
	schedtree_post(wr, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wr->id });
	CHECK(cur == &er && er.preempted == &to);
	frame_for_i();
	CHECK(cur == &er && ei.state == HR_TS_READY);
	CHECK_EQ(sys_event_wait(&er), 1); /* R's turn is over */
	CHECK(cur == &eo);		  /* O decides */
	cur = 0;
}

/* News for I alone (O never heard I idle, so I's wake is no news to O): I's scheduler
 * takes its turn at once, with R's record, and O none.  So does the innermost of sixteen
 * levels whose timer fired while a thread of the root ran (eval/preempt.sh). */
TEST(news_below_since_the_activation_gives_the_first_scheduler_told_its_turn_past_the_rest)
{
	root_preempts_i_task();
	frame_for_i();
	CHECK(cur == &er && ei.state == HR_TS_READY && !wo->evt_pending); /* news at I only */
	CHECK(schedtree_through(&er, &eo, 0) == &ei);
	CHECK(ei.preempted == &ti && ei.preempted_gen == ti.gen && !er.preempted);
	CHECK(eo.state == HR_TS_EVWAIT); /* O untouched */
	root_preempts_i_task();
	schedtree_timer(wi, 1); /* due */
	schedtree_tick();
	CHECK(cur == &er && ei.state == HR_TS_READY && !wo->evt_pending);
	CHECK(schedtree_through(&er, &eo, 0) == &ei);
	/* ... unless I's event thread is in its turn, preempted, with a record of its own */
	root_preempts_i_task();
	frame_for_i();
	ei.preempted = &tu, ei.preempted_gen = tu.gen;
	CHECK(schedtree_through(&er, &eo, 0) == &eo);
	CHECK(ei.preempted == &tu);
	cur = 0;
}

TEST(news_off_the_preempted_thread_s_path_does_not_stop_the_parent_resuming_it)
{
	root_preempts_i_task();
	schedtree_post(wu, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wu->id });
	CHECK(cur == &er && eu.state == HR_TS_READY); /* news for U, not on ti's path */
	CHECK(schedtree_through(&er, &eo, 0) == &ti);
	root_preempts_i_task();
	schedtree_post(wu, (struct hr_kevent){ .type = HR_KEV_NET, .comp = wu->id });
	CHECK_EQ(sys_event_wait(&er), 1);
	CHECK(cur == &ti);
	cur = 0;
}

TEST(a_child_with_events_from_its_parent_or_a_held_level_below_is_not_passed)
{
	root_preempts_i_task();
	wo->pevt = 1; /* R put something in the page it shares with O */
	CHECK(schedtree_through(&er, &eo, 0) == &eo);
	wo->pevt = 0;
	root_preempts_i_task();
	wi->held = 1, wi->held_path = wi->depth_bit; /* O holds I (sys_sched_hold) */
	CHECK(schedtree_through(&er, &eo, 0) == &eo);
	cur = 0;
}

TEST(an_event_thread_that_waits_after_news_below_resumes_through_the_first_scheduler_told)
{
	root_preempts_i_task();
	CHECK_EQ(sys_event_wait(&er), 1);
	CHECK(cur == &ti); /* nothing new below: straight back */
	root_preempts_i_task();
	frame_for_i();
	CHECK_EQ(sys_event_wait(&er), 1);
	CHECK(cur == &ei && ei.preempted == &ti); /* I's turn reads the news, O passed */
	CHECK(eo.state == HR_TS_EVWAIT);
	root_preempts_o_task();
	frame_for_i();
	CHECK_EQ(sys_event_wait(&er), 1);
	CHECK(cur == &eo && eo.state == HR_TS_READY); /* O's turn reads the news */
	cur = 0;
}

/* R said U is all it has (O had idled); a frame for I arrives while U's task runs, which
 * I's side does not outrank at R: R is to hear that O woke only when a thread at its depth
 * next runs.  When U idles, that wake is R's news: it must take its turn, or nothing
 * dispatches O and I again (the CPU would idle with I's event thread ready). */
TEST(a_parent_that_is_yet_to_hear_another_child_woke_takes_its_turn_when_its_child_idles)
{
	wtree();
	both_idle();
	root_reads();
	wreg[0].slot[eu.id].alone_until = FAR;
	eu.state = HR_TS_EVWAIT;
	cur = &tu;
	frame_for_i();
	CHECK(cur == &tu && ei.state == HR_TS_READY && !root_told_o_woke());
	CHECK(!idles(&eu));
	CHECK(cur == &er);	   /* R runs ... */
	CHECK(root_told_o_woke()); /* ... and hears that O woke */
	cur = 0;
}

/* ---- a wake three levels down: each ancestor hears of it when a thread at its depth runs -- */

/* [4]: a scheduler beside Z1, for the tests that make one (zmake) */
static struct hr_sched_region zreg[5];
static struct thd ze[5];
static struct comp *zc[5];

/* Scheduler zc[i] (component 30 + i, event thread 11 + i, its c^s, waiting) under parent,
 * having told its parent that it idled. */
static void
zmake(int i, struct comp *parent)
{
	struct comp *c = zc[i] = &comps[30 + i];
	int d = parent ? parent->depth + 1 : 0;

	*c = (struct comp){ .id = (uint16_t) (30 + i),
			    .state = COMP_LIVE,
			    .up_slot = &schedtree_nobody }; /* as comp_new */
	c->is_sched = 1;
	c->region = &zreg[i];
	c->depth = (uint8_t) d;
	c->depth_bit = 1u << d;
	c->parent = parent;
	schedtree_path(c, parent);
	ze[i] = (struct thd){ .id = (uint16_t) (11 + i), .state = HR_TS_EVWAIT };
	ze[i].comp = ze[i].home = c;
	ze[i].depth = (uint8_t) d;
	for (struct comp *a = c; a; a = a->parent)
		ze[i].chain[a->depth] = a;
	c->evt = c->cs = &ze[i];
	if (parent) {
		c->up_slot = &parent->region->slot[ze[i].id];
		c->woke_word = kev_woke_word(parent->region, c->id);
		c->woke_bit = kev_woke_bit(c->id);
		c->notice.idle = 1;
	}
}

/* Z0 (the root) - Z1 - Z2 - Z3, each with an event thread that is its c^s and waits; each
 * of Z1..Z3 has told its parent that it idled. */
static void
ztree(void)
{
	schedtree_catch_up();	     /* nothing behind from the test before */
	for (int i = 4; i >= 0; i--) /* the last test's tree goes, as in the kernel, and what */
		if (zc[i])	     /* the kernel kept of it (calm) */
			schedtree_unmake(zc[i]);
	zc[4] = 0;
	memset(zreg, 0, sizeof(zreg));
	for (int i = 0; i < 4; i++)
		zmake(i, i ? zc[i - 1] : 0);
}

/* Has Zi been told, in its woke bits, that its child Zi+1 woke? */
static int
z_told(int i)
{
	return !!(*zc[i + 1]->woke_word & zc[i + 1]->woke_bit);
}

TEST(a_wake_three_levels_down_is_told_to_each_ancestor_as_a_thread_at_its_depth_runs)
{
	ztree();
	cur = 0;
	schedtree_notify(zc[3], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[3]->id });
	/* Z3 runs at once, without its ancestors; its parent is told (a bit), no one else */
	CHECK(cur == &ze[3]);
	CHECK(z_told(2) && !z_told(1) && !z_told(0));
	thd_dispatch(&ze[0], 0); /* the root's own timer, say: one notice, not a walk */
	CHECK(z_told(0) && !z_told(1));
	thd_dispatch(&ze[1], 1); /* the root dispatches Z1: Z1 hears of Z2 now */
	CHECK(z_told(1));
	cur = 0;
}

/* B, a scheduler beside Z1: the thread at depth 1 that runs is B's, and Z1, on the wake's
 * path, is not told until a thread of its own runs.  Told then, Z1 had news when the root
 * came back to it with Z3's event thread to resume, so it took its turn, and so did every
 * level down to it (eval/walk-side.sh). */
TEST(a_wake_is_told_to_the_scheduler_on_its_path_not_to_one_beside_it_at_that_depth)
{
	ztree();
	zmake(4, zc[0]);
	cur = 0;
	schedtree_notify(zc[3], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[3]->id });
	CHECK(cur == &ze[3]);
	thd_dispatch(&ze[0], 0);
	CHECK(z_told(0));
	thd_dispatch(&ze[4], 0); /* B's event thread */
	CHECK(!z_told(1));
	thd_dispatch(&ze[1], 0); /* Z1's */
	CHECK(z_told(1));
	cur = 0;
}

TEST(frames_below_a_child_whose_cs_was_freed_charge_the_levels_above_it_and_not_its_slot)
{
	ztree();
	/* Z2's c^s is freed (thd_free): its id, and so its slot in Z1's region, may be a
	 * new thread's of Z1 by now */
	zc[2]->cs = 0;
	zc[2]->up_slot = &schedtree_nobody; /* as thd_free sets it */
	zreg[1].slot[ze[2].id].consumed = 7;
	schedtree_charge(zc[3], 100);
	schedtree_owed_pay();
	CHECK_EQ(zreg[3].slot[ze[3].id].consumed, 100); /* Z3's own view, at once */
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, 100); /* the root's view of Z1, at once */
	CHECK_EQ(zreg[2].slot[ze[3].id].consumed, 0);	/* behind, Z1 and Z2 marked */
	CHECK(zc[1]->behind && zc[2]->behind && !zc[3]->behind);
	schedtree_catch_up_in(zc[2]);			/* a thread about to run in Z2 */
	CHECK_EQ(zreg[2].slot[ze[3].id].consumed, 100); /* Z2's view of Z3 */
	schedtree_catch_up_in(zc[1]);
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 7); /* untouched */
}

/* Frame after frame for Z3 (net.c: deliver_charged): the levels between the root and Z3
 * wait in one record of Z3's event thread, two adds a frame, and each shows all of them
 * when a thread runs there.  Z1, one level down, has its one level written at once. */
TEST(a_deep_subsystem_s_frames_wait_in_one_record_two_adds_a_frame)
{
	ztree();
	schedtree_charge(zc[3], 100);
	schedtree_owed_pay();
	schedtree_charge(zc[3], 50);
	schedtree_owed_pay();
	CHECK_EQ(__builtin_popcount(zc[1]->behind), 1); /* one record */
	CHECK_EQ(zc[1]->behind, zc[2]->behind);
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, 150);
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 0);
	schedtree_catch_up_in(zc[1]);
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 150);
	CHECK(!zc[1]->behind && zc[2]->behind);
	schedtree_charge(zc[3], 25); /* Z1, caught up alone, is owed again: marked again */
	schedtree_owed_pay();
	CHECK(zc[1]->behind);
	schedtree_catch_up();
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 175);
	CHECK_EQ(zreg[2].slot[ze[3].id].consumed, 175);
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, 175);
	schedtree_charge(zc[1], 10);
	schedtree_owed_pay();
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, 185);
	CHECK(!zc[1]->behind);
}

/* Z3's event thread runs from an idle CPU (one opening, at the top), then Z2's: they part
 * at depth 2, so Z3's levels 2 and 3 close and the two above stay open, though all four
 * opened together. */
TEST(a_switch_parting_below_the_top_closes_its_levels_from_there_only)
{
	ztree();
	schedtree_account(0, &ze[3], 0);
	tick_over();
	schedtree_account(&ze[3], &ze[2], 0);
	CHECK(zreg[3].slot[ze[3].id].consumed);
	CHECK_EQ(zreg[2].slot[ze[3].id].consumed, zreg[3].slot[ze[3].id].consumed);
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 0);
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, 0);
}

TEST(a_thread_that_stops_charges_every_level_it_ran_at_but_a_freed_cs_slot)
{
	ztree();
	zc[2]->cs = 0;			    /* as above: Z2's c^s is freed */
	zc[2]->up_slot = &schedtree_nobody; /* as thd_free sets it */
	zreg[1].slot[ze[2].id].consumed = 7;
	schedtree_account(0, &ze[3], 0); /* Z3's event thread runs at every level */
	tick_over();
	schedtree_account(&ze[3], 0, 0); /* and stops: the CPU idles */
	schedtree_catch_up_in(zc[2]);	 /* a thread is about to run in Z2 */
	schedtree_catch_up_in(zc[1]);
	CHECK(zreg[2].slot[ze[3].id].consumed); /* its own slot */
	CHECK_EQ(zreg[1].slot[ze[2].id].consumed, 7);
	CHECK_EQ(zreg[0].slot[ze[1].id].consumed, zreg[2].slot[ze[3].id].consumed);
}

/* ---- idling again as before: no walk ----------------------------------------------------- */

/* Each of Z0..Z2 said its child is all it has. */
static void
z_alone(void)
{
	for (int i = 0; i < 3; i++)
		zreg[i].slot[ze[i + 1].id].alone_until = FAR;
}

/* Is the last notice in scheduler c's ring that child k idled? */
static int
last_told_idle(const struct comp *c, const struct comp *k)
{
	const struct hr_sched_region *r = c->region;
	const struct hr_kevent *e = &r->ev[(r->ev_head - 1) % HR_KEV_RING];

	return r->ev_head != r->ev_tail && e->type == HR_KEV_IDLE && e->comp == k->id;
}

/* A frame wakes Z3, whose event thread gets the CPU. */
static void
z3_woken(void)
{
	cur = 0;
	schedtree_notify(zc[3], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[3]->id });
	CHECK(cur == &ze[3]);
}

/* Z3 idles and the walk idles every level with its child, the CPU with them; then Z3 is
 * woken again and has the CPU: the steady state of calm_again. */
static void
z_idled_and_woken(void)
{
	ztree();
	z_alone();
	z3_woken();
	CHECK(idles(&ze[3]) && resched_from == 0);
	z3_woken();
}

/* Zi ranks its child above its own event thread. */
static void
z_event_thread_below_child(int i)
{
	zreg[i].slot[ze[i].id].prio = 20;
	zreg[i].slot[ze[i + 1].id].prio = 10;
}

/* An event for Zi, which does not take the CPU from Z3's event thread (posted, a notice to
 * read; or not, a kernel event, notify); then Z3 idles, and the walk must reach Zi, whose
 * event thread is ready: Zi takes its turn. */
static void
z_event_then_z3_idles_to(int i, int post)
{
	struct hr_kevent ev = { .type = HR_KEV_NET, .comp = zc[i]->id };

	z_event_thread_below_child(i);
	if (post)
		schedtree_post(zc[i], ev);
	else
		schedtree_notify(zc[i], ev);
	CHECK(cur == &ze[3] && ze[i].state == HR_TS_READY);
	CHECK(idles(&ze[3]));
	CHECK(resched_from == zc[i]);
	cur = 0;
}

TEST(a_scheduler_that_idles_again_as_before_idles_the_cpu_without_walking_the_levels)
{
	z_idled_and_woken();
	/* the walk would write Z1's and Z0's unread notices again: blank them to see */
	zreg[0].ev[(zreg[0].ev_head - 1) % HR_KEV_RING].type = 0;
	zreg[1].ev[(zreg[1].ev_head - 1) % HR_KEV_RING].type = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK(last_told_idle(zc[2], zc[3])); /* Z2 is told, as always ... */
	CHECK(!last_told_idle(zc[1], zc[2]) && !last_told_idle(zc[0], zc[1])); /* ... no walk */
	/* and a wake that follows still reaches every level, as each next runs */
	z3_woken();
	thd_dispatch(&ze[0], 0);
	CHECK(z_told(0));
	cur = 0;
}

/* The walk's notices to Z2, Z1 and Z0, which idle with their children, are to read at
 * their next turns, and no news: when the path wakes and Z0, back from preempting Z3's
 * event thread, comes down to Z1, Z1 and Z2 are passed, as neither has anything to
 * decide.  As news they made Z1 take a turn there, and so every level below it
 * (eval/walk.sh: fifteen turns a tick at depth 16). */
TEST(the_walk_s_notice_to_a_parent_that_idles_with_its_child_is_no_news)
{
	uint32_t at[3];

	ztree();
	z_alone();
	z3_woken();
	for (int i = 0; i < 3; i++)
		at[i] = zc[i]->news_at;
	CHECK(idles(&ze[3]) && resched_from == 0);
	for (int i = 0; i < 3; i++) {
		CHECK(told_idle(zc[i], zc[i + 1])); /* to read ... */
		CHECK(zc[i]->news_at == at[i]);	    /* ... no news */
	}
	CHECK(!zc[0]->evt_pending && !zc[1]->evt_pending); /* Z2's: Z3 woke with the CPU */
	z3_woken();
	zreg[0].slot[ze[1].id].prio = 10; /* Z0's event thread outranks Z1 */
	schedtree_post(zc[0], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[0]->id });
	CHECK(cur == &ze[0] && ze[0].preempted == &ze[3]);
	CHECK(schedtree_through(&ze[0], &ze[1], 0) == &ze[3]);
	cur = 0;
}

TEST(a_scheduler_above_that_had_news_since_makes_the_next_idle_walk_to_it)
{
	z_idled_and_woken();
	z_event_then_z3_idles_to(1, 1); /* Z1 runs its turn: the walk found it had news */
}

TEST(a_root_woken_without_the_cpu_makes_the_next_idle_walk_to_it)
{
	z_idled_and_woken();
	/* a frame for the root does not take the CPU, and the root has no parent to be told */
	z_event_then_z3_idles_to(0, 0);
}

/* Z3, woken, idles, and the walk idles every level (three: a point each); a frame wakes
 * the root on the idle CPU, whose turn reads its ring and idles it alone; then Z3 is woken
 * again and has the CPU: a real-time task of the root's, run between two idles of a deep
 * subsystem (eval/walk.sh). */
static void
z_walk_then_root_turn(void)
{
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 3);
	schedtree_notify(zc[0], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[0]->id });
	CHECK(cur == &ze[0]);
	zreg[0].ev_tail = zreg[0].ev_head; /* its turn reads the ring */
	CHECK(idles(&ze[0]) && resched_from == 0);
	z3_woken();
}

/* the same on a new tree */
static void
z_root_turn_between(void)
{
	ztree();
	z_alone();
	z3_woken();
	z_walk_then_root_turn();
}

TEST(a_root_that_took_its_turns_since_the_walk_is_walked_to_again_past_the_levels_below)
{
	z_root_turn_between();
	/* Z1 has not read that Z2 idled; a walk would look at it again: blank it to see */
	zreg[1].ev[(zreg[1].ev_head - 1) % HR_KEV_RING].type = 0;
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 2);		      /* Z2's level and Z0's: Z1 is passed ... */
	CHECK(!last_told_idle(zc[1], zc[2])); /* ... and not told again */
	CHECK(last_told_idle(zc[2], zc[3]));  /* Z2 is told, as always, */
	CHECK(told_idle(zc[0], zc[1]));	      /* and Z0, the level that changed */
	/* the next idle is calm again: nothing walked */
	z3_woken();
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 0);
	cur = 0;
}

/* Passing Z1 when it has an event unread would leave it there: its wake's notice to Z0 is
 * about Z1, which Z0 would idle with. */
TEST(a_level_below_the_root_that_had_news_since_is_walked_to_though_the_root_changed_too)
{
	z_root_turn_between();
	z_event_then_z3_idles_to(1, 1);
}

/* A frame for Z1 that does not take the CPU shows in no mask at Z1's depth (a kernel
 * event is no notice), only in the notice of its wake to Z0, which is about Z1: passing
 * Z1 would idle Z0 with it, Z1's event thread ready and never run. */
TEST(a_frame_below_the_root_since_the_walk_is_walked_to_though_it_shows_only_above_it)
{
	z_root_turn_between();
	z_event_then_z3_idles_to(1, 0);
}

/* A word of a level passed that has lapsed since sends the idle the whole way. */
TEST(a_word_below_the_root_that_lapsed_since_the_walk_sends_the_next_the_whole_way)
{
	uint64_t soon;

	ztree();
	z_alone();
	z3_woken();
	soon = hw_tsc() + 100000000; /* some 30 ms: long past the walk, whatever the load */
	zreg[1].slot[ze[2].id].alone_until = soon; /* Z1: Z2 is all it has, for a while */
	z_walk_then_root_turn();
	while (hw_tsc() <= soon)
		;
	CHECK(!idles(&ze[3]));
	CHECK(cur == &ze[1]); /* Z1 looks again */
	cur = 0;
}

/* the interrupt of the walk test: a frame for the root, whose event thread outranks none */
static void
frame_for_z0(void)
{
	schedtree_notify(zc[0], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[0]->id });
}

TEST(an_interrupt_pending_in_the_idle_walk_is_handled_at_the_next_level_and_ends_it)
{
	ztree();
	z_alone();
	z3_woken();
	points = drained = 0;
	irq_at = 1; /* it comes while Z2 is told that Z3 idled */
	irq_work = frame_for_z0;
	CHECK(!idles(&ze[3])); /* the frame's thread runs: the CPU does not idle */
	CHECK_EQ(points, 1);
	CHECK_EQ(drained, 1);
	CHECK(cur == &ze[0]); /* on a CPU no thread held */
	CHECK(told_idle(zc[2], zc[3]));
	CHECK(ze[2].state == HR_TS_EVWAIT);   /* Z2 idles with Z3, no turn owed ... */
	CHECK(!last_told_idle(zc[1], zc[2])); /* ... and Z1 does not hear of it yet */
	cur = 0;
}

/* an interrupt whose thread does not get the CPU: the walk goes on to the top */
static void
nothing_runs(void)
{
}

TEST(an_interrupt_in_the_idle_walk_that_runs_nothing_lets_it_go_on_once_a_level)
{
	ztree();
	z_alone();
	z3_woken();
	points = drained = 0;
	irq_at = 2; /* while Z1 is told that Z2 idled */
	irq_work = nothing_runs;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 3); /* Z2, Z1, Z0 */
	CHECK_EQ(drained, 1);
	CHECK(last_told_idle(zc[0], zc[1]));
	/* and the next idle walks again: what the interrupt did is not calm_again's picture;
	 * the one after is calm again */
	z3_woken();
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 3);
	z3_woken();
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 0);
	cur = 0;
}

/* After a root's turn between (z_root_turn_between), the root's timer stops the walk
 * after Z2's level (its thread runs), and its turn idles it alone again.  The levels the
 * walk passed are as the last picture holds them: the next idle walks Z2's and the root's
 * levels again, not Z1's. */
TEST(a_walk_stopped_by_the_root_s_timer_keeps_the_picture_the_next_walk_passes_the_same)
{
	z_root_turn_between();
	points = drained = 0;
	irq_at = 1;
	irq_work = frame_for_z0;
	CHECK(!idles(&ze[3]) && cur == &ze[0]);
	CHECK_EQ(drained, 1);
	zreg[0].ev_tail = zreg[0].ev_head;
	CHECK(idles(&ze[0]) && resched_from == 0);
	z3_woken();
	points = 0;
	CHECK(idles(&ze[3]) && resched_from == 0);
	CHECK_EQ(points, 2); /* Z2's and Z0's */
	cur = 0;
}

/* ---- a wake that did not get the CPU: past the levels that idle with it ------------------ */

/* Z0 - Z1 - Z2 - Z3, and B beside Z1 (zc[4]); every level says its child is all it has;
 * a frame has woken Z3, whose event thread has the CPU. */
static void
zb_tree(void)
{
	ztree();
	zmake(4, zc[0]);
	z_alone();
	z3_woken();
}

/* A frame for Zi (B: 4). */
static void
z_frame_for(int i)
{
	schedtree_notify(zc[i], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[i]->id });
}

/* Zi's event thread takes a turn (its parent dispatched it): it reads its ring, and
 * idles; its walk reaches the top. */
static void
z_turn(int i)
{
	if (zc[i]->evt_pending) /* news to read: its wait returns at once */
		CHECK(!idles(&ze[i]));
	zreg[i].ev_tail = zreg[i].ev_head;
	CHECK(idles(&ze[i]) && resched_from == 0);
}

/* B, beside Z1 at the root's same priority, runs when a frame wakes Z3, whose event thread
 * does not get the CPU; B idles (a walk from elsewhere, which tells the root only), and the
 * root's turn hears that Z1 woke.  The root is about to dispatch Z1's c^s. */
static void
z_b_runs_when_z3_wakes(void)
{
	cur = &ze[4];
	z_frame_for(3);
	CHECK(cur == &ze[4] && ze[3].state == HR_TS_READY);
	CHECK(!idles(&ze[4]) && cur == &ze[0]); /* B idles; the root has news, and runs */
	CHECK(z_told(0) && !z_told(1));
}

/* z_b_runs_when_z3_wakes after Z3's walk to the top has left the picture (every level
 * idles with its child), and, if turn (1, 2: Z1, Z2), Zturn took a turn since. */
static void
z_wake_behind_b_after(int turn)
{
	zb_tree();
	CHECK(idles(&ze[3]) && resched_from == 0);
	if (turn)
		z_turn(turn);
	z_b_runs_when_z3_wakes();
}

static void
z_wake_behind_b(void)
{
	z_wake_behind_b_after(0);
}

/* Z1's own walk kept the picture (it is shallower) but marked Z1 changed: its turn may have
 * decided anything, which no mask shows. */
TEST(a_level_on_the_path_that_took_a_turn_since_the_walk_is_not_passed)
{
	z_wake_behind_b_after(1);
	CHECK(schedtree_wake_through(&ze[1]) == &ze[1]);
	cur = 0;
}

/* Z2 took a turn and walked to the top: Z2 itself is looked at (it is the woken one's
 * parent), and Z1, which that walk found idling with Z2, is as the picture holds it. */
TEST(a_level_above_one_that_took_a_turn_and_walked_to_the_top_is_passed)
{
	z_wake_behind_b_after(2);
	CHECK(schedtree_wake_through(&ze[1]) == &ze[3]);
	cur = 0;
}

/* The same when Z1 was told something and took its turn before: Z2's walk found it idling
 * with Z2 after that (walkside-d3: Z1 told that Z2 woke, and dispatching it). */
TEST(a_level_told_something_that_its_child_s_walk_found_idling_since_is_passed)
{
	zb_tree();
	CHECK(idles(&ze[3]) && resched_from == 0);
	schedtree_post(zc[1], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[1]->id });
	z_turn(1);
	z_turn(2);
	z_b_runs_when_z3_wakes();
	CHECK(schedtree_wake_through(&ze[1]) == &ze[3]);
	cur = 0;
}

TEST(a_wake_that_did_not_get_the_cpu_runs_past_the_levels_that_idle_with_it)
{
	z_wake_behind_b();
	CHECK(schedtree_acct.through >> 1 & 1); /* the fast switch declines for Z1's c^s */
	CHECK(schedtree_wake_through(&ze[1]) == &ze[3]);
	CHECK(!z_told(1)); /* Z1 hears of it when a thread of its own next runs, as ever */
	cur = 0;
}

/* Z1 was told something since the walk: its turn reads it, and decides below. */
TEST(a_wake_that_did_not_get_the_cpu_does_not_pass_a_level_with_news)
{
	z_wake_behind_b();
	schedtree_post(zc[1], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[1]->id });
	ze[1].state = HR_TS_EVWAIT; /* as the root finds it: its activation did not run it */
	CHECK(schedtree_wake_through(&ze[1]) == &ze[1]);
	cur = 0;
}

/* Z2, the woken one's parent, is looked at itself, picture or none: another child's news
 * (here, a kernel event of its own in its ring) makes its turn decide. */
TEST(a_wake_that_did_not_get_the_cpu_passes_its_parent_only_if_it_idles_with_it)
{
	z_wake_behind_b();
	schedtree_unmake(zc[4]); /* B goes: the kernel walks once more, the picture gone */
	zc[4] = 0;
	CHECK(schedtree_wake_through(&ze[1]) == &ze[1]); /* no picture: Z1 takes its turn */
	CHECK(schedtree_wake_through(&ze[2]) == &ze[3]); /* Z2 idles with Z3: passed */
	zreg[2].ev[zreg[2].ev_head++ % HR_KEV_RING] =
		(struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[2]->id };
	CHECK(schedtree_wake_through(&ze[2]) == &ze[2]);
	cur = 0;
}

/* The root's own event thread runs when Z3 and then B wake; neither gets the CPU.  B's
 * parent, the root, did not idle: B's wake is none to pass down to and leaves Z3's. */
TEST(a_wake_beside_under_a_parent_that_did_not_idle_leaves_the_deep_one_to_pass)
{
	zb_tree();
	CHECK(idles(&ze[3]) && resched_from == 0);
	cur = &ze[0];
	ze[0].state = HR_TS_READY;
	z_frame_for(3);
	z_frame_for(4);
	CHECK(cur == &ze[0] && ze[3].state == HR_TS_READY && ze[4].state == HR_TS_READY);
	CHECK(z_told(0));
	CHECK(schedtree_wake_through(&ze[1]) == &ze[3]);
	cur = 0;
}

/* Z3's walk stops at the root, which has news (B woke): the levels it passed make a picture
 * all the same, the root at its top, and a wake of Z3 behind B later passes them. */
TEST(a_walk_that_stops_at_a_turn_leaves_a_picture_of_the_levels_below_it)
{
	zb_tree();
	z_frame_for(4);
	CHECK(cur == &ze[3] && ze[4].state == HR_TS_READY);
	CHECK(!idles(&ze[3]) && cur == &ze[0]); /* the root takes its turn */
	ze[0].state = HR_TS_EVWAIT;		/* and runs B */
	zreg[0].ev_tail = zreg[0].ev_head;
	cur = &ze[4];
	z_frame_for(3);
	CHECK(cur == &ze[4] && ze[3].state == HR_TS_READY);
	CHECK(!idles(&ze[4]) && cur == &ze[0]); /* B idles; the root hears Z1 woke */
	CHECK(schedtree_wake_through(&ze[1]) == &ze[3]);
	cur = 0;
}

/* Z3 and W (zc[4]) side by side under Z2, as in walktwo-dD: Z3's walk to the top left the
 * picture; at the next tick both wake, Zfirst with the CPU, and Zfirst idles: its walk
 * stops at Z2, which has Zsecond to run and takes its turn (it reads its ring and its woke
 * bits, says Zsecond is all it has, and dispatches Zsecond's event thread).  Zsecond then
 * idles: Z2 is looked at, and the levels above, which Zfirst's walk did not reach, are as
 * the picture holds them, so the CPU idles without the walk.  A wake that follows still
 * reaches every level, as each next runs. */
static void
z_side_by_side_tick(int first, int second)
{
	ztree();
	zmake(4, zc[2]);
	z_alone();
	z3_woken();
	CHECK(idles(&ze[3]) && resched_from == 0); /* the picture: Z3's */
	cur = 0;
	z_frame_for(first);
	z_frame_for(second);
	CHECK(cur == &ze[first] && ze[second].state == HR_TS_READY);
	CHECK(!idles(&ze[first]) && cur == &ze[2]); /* Z2 has Zsecond to run: its turn */
	zreg[2].ev_tail = zreg[2].ev_head;
	memset(zreg[2].woke, 0, sizeof(zreg[2].woke));
	zreg[2].slot[ze[second].id].alone_until = FAR;
	zc[2]->evt_pending = 0;
	ze[2].state = HR_TS_EVWAIT;
	thd_dispatch(&ze[second], 0);
	points = 0;
	CHECK(idles(&ze[second]) && resched_from == 0);
	CHECK_EQ(points, 0); /* no walk */
	CHECK(last_told_idle(zc[2], zc[second]));
	cur = 0;
	z_frame_for(second);
	CHECK(cur == &ze[second]);
	thd_dispatch(&ze[0], 0);
	CHECK(z_told(0));
	cur = 0;
}

/* W idles first, the picture's origin Z3 second.  Before, W's walk marked every level it
 * shared with the picture's path changed, and Z3's walked them all, on every tick. */
TEST(a_walk_from_beside_that_stops_at_the_parting_leaves_the_levels_above_to_the_picture)
{
	z_side_by_side_tick(4, 3);
}

/* The two taking turns: Z3 idles first, and W, whose parent is on the picture's path,
 * second, the picture now its own.  Before, the picture changed hands at every tick, and
 * the second to idle, never its origin, walked every level. */
TEST(the_second_of_two_side_by_side_to_idle_passes_the_levels_above_on_the_other_s_picture)
{
	z_side_by_side_tick(3, 4);
}

/* Z3's event thread woke with the CPU (its parent Z2 told so, to read), and Z1's own event
 * thread preempted it; Z1's turn dispatches Z2's c^s.  Z2's one news is that Z3 woke, and
 * Z2 idles with Z3: its turn would only dispatch Z3 again, so Z3 resumes at once. */
TEST(a_child_whose_one_news_is_that_its_child_woke_with_the_cpu_is_resumed_past)
{
	ztree();
	z_alone();
	z3_woken();
	CHECK(zc[2]->evt_pending);
	zreg[1].slot[ze[1].id].prio = 5; /* Z1's event thread outranks Z2 */
	zreg[1].slot[ze[2].id].prio = 10;
	schedtree_post(zc[1], (struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[1]->id });
	CHECK(cur == &ze[1] && ze[1].preempted == &ze[3]);
	zreg[1].ev_tail = zreg[1].ev_head; /* its turn reads its ring */
	CHECK(schedtree_through(&ze[1], &ze[2], 0) == &ze[3]);
	/* with other news for Z2, its turn decides */
	ze[1].preempted = &ze[3]; /* the record, as it was */
	zreg[2].ev[zreg[2].ev_head++ % HR_KEV_RING] =
		(struct hr_kevent){ .type = HR_KEV_NET, .comp = zc[2]->id };
	CHECK(schedtree_through(&ze[1], &ze[2], 0) == &ze[2]);
	cur = 0;
}

/* ---- holds: a scheduler holds a child (a server out of budget), and nothing below runs ---- */

TEST(a_held_child_lets_nothing_below_it_run_on_an_idle_cpu)
{
	wtree();
	both_idle();
	root_reads();
	CHECK_EQ(sys_sched_hold(&er, eo.id, 1), 0);
	CHECK_EQ(wo->held_path, 1u << 1);
	CHECK_EQ(wi->held_path, 1u << 1); /* I is below O: held with it */
	CHECK_EQ(wu->held_path, 0);
	cur = 0;
	frame_for_i();
	CHECK(cur == &er);		/* R hears O woke; neither O nor I runs */
	CHECK(ei.state == HR_TS_READY); /* I has its frame to look at, later */
	CHECK(root_told_o_woke());
	CHECK_EQ(sys_sched_hold(&er, eo.id, 0), 0);
	CHECK_EQ(wi->held_path, 0);
	cur = 0;
}

TEST(a_hold_two_levels_down_stops_an_interrupt_that_would_preempt_at_the_root)
{
	wtree();
	both_idle();
	root_reads();
	wo->up_slot->prio = 1; /* O outranks U at R: I's frame would preempt U ... */
	CHECK_EQ(sys_sched_hold(&eo, ei.id, 1), 0);
	CHECK_EQ(wi->held_path, 1u << 2);
	cur = &tu;
	frame_for_i();
	CHECK(cur == &tu); /* ... but O holds I: U goes on */
	CHECK_EQ(sys_sched_hold(&eo, ei.id, 0), 0);
	ei.state = HR_TS_EVWAIT;
	frame_for_i();
	CHECK(cur == &ei); /* released: the same frame preempts */
	cur = 0;
}

TEST(sched_hold_refuses_anything_but_a_child_schedulers_cs_and_changes_nothing)
{
	wtree();
	CHECK_EQ(sys_sched_hold(&er, ti.id, 1), HR_EINVAL); /* a thread, no c^s */
	CHECK_EQ(sys_sched_hold(&er, ei.id, 1), HR_EINVAL); /* a grandchild's c^s */
	CHECK_EQ(sys_sched_hold(&er, 99, 1), HR_EINVAL);    /* no thread */
	CHECK_EQ(sys_sched_hold(&er, eo.id, 2), HR_EINVAL); /* 0 or 1 */
	wo->is_sched = 0;
	CHECK_EQ(sys_sched_hold(&eo, ei.id, 1), HR_EPERM); /* not a scheduler */
	wo->is_sched = 1;
	for (int i = 20; i < 24; i++)
		CHECK_EQ(comps[i].held_path, 0);
}

TEST(a_frame_for_a_demoted_subsystem_wakes_nobody_and_touches_no_region)
{
	wtree();
	both_idle();
	root_reads();
	wi->is_sched = 0; /* sched_demote: its region is unmapped, its ring and ports stay */
	wi->region = 0;
	wi->sub = wo; /* it is part of O's subsystem now */
	cur = 0;
	frame_for_i();
	CHECK(cur == 0);
	CHECK(!root_told_o_woke());
	/* the frame's work is charged to O, whose event thread's view shows it at once */
	uint64_t before = wreg[2].slot[eo.id].consumed;
	schedtree_charge(wi, 100);
	CHECK_EQ(wreg[2].slot[eo.id].consumed, before + 100);
}
