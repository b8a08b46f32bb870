/* cpuwatch.c - CPU received per reservation (cpuwatch.h). */
#include "cpuwatch.h"
#include "desc.h"
#include "runtime.h"
#include "sched.h"
#include "subsys.h"

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double) part / (double) whole : 0;
}

static unsigned
find(struct cpuwatch *w, unsigned max, int all)
{
	const char *why;
	const void *fdt = desc_self(&why);
	struct desc_node d;
	unsigned n = 0;

	for (int k = fdt ? desc_child(fdt, 0) : -1; k >= 0 && n < max; k = desc_sibling(fdt, k)) {
		if (desc_read(fdt, k, &d, &why) || (!d.cpu_kind && !all) ||
		    d.type == DESC_COMPONENT)
			continue;
		w[n] = (struct cpuwatch){ .name = d.name,
					  .kind = d.cpu_kind,
					  .budget = d.cpu_kind ? d.budget : 0,
					  .period = d.cpu_kind ? d.period : 0,
					  .ent = subsys_entity(d.name) };
		n++;
	}
	return n;
}

unsigned
cpuwatch_find(struct cpuwatch *w, unsigned max)
{
	return find(w, max, 0);
}

unsigned
cpuwatch_find_all(struct cpuwatch *w, unsigned max)
{
	return find(w, max, 1);
}

uint64_t
cpuwatch_open(struct cpuwatch *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		w[i].born = sched_born(w[i].ent);
		w[i].from = w[i].last = sched_consumed(w[i].ent);
	}
	return hr_tsc();
}

int
cpuwatch_gone(const struct cpuwatch *w)
{
	return !w->born || sched_born(w->ent) != w->born;
}

double
cpuwatch_sample(struct cpuwatch *w, uint64_t elapsed)
{
	uint64_t c, d;

	if (cpuwatch_gone(w))
		return CPUWATCH_GONE;
	c = sched_consumed(w->ent);
	d = c - w->last;
	w->last = c;
	return pct(d, elapsed);
}

double
cpuwatch_share(const struct cpuwatch *w, uint64_t t0)
{
	if (cpuwatch_gone(w))
		return CPUWATCH_GONE;
	return pct(sched_consumed(w->ent) - w->from, hr_tsc() - t0);
}

double
cpuwatch_expected(const struct cpuwatch *w)
{
	return pct(w->budget, w->period);
}

int
cpuwatch_near(double got, double want, double tolerance)
{
	return got >= 0 && got >= want - tolerance && got <= want + tolerance;
}
