/*
 * lirq - the Linux counterpart of HiRES's interrupt-latency figure (`bench irq`, images
 * irq-dD, subsystems/udp/main.c), run as /init of an initramfs that eval/linux.sh boots in
 * the same QEMU under -icount shift=0,sleep=off (the TSC counts instructions) with the same
 * two e1000 cards on one hub (card 0 52:54:00:12:34:56, card 1 ...:57).
 *
 * A sender process writes UDP datagrams, one a virtual millisecond, as whole Ethernet
 * frames on a packet socket of card 1 (as HiRES's pinger writes them on its ring), to
 * 10.0.2.15 port 7, the address of card 0; the receiver, a SCHED_FIFO process above the
 * sender, waits for them in recvfrom on a UDP socket bound to that address.  The frames
 * cross the hub: a packet socket hands them to the card, never to the local IP stack (the
 * cards' counters say so at the end of each run).  Two runs:
 *
 *   linux_irq_send  untraced: the sender's rdtsc right before sendto, carried in the
 *                   payload, to the receiver's rdtsc right after recvfrom returns.  It holds
 *                   the sender's transmit path (packet socket, e1000 driver, the card's
 *                   register write), then the interrupt and everything HiRES's figure holds.
 *   linux_irq       traced: the event irq:irq_handler_entry of card 0's interrupt, stamped
 *                   by the kernel with trace_clock x86-tsc (rdtsc, the same counter), to the
 *                   receiver's rdtsc right after recvfrom returns: the e1000 interrupt
 *                   handler's entry to the receiver's first instruction in user space, the
 *                   interval closest to HiRES's (which starts a little earlier, at the
 *                   kernel's interrupt entry).  It also holds what recording the event costs
 *                   after its time stamp; linux_irq_send_traced (the first figure, measured
 *                   in this run) against linux_irq_send shows how much tracing adds.
 *
 * As HiRES's receiver keeps only wake-ups with one frame, linux_irq keeps only samples with
 * exactly one interrupt of card 0 since the previous datagram, after the datagram was sent.
 * The e1000 module is loaded with InterruptThrottleRate=0, as HiRES's driver does not
 * throttle (with the default the figures are about 150 instructions higher).
 * Prints `bench linux_NAME median=N p99=N max=N unit=instr` (rm/benchline.c), then
 * "lirq: done", and powers off.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "rm/benchline.h"

#define N	  1000	  /* samples a figure */
#define WARMUP	  50	  /* first datagrams of a run, not recorded */
#define SPARE	  200	  /* more datagrams in the traced run, for those the filter drops */
#define GAP_NS	  1000000 /* between two datagrams: a virtual millisecond */
#define PORT	  7	  /* HiRES's IRQ_PORT */
#define SRC_PORT  9
#define TRACE	  "/sys/kernel/tracing"
#define IRQS_MAX  (4 * (N + WARMUP + SPARE))
#define FRAME_LEN 60 /* the shortest Ethernet frame, without its CRC */
#define IP_OFF	  14
#define UDP_OFF	  (IP_OFF + 20)
#define DATA_OFF  (UDP_OFF + 8)
#define DATA_LEN  16 /* sequence number, then the sender's TSC */

static const uint8_t mac0[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t mac1[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };
static char if0[IFNAMSIZ], if1[IFNAMSIZ]; /* card 0's and card 1's names */

/* one received datagram */
struct rx {
	uint64_t seq, sent, recv;
};
static struct rx rxs[N + WARMUP + SPARE];
static uint64_t irqs[IRQS_MAX]; /* card 0's interrupts in the traced run, in TSC */
static uint64_t samples[N];
static int failed;

static void
print(const char *name, uint64_t *s, int n)
{
	char full[64];

	if (n < N) {
		printf("lirq: error: %s: %d samples, want %d\n", name, n, N);
		failed = 1;
		if (n == 0)
			return;
	}
	snprintf(full, sizeof(full), "linux_%s", name);
	bench_line(full, "", s, (size_t) n);
}

static int
put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t) strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

static int
get(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static uint64_t
stat_of(const char *ifname, const char *what)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", ifname, what);
	return get(path, buf, sizeof(buf)) ? 0 : strtoull(buf, 0, 10);
}

/* the names of card 0 and card 1, by their MACs */
static int
find_cards(void)
{
	for (int i = 0; i < 4; i++) {
		char path[64], mac[32], name[IFNAMSIZ];

		snprintf(name, sizeof(name), "eth%d", i);
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", name);
		if (get(path, mac, sizeof(mac)))
			continue;
		if (!strcmp(mac, "52:54:00:12:34:56"))
			memcpy(if0, name, sizeof(name));
		if (!strcmp(mac, "52:54:00:12:34:57"))
			memcpy(if1, name, sizeof(name));
	}
	return *if0 && *if1 ? 0 : -1;
}

static int
if_set(int s, const char *name, const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sin = (struct sockaddr_in *) &ifr.ifr_addr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (addr) {
		sin->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sin->sin_addr);
		if (ioctl(s, SIOCSIFADDR, &ifr))
			return -1;
		inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
		if (ioctl(s, SIOCSIFNETMASK, &ifr))
			return -1;
	}
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return -1;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

/* e1000 loaded, both cards up (card 0 with 10.0.2.15, card 1 with no address), carrier */
static int
net_up(void)
{
	int fd = open("/e1000.ko", O_RDONLY), s;
	char path[64], c0[4], c1[4];

	/* no IPv6 chatter on the hub */
	put("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	put("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	if (fd < 0 || syscall(SYS_finit_module, fd, "InterruptThrottleRate=0,0", 0)) {
		printf("lirq: error: loading /e1000.ko: %s\n", strerror(errno));
		return -1;
	}
	close(fd);
	if (find_cards()) {
		printf("lirq: error: no two cards with MACs 52:54:00:12:34:56 and :57\n");
		return -1;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || if_set(s, if0, "10.0.2.15") || if_set(s, if1, 0)) {
		printf("lirq: error: configuring %s and %s: %s\n", if0, if1, strerror(errno));
		return -1;
	}
	close(s);
	for (int t = 0; t < 500; t++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", if0);
		get(path, c0, sizeof(c0));
		snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", if1);
		get(path, c1, sizeof(c1));
		if (*c0 == '1' && *c1 == '1')
			break;
		usleep(10000);
	}
	printf("lirq: card 0 %s (10.0.2.15), card 1 %s (no address)\n", if0, if1);
	return 0;
}

static void
fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	/* the system call: musl's sched_setscheduler only says ENOSYS */
	if (syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &sp))
		printf("lirq: warning: SCHED_FIFO: %s\n", strerror(errno));
}

static uint16_t
ip_sum(const uint8_t *p, int len)
{
	uint32_t sum = 0;

	for (int i = 0; i < len; i += 2)
		sum += (uint32_t) p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t) ~sum;
}

/* the sender: `count` datagrams, each a whole frame on card 1's packet socket */
static void
sender(int count)
{
	uint8_t f[FRAME_LEN] = { 0 };
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6 };
	/* protocol 0: this socket receives nothing */
	int s = socket(AF_PACKET, SOCK_RAW, 0);
	struct timespec gap = { 0, GAP_NS };
	uint16_t ip_len = 20 + 8 + DATA_LEN;

	to.sll_ifindex = (int) if_nametoindex(if1);
	memcpy(to.sll_addr, mac0, 6);
	if (s < 0 || !to.sll_ifindex) {
		printf("lirq: error: packet socket on %s: %s\n", if1, strerror(errno));
		_exit(1);
	}
	memcpy(f, mac0, 6);
	memcpy(f + 6, mac1, 6);
	f[12] = 0x08, f[13] = 0x00;
	f[IP_OFF] = 0x45, f[IP_OFF + 2] = ip_len >> 8, f[IP_OFF + 3] = ip_len & 0xff;
	f[IP_OFF + 8] = 64, f[IP_OFF + 9] = IPPROTO_UDP;
	memcpy(f + IP_OFF + 12, (uint8_t[]){ 10, 0, 2, 16 }, 4);
	memcpy(f + IP_OFF + 16, (uint8_t[]){ 10, 0, 2, 15 }, 4);
	f[UDP_OFF + 1] = SRC_PORT, f[UDP_OFF + 3] = PORT;
	f[UDP_OFF + 5] = 8 + DATA_LEN; /* UDP checksum 0: none, as IPv4 allows */
	for (uint64_t seq = 0; seq < (uint64_t) count; seq++) {
		uint64_t t0;

		nanosleep(&gap, 0);
		f[IP_OFF + 4] = seq >> 8, f[IP_OFF + 5] = seq & 0xff;
		f[IP_OFF + 10] = f[IP_OFF + 11] = 0;
		uint16_t sum = ip_sum(f + IP_OFF, 20);
		f[IP_OFF + 10] = sum >> 8, f[IP_OFF + 11] = sum & 0xff;
		memcpy(f + DATA_OFF, &seq, 8);
		t0 = tsc();
		memcpy(f + DATA_OFF + 8, &t0, 8);
		if (sendto(s, f, sizeof(f), 0, (struct sockaddr *) &to, sizeof(to)) != sizeof(f))
			printf("lirq: sender: sendto: %s\n", strerror(errno));
	}
	_exit(0);
}

/* one run: a sender of `count` datagrams, and us receiving them; how many came */
static int
run(int rx_sock, int count)
{
	pid_t pid = fork();
	int got = 0;

	if (pid < 0)
		return 0;
	if (pid == 0) {
		fifo(10);
		sender(count);
	}
	while (got < count) {
		uint8_t buf[64];
		ssize_t n = recvfrom(rx_sock, buf, sizeof(buf), 0, 0, 0);
		uint64_t t1 = tsc();

		if (n < 0) /* SO_RCVTIMEO: the rest is lost */
			break;
		if (n != DATA_LEN)
			continue;
		memcpy(&rxs[got].seq, buf, 8);
		memcpy(&rxs[got].sent, buf + 8, 8);
		rxs[got++].recv = t1;
	}
	waitpid(pid, 0, 0);
	return got;
}

/* card 0's interrupts in the trace, in TSC: irq_handler_entry lines with name=if0 */
static int
trace_irqs(void)
{
	FILE *f = fopen(TRACE "/trace", "r");
	char line[512], want[32];
	int n = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), " name=%s", if0);
	while (fgets(line, sizeof(line), f) && n < IRQS_MAX) {
		char *ev = strstr(line, ": irq_handler_entry:"), *ts;
		char *name = strstr(line, want);

		if (!ev || !name || (name[strlen(want)] != ' ' && name[strlen(want)] != '\n'))
			continue;
		*ev = 0;
		ts = strrchr(line, ' ');
		if (ts)
			irqs[n++] = strtoull(ts + 1, 0, 10);
	}
	fclose(f);
	return n;
}

static int
trace_on(void)
{
	char filter[64];

	if (mount("tracefs", TRACE, "tracefs", 0, 0) && errno != EBUSY)
		return -1;
	snprintf(filter, sizeof(filter), "name == \"%s\"", if0);
	if (put(TRACE "/tracing_on", "0") || put(TRACE "/trace_clock", "x86-tsc") ||
	    put(TRACE "/buffer_size_kb", "1024") || put(TRACE "/trace", "") ||
	    put(TRACE "/events/irq/irq_handler_entry/filter", filter) ||
	    put(TRACE "/events/irq/irq_handler_entry/enable", "1") || put(TRACE "/tracing_on", "1"))
		return -1;
	return 0;
}

/* the cards' counters across a run: every datagram crossed the hub */
static void
wire(const char *what, uint64_t tx0, uint64_t rx0, int sent, int got)
{
	uint64_t tx = stat_of(if1, "tx_packets") - tx0, rx = stat_of(if0, "rx_packets") - rx0;

	printf("lirq: %s: %d sent, %d received; %s tx_packets +%llu, %s rx_packets +%llu\n", what,
	       sent, got, if1, (unsigned long long) tx, if0, (unsigned long long) rx);
	if (tx < (uint64_t) sent || rx < (uint64_t) got || got < sent) {
		printf("lirq: error: %s: datagrams lost or not through the cards\n", what);
		failed = 1;
	}
}

static void
measure(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	struct timeval limit = { 2, 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0), got, n, ni, next;
	uint64_t tx0, rx0;

	inet_pton(AF_INET, "10.0.2.15", &a.sin_addr);
	if (s < 0 || bind(s, (struct sockaddr *) &a, sizeof(a)) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit))) {
		printf("lirq: error: UDP socket on 10.0.2.15:%d: %s\n", PORT, strerror(errno));
		failed = 1;
		return;
	}
	fifo(20); /* above the sender: its datagram's wake-up preempts it */

	/* 1: untraced, sender to receiver */
	tx0 = stat_of(if1, "tx_packets"), rx0 = stat_of(if0, "rx_packets");
	got = run(s, N + WARMUP);
	wire("untraced run", tx0, rx0, N + WARMUP, got);
	for (n = 0; n + WARMUP < got && n < N; n++)
		samples[n] = rxs[n + WARMUP].recv - rxs[n + WARMUP].sent;
	print("irq_send", samples, n);

	/* 2: traced, card 0's interrupt handler to receiver */
	if (trace_on()) {
		printf("lirq: error: tracing card 0's interrupts (%s): %s\n", TRACE,
		       strerror(errno));
		failed = 1;
		return;
	}
	tx0 = stat_of(if1, "tx_packets"), rx0 = stat_of(if0, "rx_packets");
	got = run(s, N + WARMUP + SPARE);
	put(TRACE "/tracing_on", "0");
	wire("traced run", tx0, rx0, N + WARMUP + SPARE, got);
	ni = trace_irqs();
	for (n = 0; n + WARMUP < got && n < N; n++)
		samples[n] = rxs[n + WARMUP].recv - rxs[n + WARMUP].sent;
	print("irq_send_traced", samples, n);
	n = 0, next = 0;
	int i = 0;
	for (; i < got && n < N; i++) {
		uint64_t prev = i ? rxs[i - 1].recv : 0, at = 0;
		int between = 0;

		for (; next < ni && irqs[next] <= rxs[i].recv; next++)
			if (irqs[next] > prev)
				between++, at = irqs[next];
		/* one interrupt since the last datagram, and after this one was sent */
		if (i >= WARMUP && between == 1 && at > rxs[i].sent)
			samples[n++] = rxs[i].recv - at;
	}
	printf("lirq: traced run: %d interrupts of %s; of the first %d datagrams after the "
	       "warm-up, %d had exactly one\n",
	       ni, if0, i > WARMUP ? i - WARMUP : 0, n);
	print("irq", samples, n);
}

int
main(void)
{
	cpu_set_t cpu0;

	if (getpid() != 1) {
		fprintf(stderr, "lirq: runs as /init of the Linux guest (eval/linux.sh)\n");
		return 2;
	}
	console_open();
	setvbuf(stdout, 0, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, 0);
	mount("sysfs", "/sys", "sysfs", 0, 0);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	if (net_up() == 0)
		measure();
	else
		failed = 1;
	printf("lirq: %s\n", failed ? "failed" : "done");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
