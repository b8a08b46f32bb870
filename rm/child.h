/*
 * child.h - what a subsystem knows of each of its children: the constructor's record,
 * its scheduler entity, its reservations and the capability slots we fill in its table.
 * One table per subsystem (child.c); subsys.c, delegate.c, events.c and parent.c read it.
 *
 * A record is live, dead (its component is gone but delegate.c has not forgotten its
 * reservations yet) or down (gone and forgotten, waiting to be rebuilt: restart.h).  Only
 * live children are found by component, name or id.
 */
#ifndef RM_CHILD_H
#define RM_CHILD_H

#include <stdint.h>
#include "ctor.h"
#include "desc.h"
#include "events.h"
#include "restart.h"
#include "sys.h"

#define CHILD_MAX DESC_CHILDREN_MAX

struct child {
	char name[HR_NAME_MAX];
	enum desc_type type;
	uint32_t id; /* its owner id in our reservation book (1 ..) */
	int node;    /* its node in our descriptor: what it is rebuilt from */
	struct ctor_child ctor;
	long ent;		       /* scheduler entity, -1 once its thread is gone */
	uint64_t spent_before;	       /* CPU its earlier lives were charged (hrtop's row) */
	uint32_t next_cap;	       /* next slot we fill in its capability table */
	long res_mem, res_cpu, res_io; /* the reservations its manifest entry declared (-1: none) */
	uint64_t share_top;	       /* next free address of its shared region */
	uint64_t shared;     /* pages siblings share with it: lent beyond its reservations */
	uint32_t nshares;    /* shares it asked for (and pays for) (delegate.c) */
	uint64_t mem_target; /* pages it may hold once a revocation is through (0: none) */
	uint32_t cpu_gen;    /* its CPU reservation's gen before a revocation (delegate.c) */
	int dead;	     /* gone, but its reservations are not forgotten yet */
	int down;	     /* gone and forgotten, waiting to be rebuilt */
	struct restart restart;
	uint32_t nsleeping;    /* its threads sleeping in our services (events.c) */
	uint64_t evq[EVQ_LEN]; /* events for its scheduler (events.c) */
	uint8_t evhead, evtail;
};

struct child *child_new(const char *name, enum desc_type type);
void child_free(struct child *c);
/* Everything c held is gone and forgotten: free its record, or, if it waits to be rebuilt
 * (c->restart.at), keep what rebuilding needs (name, id, node, restart) and what its lives
 * were charged (spent_before), and mark it down. */
void child_retire(struct child *c);
/* The live child whose component is comp, or NULL; in one step for a child found before
 * (every kernel event about a child asks). */
struct child *child_by_comp(uint32_t comp);
struct child *child_by_name(const char *name);
struct child *child_by_id(uint32_t id);
/* Every child record in use (live, dead or down) in turn: start with NULL. */
struct child *child_next(struct child *c);
/* 1 if c has a component now (neither dead nor down). */
int child_live(const struct child *c);

#endif
