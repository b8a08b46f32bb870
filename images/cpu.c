/*
 * cpu.c - CPU admission over an image (cpu.h).  Children are admitted one by one in
 * manifest order, so the error names the first child that no longer fits.
 */
#include "cpu.h"
#include "rm/treeline.h"
#include "diag.h"
#include "policies/admit.h"

#include <stdio.h>

static int
guaranteed(const struct cpu_res *r)
{
	return r->kind == RES_HARD || r->kind == RES_DEFERRABLE;
}

const char *
cpu_describe(const struct cpu_res *r, char *buf, size_t len)
{
	return treeline_cpu(0, r->kind, r->budget, r->period, buf, len);
}

/* A parent without a guaranteed supply may have no guaranteed child. */
static void
check_unsupplied(const struct node *s)
{
	char want[48], have[48];

	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind == NODE_COMP || !guaranteed(&k->cpu))
			continue;
		diag_error(k->line_cpu,
			   "child '%s' asks for guaranteed cpu (%s) but parent '%s' has none to "
			   "give (%s)",
			   k->name, cpu_describe(&k->cpu, want, sizeof(want)), s->name,
			   cpu_describe(&s->cpu, have, sizeof(have)));
		return;
	}
}

static void
check_admission(const struct node *s, struct admit_supply supply)
{
	struct admit_res set[256];
	char why[160], want[48];
	unsigned n = 0;

	for (const struct node *k = s->kids; k && n < 256; k = k->next) {
		if (k->kind == NODE_COMP || k->cpu.kind == RES_NONE)
			continue;
		set[n++] = (struct admit_res){ k->cpu.kind, k->cpu.budget, k->cpu.period,
					       k->priority };
		if (!admit_cpu(s->policy, set, n, supply, why, sizeof(why)))
			continue;
		diag_error(k->line_cpu,
			   "child '%s' (%s) is not admitted by parent '%s' under policy %s: %s",
			   k->name, cpu_describe(&k->cpu, want, sizeof(want)), s->name, s->policy,
			   why);
		return;
	}
}

static void
check(const struct node *s)
{
	struct admit_supply supply = { 1, 1 };

	if (s->parent && guaranteed(&s->cpu))
		supply = (struct admit_supply){ s->cpu.budget, s->cpu.period };
	if (!s->parent || guaranteed(&s->cpu))
		check_admission(s, supply);
	else
		check_unsupplied(s);
	for (const struct node *k = s->kids; k; k = k->next)
		if (k->kind == NODE_SUBSYS)
			check(k);
}

void
cpu_check(const struct image *img)
{
	check(img->root);
}
