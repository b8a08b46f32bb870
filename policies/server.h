/*
 * server.h - one server: `budget` time units every `period`, the enforcement of every CPU
 * reservation under every policy (base.c gives each reserved entity one).
 *
 * Two kinds of replenishment:
 * - deferrable: periods follow each other back to back from the time the server is made;
 *   at every boundary the budget is full again, and what is left is kept until the
 *   boundary.  Cheap and simple, but a server that holds its budget to the end of one
 *   period and has it again at the start of the next runs 2 * budget back to back (the
 *   "double hit" on lower priorities; admit.c analyses it as release jitter).
 * - sporadic (Sprunt's sporadic server, POSIX SCHED_SPORADIC): what a run uses comes back
 *   one period after its activation, the time since which the entity was runnable with
 *   that budget: each piece of budget is a job released at its activation, at most once a
 *   period, and the server interferes exactly like a periodic task (the admission test's
 *   model).  Not one period after the run started: a run starts late whenever something
 *   more urgent holds it up (the scheduler's timer served up to its grain late, the
 *   scheduler's own turn, an interrupt), and a refill counted from the late start would
 *   keep every such delay; an entity that stays runnable would drift against its grid
 *   until its runs straddled a boundary, and from then on miss a period at every further
 *   delay (a flood beside a hard 3/10 task, tests/images/test-net).  Counted from the
 *   activation, a runnable entity's refills keep their phase: a delay costs the period it
 *   happens in, which still gets its budget as long as the delay is below period -
 *   budget.  The price: a run held up by d may be followed at its next activation by
 *   the next, so a window of `period` may see up to budget + d, as a periodic task's
 *   late job followed by its next one would.  A run the scheduler charged in pieces (a
 *   turn of its own in between) is one activation, and comes back as one piece.
 *   Pending refills are a short list.  A run that starts g after the last one recorded
 *   ended (the runs laid end to end from their activations) is merged into that one's
 *   refill when g is at most the scheduler's timer grain, or when the list is full, and
 *   the merged refill comes back g later: the two runs are then as one continuous run
 *   that started g later, whose refill a period on is safe, so the server may get a little
 *   less, never more.  A piece smaller than the grain that comes back alone is folded into
 *   the next refill rather than left to be forfeited (and to come back alone again)
 *   period after period.
 *
 * Both keep the same grid of periods from the time the server is made, for deadline-miss
 * accounting (and, for a deferrable server, EDF's deadline).  Everything is lazy:
 * server_advance, which every operation with a time calls first, brings a server to `now`.
 */
#ifndef POLICIES_SERVER_H
#define POLICIES_SERVER_H

#include <stdint.h>

#define SERVER_REFILLS 6 /* pending refills of a sporadic server */

struct server_refill {
	uint64_t at;	 /* when the amount comes back */
	uint64_t amount; /* time units */
};

/*
 * Invariants: left <= budget <= period; next - period <= last time seen < next.
 * Sporadic: left + the amounts of refill[0 .. nrefill) == budget, refill[].at increasing
 * and every refill[].at > the last time seen.
 */
struct server {
	uint64_t budget, period;
	uint64_t left;	   /* budget that may be used now */
	uint64_t next;	   /* end of the current period of the grid */
	uint64_t received; /* time charged in the current period of the grid */
	uint32_t misses;   /* grid periods runnable throughout yet served less than budget */
	uint8_t blocked;   /* blocked at some time during the current grid period */
	uint8_t sporadic;  /* 1: sporadic replenishment, 0: deferrable */
	uint8_t nrefill;
	uint8_t pad;
	uint64_t grain;	   /* the scheduler's timer resolution (sporadic refills) */
	uint64_t last_end; /* sporadic: end of the last run whose use is in refill[], the runs
			    * laid end to end from their activations */
	uint64_t ready_at; /* sporadic: runnable since; UINT64_MAX while blocked */
	uint64_t left_at;  /* sporadic: when the latest of the budget in `left` came */
	struct server_refill refill[SERVER_REFILLS];
};

void server_init(struct server *s, uint64_t budget, uint64_t period, int sporadic, uint64_t now);
/*
 * Bring s to time t: refills due by t, and for every grid boundary <= t the misses of the
 * period that ends.  `runnable`: the entity's state since its last operation (it holds
 * through every skipped period); `busy`: it ran throughout them (a charge spanning them).
 */
void server_advance(struct server *s, uint64_t t, int runnable, int busy);
/* The entity blocks now (after server_advance to now). */
void server_block(struct server *s);
/* The entity, blocked, wakes now (after server_advance to now): a sporadic server's next
 * activation is no earlier. */
void server_wake(struct server *s, uint64_t now);
/*
 * The entity wakes now (after server_advance to now), under EDF: the constant-bandwidth
 * rule.  If what is left cannot be used by the deadline at the server's rate (left/
 * (next - now) > budget/period), the server starts a fresh period now, full, with its
 * deadline a period away; otherwise a deferred budget would crowd out servers that
 * stayed runnable (the double hit), which EDF's utilization test does not allow for.
 */
void server_wake_cbs(struct server *s, uint64_t now);
/* The entity ran for `used` time units ending at `now`, continuously.  Each grid period is
 * charged its own part; a sporadic server schedules the refill of what it used. */
void server_charge(struct server *s, uint64_t used, uint64_t now);
/* When the budget runs out if the entity runs continuously from now, counting the budget
 * that comes back meanwhile; UINT64_MAX if never (budget == period). */
uint64_t server_exhaust_at(const struct server *s, uint64_t now);
/* When an exhausted server has budget again (UINT64_MAX: never). */
uint64_t server_refill_at(const struct server *s);

#endif
