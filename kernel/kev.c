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

/* Is n's notice still in the ring, beyond the tail (not being read), and unchanged? */
static int
pending(const struct kev_q *q, const struct hr_sched_region *r, const struct kev_notice *n,
	uint16_t comp)
{
	uint32_t tail = r->ev_tail, ahead = n->pos - tail;
	const struct hr_kevent *e = &r->ev[n->pos % HR_KEV_RING];

	if (!n->set || ahead == 0 || ahead >= q->head - tail || q->head - tail > HR_KEV_RING)
		return 0;
	return e->comp == comp && (e->type == HR_KEV_IDLE || e->type == HR_KEV_WAKE);
}

int
kev_notice(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n, struct hr_kevent ev)
{
	uint32_t at = q->head;
	int err;

	if (pending(q, r, n, ev.comp)) {
		r->ev[n->pos % HR_KEV_RING] = ev;
		return 0;
	}
	if ((err = kev_put(q, r, ev)))
		return err;
	n->pos = at;
	n->set = 1;
	return 0;
}
