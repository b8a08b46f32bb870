/*
 * sim.h - a fake CPU for the policy tests: one policy instance, a clock and the time each
 * id ran.  Every entity is CPU-bound; tests block and wake them between sim_run calls.
 */
#ifndef POLICIES_TEST_SIM_H
#define POLICIES_TEST_SIM_H

#include "../policy.h"

#define SIM_STATE_MAX 16384

struct sim {
	const struct policy *pol;
	uint64_t now;
	uint64_t tick;	       /* timer period: the loop also stops at every multiple */
	uint64_t ran[POL_MAX]; /* time charged to each id */
	uint64_t idle;
	_Alignas(8) unsigned char st[SIM_STATE_MAX];
};

/* A fresh instance of the named policy (which must exist) at time 0. */
void sim_init(struct sim *s, const char *policy, uint64_t slice, uint64_t tick);
int sim_add(struct sim *s, uint32_t id, uint32_t prio, uint32_t kind, uint64_t budget,
	    uint64_t period);
/* Run until `until`: pick, run the pick to min(next_event, next tick, until), charge it. */
void sim_run(struct sim *s, uint64_t until);
/* The policy's pick() and next_event() at `now` (not moving the clock). */
int32_t sim_pick(struct sim *s, uint64_t now);
uint64_t sim_next_event(struct sim *s, uint64_t now);
/* Forget the run times measured so far. */
void sim_reset_ran(struct sim *s);

#endif
