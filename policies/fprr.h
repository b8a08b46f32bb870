/*
 * fprr.h - fixed-priority round-robin selection with servers (fprr.c), which ds.c reuses:
 * a ds state is an fprr state whose servers are deferrable unless a reservation asks for
 * a sporadic one.
 */
#ifndef POLICIES_FPRR_H
#define POLICIES_FPRR_H

#include <stdint.h>

int32_t fprr_pick(void *st, uint64_t now);
uint64_t fprr_next_event(void *st, uint64_t now);
uint32_t fprr_rank(void *st, uint32_t id, uint64_t now);

#endif
