/*
 * child.h - what a subsystem knows of each of its children: the constructor's record,
 * its scheduler entity, its reservations and the capability slots we fill in its table.
 * One table per subsystem (child.c); subsys.c, delegate.c and parent.c read it.
 */
#ifndef RM_CHILD_H
#define RM_CHILD_H

#include <stdint.h>
#include "ctor.h"
#include "desc.h"
#include "sys.h"

#define CHILD_MAX 32

struct child {
	char name[HR_NAME_MAX];
	enum desc_type type;
	uint32_t id; /* its owner id in our reservation book (1 ..) */
	struct ctor_child ctor;
	long ent;	       /* scheduler entity, -1 once its thread is gone */
	uint32_t next_cap;     /* next slot we fill in its capability table */
	long res_mem, res_cpu; /* the reservations its manifest entry declared (-1: none) */
	uint64_t share_top;    /* next free address of its shared region */
	uint64_t shared;       /* pages we share with it, beyond its reservations */
	uint64_t mem_target;   /* pages it may hold once a revocation is through (0: none) */
	int dead;	       /* gone, but its reservations are not forgotten yet */
	uint64_t evq[16];      /* events for its scheduler (events.c) */
	uint8_t evhead, evtail;
};

struct child *child_new(const char *name, enum desc_type type);
void child_free(struct child *c);
struct child *child_by_comp(uint32_t comp);
struct child *child_by_name(const char *name);
struct child *child_by_id(uint32_t id);
/* Every live child in turn: start with NULL. */
struct child *child_next(struct child *c);

#endif
