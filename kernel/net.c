/*
 * net.c - ports, bandwidth and rings (net.h); the e1000 driver below it is
 * kernel/arch/x86_64/e1000.c, the frame rules packet.c.
 *
 * Cost.  A received frame costs one lookup in port_owner, one copy into the owner's ring
 * and, when the ring was empty, one kernel event for the owner's scheduler, whose event
 * thread the published priorities then dispatch or not (schedtree_notify): nothing here
 * depends on the owner's depth.  The time spent on a frame is charged to its owner and not
 * to whoever the interrupt stopped (schedtree_charge).
 */
#include "net.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "packet.h"
#include "ptq.h"
#include "syscall.h"
#include "abi/hr_net.h"

#define RINGS_MAX 8 /* subsystems with an open card at once */
#define IRQ_BUDGET \
	32 /* frames one interrupt or tick takes from a card: a flood cannot
		       * hold the CPU for longer than that before the line is acknowledged */
#define BURST_DEFAULT (16 * HR_NET_FRAME_MAX)
#define BURST_MAX     (16u << 20)

struct ring_pages {
	uint8_t page[HR_NET_REGION_PAGES][HR_PAGE_SIZE];
} __attribute__((aligned(4096)));

/* What the kernel keeps for one component; its region's copies are only told. */
struct net_sub {
	uint32_t kbps;	  /* bandwidth held, what was passed to children included */
	uint32_t given;	  /* ... of which passed to children */
	uint32_t nports;  /* ports owned itself */
	uint32_t burst;	  /* bytes its bucket holds */
	uint64_t tat;	  /* token bucket as a virtual time: when the last frame "ends" */
	uint8_t ring;	  /* 1 + its ring set, 0 if it opened no card */
	uint8_t card;	  /* the card it opened */
	uint32_t rx_head; /* frames written into its receive ring */
	uint32_t tx_tail; /* frames taken from its transmit ring */
	struct hr_net_count count;
};

struct net_card {
	uint8_t mac[6];
	uint32_t ip;
	uint64_t ready_at;
	uint64_t malformed, unclaimed;
};

_Static_assert(sizeof(struct hr_net_count) == 8 * HR_NI_KBPS, "net_info reads counts by index");

static struct ring_pages rings[RINGS_MAX];
static struct comp *ring_owner[RINGS_MAX];
static struct net_sub subs[HR_COMP_MAX];
static uint8_t port_owner[65536]; /* component id; 0: port 0, never anyone's */
static struct net_card cards[HR_NET_CARDS];
static unsigned ncards;
static uint64_t irq_at; /* when the interrupt being served arrived */
static uint64_t tsc_hz;

static struct hr_net_hdr *
hdr(const struct net_sub *s)
{
	return (struct hr_net_hdr *) rings[s->ring - 1].page[0];
}

static uint8_t *
ring_base(const struct net_sub *s)
{
	return rings[s->ring - 1].page[0];
}

void
net_init(struct comp *root, uint64_t hz)
{
	struct hw_net_info info[HR_NET_CARDS];
	unsigned found;

	tsc_hz = hz;
	found = hw_net_init(info, HR_NET_CARDS, hz);
	for (unsigned i = 0; i < found; i++) {
		struct hw_net_info *d = &info[i];
		if (!d->usable) {
			kprintf("[k] net: e1000 in slot %u on line %u: not usable\n", d->slot,
				d->irq);
			continue;
		}
		struct net_card *c = &cards[ncards++];
		memcpy(c->mac, d->mac, 6);
		c->ip = HR_NET_IP(d->card);
		c->ready_at = d->ready_at;
		kprintf("[k] net: card %u: e1000 slot %u line %u mac %02x:%02x:%02x:%02x:%02x:%02x "
			"ip 10.0.2.%u link %s\n",
			d->card, d->slot, d->irq, d->mac[0], d->mac[1], d->mac[2], d->mac[3],
			d->mac[4], d->mac[5], c->ip & 0xff, d->link ? "up" : "down");
	}
	memset(port_owner, root->id, sizeof(port_owner));
	port_owner[0] = 0;
	subs[root->id] = (struct net_sub){ .kbps = HR_NET_KBPS_MAX, .nports = 65535 };
}

/* ---- receive ------------------------------------------------------------------------- */

/* Copy frame f into s's receive ring, or count it dropped there; wake s if it was empty. */
static void
deliver(struct comp *c, unsigned card, const uint8_t *f, unsigned len)
{
	struct net_sub *s = &subs[c->id];
	struct hr_net_hdr *h = hdr(s);
	uint32_t tail = h->rx_tail; /* read once: the subsystem may change it meanwhile */
	struct hr_net_slot *slot;

	if (s->rx_head - tail >= HR_NET_SLOTS) {
		h->count.rx_full = ++s->count.rx_full;
		return;
	}
	slot = HR_NET_RX(ring_base(s), s->rx_head % HR_NET_SLOTS);
	memcpy(slot->frame, f, len);
	slot->len = (uint16_t) len;
	slot->card = (uint16_t) card;
	h->rx_head = ++s->rx_head;
	s->count.rx_frames++;
	s->count.rx_bytes += len;
	h->count.rx_frames = s->count.rx_frames;
	h->count.rx_bytes = s->count.rx_bytes;
	if (s->rx_head - tail == 1) { /* it was empty: it needs telling */
		h->irq_tsc = irq_at;
		schedtree_notify(c, (struct hr_kevent){ .type = HR_KEV_NET, .comp = c->id });
	}
}

/* Deliver to c, which pays for it: the copy and the wake-up are its work. */
static void
deliver_charged(struct comp *c, unsigned card, const uint8_t *f, unsigned len, uint64_t t0)
{
	struct net_sub *s = &subs[c->id];
	uint64_t dt;

	deliver(c, card, f, len);
	dt = hw_tsc() - t0;
	s->count.cycles += dt;
	hdr(s)->count.cycles = s->count.cycles;
	schedtree_charge(c, dt);
}

static void
answer_arp(unsigned card, const uint8_t *req)
{
	uint8_t *out = hw_net_tx_buf(card);

	if (out) /* a full transmit ring: the asker asks again */
		hw_net_tx_go(card, packet_arp_reply(req, cards[card].mac, cards[card].ip, out));
}

void
net_rx(unsigned card, const uint8_t *f, unsigned len)
{
	uint64_t t0 = hw_tsc();
	struct net_card *nc = &cards[card];
	uint16_t port = 0;
	struct comp *c;

	switch (packet_classify(f, len, nc->ip, &port)) {
	case PKT_MALFORMED:
		nc->malformed++;
		return;
	case PKT_UNCLAIMED:
		nc->unclaimed++;
		return;
	case PKT_ARP_REQUEST:
		answer_arp(card, f);
		return;
	case PKT_ARP_REPLY:
		for (unsigned i = 0; i < RINGS_MAX; i++)
			if ((c = ring_owner[i]) && subs[c->id].card == card)
				deliver_charged(c, card, f, len, hw_tsc());
		return;
	case PKT_PORT:
		c = &comps[port_owner[port]];
		if (!port_owner[port] || !subs[c->id].ring) {
			nc->unclaimed++;
			return;
		}
		deliver_charged(c, card, f, len, t0);
		return;
	}
}

void
net_irq(unsigned mask)
{
	irq_at = hw_tsc();
	for (unsigned i = 0; i < ncards; i++)
		if (mask & 1u << i)
			hw_net_service(i, IRQ_BUDGET);
}

void
net_poll(void)
{
	for (unsigned i = 0; i < ncards; i++)
		if (hw_net_rx_pending(i))
			net_irq(1u << i);
}

/* ---- transmit ------------------------------------------------------------------------ */

/* May s send len bytes now?  Its bucket is a virtual time (GCRA): each frame moves it on by
 * its length at s's rate, and s may send while it is at most a burst ahead of now. */
static int
bucket_take(struct net_sub *s, unsigned len, uint64_t now, uint64_t *retry)
{
	uint64_t bps = (uint64_t) s->kbps * 125; /* bytes per second */
	uint64_t cost = (uint64_t) len * tsc_hz / bps;
	uint64_t slack = (uint64_t) s->burst * tsc_hz / bps;

	if (s->tat > now + slack) {
		*retry = s->tat - slack;
		return 0;
	}
	s->tat = MAX(s->tat, now) + cost;
	return 1;
}

/* Send the frame in slot (len read once), copied into the card's buffer before any check:
 * 0 sent or dropped as refused (counted; *refused set), else HR_EBUSY or HR_ERATE and the
 * frame stays. */
static long
send_one(struct comp *c, struct net_sub *s, const struct hr_net_slot *slot, int *refused)
{
	struct hr_net_hdr *h = hdr(s);
	struct net_card *nc = &cards[s->card];
	unsigned len = slot->len;
	uint8_t *buf;
	uint64_t retry;

	if (len < HR_NET_FRAME_MIN || len > HR_NET_FRAME_MAX || !s->kbps) {
		*refused = 1;
		h->count.tx_refused = ++s->count.tx_refused;
		return 0;
	}
	if (!(buf = hw_net_tx_buf(s->card)))
		return HR_EBUSY;
	memcpy(buf, slot->frame, len);
	if (packet_check_send(buf, len, nc->mac, nc->ip, port_owner, (uint8_t) c->id) != PKT_OK) {
		*refused = 1;
		h->count.tx_refused = ++s->count.tx_refused;
		return 0;
	}
	if (!bucket_take(s, len, hw_tsc(), &retry)) {
		h->tx_retry_at = retry;
		h->count.tx_limited = ++s->count.tx_limited;
		return HR_ERATE;
	}
	hw_net_tx_go(s->card, len);
	s->count.tx_frames++;
	s->count.tx_bytes += len;
	h->count.tx_frames = s->count.tx_frames;
	h->count.tx_bytes = s->count.tx_bytes;
	return 0;
}

long
sys_net_tx(struct thd *t)
{
	struct comp *c = t->comp;
	struct net_sub *s = &subs[c->id];
	uint32_t head;
	long sent = 0, err = 0;
	int refused = 0;

	if (!s->ring)
		return refuse(HR_ESTATE, "component %u opened no card", c->id);
	head = hdr(s)->tx_head;
	if (head - s->tx_tail > HR_NET_SLOTS)
		return refuse(HR_EINVAL, "tx_head %u is more than a ring past tx_tail %u", head,
			      s->tx_tail);
	while (s->tx_tail != head && !err) {
		int was = refused;
		err = send_one(c, s, HR_NET_TX(ring_base(s), s->tx_tail % HR_NET_SLOTS), &refused);
		if (err)
			break;
		sent += refused == was;
		hdr(s)->tx_tail = ++s->tx_tail;
	}
	if (refused)
		return refuse(HR_EPERM, "component %u sent a frame not its own to send", c->id);
	return sent || !err ? sent : err;
}

/* ---- delegation ---------------------------------------------------------------------- */

long
sys_net_open(struct thd *t, uint64_t card)
{
	struct comp *c = t->comp;
	struct net_sub *s = &subs[c->id];
	struct pt_budget b = ptq_budget(c);
	unsigned r;

	_Static_assert(HR_VA_NET % (512 * HR_PAGE_SIZE) + HR_NET_REGION_PAGES * HR_PAGE_SIZE <=
			       512 * HR_PAGE_SIZE,
		       "the network region sits in one leaf table");
	if (!c->is_sched)
		return refuse(HR_EPERM, "component %u is not a subsystem", c->id);
	if (card >= ncards)
		return refuse(HR_ENOENT, "no card %lu (%u found)", card, ncards);
	if (s->ring)
		return refuse(HR_EEXIST, "component %u has a card open", c->id);
	for (r = 0; r < RINGS_MAX && ring_owner[r]; r++)
		;
	if (r == RINGS_MAX)
		return refuse(HR_ENOMEM, "every ring set is in use");
	if (pt_missing(c->pgtbl, HR_VA_NET) > b.left)
		return refuse(HR_ENOMEM, "page-table quota");
	memset(&rings[r], 0, sizeof(rings[r]));
	for (uint64_t i = 0; i < HR_NET_REGION_PAGES; i++) {
		uint64_t va = HR_VA_NET + i * HR_PAGE_SIZE;
		uint64_t *e = pt_entry(c->pgtbl, va, &b);
		pt_map(c->pgtbl, va, e,
		       pt_make(hw_virt_to_phys(rings[r].page[i]), HR_MEM_READ | HR_MEM_WRITE));
		*pt_shadow(e) = 0; /* a kernel mapping: no alias node, cannot be aliased */
	}
	ptq_charge(c, b.made);
	ring_owner[r] = c;
	s->ring = (uint8_t) (r + 1);
	s->card = (uint8_t) card;
	s->rx_head = s->tx_tail = 0;
	struct hr_net_hdr *h = hdr(s);
	memcpy(h->mac, cards[card].mac, 6);
	h->card = (uint16_t) card;
	h->ip = cards[card].ip;
	h->ready_at = cards[card].ready_at;
	h->kbps = s->kbps - s->given;
	h->count = s->count;
	return 0;
}

/* Is component id c or below it?  (ids of live components only) */
static int
in_subtree(const struct comp *c, uint8_t id)
{
	return id && comp_is_ancestor(c, &comps[id]);
}

long
sys_net_bind(struct thd *t, uint64_t slot, uint64_t lo, uint64_t hi)
{
	struct comp *p = t->comp, *c = schedtree_child(p, slot);

	if (!c)
		return refuse(HR_ECAP, "slot names no child subsystem");
	if (lo < 1 || lo > hi || hi > 65535)
		return refuse(HR_EINVAL, "ports %lu..%lu", lo, hi);
	for (uint64_t port = lo; port <= hi; port++)
		if (port_owner[port] != p->id)
			return refuse(HR_EPERM, "port %lu is not ours to give", port);
	memset(port_owner + lo, c->id, hi - lo + 1);
	subs[p->id].nports -= (uint32_t) (hi - lo + 1);
	subs[c->id].nports += (uint32_t) (hi - lo + 1);
	return 0;
}

long
sys_net_unbind(struct thd *t, uint64_t slot, uint64_t lo, uint64_t hi)
{
	struct comp *p = t->comp, *c = schedtree_child(p, slot);
	uint8_t below[HR_COMP_MAX]; /* which ids are c or under it: one walk each, not per port */
	long n = 0;

	if (!c)
		return refuse(HR_ECAP, "slot names no child subsystem");
	if (lo < 1 || lo > hi || hi > 65535)
		return refuse(HR_EINVAL, "ports %lu..%lu", lo, hi);
	for (unsigned i = 0; i < HR_COMP_MAX; i++)
		below[i] = comps[i].state != COMP_FREE && in_subtree(c, (uint8_t) i);
	for (uint64_t port = lo; port <= hi; port++) {
		if (!below[port_owner[port]])
			continue;
		subs[port_owner[port]].nports--;
		port_owner[port] = (uint8_t) p->id;
		n++;
	}
	subs[p->id].nports += (uint32_t) n;
	return n;
}

long
sys_net_rate(struct thd *t, uint64_t slot, uint64_t kbps, uint64_t burst)
{
	struct comp *p = t->comp, *c = schedtree_child(p, slot);
	struct net_sub *ps = &subs[p->id], *cs;

	if (!c)
		return refuse(HR_ECAP, "slot names no child subsystem");
	cs = &subs[c->id];
	if (kbps > HR_NET_KBPS_MAX || burst > BURST_MAX || (burst && burst < HR_NET_FRAME_MAX))
		return refuse(HR_EINVAL, "rate %lu kbit/s, burst %lu bytes", kbps, burst);
	if (kbps < cs->given)
		return refuse(HR_EBUSY, "the child passed %u kbit/s on: take that back first",
			      cs->given);
	if (kbps > cs->kbps && kbps - cs->kbps > ps->kbps - ps->given)
		return refuse(HR_ENOMEM, "%lu kbit/s more than the %u we have left",
			      kbps - cs->kbps, ps->kbps - ps->given);
	ps->given = ps->given - cs->kbps + (uint32_t) kbps;
	cs->kbps = (uint32_t) kbps;
	cs->burst = burst ? (uint32_t) burst : BURST_DEFAULT;
	cs->tat = 0;
	if (ps->ring)
		hdr(ps)->kbps = ps->kbps - ps->given;
	if (cs->ring)
		hdr(cs)->kbps = cs->kbps - cs->given;
	return 0;
}

long
sys_net_info(struct thd *t, uint64_t comp, uint64_t what, uint64_t arg)
{
	struct comp *c = comp_arg(t->comp, comp);
	const struct net_sub *s;

	if (!c)
		return refuse(HR_ECAP, "slot names no component");
	s = &subs[c->id];
	switch (what) {
	case HR_NI_RX_FRAMES ... HR_NI_CYCLES:
		return (long) ((const uint64_t *) &s->count)[what];
	case HR_NI_KBPS:
		return s->kbps;
	case HR_NI_PORTS:
		return s->nports;
	case HR_NI_OWNER:
		return arg >= 1 && arg <= 65535 ? port_owner[arg] : refuse(HR_EINVAL, "port");
	case HR_NI_CARDS:
		return ncards;
	case HR_NI_CARD_MALFORMED:
	case HR_NI_CARD_UNCLAIMED:
		if (arg >= ncards)
			return refuse(HR_ENOENT, "no card %lu", arg);
		return (long) (what == HR_NI_CARD_MALFORMED ? cards[arg].malformed
							    : cards[arg].unclaimed);
	}
	return refuse(HR_EINVAL, "no query %lu", what);
}

/* ---- endings ------------------------------------------------------------------------- */

void
net_release(struct comp *c)
{
	struct comp *p = c->parent;
	struct net_sub *s = &subs[c->id];

	if (!p)
		return;
	if (s->nports) {
		for (unsigned port = 1; port <= 65535; port++)
			if (port_owner[port] == c->id)
				port_owner[port] = (uint8_t) p->id;
		subs[p->id].nports += s->nports;
		s->nports = 0;
	}
	/* what it kept goes back; what its children hold comes back as they end */
	subs[p->id].given -= s->kbps - s->given;
	s->kbps = s->given;
	if (subs[p->id].ring)
		hdr(&subs[p->id])->kbps = subs[p->id].kbps - subs[p->id].given;
	if (s->ring)
		hdr(s)->kbps = 0;
}

void
net_destroy(struct comp *c)
{
	struct net_sub *s = &subs[c->id];

	net_release(c);
	if (s->ring) {
		for (uint64_t i = 0; i < HR_NET_REGION_PAGES; i++)
			ptq_refund(c, pt_unmap(c->pgtbl, HR_VA_NET + i * HR_PAGE_SIZE));
		ring_owner[s->ring - 1] = 0;
	}
	*s = (struct net_sub){ 0 };
}
