/*
 * res.c - the reservation book and its admission tests (res.h).  Every entry point checks
 * its arguments before it changes anything; a refused bind leaves the book as it was.
 */
#include "res.h"
#include "kernel/abi/hr_errno.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long
res_init(struct res_mgr *m, const char *policy, struct admit_supply cpu, uint64_t mem_pages,
	 uint32_t kbps, uint32_t owners)
{
	uint32_t nr = owners * RES_PER_CHILD + RES_SELF_MAX;

	res_fini(m);
	m->r = calloc(nr, sizeof(*m->r));
	m->scratch = calloc(nr, sizeof(*m->scratch));
	if (!m->r || !m->scratch) {
		res_fini(m);
		return HR_ENOMEM;
	}
	snprintf(m->policy, sizeof(m->policy), "%s", policy);
	m->supply = cpu;
	m->cpu_guaranteed = 1; /* res_cpu_supply says otherwise */
	m->mem_pages = mem_pages;
	m->kbps = kbps;
	m->owners = owners;
	m->nr = nr;
	return 0;
}

void
res_fini(struct res_mgr *m)
{
	free(m->r);
	free(m->scratch);
	memset(m, 0, sizeof(*m));
}

static struct res *
lookup(const struct res_mgr *m, uint32_t owner, long id)
{
	if (id < 0 || id >= m->nr || !m->r[id].used || m->r[id].owner != owner)
		return 0;
	return (struct res *) &m->r[id];
}

const struct res *
res_get(const struct res_mgr *m, uint32_t owner, long id)
{
	return lookup(m, owner, id);
}

static unsigned
owned(const struct res_mgr *m, uint32_t owner)
{
	unsigned n = 0;

	for (long id = 0; id < m->nr; id++)
		n += m->r[id].used && m->r[id].owner == owner;
	return n;
}

long
res_create(struct res_mgr *m, uint32_t owner, uint32_t kind, uint32_t family)
{
	if (family < RES_MEM || family > RES_IO || kind < RES_HARD || kind > RES_DEFERRABLE)
		return HR_EINVAL;
	if ((kind == RES_DEFERRABLE && family != RES_CPU) || owner > m->owners)
		return HR_EINVAL;
	if (owned(m, owner) >= (owner == RES_OWNER_SELF ? RES_SELF_MAX : RES_PER_CHILD))
		return HR_ENOMEM;
	for (long id = 0; id < m->nr; id++) { /* there is one: the book holds every owner's */
		if (m->r[id].used)
			continue;
		m->r[id] = (struct res){ .used = 1,
					 .family = (uint8_t) family,
					 .kind = (uint8_t) kind,
					 .owner = owner,
					 .seq = m->next_seq++ };
		return id;
	}
	return HR_ENOMEM;
}

long
res_delete(struct res_mgr *m, uint32_t owner, long id)
{
	struct res *r = lookup(m, owner, id);

	if (!r)
		return HR_ENOENT;
	memset(r, 0, sizeof(*r));
	return 0;
}

void
res_drop_owner(struct res_mgr *m, uint32_t owner)
{
	for (long id = 0; id < m->nr; id++)
		if (m->r[id].used && m->r[id].owner == owner)
			memset(&m->r[id], 0, sizeof(m->r[id]));
}

/* Sum of one family's amount over the reservations of the given kinds, skipping `skip`. */
static uint64_t
sum(const struct res_mgr *m, uint32_t family, int hard_only, const struct res *skip)
{
	uint64_t s = 0;

	for (long id = 0; id < m->nr; id++) {
		const struct res *r = &m->r[id];
		if (r == skip || !r->used || r->family != family ||
		    (hard_only && r->kind == RES_SOFT))
			continue;
		s += family == RES_MEM ? r->spec.pages : r->spec.kbps;
	}
	return s;
}

/* Does amount fit a capacity, given what the others hold (hard only, or everything)? */
static int
fits(const struct res_mgr *m, const struct res *r, uint64_t amount, uint64_t capacity)
{
	uint64_t others = sum(m, r->family, r->kind != RES_SOFT, r);
	return others <= capacity && amount <= capacity - others;
}

static long
bind_mem(const struct res_mgr *m, const struct res *r, const struct res_spec *s, char *why,
	 size_t len)
{
	if (!s->pages) {
		snprintf(why, len, "a memory reservation of 0 pages");
		return HR_EINVAL;
	}
	if (s->pages <= r->spec.pages || fits(m, r, s->pages, m->mem_pages))
		return 0;
	snprintf(why, len, "%s memory of %llu KiB does not fit: %llu KiB already promised of %llu",
		 r->kind == RES_SOFT ? "soft" : "hard", (unsigned long long) s->pages * 4,
		 (unsigned long long) sum(m, RES_MEM, r->kind != RES_SOFT, r) * 4,
		 (unsigned long long) m->mem_pages * 4);
	return HR_ENOMEM;
}

/* admit_cpu over the CPU reservations of the book (r with spec s instead of its own, if r),
 * the guaranteed ones only if `hard_only`, against `supply`. */
static long
admit_book(struct res_mgr *m, const struct res *r, const struct res_spec *s, int hard_only,
	   struct admit_supply supply, char *why, size_t len)
{
	struct admit_res *set = m->scratch;
	unsigned n = 0;

	for (long id = 0; id < m->nr; id++) {
		const struct res *o = &m->r[id];
		const struct res_spec *os = o == r ? s : &o->spec;
		if (!o->used || o->family != RES_CPU || !os->period ||
		    (hard_only && !admit_guaranteed(o->kind)))
			continue;
		set[n++] =
			(struct admit_res){ o->kind, os->budget, os->period, os->prio, os->server };
	}
	return admit_cpu(m->policy, set, n, supply, why, (unsigned) len);
}

/* Like memory: a guaranteed reservation fits what no other guaranteed one holds (soft ones
 * may then have to give CPU back, res_cpu_revoke_soft), a soft one what nothing else holds.
 * Only a guaranteed supply backs a guaranteed reservation. */
static long
bind_cpu(struct res_mgr *m, const struct res *r, const struct res_spec *s, char *why, size_t len)
{
	if (!s->period || !s->budget || s->budget > s->period) {
		snprintf(why, len, "cpu budget %u does not fit period %u", s->budget, s->period);
		return HR_EINVAL;
	}
	if (admit_guaranteed(r->kind) && !m->cpu_guaranteed) {
		snprintf(why, len, "no guaranteed cpu to give: ours is not guaranteed");
		return HR_ENOMEM;
	}
	return admit_book(m, r, s, admit_guaranteed(r->kind), m->supply, why, len) ? HR_ENOMEM : 0;
}

long
res_cpu_supply(struct res_mgr *m, struct admit_supply supply, int guaranteed_supply)
{
	if (!supply.period || supply.budget > supply.period)
		return HR_EINVAL;
	m->supply = supply;
	m->cpu_guaranteed = (uint8_t) (guaranteed_supply != 0);
	return 0;
}

int
res_cpu_fits(struct res_mgr *m)
{
	char why[8];

	return admit_book(m, 0, 0, 0, m->supply, why, sizeof(why)) == 0;
}

/* The newest soft CPU reservation with budget left, or NULL. */
static struct res *
newest_soft_cpu(struct res_mgr *m)
{
	struct res *best = 0;

	for (long id = 0; id < m->nr; id++) {
		struct res *r = &m->r[id];
		if (r->used && r->family == RES_CPU && r->kind == RES_SOFT && r->spec.budget &&
		    (!best || r->seq > best->seq))
			best = r;
	}
	return best;
}

/* The largest budget below r's that lets the book fit (admission is monotone in it). */
static uint32_t
largest_fit(struct res_mgr *m, struct res *r)
{
	uint32_t lo = 0, hi = r->spec.budget; /* lo fits, or is 0; hi does not fit */
	char why[8];

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		struct res_spec s = r->spec;
		s.budget = mid;
		if (admit_book(m, r, &s, 0, m->supply, why, sizeof(why)))
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

unsigned
res_cpu_revoke_soft(struct res_mgr *m)
{
	unsigned changed = 0;
	struct res *r;

	while (!res_cpu_fits(m) && (r = newest_soft_cpu(m))) {
		r->spec.budget = largest_fit(m, r);
		r->gen++;
		changed++;
	}
	return changed;
}

static long
bind_io(const struct res_mgr *m, const struct res *r, const struct res_spec *s, char *why,
	size_t len)
{
	if (s->port > 65535) {
		snprintf(why, len, "port %u out of range", s->port);
		return HR_EINVAL;
	}
	for (long id = 0; s->port && id < m->nr; id++) {
		const struct res *o = &m->r[id];
		if (o->used && o != r && o->family == RES_IO && o->spec.port == s->port) {
			snprintf(why, len, "port %u is reserved already", s->port);
			return HR_EEXIST;
		}
	}
	if (s->kbps <= r->spec.kbps || fits(m, r, s->kbps, m->kbps))
		return 0;
	snprintf(why, len, "bandwidth of %u kbit/s does not fit the %u we hold", s->kbps, m->kbps);
	return HR_ENOMEM;
}

long
res_bind(struct res_mgr *m, uint32_t owner, long id, const struct res_spec *spec, char *why,
	 size_t len)
{
	struct res *r = lookup(m, owner, id);
	long err;

	if (len)
		why[0] = 0;
	if (!r || !spec) {
		snprintf(why, len, "no such reservation");
		return HR_ENOENT;
	}
	if (r->family == RES_MEM)
		err = bind_mem(m, r, spec, why, len);
	else if (r->family == RES_CPU)
		err = bind_cpu(m, r, spec, why, len);
	else
		err = bind_io(m, r, spec, why, len);
	if (!err)
		r->spec = *spec;
	return err;
}

long
res_cpu_of(const struct res_mgr *m, uint32_t owner)
{
	for (long id = 0; id < m->nr; id++)
		if (m->r[id].used && m->r[id].family == RES_CPU && m->r[id].owner == owner)
			return id;
	return HR_ENOENT;
}

long
res_supply_fits(struct res_mgr *m, struct admit_supply cpu, char *why, size_t len)
{
	if (len)
		why[0] = 0;
	if (!cpu.period || cpu.budget > cpu.period) {
		snprintf(why, len, "a supply of %u every %u", cpu.budget, cpu.period);
		return HR_EINVAL;
	}
	return admit_book(m, 0, 0, 0, cpu, why, len) ? HR_ENOMEM : 0;
}

long
res_supply(struct res_mgr *m, struct admit_supply cpu, char *why, size_t len)
{
	long err = res_supply_fits(m, cpu, why, len);

	return err ? err : res_cpu_supply(m, cpu, m->cpu_guaranteed);
}

/* What owner's reservations of one family (memory or I/O) add up to: pages or kbit/s. */
static uint64_t
owned_sum(const struct res_mgr *m, uint32_t owner, uint32_t family)
{
	uint64_t s = 0;

	for (long id = 0; id < m->nr; id++)
		if (m->r[id].used && m->r[id].family == family && m->r[id].owner == owner)
			s += family == RES_MEM ? m->r[id].spec.pages : m->r[id].spec.kbps;
	return s;
}

uint64_t
res_mem_of(const struct res_mgr *m, uint32_t owner)
{
	return owned_sum(m, owner, RES_MEM);
}

uint32_t
res_kbps_of(const struct res_mgr *m, uint32_t owner)
{
	return (uint32_t) owned_sum(m, owner, RES_IO);
}

uint64_t
res_mem_excess(const struct res_mgr *m)
{
	uint64_t all = sum(m, RES_MEM, 0, 0);
	return all > m->mem_pages ? all - m->mem_pages : 0;
}

/* The newest soft memory reservation with pages left, or NULL. */
static struct res *
newest_soft(struct res_mgr *m)
{
	struct res *best = 0;

	for (long id = 0; id < m->nr; id++) {
		struct res *r = &m->r[id];
		if (r->used && r->family == RES_MEM && r->kind == RES_SOFT && r->spec.pages &&
		    (!best || r->seq > best->seq))
			best = r;
	}
	return best;
}

uint64_t
res_revoke_soft(struct res_mgr *m, uint64_t need)
{
	uint64_t freed = 0;
	struct res *r;

	while (freed < need && (r = newest_soft(m))) {
		uint64_t take = need - freed < r->spec.pages ? need - freed : r->spec.pages;
		r->spec.pages -= take;
		r->gen++;
		freed += take;
	}
	return freed;
}
