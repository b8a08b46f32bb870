/*
 * ds.c - fixed priority with deferrable servers: fprr.c's selection, with a deferrable
 * server for every reservation that does not ask for a sporadic one.  A deferrable server
 * is refilled to full at each boundary (add time + k * period) and keeps unused budget
 * until the boundary (server.h).
 */
#include "fprr.h"
#include "base.h"

static void
ds_init(void *st, uint64_t now, uint64_t slice)
{
	(void) now;
	base_init(st, "ds", slice);
}

const struct policy policy_ds = {
	.name = "ds",
	.init = ds_init,
	.pick = fprr_pick,
	.next_event = fprr_next_event,
	.rank = fprr_rank,
	BASE_POLICY_OPS,
};
