/*
 * admit.c - CPU admission tests (admit.h).  Utilizations are compared in parts per
 * million, rounded so that a set is never admitted because of rounding.  The response-time
 * analysis is the classic one for fixed priorities, with a deferrable server's release
 * jitter (Strosnider, Lehoczky and Sha): what the policies enforce is what is analysed.
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

uint32_t
admit_server(const char *policy, uint32_t kind, uint32_t server, char *why, unsigned len)
{
	int edf = !strcmp(policy, "edf");

	if (server > RES_SERVER_SPORADIC) {
		snprintf(why, len, "unknown server %u", server);
		return 0;
	}
	if (server == RES_SERVER_SPORADIC && (edf || kind == RES_DEFERRABLE)) {
		snprintf(why, len, "%s has no sporadic server",
			 edf ? "policy edf" : "a deferrable reservation");
		return 0;
	}
	if (server != RES_SERVER_DEFAULT)
		return server;
	if (kind == RES_DEFERRABLE || edf || strcmp(policy, "fprr"))
		return RES_SERVER_DEFERRABLE;
	return RES_SERVER_SPORADIC;
}

const char *
admit_server_name(uint32_t server)
{
	static const char *const names[] = { "default", "deferrable", "sporadic" };

	return server <= RES_SERVER_SPORADIC ? names[server] : "?";
}

/* Does r take CPU time the policy hands out by reservation (and so count)? */
static int
reserved(const struct admit_res *r)
{
	return r->kind != RES_NONE;
}

static int
utilization(const struct admit_res *set, unsigned n, struct admit_supply s, char *why, unsigned len)
{
	uint64_t sum = 0, cap = s.budget * 1000000ull / (s.period ? s.period : 1);

	for (unsigned i = 0; i < n; i++)
		if (reserved(&set[i]))
			sum += admit_ppm(set[i].budget, set[i].period);
	if (sum <= cap)
		return 0;
	snprintf(why, len, "utilization %llu.%04llu exceeds the %llu.%04llu available",
		 (unsigned long long) (sum / 1000000), (unsigned long long) (sum % 1000000 / 100),
		 (unsigned long long) (cap / 1000000), (unsigned long long) (cap % 1000000 / 100));
	return HR_ENOMEM;
}

/* How long r may wait after its release before its budget is used: a deferrable server
 * can hold its budget to the end of a period and have it again at the start of the next. */
static uint64_t
jitter(const char *policy, const struct admit_res *r)
{
	char why[8];

	if (admit_server(policy, r->kind, r->server, why, sizeof(why)) == RES_SERVER_DEFERRABLE)
		return r->period - r->budget;
	return 0;
}

/* Worst-case response time of set[i] against every reserved j that may preempt it. */
static uint64_t
response(const char *policy, const struct admit_res *set, unsigned n, unsigned i)
{
	uint64_t r = set[i].budget, prev = 0;

	while (r != prev && r <= set[i].period) {
		prev = r;
		r = set[i].budget;
		for (unsigned j = 0; j < n; j++) {
			uint64_t w;
			if (j == i || !reserved(&set[j]) || set[j].prio > set[i].prio)
				continue;
			w = prev + jitter(policy, &set[j]);
			r += (w + set[j].period - 1) / set[j].period * set[j].budget;
		}
	}
	return r;
}

static int
rta(const char *policy, const struct admit_res *set, unsigned n, char *why, unsigned len)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t r;
		if (!reserved(&set[i]))
			continue;
		if ((r = response(policy, set, n, i)) > set[i].period) {
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
	for (unsigned i = 0; i < n; i++)
		if (reserved(&set[i]) &&
		    !admit_server(policy, set[i].kind, set[i].server, why, len))
			return HR_EINVAL;
	if (!strcmp(policy, "edf"))
		return utilization(set, n, s, why, len);
	if ((err = utilization(set, n, s, why, len)))
		return err;
	return s.budget >= s.period ? rta(policy, set, n, why, len) : 0;
}
