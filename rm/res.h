/*
 * res.h - the reservation manager of a subsystem (the HiRES paper's Table I): the book of
 * what this subsystem has promised to whom, and the admission test for every new promise.
 *
 * A reservation belongs to an owner (the subsystem itself for its own tasks, or one of its
 * children), has a family (memory, CPU, I/O) and a kind: hard (guaranteed, never taken
 * back), soft (granted from what is free, revocable) or, for CPU, deferrable (a deferrable
 * server, guaranteed).  Binding a specification is where admission happens.  This file is
 * pure bookkeeping, tested on the host (rm/test/res_test.c); rm/subsys.c applies the
 * results (kernel bounds, scheduler servers, revocation).
 */
#ifndef RM_RES_H
#define RM_RES_H

#include <stddef.h>
#include <stdint.h>
#include "policies/admit.h" /* enum res_kind, struct admit_supply */

enum res_family { RES_MEM = 1, RES_CPU = 2, RES_IO = 3 };

/*
 * Every owner has records of its own: each child RES_PER_CHILD, the subsystem's tasks
 * RES_SELF_MAX, and the book holds them all at once (it is sized for the children it
 * serves), so that no child, nor all of them together, can take the records a sibling
 * needs, or a restarted child its own again.
 */
#define RES_PER_CHILD  8  /* records one child may hold */
#define RES_SELF_MAX   32 /* records of the subsystem's own tasks */
#define RES_OWNER_SELF 0  /* the subsystem's own tasks; children are 1 .. */

struct res_spec {
	uint64_t pages;		       /* RES_MEM */
	uint32_t budget, period, prio; /* RES_CPU: ticks; prio for fixed-priority admission */
	uint32_t server;	       /* RES_CPU: enum res_server */
	uint32_t port, kbps;	       /* RES_IO: a port (0 if none) and a bandwidth */
};

struct res {
	uint8_t used, family, kind;
	uint32_t owner;
	uint32_t gen; /* bumped each time the manager changes the spec (revocation) */
	uint64_t seq; /* creation order: soft reservations are revoked newest first */
	struct res_spec spec;
};

struct res_mgr {
	char policy[8];		    /* CPU admission policy */
	struct admit_supply supply; /* CPU this subsystem holds */
	uint8_t cpu_guaranteed;	    /* it is guaranteed (the root's, hard or deferrable) */
	uint64_t mem_pages;	    /* memory it can promise to others */
	uint32_t kbps;		    /* bandwidth it holds */
	uint64_t next_seq;
	uint32_t owners;	   /* children served: owner ids 1 .. owners */
	uint32_t nr;		   /* records: owners * RES_PER_CHILD + RES_SELF_MAX */
	struct res *r;		   /* nr of them */
	struct admit_res *scratch; /* nr: admission's working set, off the callers' stacks */
};

/* A book for our own tasks and `owners` children: 0, or HR_ENOMEM (no memory for it).
 * m is zeroed or was initialised before (then its old records go).  The CPU supply is
 * taken as guaranteed until res_cpu_supply says otherwise. */
long res_init(struct res_mgr *m, const char *policy, struct admit_supply cpu, uint64_t mem_pages,
	      uint32_t kbps, uint32_t owners);
/* Free the book's records (m is zeroed). */
void res_fini(struct res_mgr *m);

/* A new empty reservation of owner: its id, or HR_EINVAL (family, kind or owner unknown,
 * or deferrable outside CPU) or HR_ENOMEM (the owner holds all the records it may). */
long res_create(struct res_mgr *m, uint32_t owner, uint32_t kind, uint32_t family);

/* Forget owner's reservation id: 0, or HR_ENOENT.  The caller takes back what was bound. */
long res_delete(struct res_mgr *m, uint32_t owner, long id);

/*
 * Bind spec to owner's reservation id, replacing what was bound: 0, or HR_ENOENT, HR_EINVAL
 * (a malformed spec for the family), HR_EEXIST (a port already reserved), HR_ENOMEM (not
 * admitted), with a sentence in why.  Admission: hard memory fits what no other hard
 * reservation holds (soft ones may then have to give memory back, see res_mem_excess);
 * soft memory fits what nothing else holds; CPU as memory, by admit_cpu() under our policy
 * and supply (guaranteed CPU only from a guaranteed supply); bandwidth as memory.  Shrinking
 * is always admitted.
 */
long res_bind(struct res_mgr *m, uint32_t owner, long id, const struct res_spec *spec, char *why,
	      size_t len);

/* Owner's reservation id, or NULL. */
const struct res *res_get(const struct res_mgr *m, uint32_t owner, long id);

/* Pages of memory reserved to owner (hard and soft): its kernel bound. */
uint64_t res_mem_of(const struct res_mgr *m, uint32_t owner);
/* Bandwidth reserved to owner (kbit/s): its rate in the kernel. */
uint32_t res_kbps_of(const struct res_mgr *m, uint32_t owner);

/* Pages promised beyond what we have (soft reservations must give this back). */
uint64_t res_mem_excess(const struct res_mgr *m);

/*
 * Shrink soft memory reservations, newest first, until need pages are freed or none is
 * left; each one changed gets a new spec and gen.  Returns the pages freed on the book.
 */
uint64_t res_revoke_soft(struct res_mgr *m, uint64_t need);

/* The id of owner's CPU reservation, the one with the lowest id if it holds several, or
 * HR_ENOENT.  A child is one entity in our scheduler, so it holds at most one
 * (delegate.c refuses a second). */
long res_cpu_of(const struct res_mgr *m, uint32_t owner);

/*
 * Would every CPU reservation in the book still be admitted if we held cpu?  0, or
 * HR_EINVAL (period 0, budget > period) or HR_ENOMEM (what we promised does not fit it),
 * with a sentence in why.  {0, 1} is no supply at all (best effort): nothing fits it.
 */
long res_supply_fits(struct res_mgr *m, struct admit_supply cpu, char *why, size_t len);
/* Make cpu the CPU we hold and may promise, if it fits (res_supply_fits, same results);
 * refused, the supply stays. */
long res_supply(struct res_mgr *m, struct admit_supply cpu, char *why, size_t len);

/* Forget every reservation of owner (a child that died). */
void res_drop_owner(struct res_mgr *m, uint32_t owner);

/*
 * The CPU we hold changed (at boot, from our descriptor; later, when our parent revokes
 * from our soft reservation): 0, or HR_EINVAL for a supply with period 0 or budget over
 * period.  Whatever no longer fits is the caller's to revoke (res_cpu_revoke_soft).  Only a
 * guaranteed supply admits guaranteed (hard, deferrable) reservations.
 */
long res_cpu_supply(struct res_mgr *m, struct admit_supply supply, int guaranteed);
/* 1 if every CPU reservation of the book, soft ones too, passes admission. */
int res_cpu_fits(struct res_mgr *m);
/*
 * Shrink soft CPU reservations, newest first, each to the largest budget that lets the
 * book fit (down to 0: a soft reservation with no budget is served only in the
 * background), until it fits or none is left; each one changed gets a new gen.  Returns
 * how many changed.  Hard ones are never touched: if the book still does not fit, the
 * guaranteed supply itself was taken, which a parent never does.
 */
unsigned res_cpu_revoke_soft(struct res_mgr *m);

#endif
