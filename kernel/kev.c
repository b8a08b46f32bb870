/* kev.c - the kernel-event ring of a scheduler's region (kev.h). */
#include "kev.h"
#include "abi/hr_errno.h"

int
kev_put(struct kev_q *q, struct hr_sched_region *r, struct hr_kevent ev)
{
	uint32_t tail = r->ev_tail;

	if (q->head - tail >= HR_KEV_RING) {
		r->ev_lost = ++q->lost;
		return HR_ENOMEM;
	}
	r->ev[q->head % HR_KEV_RING] = ev;
	r->ev_head = ++q->head;
	return 0;
}

int
kev_notice(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n, uint16_t type,
	   uint16_t comp)
{
	uint32_t tail = r->ev_tail, at = q->head, ahead = n->pos - tail;
	struct hr_kevent *e = &r->ev[n->pos % HR_KEV_RING];
	int err;

	if (type == HR_KEV_WAKE) { /* a bit: one store whatever the ring holds */
		*kev_woke_word(r, comp) |= kev_woke_bit(comp);
		return 0;
	}
	*kev_woke_word(r, comp) &= ~kev_woke_bit(comp); /* newer than a wake-up not yet taken */

	/* n's notice is still in the ring, beyond the tail (not being read) and unchanged: it
	 * now says the newest state (a scheduler that scribbles over its ring only fools
	 * itself; the index stays inside the ring) */
	if (n->set && ahead && ahead < at - tail && e->comp == comp && e->type == HR_KEV_IDLE)
		return 0;
	if ((err = kev_put(q, r, (struct hr_kevent){ .type = type, .comp = comp })))
		return err;
	n->pos = at;
	n->set = 1;
	return 0;
}
