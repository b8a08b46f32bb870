/*
 * server.c - deferrable server budget arithmetic (server.h).
 */
#include "server.h"
#include "policy.h"

#include <string.h>

void
server_init(struct server *s, uint64_t budget, uint64_t period, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	s->budget = budget;
	s->period = period;
	s->left = budget;
	s->next = pol_time_add(now, period);
}

static void
miss_add(struct server *s, uint64_t n)
{
	s->misses = n > UINT32_MAX - s->misses ? UINT32_MAX : s->misses + (uint32_t) n;
}

void
server_advance(struct server *s, uint64_t t, int runnable, int busy)
{
	uint64_t ends;

	if (t < s->next || s->next == UINT64_MAX)
		return;
	ends = (t - s->next) / s->period + 1;
	if (!s->blocked && s->received < s->budget)
		miss_add(s, 1);
	/* Nothing was charged in the periods skipped since the first one ended. */
	if (ends > 1 && runnable && !busy)
		miss_add(s, ends - 1);
	s->next += ends * s->period; /* times stay far below 2^64 */
	s->left = s->budget;
	s->received = 0;
	s->blocked = !runnable;
}

void
server_block(struct server *s)
{
	s->blocked = 1;
}

static void
consume(struct server *s, uint64_t used)
{
	s->left -= used < s->left ? used : s->left;
	s->received = pol_time_add(s->received, used);
}

void
server_charge(struct server *s, uint64_t used, uint64_t now)
{
	uint64_t start = now > used ? now - used : 0;

	/* It was running since start, so runnable through any boundary before it. */
	server_advance(s, start, 1, 0);
	if (now <= s->next) {
		consume(s, used);
		return;
	}
	consume(s, s->next - start);
	server_advance(s, now, 1, 1);
	consume(s, now - (s->next - s->period));
}

uint64_t
server_exhaust_at(const struct server *s, uint64_t now)
{
	uint64_t out = pol_time_add(now, s->left);

	if (out < s->next)
		return out;
	/* Refilled before it runs dry: from then on it runs budget out of every period. */
	return s->budget < s->period ? pol_time_add(s->next, s->budget) : UINT64_MAX;
}
