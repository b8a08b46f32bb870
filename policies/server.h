/*
 * server.h - one deferrable server: `budget` time units every `period`, for ds.c and edf.c.
 *
 * Periods start at the time the server is created and follow each other back to back; at
 * every boundary the budget is refilled to full (periodic, not sporadic, replenishment).
 * Budget left over is kept until the boundary, so it may be used late in the period.
 * Boundaries are processed lazily: by server_advance, which every operation with a time
 * calls first, so a server's state is always that of its period containing `now`.
 */
#ifndef POLICIES_SERVER_H
#define POLICIES_SERVER_H

#include <stdint.h>

/* Invariants: left <= budget <= period; next - period <= last time seen < next. */
struct server {
	uint64_t budget, period;
	uint64_t left;	   /* budget left in the current period */
	uint64_t next;	   /* end of the current period: next refill and the EDF deadline */
	uint64_t received; /* time charged in the current period */
	uint32_t misses;   /* periods runnable throughout yet served less than budget */
	uint8_t blocked;   /* blocked at some time during the current period */
};

void server_init(struct server *s, uint64_t budget, uint64_t period, uint64_t now);
/*
 * Refill at every boundary <= t, counting misses for the periods that end.  `runnable`: the
 * entity's state since its last operation (it holds through every skipped period);
 * `busy`: it ran throughout them (a charge spanning the boundaries).
 */
void server_advance(struct server *s, uint64_t t, int runnable, int busy);
/* The entity blocks now (after server_advance to now). */
void server_block(struct server *s);
/* The entity ran for `used` time units ending at `now`; splits the time across the
 * boundaries it spans, so each period is charged its own part. */
void server_charge(struct server *s, uint64_t used, uint64_t now);
/* When the budget runs out if the entity runs continuously from now (budget left > 0),
 * UINT64_MAX if never (budget == period). */
uint64_t server_exhaust_at(const struct server *s, uint64_t now);

#endif
