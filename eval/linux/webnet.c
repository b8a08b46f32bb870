/*
 * webnet.c - the Linux side of the web experiment (eval/web.sh): one lwIP instance, the
 * same build as HiRES's (build/liblwip.a), on an AF_PACKET socket of a card.  lwIP uses the
 * card's MAC and the card has no Linux address, so the Linux stack leaves its traffic alone.
 *   webnet client IFACE N [S]  subsystems/web/client.c's load: N connections to
 *                              10.0.2.15:80, 20 at once, from 10.0.2.16, for at most S
 *                              virtual seconds (60); prints the line main.c's `load` prints
 *   webnet server IFACE        subsystems/web/httpd.c serving pages.c's pages on
 *                              10.0.2.15:80, until killed
 * Time is CLOCK_MONOTONIC, which under -icount shift=0 counts instructions (1 ns each).
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/if_ether.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* musl's endian.h (through the headers above) and lwIP's arch/cc.h both define it, alike */
#undef BYTE_ORDER

#include "client.h"
#include "httpd.h"
#include "pages.h"
#include "rm/rand.h"

#include "lwip/etharp.h"
#include "lwip/init.h"
#include "lwip/netif.h"
#include "lwip/sys.h"
#include "lwip/tcp.h"
#include "lwip/timeouts.h"
#include "netif/ethernet.h"

#define SERVER_IP    0x0a00020fu /* 10.0.2.15, card 0's on HiRES */
#define CLIENT_IP    0x0a000210u /* 10.0.2.16, card 1's */
#define HTTP_PORT    80
#define LOAD_CLIENTS 20 /* as subsystems/web/main.c's load */
#define LOAD_PORT_LO 20000
#define LOAD_PORT_HI 29999
#define FRAME_MAX    65536 /* GRO may hand a packet socket more than one MTU */

static int sock = -1;
static struct netif ours;
static uint8_t mac[6];
static uint8_t frame[FRAME_MAX];
static unsigned long tx_dropped;
static int serving;

static uint64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* lwIP's clock, in milliseconds */
u32_t
sys_now(void)
{
	return (u32_t) (now_ns() / 1000000u);
}

/* lwIP's random numbers (initial sequence numbers, local ports we do not choose) */
unsigned
lwip_port_rand(void)
{
	static uint64_t x = 88172645463325252ull;

	x ^= now_ns(); /* a clock mixed in: sequence numbers differ from boot to boot */
	return (unsigned) hr_rand(&x);
}

static void
die(const char *what)
{
	fprintf(stderr, "webnet: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A packet socket bound to iface (brought up), and the card's MAC in mac. */
static void
packet_open(const char *iface)
{
	struct ifreq ifr;
	struct sockaddr_ll a;

	/* protocol 0: nothing arrives until bind names the card */
	if ((sock = socket(AF_PACKET, SOCK_RAW, 0)) < 0)
		die("socket(AF_PACKET)");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	if (ioctl(sock, SIOCGIFHWADDR, &ifr) < 0)
		die(iface);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
		die(iface);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sock, SIOCSIFFLAGS, &ifr) < 0 || ioctl(sock, SIOCGIFINDEX, &ifr) < 0)
		die(iface);
	memset(&a, 0, sizeof(a));
	a.sll_family = AF_PACKET;
	a.sll_protocol = htons(ETH_P_ALL);
	a.sll_ifindex = ifr.ifr_ifindex;
	if (bind(sock, (struct sockaddr *) &a, sizeof(a)) < 0)
		die("bind");
}

/* Copy lwIP's frame p out to the card. */
static err_t
output(struct netif *nif, struct pbuf *p)
{
	static uint8_t out[1600];

	(void) nif;
	if (p->tot_len > sizeof(out)) {
		tx_dropped++;
		return ERR_OK;
	}
	pbuf_copy_partial(p, out, p->tot_len, 0);
	if (send(sock, out, p->tot_len, 0) < 0)
		tx_dropped++; /* lost on the wire, as far as lwIP knows: TCP sends it again */
	return ERR_OK;
}

static err_t
setup(struct netif *nif)
{
	nif->name[0] = 'p';
	nif->name[1] = 'k';
	nif->mtu = 1500;
	nif->hwaddr_len = 6;
	memcpy(nif->hwaddr, mac, 6);
	nif->flags =
		NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET | NETIF_FLAG_LINK_UP;
	nif->output = etharp_output;
	nif->linkoutput = output;
	return ERR_OK;
}

static void
lwip_up(const char *iface, uint32_t ip_host)
{
	ip4_addr_t ip, mask, gw;

	packet_open(iface);
	lwip_init();
	ip.addr = lwip_htonl(ip_host);
	IP4_ADDR(&mask, 255, 255, 255, 0);
	IP4_ADDR(&gw, 10, 0, 2, 2);
	if (!netif_add(&ours, &ip, &mask, &gw, 0, setup, ethernet_input)) {
		fprintf(stderr, "webnet: netif_add failed\n");
		exit(1);
	}
	netif_set_default(&ours);
	netif_set_up(&ours);
}

/* As the HiRES server (main.c's server_inspect): a SYN for us makes room in the listen
 * backlog before lwIP sees it (httpd_syn). */
static void
inspect(const uint8_t *f, size_t len)
{
	size_t ihl;

	if (len < 14 + 20 || f[12] != 0x08 || f[13] != 0x00 || f[14 + 9] != 6)
		return;
	ihl = (f[14] & 0xfu) * 4u;
	if (ihl < 20 || len < 14 + ihl + 20)
		return;
	if ((f[14 + ihl + 13] & 0x12) == 0x02)
		httpd_syn((uint16_t) (f[14 + ihl + 2] << 8 | f[14 + ihl + 3]));
}

/* Hand lwIP every frame waiting on the socket, but those we sent ourselves. */
static void
receive(void)
{
	struct sockaddr_ll from;
	socklen_t fl = sizeof(from);
	ssize_t n;

	while ((n = recvfrom(sock, frame, sizeof(frame), MSG_DONTWAIT, (struct sockaddr *) &from,
			     &fl)) > 0) {
		fl = sizeof(from);
		if (from.sll_pkttype == PACKET_OUTGOING || n > 0xffff)
			continue;
		if (serving)
			inspect(frame, (size_t) n);
		struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t) n, PBUF_POOL);
		if (!p)
			continue; /* dropped: TCP sends it again */
		pbuf_take(p, frame, (u16_t) n);
		if (ours.input(p, &ours) != ERR_OK)
			pbuf_free(p);
	}
}

/* Run lwIP until done() or until the clock passes deadline (ns); 0 if done() said so. */
static int
run(int (*done)(void), uint64_t deadline)
{
	struct pollfd pfd = { sock, POLLIN, 0 };

	for (;;) {
		receive();
		sys_check_timeouts();
		if (done())
			return 0;
		uint64_t t = now_ns();
		if (t >= deadline)
			return -1;
		uint32_t ms = sys_timeouts_sleeptime();
		uint64_t left = (deadline - t) / 1000000u + 1;
		if (ms > left)
			ms = (uint32_t) left;
		poll(&pfd, 1, (int) ms);
	}
}

static int
arp_known(void)
{
	ip4_addr_t ip = { lwip_htonl(SERVER_IP) };
	struct eth_addr *m;
	const ip4_addr_t *found;

	return etharp_find_addr(&ours, &ip, &m, &found) >= 0;
}

/* As main.c's load: the server's address before the clock starts, then the load. */
static int
client(const char *iface, unsigned total, unsigned limit_s)
{
	ip4_addr_t ip = { lwip_htonl(SERVER_IP) };
	struct client_cfg c = { SERVER_IP, HTTP_PORT,	 LOAD_PORT_LO, LOAD_PORT_HI,
				"/",	   LOAD_CLIENTS, total,	       now_ns };

	lwip_up(iface, CLIENT_IP);
	etharp_request(&ours, &ip);
	if (run(arp_known, now_ns() + 1000000000u))
		printf("webnet: no ARP answer from 10.0.2.15 in a second; going on\n");
	if (client_start(&c)) {
		fprintf(stderr, "webnet: no memory for the client\n");
		return 1;
	}
	int late = run(client_finished, now_ns() + (uint64_t) limit_s * 1000000000u);
	const struct client_result *r = client_finish();
	if (late)
		printf("webnet: stopped after %u s: %u of %u connections had not ended\n", limit_s,
		       total - r->done - r->failed, total);
	double s = (double) (r->end - r->start) / 1e9;
	printf("web-client: conns=%u failed=%u conns_per_s=%.1f mean=%llu p95=%llu "
	       "unit=instr bytes=%llu\n",
	       r->done, r->failed, s > 0 ? r->done / s : 0, (unsigned long long) client_mean(r),
	       (unsigned long long) client_percentile(r, 95), (unsigned long long) r->bytes);
	unsigned slow = 0;
	for (unsigned i = 0; i < r->done; i++)
		slow += r->lat[i] >= 1000000000u;
	printf("webnet: latency p50=%llu p99=%llu max=%llu instr; %u connections took a virtual "
	       "second or more; %lu frames not sent\n",
	       (unsigned long long) client_percentile(r, 50),
	       (unsigned long long) client_percentile(r, 99),
	       (unsigned long long) client_percentile(r, 100), slow, tx_dropped);
	fflush(stdout);
	return late;
}

static void
route(const struct http_req *r, struct httpd_answer *a)
{
	if (!pages_static(r->path, a))
		pages_not_found(a);
}

static int
never(void)
{
	return 0;
}

static int
server(const char *iface)
{
	lwip_up(iface, SERVER_IP);
	serving = 1;
	if (httpd_start(HTTP_PORT, route))
		return 1;
	printf("webnet: serving http://10.0.2.15:%u/ on %s\n", HTTP_PORT, iface);
	fflush(stdout);
	run(never, UINT64_MAX);
	return 0;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, 0, _IOLBF, 0);
	if (argc >= 4 && argc <= 5 && !strcmp(argv[1], "client"))
		return client(argv[2], (unsigned) atoi(argv[3]),
			      argc == 5 ? (unsigned) atoi(argv[4]) : 60);
	if (argc == 3 && !strcmp(argv[1], "server"))
		return server(argv[2]);
	fprintf(stderr, "usage: webnet client IFACE N [SECONDS] | webnet server IFACE\n");
	return 2;
}
