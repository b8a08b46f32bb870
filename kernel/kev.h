/*
 * kev.h - the ring of kernel events in a scheduler's region (abi/hr_sched.h), kernel side.
 *
 * Two kinds of event.  Exits and faults happen once per object and must never be lost;
 * notices about a child scheduler (it went idle, its timer woke it) only say what its state
 * is now: a wake-up is a bit (abi/hr_sched.h, woke), and an idle notice replaces an older
 * one still waiting in the ring, so a child that idles and wakes a thousand times costs its
 * parent at most two entries, never the room an exit needs.  The scheduler consumes
 * entries by copying the one at its tail and then advancing the tail, so the entry at the
 * tail may be half-read and is never rewritten.  Should the ring fill anyway, the event is
 * counted in ev_lost and the scheduler must resynchronise from the objects' states
 * (comp_state, thread slots).
 * Pure: no hardware, host-tested (kernel/test/kev_test.c).
 */
#ifndef KEV_H
#define KEV_H

#include <stdint.h>
#include "abi/hr_sched.h"

/* The kernel's own copy of a ring's head and loss count: the region's are untrusted. */
struct kev_q {
	uint32_t head, lost;
};

/* Where a child's latest notice sits in its parent's ring (pos valid while set). */
struct kev_notice {
	uint32_t pos;
	uint8_t set;
	uint8_t idle; /* the latest said HR_KEV_IDLE: the parent sees the child blocked */
};

/* Append ev; 0, or HR_ENOMEM when the ring is full (counted as lost). */
int kev_put(struct kev_q *q, struct hr_sched_region *r, struct hr_kevent ev);
/* Child comp's word and bit of r->woke: set for its wake-up (kev_notice, HR_KEV_WAKE, or
 * with both kept at promotion: schedtree.c), cleared by its idle notice. */
static inline uint64_t *
kev_woke_word(struct hr_sched_region *r, uint16_t comp)
{
	return &r->woke[comp / 64 % (HR_COMP_MAX / 64)];
}
static inline uint64_t
kev_woke_bit(uint16_t comp)
{
	return 1ull << comp % 64;
}
/* A notice about the child whose record is n: HR_KEV_WAKE sets its bit of r->woke;
 * HR_KEV_IDLE clears it, and is appended unless its previous one still waits beyond the
 * tail (abi/hr_sched.h). */
int kev_notice(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n, uint16_t type,
	       uint16_t comp);

#endif
