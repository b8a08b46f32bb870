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
 * every entity's priority is a real one or HR_PRIO_IDLE, and a thread that may not run
 * now (blocked in the core) never preempts anything. */
static void
check_published(struct fake *f)
{
	CHECK_EQ(f->r.slot[FAKE_EVT_TID].prio, 0);
	SCHEDCORE_FOR_EACH(id, &f->c)
	{
		const struct sched_ent *e = &f->c.ent[id];
		int32_t p = f->r.slot[e->tid].prio;
		CHECK(p >= 1 && p <= HR_PRIO_IDLE);
		if (e->kind == ENT_THREAD && e->blocked)
			CHECK_EQ(p, HR_PRIO_IDLE);
	}
}

/* The script's side of a turn: threads whose pause is over want to run again; one blocked
 * until an outside event is woken by it, as our layer does on a kernel event. */
static void
scripts(struct fake *f)
{
	SCHEDCORE_FOR_EACH(id, &f->c)
	{
		struct fake_thd *t = &f->t[id];
		if (t->runnable || t->wish > f->now)
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

	schedcore_charge(&f->c, &f->r, f->now);
	scripts(f);
	schedcore_requests(&f->c, f->now);
	schedcore_timers(&f->c, f->now);
	id = schedcore_choose(&f->c, &f->r, f->now);
	check_published(f);
	*at = schedcore_arm_time(&f->c, schedcore_next_wakeup(&f->c, f->now, UINT64_MAX), f->now);
	tid = schedcore_dispatch(&f->c, &f->r, id, 0);
	CHECK(id == POL_IDLE ? tid == 0 : tid == f->t[id].tid);
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

/* Entity id's thread has done its work: it asks to sleep (or block) and stops. */
static void
stop(struct fake *f, long id)
{
	struct fake_thd *t = &f->t[id];
	struct sched_ent *e = &f->c.ent[id];

	if (f->on_stop)
		f->on_stop(f, id);
	t->runnable = 0;
	t->outside = t->block;
	t->wish = f->now + (t->pause ? t->pause : 1);
	t->work = t->next_work ? t->next_work : 1;
	trace_add(&t->off, f->now, t->wish);
	e->req_arg = t->block ? 0 : t->wish;
	e->req = t->block ? REQ_BLOCK : REQ_SLEEP;
}

void
fake_run(struct fake *f, uint64_t until)
{
	while (f->now < until && !check_failed_now) {
		uint64_t at, end;
		int32_t id = turn(f, &at);
		struct fake_thd *t;

		end = pol_time_min(pol_time_min(at, until), next_outside(f));
		CHECK(end > f->now);
		if (id == POL_IDLE) {
			f->idle += end - f->now;
			f->now = end;
			continue;
		}
		t = &f->t[id];
		CHECK(t->runnable); /* never dispatched while it asked not to run */
		if (t->work != FAKE_SPIN && t->work < end - f->now)
			end = f->now + t->work;
		f->r.slot[t->tid].consumed += end - f->now;
		trace_add(&t->ran, f->now, end);
		if (t->work != FAKE_SPIN)
			t->work -= end - f->now;
		f->now = end;
		if (t->work == 0)
			stop(f, id);
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

int
fake_off(const struct fake *f, long id, uint64_t a, uint64_t b)
{
	const struct trace *t = &f->t[id].off;
	size_t i = trace_from(t, a);

	return i < t->n && t->s[i].a < b;
}

void
fake_free(struct fake *f)
{
	for (int i = 0; i < POL_MAX; i++) {
		free(f->t[i].ran.s);
		free(f->t[i].off.s);
	}
}
