/*
 * toprow.h - the rows of hrtop (rm/hrtop.h), pure: one row per subsystem, task or component
 * of a subtree, the summary a subsystem publishes of its subtree in the page it shares with
 * its parent (the wire: a bounded copy of its rows, read back as claims), the shares of CPU
 * computed from two samples, and the lines printed.  Only string functions: host-tested
 * (rm/test/toprow_test.c); hrtop.c gathers the figures and prints.
 */
#ifndef RM_TOPROW_H
#define RM_TOPROW_H

#include <stddef.h>
#include <stdint.h>

#define TOPROW_NAME   32 /* DESC_NAME_MAX + NUL */
#define TOPROW_POLICY 8
#define TOPROW_NONE   0xffffffffu /* a memory figure that does not apply (a task) */
#define TOPROW_WIRE   40	  /* rows a subsystem may publish to its parent */
#define TOPROW_DEPTH  16	  /* deepest row below the viewer (HR_DEPTH_MAX) */

enum toprow_kind { TOPROW_SUBSYSTEM = 1, TOPROW_TASK = 2, TOPROW_COMPONENT = 3 };

/* flags */
#define TOPROW_CLAIM 0x1u /* its figures are what a child reported, not what we measured */

/*
 * One entity of a subtree.  depth: 0 for the viewing subsystem, 1 for its own children and
 * tasks, 2 for theirs (known only from its child's report), ...; rows come in tree order
 * (a row is followed by its subtree).  80 bytes: the wire holds them as they are.
 */
struct toprow {
	char name[TOPROW_NAME];
	char policy[TOPROW_POLICY]; /* a subsystem's policy, "" otherwise */
	uint8_t depth, kind, res;   /* res: enum res_kind of its CPU reservation */
	uint8_t flags;
	uint32_t budget, period; /* its CPU reservation, ticks (0 0: best effort) */
	uint32_t misses;	 /* deadline misses its scheduler counted */
	uint32_t mem_used;	 /* pages it holds, TOPROW_NONE for a task */
	uint32_t mem_bound;	 /* pages it may hold, TOPROW_NONE for a task */
	uint64_t consumed;	 /* TSC its scheduler was charged for it, up to `at` */
	uint64_t at;		 /* TSC when consumed was read */
};
_Static_assert(sizeof(struct toprow) == 80, "the wire holds rows as they are");

/*
 * A subsystem's summary of its subtree (its rows at depth >= 1), in the page it shares with
 * its parent (rm/parent.h, struct hr_pcb).  The child writes it (seq odd while it does:
 * toprow_wire_put), the parent copies it (toprow_wire_get), both without a lock.
 */
struct toprow_wire {
	volatile uint32_t seq; /* child: odd while it writes */
	uint32_t n;	       /* child: rows */
	uint64_t resv;
	struct toprow row[TOPROW_WIRE];
};

/* Publish rows[0..n) (n clamped to TOPROW_WIRE; rows beyond are left out). */
void toprow_wire_put(struct toprow_wire *w, const struct toprow *rows, unsigned n);

/*
 * Copy what a child published into out[0..max), each row's depth increased by `below` (the
 * child's own depth in our view) and marked TOPROW_CLAIM: how many rows.  The child is
 * untrusted: the copy is taken first and then checked, so nothing it writes meanwhile
 * matters; strings are cut to their size and unprintable bytes replaced, reservations and
 * kinds out of range end the list, as does a row that breaks the tree order (depth 1 first,
 * then at most one deeper than the row before, never deeper than TOPROW_DEPTH).  0 if it was
 * writing (twice in a row) or published nothing.
 */
unsigned toprow_wire_get(const volatile struct toprow_wire *w, struct toprow *out, unsigned max,
			 unsigned below);

/* part / whole in percent, within 0 .. 100 (whole 0: 0). */
double toprow_pct(uint64_t part, uint64_t whole);

/*
 * The share of the CPU row r took since the sample prev[0..nprev) holds of it (the same
 * name, depth and parent name): its consumed difference over its `at` difference, in
 * percent; -1 if prev has no such row or no time passed (a new row).
 */
double toprow_share(const struct toprow *rows, unsigned i, const struct toprow *prev,
		    unsigned nprev);

/* "hard 2/10", "soft 0/10", "deferrable 3/10", "whole CPU" (budget = period) or "best
 * effort" into buf; buf. */
const char *toprow_res(const struct toprow *r, char *buf, size_t len);

/* The column titles, as toprow_line lays out the rows. */
int toprow_header(char *buf, size_t len);

/*
 * One row as a line: name indented two spaces per depth, what it is, policy, reservation,
 * CPU share over the last interval (now; "-" for -1) and since boot (of `uptime` TSC),
 * deadline misses, memory held/bound in pages, the network column (frames: "-" for
 * negative: hrtop_net) and where the figures come from: "seen" (our
 * scheduler and the kernel) or "claim" (a child's report).  Returns what snprintf does.
 */
int toprow_line(char *buf, size_t len, const struct toprow *r, double now, uint64_t uptime,
		long frames);

#endif
