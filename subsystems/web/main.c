/*
 * web - lwIP (Debian's source, built by the top Makefile) in a subsystem: the web server,
 * the load client of the web experiment, and the clients of its tests.  Each task that
 * opens a card is its subsystem's network thread and runs that subsystem's one lwIP
 * instance (ringif.h); a subsystem runs at most one of them.
 *
 * Tasks (MANIFEST, tests/images/test-web.dts):
 *   server        serve port 80 (or N: our subsystem's args "port=N") on card 0 for arg
 *                 virtual seconds (0: for ever): the static pages and /status,
 *                 /status.json, our subtree live (status.h)
 *   bench_server  serve port 80 on card 0 until arg connections have ended and the client
 *                 has closed each (what we sent last has left), then print what they cost
 *                 us: "web-server: conns=N instr_per_conn=..."
 *   load          the experiment's client on card 1: arg connections to 10.0.2.15:80, 20 at
 *                 once, then "web-client: conns=.. failed=.. conns_per_s=.. mean=.. p95=.."
 *   probe         test-web's checks, on card 1: pages, 404, 400, keep-alive, HEAD, and
 *                 that the server still answers while "attack" does its worst
 *   attack        on card 1: hold connections open without a word, send garbage, flood SYNs
 *   spin          spin (in test-web: in a hard reservation, until rt_watch is done)
 *   rt_watch      check that the task "rt" kept its share while our child "attack" ran
 */
#include "client.h"
#include "fetch.h"
#include "httpd.h"
#include "pages.h"
#include "ringif.h"
#include "status.h"

#include "lib/bytes.h"
#include "rm/cpuwatch.h"
#include "rm/desc.h"
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

#define HTTP_PORT      80
#define LOAD_CLIENTS   20 /* connections at once, as in the paper's Table III */
#define LOAD_PORT_LO   20000
#define LOAD_PORT_HI   29999
#define BENCH_QUIET_MS 30000
#define BENCH_DRAIN_MS 5000
#define SECOND_PORT    8080 /* test-web's second server, deeper in the tree */
#define PROBE_PORT     9000 /* probe's first; it owns 9000..9099 */
#define IDLE_PORT      9100 /* attack's idle connections: 9100..9139 */
#define IDLE_CONNS     40   /* more than the server keeps (HTTPD_CONNS) */
#define GARBAGE_PORT   9140 /* attack's garbage senders: 9140..9147 */
#define GARBAGE_CONNS  8
#define SYN_PORT_LO    9200 /* attack's SYN flood: 9200..9999 */
#define SYN_PORT_HI    9999
#define ATTACK_S       3     /* seconds the flood lasts */
#define RT_SLACK       1.0   /* percentage points */
#define STATUS_MAX     32768 /* a /status page of HRTOP_ROWS_MAX rows fits (status_test) */

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
	static const enum hr_net_info what[] = { HR_NI_RX_FRAMES,  HR_NI_RX_BYTES, HR_NI_RX_FULL,
						 HR_NI_TX_FRAMES,  HR_NI_TX_BYTES, HR_NI_TX_REFUSED,
						 HR_NI_TX_LIMITED, HR_NI_KBPS };
	uint64_t *to[] = { &n->rx_frames, &n->rx_bytes,	  &n->rx_full,	  &n->tx_frames,
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

static struct status_frames frames[HRTOP_ROWS_MAX];

/* The kernel's counters of the frames of comp (HR_CAP_SELF or a child's slot). */
static struct status_frames
frames_of(long comp)
{
	long v[4] = { hr_net_info(comp, HR_NI_RX_FRAMES, 0), hr_net_info(comp, HR_NI_RX_BYTES, 0),
		      hr_net_info(comp, HR_NI_TX_FRAMES, 0), hr_net_info(comp, HR_NI_TX_BYTES, 0) };

	if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0)
		return (struct status_frames){ 0 };
	return (struct status_frames){ 1, (uint64_t) v[0], (uint64_t) v[1], (uint64_t) v[2],
				       (uint64_t) v[3] };
}

/* Each row's frames that we may read: ours (row 0) and our own child subsystems'. */
static void
gather_frames(const struct toprow *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		long comp = hrtop_row_comp(&r[i]);
		frames[i] = comp >= 0 ? frames_of(comp) : (struct status_frames){ 0 };
	}
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
	gather_frames(rows[cur], nrows[cur]);
	v = (struct status_view){ rows[cur],	  nrows[cur],	  rows[cur ^ 1],
				  nrows[cur ^ 1], hrtop_uptime(), hr_bootinfo()->tsc_hz,
				  &net,		  frames };
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

/* The port to serve: our subsystem's args "port=N" (MANIFEST), else HTTP_PORT. */
static uint16_t
serve_port(void)
{
	const char *a = strstr(desc_args(), "port=");
	long p = a ? strtol(a + 5, 0, 10) : HTTP_PORT;

	return p > 0 && p < 65536 ? (uint16_t) p : HTTP_PORT;
}

static struct netif *
serve(void)
{
	struct netif *nif = ringif_open(0);
	uint16_t port = serve_port();

	if (!nif || httpd_start(port, route))
		hr_die("web: cannot serve");
	ringif_inspect = server_inspect;
	uint32_t ip = net_hdr()->ip;
	printf("web: serving http://%u.%u.%u.%u:%u/ from '%s' at depth %u\n", ip >> 24,
	       (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, (unsigned) port, hr_bootinfo()->name,
	       (unsigned) hr_bootinfo()->depth);
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
	long unclaimed = hr_net_info(HR_CAP_SELF, HR_NI_CARD_UNCLAIMED, net_hdr()->card);
	long malformed = hr_net_info(HR_CAP_SELF, HR_NI_CARD_MALFORMED, net_hdr()->card);

	printf("%s: card %u dropped %ld frames for no owner, %ld malformed\n", who,
	       (unsigned) net_hdr()->card, unclaimed, malformed);
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
	const struct httpd_stats *h = httpd_stats();

	serve_until = (uintptr_t) arg ? hr_tsc() + seconds((uintptr_t) arg) : UINT64_MAX;
	ringif_run(nif, time_is_up);
	net_flush(); /* what we answered last may still wait in our ring for our bandwidth */
	report_server();
	hr_report("web_server_kept_serving",
		  h->requests > 0 && h->open <= HTTPD_CONNS &&
			  net_hdr()->tx_head == net_hdr()->tx_tail,
		  "%llu requests answered, %u connections open at the end, %u frames unsent",
		  (unsigned long long) h->requests, h->open,
		  net_hdr()->tx_head - net_hdr()->tx_tail);
}
HR_TASK(server);

static unsigned bench_conns;

/* All the connections we were told of have ended, or the client went quiet (it gave up
 * on some: it says how many). */
static int
bench_done(void)
{
	const struct httpd_stats *h = httpd_stats();

	return h->closed >= bench_conns ||
	       (h->closed && !h->open && sys_now() - h->last_ms > BENCH_QUIET_MS);
}

/* All have ended on our side; what we sent last may not have left yet (frames waiting in
 * our ring for our bandwidth, a FIN to retransmit), and a client still waiting for it would
 * wait for ever once we stop: go on until the client has closed every connection too (its
 * FIN comes after it read ours), or for BENCH_DRAIN_MS at most (it gave up, or died). */
static uint32_t drain_from;

static int
bench_drained(void)
{
	return !httpd_lingering() || sys_now() - drain_from > BENCH_DRAIN_MS;
}

static void
bench_server(void *arg)
{
	struct netif *nif = serve();
	uint64_t used = hrtop_consumed_own();

	bench_conns = (unsigned) (uintptr_t) arg;
	ringif_run(nif, bench_done);
	drain_from = sys_now();
	ringif_run(nif, bench_drained);
	net_flush(); /* our last ACKs */
	used = hrtop_consumed_own() - used;
	report_server();
	printf("web-server: conns=%u instr_per_conn=%llu\n", bench_conns,
	       (unsigned long long) (bench_conns ? used / bench_conns : 0));
	hr_report("web_server_left_nothing_unsent",
		  !httpd_lingering() && net_hdr()->tx_head == net_hdr()->tx_tail,
		  "%u connections not closed by the client, %u frames unsent", httpd_lingering(),
		  net_hdr()->tx_head - net_hdr()->tx_tail);
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
	struct client_cfg c = { HR_NET_IP(0),
				HTTP_PORT,
				LOAD_PORT_LO,
				LOAD_PORT_HI,
				"/",
				LOAD_CLIENTS,
				(unsigned) (uintptr_t) arg,
				tsc_now };

	if (client_start(&c))
		hr_die("web: no memory for the client");
	ringif_run(nif, client_finished);
	net_flush(); /* our last FINs, which the server waits for (bench_drained) */
	const struct client_result *r = client_finish();
	double s = (double) (r->end - r->start) / (double) hr_bootinfo()->tsc_hz;
	printf("web-client: conns=%u failed=%u conns_per_s=%.1f mean=%llu p95=%llu "
	       "unit=instr bytes=%llu\n",
	       r->done, r->failed, s > 0 ? r->done / s : 0, (unsigned long long) client_mean(r),
	       (unsigned long long) client_percentile(r, 95), (unsigned long long) r->bytes);
	report_frames("web-client");
	hr_report("web_client_every_connection_answered", r->done == c.total && !r->failed,
		  "%u of %u answered, %u failed", r->done, c.total, r->failed);
}
HR_TASK(load);

/* ---- test-web: the probe ---------------------------------------------------------------- */

static uint16_t probe_port = PROBE_PORT;

/* Send req to the server from our next port; what came back. */
static void
ask(struct netif *nif, const char *req, struct fetch *f)
{
	fetch(nif, probe_port, HR_NET_IP(0), HTTP_PORT, req, strlen(req), 2000, f);
	probe_port = probe_port >= PROBE_PORT + 99 ? PROBE_PORT : (uint16_t) (probe_port + 1);
}

static int
has(const struct fetch *f, const char *s)
{
	return strstr(f->got, s) != 0;
}

static void
check_pages(struct netif *nif, const char *when)
{
	static struct fetch f;
	char name[64];

	ask(nif, "GET / HTTP/1.0\r\n\r\n", &f);
	snprintf(name, sizeof(name), "web_index_200%s", when);
	hr_report(name, has(&f, "HTTP/1.0 200 OK\r\n") && has(&f, "HiRES") && f.closed,
		  "%zu bytes, closed %d", f.len, f.closed);
	ask(nif, "GET /status HTTP/1.0\r\n\r\n", &f);
	snprintf(name, sizeof(name), "web_status_html%s", when);
	hr_report(name, has(&f, " 200 OK\r\n") && has(&f, "<table>") && has(&f, ">server<"),
		  "%zu bytes", f.len);
	ask(nif, "GET /status.json HTTP/1.1\r\nConnection: close\r\n\r\n", &f);
	snprintf(name, sizeof(name), "web_status_json%s", when);
	hr_report(name,
		  has(&f, "HTTP/1.1 200 OK\r\n") && has(&f, "application/json") &&
			  has(&f, "\r\n\r\n{\"uptime_s\":") && has(&f, "\"name\":\"server\""),
		  "%zu bytes", f.len);
}

static void
probe(void *arg)
{
	struct netif *nif = client_open();
	static struct fetch f;

	(void) arg;
	resolve_server(nif);
	check_pages(nif, "");
	ask(nif, "GET /nope HTTP/1.0\r\n\r\n", &f);
	hr_report("web_unknown_path_404", has(&f, "HTTP/1.0 404 Not Found\r\n") && f.closed,
		  "%.20s", f.got);
	ask(nif, "hello\r\n\r\n", &f);
	hr_report("web_malformed_400", has(&f, "400 Bad Request\r\n") && f.closed, "%.24s", f.got);
	ask(nif, "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nConnection: close\r\n\r\n",
	    &f);
	const char *second = strstr(f.got, "HTTP/1.1 404");
	hr_report("web_keep_alive_two_requests_one_connection",
		  !strncmp(f.got, "HTTP/1.1 200 OK\r\n", 17) && has(&f, "Connection: keep-alive") &&
			  second && f.closed,
		  "%zu bytes", f.len);
	ask(nif, "HEAD / HTTP/1.0\r\n\r\n", &f);
	hr_report("web_head_has_no_body",
		  has(&f, "HTTP/1.0 200 OK\r\n") && f.len >= 4 &&
			  !strcmp(f.got + f.len - 4, "\r\n\r\n"),
		  "%zu bytes", f.len);
	fetch(nif, probe_port++, HR_NET_IP(0), SECOND_PORT, "GET / HTTP/1.0\r\n\r\n", 18, 2000, &f);
	hr_report("web_second_server_same_card_other_port",
		  has(&f, "HTTP/1.0 200 OK\r\n") && has(&f, "HiRES") && f.closed, "%zu bytes",
		  f.len);
	/* the attack starts a second after the cards are up: look again in its midst */
	sched_sleep(net_hdr()->ready_at + seconds(2));
	check_pages(nif, "_under_attack");
}
HR_TASK(probe);

/* ---- test-web: the attack ---------------------------------------------------------------- */

static unsigned idle_open, idle_ended;

static err_t
idle_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	(void) arg;
	(void) err;
	if (p) {
		tcp_recved(pcb, p->tot_len);
		pbuf_free(p);
		return ERR_OK;
	}
	idle_ended++; /* the server closed it */
	tcp_arg(pcb, 0);
	tcp_recv(pcb, 0);
	tcp_err(pcb, 0);
	if (tcp_close(pcb) != ERR_OK) {
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	return ERR_OK;
}

static void
idle_err(void *arg, err_t err)
{
	(void) arg;
	(void) err;
	idle_ended++; /* reset: refused, or pushed out for another */
}

/* Open IDLE_CONNS connections that will never say a word. */
static void
open_idle(void)
{
	ip4_addr_t to = { lwip_htonl(HR_NET_IP(0)) };

	for (unsigned i = 0; i < IDLE_CONNS; i++) {
		struct tcp_pcb *pcb = tcp_new();
		if (!pcb || tcp_bind(pcb, IP_ADDR_ANY, (uint16_t) (IDLE_PORT + i)) != ERR_OK) {
			if (pcb)
				tcp_abort(pcb);
			continue;
		}
		tcp_recv(pcb, idle_recv);
		tcp_err(pcb, idle_err);
		if (tcp_connect(pcb, &to, HTTP_PORT, 0) == ERR_OK)
			idle_open++;
		else
			tcp_abort(pcb);
	}
}

/* A TCP SYN from our port sport to the server, without options: 54 bytes into f. */
static unsigned
syn_frame(uint8_t *f, const uint8_t server_mac[6], uint16_t sport, uint32_t seq)
{
	const struct hr_net_hdr *h = net_hdr();
	uint8_t *ip = f + 14, *t = f + 34;
	uint32_t pseudo = (h->ip >> 16) + (h->ip & 0xffff) + (HR_NET_IP(0) >> 16) +
			  (HR_NET_IP(0) & 0xffff) + 6 + 20; /* addresses, protocol, TCP length */

	memset(f, 0, 54);
	memcpy(f, server_mac, 6);
	memcpy(f + 6, h->mac, 6);
	be16_put(f + 12, 0x0800);
	ip[0] = 0x45;
	be16_put(ip + 2, 40);
	ip[8] = 64;
	ip[9] = 6;
	be32_put(ip + 12, h->ip);
	be32_put(ip + 16, HR_NET_IP(0));
	be16_put(ip + 10, inet_sum(ip, 20, 0));
	be16_put(t, sport);
	be16_put(t + 2, HTTP_PORT);
	be32_put(t + 4, seq);
	t[12] = 5 << 4;
	t[13] = 0x02;
	be16_put(t + 14, 8192);
	be16_put(t + 16, inet_sum(t, 20, pseudo));
	return 54;
}

/* The flood's answers (SYN-ACKs to the flood's ports) are not for lwIP, which would reset
 * them and so end the half-open connections the flood means to leave. */
static int
attack_inspect(const uint8_t *f, unsigned len)
{
	uint16_t sport, dport;
	uint8_t flags;

	return ringif_tcp(f, len, &sport, &dport, &flags) && dport >= SYN_PORT_LO &&
	       dport <= SYN_PORT_HI;
}

static uint64_t attack_until;

static int
attack_over(void)
{
	return hr_tsc() >= attack_until;
}

/* Send SYNs as fast as our bandwidth lets us until `end`: how many went. */
static unsigned
flood_syns(struct netif *nif, const uint8_t mac[6], uint64_t end)
{
	unsigned sent = 0;
	uint16_t port = SYN_PORT_LO;

	while (hr_tsc() < end) {
		struct hr_net_slot *s = net_send_slot();
		if (!s || net_send(syn_frame(s->frame, mac, port, sent * 7919u)) == HR_ERATE) {
			attack_until = net_hdr()->tx_retry_at;
			ringif_run(nif, attack_over); /* lwIP's own work meanwhile */
			continue;
		}
		sent++;
		port = port >= SYN_PORT_HI ? SYN_PORT_LO : (uint16_t) (port + 1);
	}
	return sent;
}

static void
attack(void *arg)
{
	struct netif *nif = client_open();
	ip4_addr_t server = { lwip_htonl(HR_NET_IP(0)) };
	struct eth_addr *mac;
	const ip4_addr_t *found;
	static struct fetch f;
	static char junk[3000];
	unsigned bad = 0;

	(void) arg;
	ringif_inspect = attack_inspect;
	resolve_server(nif);
	if (etharp_find_addr(nif, &server, &mac, &found) < 0)
		hr_die("attack: the server's address is unknown");
	sched_sleep(net_hdr()->ready_at + seconds(1));
	uint64_t t0 = hr_tsc();
	open_idle();
	for (unsigned i = 0; i < GARBAGE_CONNS; i++) {
		for (unsigned j = 0; j < sizeof(junk); j++)
			junk[j] = (char) (lwip_port_rand() >> 3);
		fetch(nif, (uint16_t) (GARBAGE_PORT + i), HR_NET_IP(0), HTTP_PORT, junk,
		      i % 2 ? sizeof(junk) : 100, 1000, &f);
		bad += (has(&f, " 400 Bad Request\r\n") || has(&f, " 431 ")) && f.closed;
	}
	hr_report("web_garbage_answered_and_closed", bad == GARBAGE_CONNS, "%u of %u", bad,
		  GARBAGE_CONNS);
	unsigned syns = flood_syns(nif, mac->addr, hr_tsc() + seconds(ATTACK_S));
	printf("attack: %u SYNs sent, %u idle connections opened\n", syns, idle_open);
	attack_until = t0 + seconds(HTTPD_IDLE_S + ATTACK_S + 2);
	ringif_run(nif, attack_over);
	hr_report("web_idle_connections_closed_by_server", idle_open && idle_ended == idle_open,
		  "%u of %u", idle_ended, idle_open);
}
HR_TASK(attack);

/* ---- test-web: a hard reservation beside it all ------------------------------------------- */

static volatile int attack_done;

static void
spin(void *arg)
{
	(void) arg;
	while (!attack_done)
		;
}
HR_TASK(spin);

/* Watch the task "rt" (spin) while our child "attack" runs: the share it is promised. */
static void
rt_watch(void *arg)
{
	struct cpuwatch all[8], *w = 0;
	unsigned n = cpuwatch_find(all, 8);
	long attacker = subsys_child_slot("attack");
	uint64_t t0;

	(void) arg;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(all[i].name, "rt"))
			w = &all[i];
	if (!w || attacker < 0)
		hr_die("rt_watch: want a reserved task 'rt' and a child 'attack'");
	sched_sleep(hr_tsc() + seconds(1) / 10); /* past the construction of the tree */
	t0 = cpuwatch_open(all, n);
	while (hr_comp_state(attacker) == HR_CS_LIVE && hr_tsc() - t0 < seconds(30))
		sched_sleep(hr_tsc() + seconds(1) / 100);
	hr_report("web_attack_rt_keeps_its_share",
		  cpuwatch_near(cpuwatch_share(&w[0], t0), cpuwatch_expected(&w[0]), RT_SLACK),
		  "%s got %.2f%% of %.2f%% over %.2f s", w[0].name, cpuwatch_share(&w[0], t0),
		  cpuwatch_expected(&w[0]),
		  (double) (hr_tsc() - t0) / (double) hr_bootinfo()->tsc_hz);
	attack_done = 1;
}
HR_TASK(rt_watch);

int
hr_main(void)
{
	subsys_main();
}
