/* fakecpu.c - the fake CPU and kernel of the scheduler core's host tests (fakecpu.h). */
#include "fakecpu.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static void
trace_add(struct trace *t, uint64_t a, uint64_t b)
{
	if (a >= b)
		return;
	if (t->n && t->s[t->n - 1].b == a) {
		t->s[t->n - 1].b = b;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		if (!(t->s = realloc(t->s, t->cap * sizeof(*t->s))))
			abort();
	}
	t->s[t->n++] = (struct span){ a, b };
}

/* The first span of t that ends after a. */
static size_t
trace_from(const struct trace *t, uint64_t a)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->s[mid].b <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
fake_init(struct fake *f, const char *policy, uint64_t slice_ticks)
{
	memset(f, 0, sizeof(*f));
	CHECK_EQ(schedcore_init(&f->c, policy_find(policy), FAKE_TICK, slice_ticks * FAKE_TICK, 0),
		 0);
	f->r.tick_tsc = FAKE_TICK;
	f->r.slot[FAKE_EVT_TID].prio = 0;
}

long
fake_add(struct fake *f, enum ent_kind kind, uint32_t prio, uint32_t kind_res, uint32_t server,
	 uint64_t budget, uint64_t period, uint64_t work)
{
	struct pol_param p = { .prio = prio,
			       .kind = kind_res,
			       .budget = budget * FAKE_TICK,
			       .period = period * FAKE_TICK,
			       .server = server };
	uint32_t tid = 2;
	long id;

	while (schedcore_find(&f->c, tid) >= 0)
		tid++;
	id = schedcore_add(&f->c, &f->r, kind, tid, &p, 0, f->now);
	CHECK(id >= 0 && id < POL_MAX);
	if (id < 0)
		return id;
	f->t[id] = (struct fake_thd){ .tid = tid, .runnable = 1, .work = work, .pause = 1 };
	f->t[id].next_work = work;
	return id;
}

void
fake_start(struct fake *f)
{
	schedcore_start_periods(&f->c, f->now);
}

/* What the region says must hold after every decision: 0 is the event thread's alone,
 * every entity's priority is a real one or HR_PRIO_IDLE, a thread that may not run now
 * (blocked in the core) never preempts anything, and the kernel holds exactly the children
 * published idle (what rm/sched.c tells it from schedcore_holds; kernel/schedtree.c reads
 * the holds, not the priorities, below the level where it decides). */
static void
check_published(struct fake *f)
{
	POL_FOR_EACH(id, schedcore_holds(&f->c))
	{
		CHECK_EQ(f->c.ent[id].kind, ENT_CHILD);
		CHECK(f->held[id] != f->c.ent[id].held); /* a change, never a repeat */
		f->held[id] = f->c.ent[id].held;
	}
	CHECK_EQ(f->r.slot[FAKE_EVT_TID].prio, 0);
	SCHEDCORE_FOR_EACH(id, &f->c)
	{
		const struct sched_ent *e = &f->c.ent[id];
		int32_t p = f->r.slot[e->tid].prio;
		CHECK(p >= 1 && p <= HR_PRIO_IDLE);
		if (e->kind == ENT_THREAD && e->blocked)
			CHECK_EQ(p, HR_PRIO_IDLE);
		if (e->kind == ENT_CHILD)
			CHECK_EQ(f->held[id], p == HR_PRIO_IDLE);
	}
}

/* The kernel's side of a turn: our layer hears a child's news; a thread whose pause is
 * over wants to run again, and one blocked until an outside event is woken by it. */
static void
scripts(struct fake *f)
{
	SCHEDCORE_FOR_EACH(id, &f->c)
	{
		struct fake_thd *t = &f->t[id];
		if (f->kev[id] == HR_KEV_WAKE)
			schedcore_wake(&f->c, (long) id, f->now);
		else if (f->kev[id] == HR_KEV_IDLE)
			schedcore_block(&f->c, (long) id, 0, f->now);
		f->kev[id] = 0;
		if (t->runnable || t->wish > f->now || f->c.ent[id].kind == ENT_CHILD)
			continue;
		t->runnable = 1;
		if (t->outside)
			schedcore_wake(&f->c, (long) id, f->now);
		t->outside = 0;
	}
}

/* One turn of the loop at f->now, in rm/sched.c's order; the time to be woken at. */
static int32_t
turn(struct fake *f, uint64_t *at)
{
	int32_t id;
	uint32_t tid;
	uint64_t flags;

	schedcore_charge(&f->c, &f->r, f->now);
	scripts(f);
	schedcore_requests(&f->c, f->now);
	schedcore_timers(&f->c, f->now);
	id = schedcore_choose(&f->c, &f->r, f->now);
	check_published(f);
	*at = schedcore_timer(&f->c, f->now, UINT64_MAX, f->now, id == POL_IDLE);
	tid = schedcore_dispatch(&f->c, id, &flags);
	CHECK(id == POL_IDLE ? tid == 0 : tid == f->t[id].tid);
	if (id != POL_IDLE) { /* rm/sched.c: alone_mark; an idle turn leaves it */
		f->alone_until = schedcore_alone(&f->c, id, f->now);
		f->alone = id;
	}
	f->turns++;
	if (f->on_turn)
		f->on_turn(f, id);
	return id;
}

/* The earliest outside event still to come (UINT64_MAX: none). */
static uint64_t
next_outside(const struct fake *f)
{
	uint64_t t = UINT64_MAX;

	SCHEDCORE_FOR_EACH(id, &f->c)
	if (!f->t[id].runnable && f->t[id].outside)
		t = pol_time_min(t, f->t[id].wish);
	return t;
}

/* Entity id's thread has done its work: it asks to sleep (or block) and stops; a child
 * goes idle, which the kernel tells us. */
static void
stop(struct fake *f, long id)
{
	struct fake_thd *t = &f->t[id];
	struct sched_ent *e = &f->c.ent[id];

	if (f->on_stop)
		f->on_stop(f, id);
	if (e->kind == ENT_CHILD)
		t->block = 1;
	t->runnable = 0;
	t->outside = t->block;
	t->wish = f->now + (t->pause ? t->pause : 1);
	t->work = t->next_work ? t->next_work : 1;
	trace_add(&t->off, f->now, t->wish);
	if (e->kind == ENT_CHILD) {
		f->kev[id] = HR_KEV_IDLE;
		return;
	}
	schedcore_ask(&f->c, id, t->block ? REQ_BLOCK : REQ_SLEEP, t->block ? 0 : t->wish);
}

/* May a child woken by its own timer preempt what runs?  Published priorities decide. */
static int
preempts(const struct fake *f, long id)
{
	int32_t p = f->r.slot[f->t[id].tid].prio;

	if (f->cur == POL_IDLE)
		return p != HR_PRIO_IDLE;
	return p < f->r.slot[f->t[f->cur].tid].prio;
}

/* Outside events due now (a child's own timer, what wakes a blocked thread): 1 if our
 * event thread must have a turn. */
static int
outside_events(struct fake *f, int turn_anyway)
{
	int turn = 0;

	SCHEDCORE_FOR_EACH(id, &f->c)
	{
		struct fake_thd *t = &f->t[id];
		if (t->runnable || !t->outside || t->wish > f->now)
			continue;
		if (f->c.ent[id].kind != ENT_CHILD) {
			turn = 1; /* our layer wakes it (scripts) */
			continue;
		}
		t->runnable = 1;
		t->outside = 0;
		f->kev[id] = HR_KEV_WAKE;
		if (!turn_anyway && !turn && preempts(f, (long) id)) {
			if (f->cur != POL_IDLE)
				trace_add(&f->t[f->cur].robbed, f->now, f->now + 1);
			f->cur = (int32_t) id; /* quietly: our next turn hears of it */
			f->quiet++;
		} else {
			turn = 1;
		}
	}
	return turn;
}

/* Child id idled: does the kernel idle us with it (kernel/schedtree.c: idles_with)? */
static int
idles_with(const struct fake *f, long id)
{
	if (f->alone != id || f->now >= f->alone_until)
		return 0;
	SCHEDCORE_FOR_EACH(x, &f->c)
	if ((long) x != id && f->kev[x]) /* news besides */
		return 0;
	return 1;
}

/* Run what is on the CPU until end (or until its work is done): 1 if it stopped and we
 * must take a turn. */
static int
run(struct fake *f, uint64_t end)
{
	struct fake_thd *t;

	if (f->cur == POL_IDLE) {
		f->idle += end - f->now;
		f->now = end;
		return 0;
	}
	t = &f->t[f->cur];
	CHECK(t->runnable); /* never on the CPU while it asked not to run */
	if (t->work != FAKE_SPIN && t->work < end - f->now)
		end = f->now + t->work;
	f->r.slot[t->tid].consumed += end - f->now;
	trace_add(&t->ran, f->now, end);
	if (t->work != FAKE_SPIN)
		t->work -= end - f->now;
	f->now = end;
	if (t->work)
		return 0;
	stop(f, f->cur);
	if (f->c.ent[f->cur].kind == ENT_CHILD && idles_with(f, f->cur)) {
		f->cur = POL_IDLE;
		f->idled_with++;
		return 0;
	}
	return 1;
}

void
fake_run(struct fake *f, uint64_t until)
{
	int need = 1; /* every call starts with a turn */

	while (f->now < until && !check_failed_now) {
		uint64_t end;

		if (need)
			f->cur = turn(f, &f->at);
		end = pol_time_min(pol_time_min(f->at, until), next_outside(f));
		CHECK(end > f->now);
		need = run(f, end) || f->now >= f->at;
		need |= outside_events(f, need);
	}
}

uint64_t
fake_ran(const struct fake *f, long id, uint64_t a, uint64_t b)
{
	const struct trace *t = &f->t[id].ran;
	uint64_t sum = 0;

	for (size_t i = trace_from(t, a); i < t->n && t->s[i].a < b; i++) {
		uint64_t x = t->s[i].a > a ? t->s[i].a : a, y = t->s[i].b < b ? t->s[i].b : b;
		sum += y - x;
	}
	return sum;
}

static int
trace_meets(const struct trace *t, uint64_t a, uint64_t b)
{
	size_t i = trace_from(t, a);

	return i < t->n && t->s[i].a < b;
}

int
fake_off(const struct fake *f, long id, uint64_t a, uint64_t b)
{
	return trace_meets(&f->t[id].off, a, b);
}

int
fake_robbed(const struct fake *f, long id, uint64_t a, uint64_t b)
{
	return trace_meets(&f->t[id].robbed, a, b);
}

void
fake_free(struct fake *f)
{
	for (int i = 0; i < POL_MAX; i++) {
		free(f->t[i].ran.s);
		free(f->t[i].off.s);
		free(f->t[i].robbed.s);
	}
}
