/*
 * udp - raw UDP over a subsystem's network rings (rm/net.h): the network tests and the
 * interrupt-latency benchmark.
 *
 * Tasks (MANIFEST, tests/images/test-net.dts):
 *   echo_server   open card 0, answer every datagram to our ports with its payload, until
 *                 one says "quit"; at depth 1 and 2 in test-net
 *   client        open card 1 and check what the kernel promises (test-net.expect): ARP
 *                 answered, echoes at depth 1 and 2, frames we may not send refused, the
 *                 bandwidth limit with its retry time, frames for nobody counted, an I/O
 *                 reservation that binds and returns a port
 *   sink          open card 0 and never read: a flood fills the ring, which drops and counts;
 *                 then check that a child that faults gives its port back
 *   crash_task    fault, holding a port
 *   flood         open card 1 and send datagrams to the sink for FLOOD_TICKS, as fast as our
 *                 bandwidth lets us
 *   rt_spin       spin in a hard reservation until the flood is over
 *   rt_watch      check that rt_spin kept its share meanwhile, and missed none of its periods
 *   irq_receiver  the benchmark's receiver at depth D: from the interrupt's arrival in the
 *                 kernel to our event thread's first instruction, "bench irq depth=D ..."
 *   irq_pinger    its sender, on card 1: a datagram every quarter tick until the receiver's
 *                 subtree has ended
 */
#include "frame.h"
#include "rm/benchline.h"
#include "rm/cpuwatch.h"
#include "rm/net.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/res.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERVER_IP   HR_NET_IP(0)
#define ECHO_PORT   7	 /* server, depth 1 */
#define DEEP_PORT   12	 /* deep, depth 2 */
#define SINK_PORT   13	 /* inner, which never reads */
#define CRASH_PORT  11	 /* crash, which faults */
#define CLIENT_PORT 9	 /* ours */
#define NOBODY_PORT 5000 /* the root's, and the root opens no card */
#define RESERVED    10	 /* what the client reserves at run time */
#define FLOOD	    80	 /* more than a ring holds */
#define FLOOD_PORT  14	 /* flood's */
#define FLOOD_TICKS 5000 /* how long the flood lasts (rt_watch: why so long) */
#define RT_SLACK    1.0	 /* percentage points */
#define IRQ_PORT    7
#define IRQ_SAMPLES 1000
#define WAIT_TICKS  400
#define ECHO_TRIES  5

static volatile uintptr_t nowhere = 8; /* where crash_task writes to fault */

static void
sleep_ticks(uint64_t n)
{
	sched_sleep(hr_tsc() + n * hr_tick_tsc());
}

/* Frames sent before both cards pass on what they receive (QEMU's e1000 holds them for a
 * second after boot) would arrive late: wait for that, and for the others to open theirs. */
static void
await_cards(void)
{
	sched_sleep(net_hdr()->ready_at + hr_tick_tsc() * 10);
}

/* Send one UDP datagram from our card to ip/port at mac: what net_send said. */
static long
send_udp(const uint8_t mac[6], uint32_t ip, uint16_t sport, uint16_t dport, const void *data,
	 unsigned n)
{
	struct hr_net_hdr *h = net_hdr();
	struct hr_net_slot *s = net_send_slot();
	struct udp_view v = { .src_ip = h->ip, .dst_ip = ip, .src_port = sport, .dst_port = dport };

	if (!s)
		return HR_EBUSY;
	memcpy(v.src_mac, h->mac, 6);
	memcpy(v.dst_mac, mac, 6);
	v.data = data;
	v.len = n;
	return net_send(frame_udp(s->frame, &v));
}

/* ---- echo ---------------------------------------------------------------------------- */

/* Answer f, a datagram to us; 1 if it said "quit". */
static int
echo(const struct hr_net_slot *s)
{
	struct udp_view v;
	uint8_t payload[HR_NET_FRAME_MAX];

	if (!frame_udp_read(s->frame, s->len, &v))
		return 0;
	memcpy(payload, v.data, v.len);
	send_udp(v.src_mac, v.src_ip, v.dst_port, v.src_port, payload, v.len);
	return v.len == 4 && !memcmp(payload, "quit", 4);
}

static void
echo_server(void *arg)
{
	int quit = 0;

	(void) arg;
	if (net_open(0))
		hr_report("net_open", 0, "card 0: %s", hr_strerror(net_open(0)));
	while (!quit) {
		const struct hr_net_slot *s;
		net_wait_sending();
		while (!quit && (s = net_recv())) {
			quit = echo(s);
			net_recv_done();
		}
	}
	net_flush(); /* the echo of "quit" too */
	hr_report("net_frame_work_charged_to_owner", hr_net_info(HR_CAP_SELF, HR_NI_CYCLES, 0) > 0,
		  "%ld TSC of kernel work on our frames",
		  hr_net_info(HR_CAP_SELF, HR_NI_CYCLES, 0));
}
HR_TASK(echo_server);

/* ---- client -------------------------------------------------------------------------- */

static uint8_t server_mac[6];

/* Wait up to WAIT_TICKS for a frame that ok() accepts, dropping others; 1 if one came. */
static int
await(int (*ok)(const struct hr_net_slot *, void *), void *arg)
{
	for (int t = 0; t < WAIT_TICKS; t++) {
		const struct hr_net_slot *s;
		while ((s = net_recv())) {
			int yes = ok(s, arg);
			net_recv_done();
			if (yes)
				return 1;
		}
		sleep_ticks(1);
	}
	return 0;
}

static int
is_arp_reply(const struct hr_net_slot *s, void *arg)
{
	(void) arg;
	return frame_arp_reply(s->frame, s->len, SERVER_IP, server_mac);
}

static int
is_echo(const struct hr_net_slot *s, void *arg)
{
	const char *want = arg;
	struct udp_view v;

	return frame_udp_read(s->frame, s->len, &v) && v.dst_port == CLIENT_PORT &&
	       v.len == strlen(want) && !memcmp(v.data, want, v.len);
}

static void
check_arp(void)
{
	struct hr_net_slot *s = net_send_slot();
	struct hr_net_hdr *h = net_hdr();
	static const uint8_t card0[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

	net_send(frame_arp_request(s->frame, h->mac, h->ip, SERVER_IP));
	hr_report("net_arp_answered_by_kernel",
		  await(is_arp_reply, 0) && !memcmp(server_mac, card0, 6),
		  "10.0.2.15 is at %02x:..:%02x", server_mac[0], server_mac[5]);
}

/* Send text to port and wait for its echo, a few times: a frame may be lost on the way (the
 * flood beside us fills card 0, and QEMU drops what it cannot hand over).  1 if it came. */
static int
echoed(uint16_t port, const char *text)
{
	for (int i = 0; i < ECHO_TRIES; i++) {
		send_udp(server_mac, SERVER_IP, CLIENT_PORT, port, text, (unsigned) strlen(text));
		net_flush();
		if (await(is_echo, (void *) text))
			return 1;
	}
	return 0;
}

static void
check_echo(const char *name, uint16_t port, const char *text)
{
	hr_report(name, echoed(port, text), "port %u, %d tries", port, ECHO_TRIES);
}

/* Send a frame f of len bytes as written: what net_send said. */
static long
send_raw(const uint8_t *f, unsigned len)
{
	struct hr_net_slot *s = net_send_slot();

	memcpy(s->frame, f, len);
	return net_send(len);
}

static void
check_refusals(void)
{
	struct hr_net_hdr *h = net_hdr();
	uint8_t f[HR_NET_FRAME_MAX] = { 0 };
	struct udp_view v = { .src_ip = h->ip,
			      .dst_ip = SERVER_IP,
			      .src_port = CLIENT_PORT,
			      .dst_port = ECHO_PORT,
			      .data = (const uint8_t *) "x",
			      .len = 1 };
	uint64_t refused = h->count.tx_refused;
	unsigned len;

	memcpy(v.src_mac, h->mac, 6);
	memcpy(v.dst_mac, server_mac, 6);
	v.src_port = ECHO_PORT; /* the server's */
	hr_report_eq("net_tx_foreign_port_refused", send_raw(f, frame_udp(f, &v)), HR_EPERM);
	v.src_port = CLIENT_PORT;
	v.src_ip = SERVER_IP;
	hr_report_eq("net_tx_foreign_ip_refused", send_raw(f, frame_udp(f, &v)), HR_EPERM);
	v.src_ip = h->ip;
	v.src_mac[5] ^= 1;
	hr_report_eq("net_tx_foreign_mac_refused", send_raw(f, frame_udp(f, &v)), HR_EPERM);
	v.src_mac[5] ^= 1;
	len = frame_udp(f, &v);
	f[12] = 0x86, f[13] = 0xdd; /* IPv6 */
	hr_report_eq("net_tx_other_ethertype_refused", send_raw(f, len), HR_EPERM);
	f[12] = 0x08, f[13] = 0x00;
	f[ETH_LEN + 2] = 0x40; /* an IPv4 total length beyond the frame */
	hr_report_eq("net_tx_bad_ip_length_refused", send_raw(f, len), HR_EPERM);
	hr_report_eq("net_tx_short_frame_refused", send_raw(f, 10), HR_EPERM);
	hr_report_eq("net_tx_refusals_counted", (long) (h->count.tx_refused - refused), 6);
}

static void
check_unclaimed(void)
{
	long before = hr_net_info(HR_CAP_SELF, HR_NI_CARD_UNCLAIMED, 0);

	send_udp(server_mac, SERVER_IP, CLIENT_PORT, NOBODY_PORT, "lost", 4);
	sleep_ticks(2);
	hr_report_eq("net_unowned_port_dropped_and_counted",
		     hr_net_info(HR_CAP_SELF, HR_NI_CARD_UNCLAIMED, 0) - before, 1);
}

static void
flood_sink(void)
{
	for (int i = 0; i < FLOOD; i++)
		send_udp(server_mac, SERVER_IP, CLIENT_PORT, SINK_PORT, "flood", 5);
}

static void
check_rate(void)
{
	static uint8_t big[1400];
	struct hr_net_hdr *h = net_hdr();
	long r, sent = 0;

	while ((r = send_udp(server_mac, SERVER_IP, CLIENT_PORT, NOBODY_PORT, big, sizeof(big))) ==
	       1)
		sent++;
	/* 200 kbit/s with the default burst of 16 full frames: 17 frames of 1442 bytes */
	hr_report("net_tx_rate_limited_after_burst", r == HR_ERATE && sent >= 15 && sent <= 18,
		  "%ld frames, then %s", sent, hr_strerror(r));
	hr_report("net_tx_retry_time_given", h->tx_retry_at > hr_tsc(), "retry in %ld TSC",
		  (long) (h->tx_retry_at - hr_tsc()));
	sched_sleep(h->tx_retry_at);
	hr_report_eq("net_tx_sends_at_retry_time", hr_net_tx(), 1);
}

static void
check_reservation(void)
{
	long self = (long) hr_bootinfo()->comp_id, id = hr_res_create(RES_HARD, RES_IO);
	long kbps = hr_net_info(HR_CAP_SELF, HR_NI_KBPS, 0);

	hr_report_eq("net_reservation_binds", hr_res_bind(id, RESERVED, 50), 0);
	hr_report_eq("net_reservation_port_is_ours",
		     hr_net_info(HR_CAP_SELF, HR_NI_OWNER, RESERVED), self);
	hr_report_eq("net_reservation_adds_bandwidth", hr_net_info(HR_CAP_SELF, HR_NI_KBPS, 0),
		     kbps + 50);
	hr_report("net_reservation_of_a_taken_port_refused", hr_res_bind(id, ECHO_PORT, 50) < 0,
		  "port 7 is the server's");
	hr_report_eq("net_reservation_kept_after_refusal",
		     hr_net_info(HR_CAP_SELF, HR_NI_OWNER, RESERVED), self);
	hr_report_eq("net_reservation_deleted", hr_res_delete(id), 0);
	hr_report("net_reservation_delete_returns_port",
		  hr_net_info(HR_CAP_SELF, HR_NI_OWNER, RESERVED) != self &&
			  hr_net_info(HR_CAP_SELF, HR_NI_KBPS, 0) == kbps,
		  "owner %ld, %ld kbit/s", hr_net_info(HR_CAP_SELF, HR_NI_OWNER, RESERVED),
		  hr_net_info(HR_CAP_SELF, HR_NI_KBPS, 0));
}

static void
client(void *arg)
{
	(void) arg;
	hr_report_eq("net_open_card1", net_open(1), 0);
	await_cards(); /* and the others open theirs meanwhile */
	check_arp();
	check_echo("net_echo_depth1", ECHO_PORT, "hello at depth 1");
	check_echo("net_echo_depth2", DEEP_PORT, "hello at depth 2");
	check_refusals();
	check_unclaimed();
	flood_sink();
	check_rate();
	check_reservation();
	/* the servers end on "quit", having echoed it */
	hr_report("net_servers_told_to_quit",
		  echoed(ECHO_PORT, "quit") && echoed(DEEP_PORT, "quit"), "ports %u and %u",
		  ECHO_PORT, DEEP_PORT);
}
HR_TASK(client);

/* ---- sink and crash -------------------------------------------------------------------- */

static void
sink(void *arg)
{
	struct hr_net_hdr *h;
	long self = (long) hr_bootinfo()->comp_id;
	int t;

	(void) arg;
	hr_report_eq("net_open_card0", net_open(0), 0);
	h = net_hdr();
	for (t = 0; t < 20 * WAIT_TICKS && h->count.rx_frames + h->count.rx_full < FLOOD; t++)
		sleep_ticks(1);
	hr_report("net_full_ring_drops_and_counts",
		  h->count.rx_frames == HR_NET_SLOTS && h->count.rx_full >= FLOOD - HR_NET_SLOTS,
		  "%lu delivered, %lu dropped", (unsigned long) h->count.rx_frames,
		  (unsigned long) h->count.rx_full);
	for (t = 0;
	     t < 20 * WAIT_TICKS && hr_net_info(HR_CAP_SELF, HR_NI_OWNER, CRASH_PORT) != self; t++)
		sleep_ticks(1);
	hr_report_eq("net_faulted_child_loses_its_port",
		     hr_net_info(HR_CAP_SELF, HR_NI_OWNER, CRASH_PORT), self);
}
HR_TASK(sink);

static void
crash_task(void *arg)
{
	(void) arg;
	sleep_ticks(20);
	*(volatile int *) nowhere = 1;
}
HR_TASK(crash_task);

/* ---- a flood beside a real-time task --------------------------------------------------- */

static volatile int flood_over;

static void
flood(void *arg)
{
	static const uint8_t card0[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	struct hr_net_hdr *h;
	long sent = 0, r = 0;
	uint64_t end;

	(void) arg;
	hr_report_eq("net_open_card1", net_open(1), 0);
	h = net_hdr();
	await_cards();
	for (end = hr_tsc() + FLOOD_TICKS * hr_tick_tsc(); hr_tsc() < end && r >= 0;) {
		r = send_udp(card0, SERVER_IP, FLOOD_PORT, SINK_PORT, "flood", 5);
		/* over our bandwidth, or our ring full of frames that wait for it: until then */
		if (r == HR_ERATE || r == HR_EBUSY)
			sched_sleep(h->tx_retry_at), r = r == HR_EBUSY ? hr_net_tx() : 0;
		if (r == HR_ERATE)
			r = 0;
		sent += r;
	}
	hr_report("net_flood_sent", r >= 0 && sent > 10000, "%ld frames in %d ticks (%s)", sent,
		  FLOOD_TICKS, r < 0 ? hr_strerror(r) : "ok");
}
HR_TASK(flood);

static void
rt_spin(void *arg)
{
	(void) arg;
	while (!flood_over)
		;
}
HR_TASK(rt_spin);

/* Watch rt_spin while the flood (our child "flood") runs: its share, and its periods, of
 * which a hard reservation may miss none, whatever a sibling does.  The flood is long
 * enough that runs drifting against their periods (a delay kept at every refill, as they
 * once were: about 20 us a period) would cross a period boundary, whatever their phase. */
static void
rt_watch(void *arg)
{
	struct cpuwatch w[4];
	unsigned n = cpuwatch_find(w, 4);
	uint64_t t0;
	long flooder = subsys_child_slot("flood");
	uint32_t missed;
	uint64_t period;

	(void) arg;
	if (n != 1 || flooder < 0)
		hr_die("rt_watch: want one reserved task and a child 'flood'");
	sleep_ticks(100); /* past the construction of the tree */
	t0 = cpuwatch_open(w, n);
	missed = sched_misses(w[0].ent);
	while (hr_comp_state(flooder) == HR_CS_LIVE && hr_tsc() - t0 < 20 * hr_bootinfo()->tsc_hz)
		sleep_ticks(10);
	hr_report("net_flood_rt_keeps_its_share",
		  cpuwatch_near(cpuwatch_share(&w[0], t0), cpuwatch_expected(&w[0]), RT_SLACK),
		  "%s got %.2f%% of %.2f%% over %.2f s", w[0].name, cpuwatch_share(&w[0], t0),
		  cpuwatch_expected(&w[0]),
		  (double) (hr_tsc() - t0) / (double) hr_bootinfo()->tsc_hz);
	missed = sched_misses(w[0].ent) - missed;
	period = w[0].period * hr_tick_tsc();
	hr_report("net_flood_rt_misses_no_period", missed == 0, "%s missed %u of its %lu periods",
		  w[0].name, missed, (unsigned long) ((hr_tsc() - t0) / period));
	flood_over = 1;
}
HR_TASK(rt_watch);

/* ---- the interrupt-latency benchmark --------------------------------------------------- */

static uint64_t samples[IRQ_SAMPLES];

static void
irq_receiver(void *arg)
{
	char depth[16];

	(void) arg;
	if (net_open(0))
		hr_die("irq: cannot open card 0");
	for (int i = 0; i < IRQ_SAMPLES;) {
		unsigned n = 0;
		uint64_t t;
		net_wait();
		t = sched_woke_at() - net_hdr()->irq_tsc;
		for (; net_recv(); n++)
			net_recv_done();
		if (n == 1) /* one frame, one wake-up: what we measure */
			samples[i++] = t;
	}
	snprintf(depth, sizeof(depth), "depth=%u", hr_bootinfo()->depth);
	bench_line("irq", depth, samples, IRQ_SAMPLES);
	exit(0); /* the whole chain winds down from here */
}
HR_TASK(irq_receiver);

/* Is the receiver's subtree gone?  Its port came back to our parent, having been elsewhere
 * (at depth 0 the receiver is our parent, which powers off when it is done). */
static int
receiver_gone(int *was_away)
{
	int home = hr_net_info(HR_CAP_SELF, HR_NI_OWNER, IRQ_PORT) == hr_bootinfo()->parent_id;

	*was_away |= !home;
	return home && *was_away;
}

static void
irq_pinger(void *arg)
{
	static const uint8_t card0[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	int away = 0;

	(void) arg;
	if (net_open(1))
		hr_die("irq: cannot open card 1");
	await_cards();
	while (!receiver_gone(&away)) {
		sched_sleep(bench_between_ticks(4)); /* no sample meets the tick */
		send_udp(card0, SERVER_IP, CLIENT_PORT, IRQ_PORT, "ping", 4);
	}
}
HR_TASK(irq_pinger);

int
hr_main(void)
{
	subsys_main();
}
