/*
 * network.c - the network rules (network.h).  A subsystem's ports are spans, its single
 * ports and its ranges together, each remembering the manifest line it came from; the root
 * holds the one span 1..65535.  Children are checked one by one in manifest order, as for
 * memory, so the error names the first that does not fit.
 */
#include "network.h"
#include "diag.h"

#include <stddef.h>

#define SPANS_MAX (PORTS_MAX + RANGES_MAX)

struct span {
	uint32_t lo, hi; /* inclusive */
	int line;	 /* of the net-ports or net-ranges property it comes from */
};

uint32_t
network_kbps(const struct node *s)
{
	if (s->has_kbps)
		return s->net_kbps;
	return !s->parent && s->net_cards ? NETWORK_KBPS_DEFAULT : 0;
}

int
network_has_kbps(const struct node *s)
{
	return s->has_kbps || (!s->parent && s->net_cards);
}

/* The ports s holds, into out[SPANS_MAX]; returns how many spans. */
static unsigned
spans(const struct node *s, struct span *out)
{
	unsigned n = 0;

	if (!s->parent) {
		out[0] = (struct span){ 1, PORT_MAX, s->line };
		return 1;
	}
	for (unsigned i = 0; i < s->nports; i++)
		out[n++] = (struct span){ s->ports[i], s->ports[i], s->line_ports };
	for (unsigned i = 0; i < s->nranges; i++)
		out[n++] = (struct span){ s->ranges[2 * i], s->ranges[2 * i + 1], s->line_ranges };
	return n;
}

/* The first port from p on that set[0..n) does not hold (PORT_MAX + 1 if none). */
static uint32_t
first_free(uint32_t p, const struct span *set, unsigned n)
{
	for (unsigned i = 0; i < n && p <= PORT_MAX; i++) {
		if (set[i].lo <= p && p <= set[i].hi) {
			p = set[i].hi + 1;
			i = (unsigned) -1; /* p moved: look through every span again */
		}
	}
	return p;
}

/* The lowest port of a[0..na) that b[0..nb) does not hold, 0 if none; *line: a's span's. */
static uint32_t
outside(const struct span *a, unsigned na, const struct span *b, unsigned nb, int *line)
{
	uint32_t low = 0;

	for (unsigned i = 0; i < na; i++) {
		uint32_t p = first_free(a[i].lo, b, nb);
		if (p <= a[i].hi && (!low || p < low)) {
			low = p;
			*line = a[i].line;
		}
	}
	return low;
}

/* The lowest port both a[0..na) and b[0..nb) hold, 0 if none; *line: a's span's. */
static uint32_t
common(const struct span *a, unsigned na, const struct span *b, unsigned nb, int *line)
{
	uint32_t low = 0;

	for (unsigned i = 0; i < na; i++) {
		for (unsigned j = 0; j < nb; j++) {
			uint32_t lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo;
			uint32_t hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
			if (lo <= hi && (!low || lo < low)) {
				low = lo;
				*line = a[i].line;
			}
		}
	}
	return low;
}

/* Child k of s holds only ports of s and none of its earlier siblings': 1 if so. */
static int
check_ports(const struct node *s, const struct node *k)
{
	struct span mine[SPANS_MAX], kid[SPANS_MAX], sib[SPANS_MAX];
	unsigned nm = spans(s, mine), nk = spans(k, kid);
	uint32_t port;
	int line;

	if ((port = outside(kid, nk, mine, nm, &line))) {
		diag_error(line, "child '%s' holds port %u but parent '%s' does not", k->name, port,
			   s->name);
		return 0;
	}
	for (const struct node *o = s->kids; o != k; o = o->next) {
		if (o->kind != NODE_SUBSYS || !(port = common(kid, nk, sib, spans(o, sib), &line)))
			continue;
		diag_error(line, "child '%s' holds port %u but its sibling '%s' does already",
			   k->name, port, o->name);
		return 0;
	}
	return 1;
}

/* Top down, in manifest order: each child against s's ports and the bandwidth s has left. */
static void
check(const struct node *s)
{
	uint64_t left = network_kbps(s);

	for (const struct node *k = s->kids; k; k = k->next) {
		if (k->kind != NODE_SUBSYS)
			continue;
		if (!check_ports(s, k))
			return;
		if (network_kbps(k) > left) {
			diag_error(k->line_kbps,
				   "child '%s' asks for %u kbit/s but parent '%s' has %llu kbit/s "
				   "left",
				   k->name, network_kbps(k), s->name, (unsigned long long) left);
			return;
		}
		left -= network_kbps(k);
		check(k);
	}
}

/* The first subsystem, in manifest order, with a net-* property; NULL if none has. */
static const struct node *
first_net(const struct node *n)
{
	const struct node *f;

	if (n->kind == NODE_SUBSYS && n->line_net)
		return n;
	for (const struct node *k = n->kids; k; k = k->next)
		if ((f = first_net(k)))
			return f;
	return NULL;
}

void
network_check(const struct image *img)
{
	const struct node *s;

	if (img->root->net_cards)
		check(img->root);
	else if ((s = first_net(img->root)))
		diag_error(s->line_net,
			   "subsystem '%s' holds ports or bandwidth but image '%s' declares no "
			   "network card (net-cards on its root)",
			   s->name, img->name);
	else if (img->host_port)
		diag_error(img->line_host_port,
			   "host-port of image '%s' forwards to its first card, but it declares "
			   "no network card (net-cards on its root)",
			   img->name);
}
