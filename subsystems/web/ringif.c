/* ringif.c - lwIP on our network rings (ringif.h). */
#include "ringif.h"
#include "lib/bytes.h"
#include "rm/net.h"
#include "rm/rand.h"
#include "rm/runtime.h"
#include "rm/sched.h"

#include "lwip/etharp.h"
#include "lwip/init.h"
#include "lwip/sys.h"
#include "lwip/netif.h"
#include "lwip/timeouts.h"
#include "netif/ethernet.h"

#include <stdio.h>
#include <string.h>

static struct netif ours;
int (*ringif_inspect)(const uint8_t *frame, unsigned len);
static struct ringif_stats stats;

const struct ringif_stats *
ringif_stats(void)
{
	return &stats;
}

/* lwIP's clock: milliseconds from the TSC (the kernel's time base). */
u32_t
sys_now(void)
{
	return (u32_t) (hr_tsc() / (hr_bootinfo()->tsc_hz / 1000));
}

/* lwIP's random numbers (initial sequence numbers, local ports we do not choose). */
unsigned
lwip_port_rand(void)
{
	static uint64_t x = 88172645463325252ull;

	x ^= hr_tsc(); /* a clock mixed in: sequence numbers differ from boot to boot */
	return (unsigned) hr_rand(&x);
}

/* Copy lwIP's frame p into a transmit slot and hand the ring to the kernel. */
static err_t
output(struct netif *nif, struct pbuf *p)
{
	struct hr_net_slot *s = net_send_slot();

	(void) nif;
	if (!s && hr_net_tx() >= 0)
		s = net_send_slot(); /* the kernel may take what waits now */
	if (!s || p->tot_len > HR_NET_FRAME_MAX) {
		stats.tx_dropped++;
		return ERR_OK; /* lost on the wire, as far as lwIP knows: TCP sends it again */
	}
	pbuf_copy_partial(p, s->frame, p->tot_len, 0);
	stats.tx++;
	net_send(p->tot_len); /* HR_ERATE: it waits in the ring (ringif_run) */
	return ERR_OK;
}

static err_t
setup(struct netif *nif)
{
	struct hr_net_hdr *h = net_hdr();

	nif->name[0] = 'r';
	nif->name[1] = 'g';
	nif->mtu = 1500;
	nif->hwaddr_len = 6;
	memcpy(nif->hwaddr, h->mac, 6);
	nif->flags =
		NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET | NETIF_FLAG_LINK_UP;
	nif->output = etharp_output;
	nif->linkoutput = output;
	return ERR_OK;
}

struct netif *
ringif_open(unsigned card)
{
	long e = net_open(card);
	ip4_addr_t ip, mask, gw;

	if (e) {
		printf("ringif: card %u: %s\n", card, hr_strerror(e));
		return 0;
	}
	lwip_init();
	ip.addr = lwip_htonl(net_hdr()->ip);
	IP4_ADDR(&mask, 255, 255, 255, 0);
	IP4_ADDR(&gw, 10, 0, 2, 2); /* QEMU's user-mode network, when there is one */
	if (!netif_add(&ours, &ip, &mask, &gw, 0, setup, ethernet_input))
		return 0;
	netif_set_default(&ours);
	netif_set_up(&ours);
	return &ours;
}

int
ringif_tcp(const uint8_t *f, unsigned len, uint16_t *sport, uint16_t *dport, uint8_t *flags)
{
	unsigned ihl;

	if (len < 14 + 20 || be16_get(f + 12) != 0x0800 || f[14 + 9] != 6)
		return 0;
	ihl = (f[14] & 0xfu) * 4u;
	if (ihl < 20 || len < 14 + ihl + 20)
		return 0;
	*sport = be16_get(f + 14 + ihl);
	*dport = be16_get(f + 14 + ihl + 2);
	*flags = f[14 + ihl + 13];
	return 1;
}

/* Hand lwIP every frame in the receive ring. */
static void
receive(struct netif *nif)
{
	const struct hr_net_slot *s;

	while ((s = net_recv())) {
		struct pbuf *p = ringif_inspect && ringif_inspect(s->frame, s->len)
					 ? 0
					 : pbuf_alloc(PBUF_RAW, s->len, PBUF_POOL);
		if (p) {
			pbuf_take(p, s->frame, s->len);
			stats.rx++;
			if (nif->input(p, nif) != ERR_OK)
				pbuf_free(p);
		}
		net_recv_done();
	}
}

/* When the loop must look again: lwIP's next timer, or the kernel's retry time for
 * frames held back at our bandwidth limit. */
static uint64_t
next_wake(void)
{
	struct hr_net_hdr *h = net_hdr();
	uint64_t ms = sys_timeouts_sleeptime(), tsc_ms = hr_bootinfo()->tsc_hz / 1000;
	uint64_t t = ms == SYS_TIMEOUTS_SLEEPTIME_INFINITE ? UINT64_MAX : hr_tsc() + ms * tsc_ms;

	if (h->tx_head != h->tx_tail && h->tx_retry_at < t)
		t = h->tx_retry_at;
	return t;
}

void
ringif_run(struct netif *nif, int (*done)(void))
{
	struct hr_net_hdr *h = net_hdr();

	while (!done()) {
		receive(nif);
		sys_check_timeouts();
		if (h->tx_head != h->tx_tail && hr_tsc() >= h->tx_retry_at)
			hr_net_tx();
		if (!done())
			net_wait_until(next_wake());
	}
}
