/*
 * server.c - server budget arithmetic, deferrable and sporadic (server.h).
 */
#include "server.h"
#include "policy.h"

#include <string.h>

void
server_init(struct server *s, uint64_t budget, uint64_t period, int sporadic, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	s->budget = budget;
	s->period = period;
	s->left = budget;
	s->sporadic = (uint8_t) (sporadic != 0);
	s->next = pol_time_add(now, period);
	s->ready_at = now; /* entities start runnable */
	s->left_at = now;
}

static void
miss_add(struct server *s, uint64_t n)
{
	s->misses = n > UINT32_MAX - s->misses ? UINT32_MAX : s->misses + (uint32_t) n;
}

static void
refill_pop(struct server *s)
{
	s->left += s->refill[0].amount;
	s->left_at = s->refill[0].at;
	s->nrefill--;
	memmove(&s->refill[0], &s->refill[1], s->nrefill * sizeof(s->refill[0]));
}

/* Sporadic: the refills due by t are budget again; what that leaves below the grain goes
 * with the next refill instead (later: safe). */
static void
refills_due(struct server *s, uint64_t t)
{
	int popped = 0;

	while (s->nrefill && s->refill[0].at <= t)
		refill_pop(s), popped = 1;
	if (popped && s->left && s->left < s->grain && s->nrefill) {
		s->refill[0].amount += s->left;
		s->left = 0;
	}
}

/* Sporadic: `amount` used from `from` on (its activation) comes back a period later.  The
 * runs recorded are laid end to end from their activations (last_end): a piece of the same
 * activation as the last one continues it.  A full list takes it into its last refill,
 * which moves later: less budget, never more. */
static void
refill_push(struct server *s, uint64_t from, uint64_t amount)
{
	uint64_t start = from > s->last_end ? from : s->last_end, gap = start - s->last_end;
	struct server_refill *last;

	if (!amount)
		return;
	last = s->nrefill ? &s->refill[s->nrefill - 1] : 0;
	s->last_end = start + amount;
	if (last && (s->nrefill == SERVER_REFILLS || gap <= s->grain)) {
		last->amount += amount;
		last->at = pol_time_add(last->at, gap);
		return;
	}
	s->refill[s->nrefill++] = (struct server_refill){ pol_time_add(start, s->period), amount };
}

void
server_advance(struct server *s, uint64_t t, int runnable, int busy)
{
	uint64_t ends;

	if (s->sporadic)
		refills_due(s, t);
	if (t < s->next || s->next == UINT64_MAX)
		return;
	ends = (t - s->next) / s->period + 1;
	if (!s->blocked && s->received < s->budget)
		miss_add(s, 1);
	/* Nothing was charged in the periods skipped since the first one ended. */
	if (ends > 1 && runnable && !busy)
		miss_add(s, ends - 1);
	s->next += ends * s->period; /* times stay far below 2^64 */
	if (!s->sporadic)
		s->left = s->budget;
	s->received = 0;
	s->blocked = !runnable;
}

void
server_block(struct server *s)
{
	s->blocked = 1;
	s->ready_at = UINT64_MAX;
}

void
server_wake(struct server *s, uint64_t now)
{
	s->ready_at = now;
}

void
server_wake_cbs(struct server *s, uint64_t now)
{
	/* left * period > (next - now) * budget, in 128 bits: times may be large */
	if ((unsigned __int128) s->left * s->period <=
	    (unsigned __int128) (s->next - now) * s->budget)
		return;
	s->next = pol_time_add(now, s->period);
	s->left = s->budget;
	s->received = 0;
	s->blocked = 0;
}

/*
 * Sporadic: when the budget used by a run that started at `start` became the entity's to
 * use (its activation, as Sprunt's sporadic server sets the replenishment time): since it
 * was runnable with that budget, however much later it got the CPU.  A delay before the
 * run (a scheduler's timer served late, its own turn, an interrupt) then delays this
 * period's run only, and not every refill after it.  While blocked it is the run's start.
 * Never so early that the refill would be due before the run ended (now).
 */
static uint64_t
activation(const struct server *s, uint64_t start, uint64_t now)
{
	uint64_t ready = s->ready_at > s->left_at ? s->ready_at : s->left_at;
	uint64_t earliest = now >= s->period ? now - s->period + 1 : 0;

	ready = ready < start ? ready : start;
	return ready > earliest ? ready : earliest;
}

/*
 * Sporadic: the entity ran through [start, now].  It uses what it has, then whatever comes
 * back before now, each piece from the moment it came; time with no budget (an overrun the
 * scheduler's timer could not prevent, a soft reservation in the background) uses none.
 * Each piece comes back a period after its activation: what it had, from when it could
 * have run it; what came back during the run, from when it came.
 */
static void
sporadic_use(struct server *s, uint64_t start, uint64_t now)
{
	uint64_t t = start, from;

	refills_due(s, start);
	from = activation(s, start, now);
	for (;;) {
		uint64_t run = pol_time_min(s->left, now - t);
		s->left -= run;
		refill_push(s, from, run);
		t += run;
		if (t >= now || !s->nrefill || s->refill[0].at >= now)
			return;
		if (s->refill[0].at > t)
			t = s->refill[0].at;
		from = s->refill[0].at;
		refill_pop(s);
	}
}

/* Grid accounting of `used` within one grid period; a deferrable server's budget too. */
static void
use(struct server *s, uint64_t used)
{
	if (!s->sporadic)
		s->left -= used < s->left ? used : s->left;
	s->received = pol_time_add(s->received, used);
}

void
server_charge(struct server *s, uint64_t used, uint64_t now)
{
	uint64_t start = now > used ? now - used : 0;

	if (s->sporadic)
		sporadic_use(s, start, now);
	/* It was running since start, so runnable through any boundary before it. */
	server_advance(s, start, 1, 0);
	if (now <= s->next) {
		use(s, now - start);
		return;
	}
	use(s, s->next - start);
	server_advance(s, now, 1, 1);
	use(s, now - (s->next - s->period));
}

uint64_t
server_exhaust_at(const struct server *s, uint64_t now)
{
	uint64_t out = pol_time_add(now, s->left);

	if (s->budget >= s->period)
		return UINT64_MAX;
	if (s->sporadic) {
		/* budget that comes back before it runs dry keeps it going */
		for (unsigned i = 0; i < s->nrefill && s->refill[i].at <= out; i++)
			out = pol_time_add(out, s->refill[i].amount);
		return out;
	}
	if (out < s->next)
		return out;
	/* Refilled before it runs dry: from then on it runs budget out of every period. */
	return pol_time_add(s->next, s->budget);
}

uint64_t
server_refill_at(const struct server *s)
{
	if (s->sporadic)
		return s->nrefill ? s->refill[0].at : UINT64_MAX;
	return s->next;
}
