/*
 * ptq.h - page tables charged to the component whose address space they build.
 *
 * Tables come from one pool carved at boot.  A component may hold at most G pairs plus one
 * per PTQ_PAGES_PER_PAIR pages of its memory bound, so what a subtree can take grows only
 * with the memory its parent gave it; and the pool always keeps back what every live
 * component still has guaranteed, so no component can take a sibling's first G pairs.
 * G is PTQ_GUARANTEED, less on small machines (the pool stays near 1/8 of RAM: at least
 * PTQ_GUARANTEED_MIN).  Tables that empty are freed at once (pt_unmap) and refunded.
 */
#ifndef PTQ_H
#define PTQ_H

#include "kernel.h"

#define PTQ_GUARANTEED	   20
#define PTQ_GUARANTEED_MIN 4
#define PTQ_PAGES_PER_PAIR 64

struct comp;

/* Pairs the pool needs so that every component's guarantee holds, for this much user RAM;
 * sets the guarantee.  Called once, at boot. */
uint64_t ptq_pool_size(uint64_t user_pages);
/* What pt_entry may allocate for c now. */
struct pt_budget ptq_budget(const struct comp *c);
/* c holds n more (charge) or fewer (refund) pairs. */
void ptq_charge(struct comp *c, unsigned n);
void ptq_refund(struct comp *c, unsigned n);
/* c starts with no tables (its guarantee is held back from now on) / gives all back. */
void ptq_join(struct comp *c);
void ptq_leave(struct comp *c);

#endif
