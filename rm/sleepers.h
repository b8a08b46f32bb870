/*
 * sleepers.h - the table of children's threads sleeping in our services until a time:
 * room for every child's share (SLEEPERS_PER_CHILD, events.h), the due ones, the earliest
 * still to come.  Pure (no lock, no system call): events.c holds the lock around it and
 * wakes the threads; rm/test/sleepers_test.c tests it on the host.
 */
#ifndef RM_SLEEPERS_H
#define RM_SLEEPERS_H

#include <stdint.h>

struct sleeper {
	uint32_t tid, child; /* child: its id in our table */
	uint64_t until;
};

struct sleepers {
	struct sleeper *s;   /* room for every child's SLEEPERS_PER_CHILD */
	uint64_t *busy;	     /* bit i: s[i] is in use */
	int words;	     /* of busy */
	volatile unsigned n; /* slots in use: the scheduler's every turn skips an empty table
				without the lock */
};

/* Room for the sleepers of up to `children` children: 0 or HR_ENOMEM. */
long sleepers_init(struct sleepers *t, unsigned children);
/* Thread tid of child `child`, which has `asleep` threads in the table already, sleeps
 * until `until`: its slot, or HR_ENOMEM (SLEEPERS_PER_CHILD of its threads sleep here
 * already: only its own sleepers can refuse a child). */
long sleepers_add(struct sleepers *t, uint32_t tid, uint32_t child, unsigned asleep,
		  uint64_t until);
/* Free slot i. */
void sleepers_vacate(struct sleepers *t, int i);
/* The first slot from `from` on whose sleeper is due by now, or -1. */
int sleepers_due(const struct sleepers *t, uint64_t now, int from);
/* The earliest time a sleeper left in the table is due (0: none). */
uint64_t sleepers_earliest(const struct sleepers *t);
/* Free every slot of child `child`, writing their threads to tids[0 .. max): how many. */
unsigned sleepers_forget(struct sleepers *t, uint32_t child, uint32_t *tids, unsigned max);

#endif
