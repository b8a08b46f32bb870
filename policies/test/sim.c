/* sim.c - the fake CPU of the policy tests (sim.h). */
#include "sim.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

void
sim_init(struct sim *s, const char *policy, uint64_t slice, uint64_t tick)
{
	memset(s, 0, sizeof(*s));
	s->pol = policy_find(policy);
	if (!s->pol || s->pol->size > sizeof(s->st))
		abort();
	s->tick = tick;
	s->pol->init(s->st, 0, slice);
}

int
sim_add(struct sim *s, uint32_t id, uint32_t prio, uint32_t kind, uint64_t budget, uint64_t period)
{
	struct pol_param p = { .prio = prio, .kind = kind, .budget = budget, .period = period };

	return s->pol->add(s->st, id, &p, s->now);
}

void
sim_run(struct sim *s, uint64_t until)
{
	while (s->now < until) {
		int32_t p = s->pol->pick(s->st, s->now);
		uint64_t t = s->pol->next_event(s->st, s->now);

		if (s->tick)
			t = pol_time_min(t, (s->now / s->tick + 1) * s->tick);
		t = pol_time_min(t, until);
		if (t <= s->now) {
			check_fail(__FILE__, __LINE__, "next_event is not in the future");
			return;
		}
		if (p == POL_IDLE) {
			s->idle += t - s->now;
		} else {
			s->ran[p] += t - s->now;
			s->pol->charge(s->st, (uint32_t) p, t - s->now, t);
		}
		s->now = t;
	}
}

int32_t
sim_pick(struct sim *s, uint64_t now)
{
	return s->pol->pick(s->st, now);
}

uint64_t
sim_next_event(struct sim *s, uint64_t now)
{
	return s->pol->next_event(s->st, now);
}

void
sim_reset_ran(struct sim *s)
{
	memset(s->ran, 0, sizeof(s->ran));
	s->idle = 0;
}
