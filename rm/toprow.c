/* toprow.c - hrtop's rows, the wire a child publishes them on, shares and lines (toprow.h). */
#include "toprow.h"

#include <stdio.h>
#include <string.h>

#define RES_KIND_MAX 3 /* enum res_kind: none, hard, soft, deferrable */

void
toprow_wire_put(struct toprow_wire *w, const struct toprow *rows, unsigned n)
{
	if (n > TOPROW_WIRE)
		n = TOPROW_WIRE;
	__atomic_store_n(&w->seq, w->seq | 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(w->row, rows, n * sizeof(*rows));
	w->n = n;
	__atomic_store_n(&w->seq, (w->seq | 1) + 1, __ATOMIC_RELEASE);
}

/* A copy of what the child published, taken while it was not writing: rows, or -1. */
static int
copy_once(const volatile struct toprow_wire *w, struct toprow *buf)
{
	uint32_t s = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE), n;

	if (s & 1)
		return -1;
	n = w->n;
	if (n > TOPROW_WIRE)
		n = TOPROW_WIRE;
	memcpy(buf, (const void *) w->row, n * sizeof(*buf));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&w->seq, __ATOMIC_RELAXED) == s ? (int) n : -1;
}

/* s cut to its size, unprintable bytes as '?'. */
static void
clean(char *s, size_t size)
{
	s[size - 1] = 0;
	for (char *p = s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
}

/* Is r, our copy, a row that may follow one at depth `prev` (0 before the first)? */
static int
plausible(const struct toprow *r, unsigned prev)
{
	if (r->depth < 1 || r->depth > prev + 1 || r->depth > TOPROW_DEPTH)
		return 0;
	if (r->kind < TOPROW_SUBSYSTEM || r->kind > TOPROW_COMPONENT || r->res > RES_KIND_MAX)
		return 0;
	return r->res == 0 || (r->period && r->budget <= r->period);
}

unsigned
toprow_wire_get(const volatile struct toprow_wire *w, struct toprow *out, unsigned max,
		unsigned below)
{
	struct toprow buf[TOPROW_WIRE];
	unsigned k = 0, prev = 0;
	int n = copy_once(w, buf);

	if (n < 0)
		n = copy_once(w, buf);
	for (int i = 0; i < n && k < max && plausible(&buf[i], prev); i++) {
		struct toprow *r = &out[k++];
		prev = buf[i].depth;
		*r = buf[i];
		clean(r->name, sizeof(r->name));
		clean(r->policy, sizeof(r->policy));
		r->depth = (uint8_t) (r->depth + below > TOPROW_DEPTH ? TOPROW_DEPTH
								      : r->depth + below);
		r->flags = TOPROW_CLAIM;
	}
	return k;
}

double
toprow_pct(uint64_t part, uint64_t whole)
{
	double p = whole ? 100.0 * (double) part / (double) whole : 0;

	return p > 100 ? 100 : p;
}

/* The name of row i's parent in rows ("" at the top). */
static const char *
parent_name(const struct toprow *rows, unsigned i)
{
	for (unsigned j = i; j-- > 0;)
		if (rows[j].depth < rows[i].depth)
			return rows[j].name;
	return "";
}

double
toprow_share(const struct toprow *rows, unsigned i, const struct toprow *prev, unsigned nprev)
{
	const struct toprow *r = &rows[i];
	const char *up = parent_name(rows, i);

	for (unsigned j = 0; j < nprev; j++) {
		const struct toprow *p = &prev[j];
		if (p->depth != r->depth || strcmp(p->name, r->name) ||
		    strcmp(parent_name(prev, j), up))
			continue;
		if (r->at <= p->at || r->consumed < p->consumed)
			return -1; /* the same sample, or a counter that went back (a claim) */
		return toprow_pct(r->consumed - p->consumed, r->at - p->at);
	}
	return -1;
}

const char *
toprow_res(const struct toprow *r, char *buf, size_t len)
{
	static const char *const kinds[] = { "best effort", "hard", "soft", "deferrable" };

	if (!r->res || r->res > RES_KIND_MAX)
		snprintf(buf, len, "best effort");
	else if (r->budget == r->period)
		snprintf(buf, len, "whole CPU");
	else
		snprintf(buf, len, "%s %u/%u", kinds[r->res], (unsigned) r->budget,
			 (unsigned) r->period);
	return buf;
}

int
toprow_header(char *buf, size_t len)
{
	return snprintf(buf, len, "%-22s %-4s %-6s %-16s %6s %6s %5s %11s %5s %s", "NAME", "WHAT",
			"POLICY", "RESERVATION", "CPU%", "BOOT%", "MISS", "MEM(pages)", "NET",
			"SOURCE");
}

static const char *
kind_word(const struct toprow *r)
{
	return r->kind == TOPROW_SUBSYSTEM ? "sub" : r->kind == TOPROW_TASK ? "task" : "comp";
}

int
toprow_line(char *buf, size_t len, const struct toprow *r, double now, uint64_t uptime, long frames)
{
	char name[64], res[40], cpu[16] = "-", mem[32] = "-", net[24] = "-";

	snprintf(name, sizeof(name), "%*s%s", 2 * (int) r->depth, "", r->name);
	if (now >= 0)
		snprintf(cpu, sizeof(cpu), "%.1f", now);
	if (r->mem_used != TOPROW_NONE && r->mem_bound != TOPROW_NONE)
		snprintf(mem, sizeof(mem), "%u/%u", (unsigned) r->mem_used,
			 (unsigned) r->mem_bound);
	if (frames >= 0)
		snprintf(net, sizeof(net), "%ld", frames);
	return snprintf(buf, len, "%-22s %-4s %-6s %-16s %6s %6.1f %5u %11s %5s %s", name,
			kind_word(r), r->policy[0] ? r->policy : "-",
			toprow_res(r, res, sizeof(res)), cpu, toprow_pct(r->consumed, uptime),
			(unsigned) r->misses, mem, net, r->flags & TOPROW_CLAIM ? "claim" : "seen");
}
