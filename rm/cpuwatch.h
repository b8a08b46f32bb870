/*
 * cpuwatch.h - what CPU each reservation of this subsystem actually receives, from the
 * kernel's accounting of its scheduler entity (sched_consumed): for the experiments and
 * tests that check that reservations hold (rtmix, rogue).  Call from a task of ours.
 */
#ifndef RM_CPUWATCH_H
#define RM_CPUWATCH_H

#include <stdint.h>

struct cpuwatch {
	const char *name;	 /* the child or task, as the manifest names it */
	uint32_t kind;		 /* enum res_kind (RES_NONE: best effort) */
	uint32_t budget, period; /* its reservation, in ticks (0 0 for best effort) */
	long ent;		 /* its scheduler entity, negative if it has none */
	uint32_t born;		 /* which entity ent was when the window opened (sched_born) */
	uint64_t from;		 /* CPU charged to it when the window opened (TSC ticks) */
	uint64_t last;		 /* ... when cpuwatch_sample last looked */
};

/* Every child or task of ours that our descriptor gives a CPU reservation, up to max:
 * how many. */
unsigned cpuwatch_find(struct cpuwatch *w, unsigned max);
/* The same, best-effort children and tasks included (expected share 0). */
unsigned cpuwatch_find_all(struct cpuwatch *w, unsigned max);
/* Open a window for w[0..n) now: the TSC. */
uint64_t cpuwatch_open(struct cpuwatch *w, unsigned n);

/* What a share reads as once w is gone: its entity removed (the child or task exited or
 * faulted), even if its number now names another.  What it received is no longer
 * readable, so no figure is made up for it. */
#define CPUWATCH_GONE (-1.0)
/* Is w gone since its window opened (or had it no entity then)? */
int cpuwatch_gone(const struct cpuwatch *w);
/* CPU charged to w since the last sample (or the window's opening), as a percentage of
 * `elapsed` TSC ticks; moves the sample point to now.  CPUWATCH_GONE if gone. */
double cpuwatch_sample(struct cpuwatch *w, uint64_t elapsed);
/* Its share of the window so far, opened at TSC t0, in percent; CPUWATCH_GONE if gone. */
double cpuwatch_share(const struct cpuwatch *w, uint64_t t0);
/* budget/period in percent. */
double cpuwatch_expected(const struct cpuwatch *w);
/* Is got within tolerance percentage points of want?  Never for CPUWATCH_GONE. */
int cpuwatch_near(double got, double want, double tolerance);

#endif
