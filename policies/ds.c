/*
 * ds.c - fixed priority with deferrable servers.
 *
 * A hard or deferrable entity is a server: `budget` per `period`, refilled to full at each
 * boundary (add time + k * period), kept until the boundary if unused, and ineligible once
 * exhausted (server.c).  Best-effort and soft entities have no server and are always
 * eligible at their priority.  Selection is fprr's (fprr.c) over the eligible entities.
 */
#include "fprr.h"
#include "base.h"

static void
ds_init(void *st, uint64_t now, uint64_t slice)
{
	base_init(st, now, slice, BASE_KIND(RES_HARD) | BASE_KIND(RES_DEFERRABLE));
}

const struct policy policy_ds = {
	.name = "ds",
	.init = ds_init,
	.pick = fprr_pick,
	.next_event = fprr_next_event,
	.prio = fprr_prio,
	BASE_POLICY_OPS,
};
