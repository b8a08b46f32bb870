/*
 * admission.c - CPU admission over an image (admission.h).  Children are admitted as if one
 * by one in manifest order, so the error names the first child that no longer fits.
 */
#include "admission.h"
#include "lib/treeline.h"
#include "alloc.h"
#include "diag.h"
#include "policies/admit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
admission_describe(const struct cpu_res *r, char *buf, size_t len)
{
	return treeline_cpu(0, r->kind, r->budget, r->period, buf, len);
}

/* A parent without a guaranteed supply may have no guaranteed child: 1 if it has none. */
static int
check_unsupplied(const struct node *s)
{
	char want[48], have[48];

	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind == NODE_COMP || !admit_guaranteed(k->cpu.kind))
			continue;
		diag_error(k->line_cpu,
			   "child '%s' asks for guaranteed cpu (%s) but parent '%s' has none to "
			   "give (%s)",
			   k->name, admission_describe(&k->cpu, want, sizeof(want)), s->name,
			   admission_describe(&s->cpu, have, sizeof(have)));
		return 0;
	}
	return 1;
}

/* Every server a child asks for is one s's policy has: 1 if so. */
static int
check_servers(const struct node *s)
{
	char why[96];

	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind == NODE_COMP || !k->cpu.server || k->cpu.kind == RES_NONE ||
		    admit_server(s->policy, k->cpu.kind, k->cpu.server, why, sizeof(why)))
			continue;
		diag_error(k->line_server, "child '%s' asks for a %s server, but %s (parent '%s')",
			   k->name, admit_server_name(k->cpu.server), why, s->name);
		return 0;
	}
	return 1;
}

/*
 * Under a fixed-priority policy (fprr, ds) a best-effort entity runs at its priority with no
 * budget to stop it, so an untrusted child (a subsystem or component) more urgent than a
 * reserved sibling could take all the CPU that sibling was promised (response-time analysis
 * knows nothing of it): 1 if none is.  The subsystem's own tasks are its own code: a
 * watcher that sleeps may well sit above its reservations.
 */
static int
check_best_effort_below(const struct node *s)
{
	char want[48];

	if (!strcmp(s->policy, "edf")) /* EDF serves best effort only when no server can run */
		return 1;
	for (const struct node *b = s->kids; b; b = b->next) {
		if (b->cpu.kind != RES_NONE || b->kind == NODE_TASK)
			continue;
		for (const struct node *r = s->kids; r; r = r->next) {
			if (r->kind == NODE_COMP || r->cpu.kind == RES_NONE ||
			    b->priority >= r->priority)
				continue;
			diag_error(
				b->line,
				"best-effort %s '%s' (priority %u) is more urgent than '%s' (%s, "
				"priority %u) under policy %s: nothing would stop it taking the "
				"CPU "
				"promised to '%s'; give it a priority of %u or more",
				node_kind_name(b->kind), b->name, b->priority, r->name,
				admission_describe(&r->cpu, want, sizeof(want)), r->priority,
				s->policy, r->name, r->priority);
			return 0;
		}
	}
	return 1;
}

/*
 * The first n such that set[0..n) is refused, given that set[0..hi) is.  Admission is
 * monotone (one more reservation never makes a refused set fit), so a binary search finds
 * the child the one-by-one order would name, with log(hi) tests instead of hi: response
 * time analysis costs hi^2 a test, and a subsystem may have thousands of children.
 */
static unsigned
first_refused(const struct node *s, const struct admit_res *set, unsigned hi,
	      struct admit_supply supply)
{
	unsigned lo = 0; /* set[0..lo) is admitted */
	char why[8];

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (admit_cpu(s->policy, set, mid, supply, why, sizeof(why)))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Every child with a reservation counts, however many there are: none goes unchecked. */
static void
check_admission(const struct node *s, struct admit_supply supply)
{
	const struct node **who;
	struct admit_res *set;
	char why[160], want[48];
	unsigned n = 0, max = 0;

	for (const struct node *k = s->kids; k; k = k->next)
		max++;
	set = alloc_zero(max, sizeof(*set));
	who = alloc_zero(max, sizeof(*who));
	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind == NODE_COMP || k->cpu.kind == RES_NONE)
			continue;
		who[n] = k;
		set[n++] = (struct admit_res){ k->cpu.kind, k->cpu.budget, k->cpu.period,
					       k->priority, k->cpu.server };
	}
	if (n && admit_cpu(s->policy, set, n, supply, why, sizeof(why))) {
		const struct node *k = who[(n = first_refused(s, set, n, supply)) - 1];
		admit_cpu(s->policy, set, n, supply, why, sizeof(why));
		diag_error(k->line_cpu,
			   "child '%s' (%s) is not admitted by parent '%s' under policy %s: %s",
			   k->name, admission_describe(&k->cpu, want, sizeof(want)), s->name,
			   s->policy, why);
	}
	free(set);
	free(who);
}

/*
 * Every reservation of s's children is admitted against what s holds: the whole CPU for
 * the root, its own reservation otherwise (none for best effort).  Soft ones count too:
 * the policy serves them while they exist.  Only a guaranteed supply can back a
 * guaranteed child.
 */
static void
check(const struct node *s)
{
	struct admit_supply supply = { 1, 1 };

	if (s->parent)
		supply = s->cpu.kind ? (struct admit_supply){ s->cpu.budget, s->cpu.period }
				     : (struct admit_supply){ 0, 1 };
	if (check_servers(s) && check_best_effort_below(s) &&
	    (!s->parent || admit_guaranteed(s->cpu.kind) || check_unsupplied(s)))
		check_admission(s, supply);
	for (const struct node *k = s->kids; k; k = k->next)
		if (k->kind == NODE_SUBSYS)
			check(k);
}

void
admission_check(const struct image *img)
{
	check(img->root);
}
