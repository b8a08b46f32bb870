/*
 * web - lwIP (Debian's source, built by the top Makefile) in a subsystem: the web server,
 * the load client of the web experiment, and the clients of its tests.  Each task that
 * opens a card is its subsystem's network thread and runs that subsystem's one lwIP
 * instance (ringif.h); a subsystem runs at most one of them.
 *
 * Tasks (MANIFEST, tests/images/test-web.dts):
 *   server        serve port 80 on card 0 for arg virtual seconds (0: for ever): the
 *                 static pages and /status, /status.json, our subtree live (status.h)
 *   bench_server  serve port 80 on card 0 until arg connections have ended, then print what
 *                 they cost us: "web-server: conns=N instr_per_conn=..."
 *   load          the experiment's client on card 1: arg connections to 10.0.2.15:80, 20 at
 *                 once, then "web-client: conns=.. failed=.. conns_per_s=.. mean=.. p95=.."
 *   probe         test-web's checks, on card 1: pages, 404, 400, keep-alive, HEAD, and
 *                 that the server still answers while "attack" does its worst
 *   attack        on card 1: hold connections open without a word, send garbage, flood SYNs
 *   rt_spin       spin in a hard reservation until rt_watch is done
 *   rt_watch      check that rt_spin kept its share while our child "attack" ran
 */
#include "client.h"
#include "httpd.h"
#include "pages.h"
#include "ringif.h"
#include "status.h"

#include "lib/bytes.h"
#include "rm/cpuwatch.h"
#include "rm/hrtop.h"
#include "rm/net.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include "lwip/etharp.h"
#include "lwip/sys.h"
#include "lwip/tcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HTTP_PORT    80
#define LOAD_CLIENTS 20 /* connections at once, as in the paper's Table III */
#define LOAD_PORT_LO 20000
#define LOAD_PORT_HI 29999
#define BENCH_QUIET_MS 30000
#define STATUS_MAX   32768 /* a /status page of HRTOP_ROWS_MAX rows fits (status_test) */

static uint64_t
tsc_now(void)
{
	return hr_tsc();
}

static uint64_t
seconds(uint64_t s)
{
	return s * hr_bootinfo()->tsc_hz;
}

/* ---- the server ---------------------------------------------------------------------- */

static struct toprow rows[2][HRTOP_ROWS_MAX];
static unsigned nrows[2], cur;

static void
gather_net(struct status_net *n)
{
	const struct httpd_stats *h = httpd_stats();
	static const enum hr_net_info what[] = { HR_NI_RX_FRAMES, HR_NI_RX_BYTES, HR_NI_RX_FULL,
						 HR_NI_TX_FRAMES, HR_NI_TX_BYTES, HR_NI_TX_REFUSED,
						 HR_NI_TX_LIMITED, HR_NI_KBPS };
	uint64_t *to[] = { &n->rx_frames, &n->rx_bytes, &n->rx_full,  &n->tx_frames,
			   &n->tx_bytes,  &n->tx_refused, &n->tx_limited, &n->kbps };

	for (unsigned i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		long v = hr_net_info(HR_CAP_SELF, what[i], 0);
		*to[i] = v > 0 ? (uint64_t) v : 0;
	}
	n->http_conns = h->accepted;
	n->http_requests = h->requests;
	n->http_errors = h->errors;
	n->http_open = h->open;
}

/* /status and /status.json: a fresh snapshot of our subtree, shares against the last. */
static void
status(const struct http_req *r, struct httpd_answer *a)
{
	struct status_net net;
	struct status_view v;
	int json = !strcmp(r->path, "/status.json");
	char *buf = malloc(STATUS_MAX);

	if (!buf) {
		*a = (struct httpd_answer){ 503, "text/plain", "busy\n", 5, 0 };
		return;
	}
	cur ^= 1;
	nrows[cur] = hrtop_snapshot(rows[cur], HRTOP_ROWS_MAX);
	gather_net(&net);
	v = (struct status_view){ rows[cur],	    nrows[cur],		  rows[cur ^ 1],
				  nrows[cur ^ 1], hrtop_uptime(), hr_bootinfo()->tsc_hz,
				  &net };
	size_t n = json ? status_json(buf, STATUS_MAX, &v) : status_html(buf, STATUS_MAX, &v);
	*a = (struct httpd_answer){ HTTP_OK, json ? "application/json" : "text/html; charset=utf-8",
				    buf, n, buf };
}

static void
route(const struct http_req *r, struct httpd_answer *a)
{
	if (pages_static(r->path, a))
		return;
	if (!strcmp(r->path, "/status") || !strcmp(r->path, "/status.json"))
		status(r, a);
	else
		pages_not_found(a);
}

/* A SYN for us makes room in the listen backlog first (httpd_syn). */
static int
server_inspect(const uint8_t *f, unsigned len)
{
	uint16_t sport, dport;
	uint8_t flags;

	if (ringif_tcp(f, len, &sport, &dport, &flags) && (flags & 0x12) == 0x02)
		httpd_syn(dport);
	return 0;
}

static struct netif *
serve(void)
{
	struct netif *nif = ringif_open(0);

	if (!nif || httpd_start(HTTP_PORT, route))
		hr_die("web: cannot serve");
	ringif_inspect = server_inspect;
	printf("web: serving http://%u.%u.%u.%u:%u/ from '%s' at depth %u\n",
	       net_hdr()->ip >> 24, (net_hdr()->ip >> 16) & 255, (net_hdr()->ip >> 8) & 255,
	       net_hdr()->ip & 255, HTTP_PORT, hr_bootinfo()->name, hr_bootinfo()->depth);
	return nif;
}

static uint64_t serve_until;

static int
time_is_up(void)
{
	return hr_tsc() >= serve_until;
}

/* What the kernel and ringif counted of our frames. */
static void
report_frames(const char *who)
{
	const struct hr_net_count *k = &net_hdr()->count;
	const struct ringif_stats *r = ringif_stats();

	printf("%s: frames: %llu in (%llu dropped, ring full), %llu out (%llu refused, %llu "
	       "times at the bandwidth limit, %llu dropped with our ring full)\n",
	       who, (unsigned long long) k->rx_frames, (unsigned long long) k->rx_full,
	       (unsigned long long) k->tx_frames, (unsigned long long) k->tx_refused,
	       (unsigned long long) k->tx_limited, (unsigned long long) r->tx_dropped);
	printf("%s: card %u dropped %ld frames for no owner, %ld malformed\n", who,
	       net_hdr()->card, hr_net_info(HR_CAP_SELF, HR_NI_CARD_UNCLAIMED, net_hdr()->card),
	       hr_net_info(HR_CAP_SELF, HR_NI_CARD_MALFORMED, net_hdr()->card));
}

static void
report_server(void)
{
	const struct httpd_stats *h = httpd_stats();

	printf("web: %llu connections (%llu refused, %llu closed while quiet), %llu requests "
	       "(%llu errors), %llu SYNs pushed out\n",
	       (unsigned long long) h->accepted, (unsigned long long) h->refused,
	       (unsigned long long) h->idle, (unsigned long long) h->requests,
	       (unsigned long long) h->errors, (unsigned long long) h->syn_dropped);
	report_frames("web");
}

static void
server(void *arg)
{
	struct netif *nif = serve();

	serve_until = (uintptr_t) arg ? hr_tsc() + seconds((uintptr_t) arg) : UINT64_MAX;
	ringif_run(nif, time_is_up);
	report_server();
}
HR_TASK(server);

static unsigned bench_conns;

/* All the connections we were told of have ended, or the client went quiet (it gave up
 * on some: it says how many). */
static int
bench_done(void)
{
	const struct httpd_stats *h = httpd_stats();
	static uint32_t dbg;
	if (++dbg % 200 == 0 || h->closed >= 290) { printf("dbg closed %llu open %u last %u now %u\n", (unsigned long long) h->closed, h->open, h->last_ms, sys_now()); }

	return h->closed >= bench_conns ||
	       (h->closed && !h->open && sys_now() - h->last_ms > BENCH_QUIET_MS);
}

static void
bench_server(void *arg)
{
	struct netif *nif = serve();
	uint64_t used = hrtop_consumed_self();

	bench_conns = (unsigned) (uintptr_t) arg;
	ringif_run(nif, bench_done);
	used = hrtop_consumed_self() - used;
	report_server();
	printf("web-server: conns=%u instr_per_conn=%llu\n", bench_conns,
	       (unsigned long long) (bench_conns ? used / bench_conns : 0));
}
HR_TASK(bench_server);

/* ---- the experiment's client ---------------------------------------------------------- */

static struct netif *
client_open(void)
{
	struct netif *nif = ringif_open(1);

	if (!nif)
		hr_die("web: no card 1");
	/* frames sent before both cards pass on what they receive would arrive late (QEMU's
	 * e1000 holds them a second), and the server needs its turn to listen */
	sched_sleep(net_hdr()->ready_at + hr_tick_tsc() * 10);
	return nif;
}

static struct netif *client_nif;
static uint64_t arp_deadline;

static int
arp_known(void)
{
	ip4_addr_t ip = { lwip_htonl(HR_NET_IP(0)) };
	struct eth_addr *mac;
	const ip4_addr_t *found;

	return etharp_find_addr(client_nif, &ip, &mac, &found) >= 0 || hr_tsc() >= arp_deadline;
}

/* Ask for the server's address before the clock starts: what we measure is connections,
 * not the first ARP round trip. */
static void
resolve_server(struct netif *nif)
{
	ip4_addr_t ip = { lwip_htonl(HR_NET_IP(0)) };

	client_nif = nif;
	arp_deadline = hr_tsc() + seconds(1);
	etharp_request(nif, &ip);
	ringif_run(nif, arp_known);
}

static void
load(void *arg)
{
	struct netif *nif = client_open();
	resolve_server(nif);
	struct client_cfg c = { HR_NET_IP(0), HTTP_PORT, LOAD_PORT_LO, LOAD_PORT_HI, "/",
				LOAD_CLIENTS, (unsigned) (uintptr_t) arg, tsc_now };

	if (client_start(&c))
		hr_die("web: no memory for the client");
	ringif_run(nif, client_finished);
	const struct client_result *r = client_finish();
	double s = (double) (r->end - r->start) / (double) hr_bootinfo()->tsc_hz;
	printf("web-client: conns=%u failed=%u conns_per_s=%.1f mean=%llu p95=%llu "
	       "unit=instr bytes=%llu\n",
	       r->done, r->failed, s > 0 ? r->done / s : 0, (unsigned long long) client_mean(r),
	       (unsigned long long) client_percentile(r, 95), (unsigned long long) r->bytes);
	report_frames("web-client");
}
HR_TASK(load);

int
hr_main(void)
{
	subsys_main();
}
