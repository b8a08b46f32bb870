/*
 * admit.c - CPU admission tests (admit.h).  Utilizations are compared in parts per
 * million, rounded so that a set is never admitted because of rounding.
 */
#include "admit.h"
#include "../kernel/abi/hr_errno.h"

#include <stdio.h>
#include <string.h>

uint64_t
admit_ppm(uint32_t budget, uint32_t period)
{
	if (!period)
		return UINT64_MAX;
	return ((uint64_t) budget * 1000000 + period - 1) / period;
}

int
admit_policy_known(const char *name)
{
	return !strcmp(name, "fprr") || !strcmp(name, "ds") || !strcmp(name, "edf");
}

static int
guaranteed(const struct admit_res *r)
{
	return r->kind == RES_HARD || r->kind == RES_DEFERRABLE;
}

static int
utilization(const struct admit_res *set, unsigned n, struct admit_supply s, char *why, unsigned len)
{
	uint64_t sum = 0, cap = s.budget * 1000000ull / (s.period ? s.period : 1);

	for (unsigned i = 0; i < n; i++)
		if (guaranteed(&set[i]))
			sum += admit_ppm(set[i].budget, set[i].period);
	if (sum <= cap)
		return 0;
	snprintf(why, len, "utilization %llu.%04llu exceeds the %llu.%04llu available",
		 (unsigned long long) (sum / 1000000), (unsigned long long) (sum % 1000000 / 100),
		 (unsigned long long) (cap / 1000000), (unsigned long long) (cap % 1000000 / 100));
	return HR_ENOMEM;
}

/* Worst-case response time of set[i] against every guaranteed j that may preempt it. */
static uint64_t
response(const struct admit_res *set, unsigned n, unsigned i)
{
	uint64_t r = set[i].budget, prev = 0;

	while (r != prev && r <= set[i].period) {
		prev = r;
		r = set[i].budget;
		for (unsigned j = 0; j < n; j++) {
			if (j == i || !guaranteed(&set[j]) || set[j].prio > set[i].prio)
				continue;
			r += (prev + set[j].period - 1) / set[j].period * set[j].budget;
		}
	}
	return r;
}

static int
rta(const struct admit_res *set, unsigned n, char *why, unsigned len)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t r;
		if (!guaranteed(&set[i]))
			continue;
		if ((r = response(set, n, i)) > set[i].period) {
			snprintf(why, len,
				 "reservation %u/%u at priority %u can miss its period (response "
				 "time > %u)",
				 set[i].budget, set[i].period, set[i].prio, set[i].period);
			return HR_ENOMEM;
		}
	}
	return 0;
}

int
admit_cpu(const char *policy, const struct admit_res *set, unsigned n, struct admit_supply s,
	  char *why, unsigned len)
{
	int err;

	if (len)
		why[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		/* best effort carries no budget or period */
		if (set[i].kind == RES_NONE)
			continue;
		if (!set[i].period || set[i].budget > set[i].period) {
			snprintf(why, len, "budget %u does not fit period %u", set[i].budget,
				 set[i].period);
			return HR_EINVAL;
		}
	}
	if (!admit_policy_known(policy)) {
		snprintf(why, len, "unknown policy '%s'", policy);
		return HR_EINVAL;
	}
	if (!strcmp(policy, "edf"))
		return utilization(set, n, s, why, len);
	if ((err = utilization(set, n, s, why, len)))
		return err;
	return s.budget >= s.period ? rta(set, n, why, len) : 0;
}
