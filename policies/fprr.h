/*
 * fprr.h - fixed-priority round-robin selection (fprr.c), which ds.c reuses: a ds state is
 * an fprr state whose hard and deferrable entities carry servers.
 */
#ifndef POLICIES_FPRR_H
#define POLICIES_FPRR_H

#include <stdint.h>

int32_t fprr_pick(void *st, uint64_t now);
uint64_t fprr_next_event(void *st, uint64_t now);
int32_t fprr_prio(void *st, uint32_t id, uint64_t now);

#endif
