/* frame.c - writing and reading frames (frame.h). */
#include "frame.h"

#include <string.h>

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) (v >> 8);
	p[1] = (uint8_t) v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t) (v >> 16));
	put16(p + 2, (uint16_t) v);
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t) (p[0] << 8 | p[1]);
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t) get16(p) << 16 | get16(p + 2);
}

/* The IPv4 header checksum of the 20 bytes at h. */
static uint16_t
ip_sum(const uint8_t *h)
{
	uint32_t s = 0;

	for (int i = 0; i < 20; i += 2)
		s += get16(h + i);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t) ~s;
}

unsigned
frame_udp(uint8_t *f, const struct udp_view *v)
{
	uint8_t *ip = f + ETH_LEN, *udp = ip + 20;

	memcpy(f, v->dst_mac, 6);
	memcpy(f + 6, v->src_mac, 6);
	put16(f + 12, 0x0800);
	memset(ip, 0, 20);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t) (20 + 8 + v->len));
	ip[8] = 64; /* time to live */
	ip[9] = 17; /* UDP */
	put32(ip + 12, v->src_ip);
	put32(ip + 16, v->dst_ip);
	put16(ip + 10, ip_sum(ip));
	put16(udp, v->src_port);
	put16(udp + 2, v->dst_port);
	put16(udp + 4, (uint16_t) (8 + v->len));
	put16(udp + 6, 0); /* no checksum: UDP over IPv4 allows it */
	memcpy(udp + 8, v->data, v->len);
	return UDP_HDRS + v->len;
}

int
frame_udp_read(const uint8_t *f, unsigned len, struct udp_view *v)
{
	const uint8_t *ip = f + ETH_LEN, *udp;
	unsigned ihl, total;

	if (len < UDP_HDRS || get16(f + 12) != 0x0800 || ip[9] != 17)
		return 0;
	ihl = (ip[0] & 0xfu) * 4;
	total = get16(ip + 2);
	if (ihl < 20 || total > len - ETH_LEN || total < ihl + 8)
		return 0;
	udp = ip + ihl;
	memcpy(v->dst_mac, f, 6);
	memcpy(v->src_mac, f + 6, 6);
	v->src_ip = get32(ip + 12);
	v->dst_ip = get32(ip + 16);
	v->src_port = get16(udp);
	v->dst_port = get16(udp + 2);
	v->data = udp + 8;
	v->len = total - ihl - 8;
	return 1;
}

unsigned
frame_arp_request(uint8_t *f, const uint8_t mac[6], uint32_t ip, uint32_t want)
{
	uint8_t *a = f + ETH_LEN;

	memset(f, 0xff, 6); /* broadcast */
	memcpy(f + 6, mac, 6);
	put16(f + 12, 0x0806);
	put16(a, 1);
	put16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, 1);
	memcpy(a + 8, mac, 6);
	put32(a + 14, ip);
	memset(a + 18, 0, 6);
	put32(a + 24, want);
	return ETH_LEN + 28;
}

int
frame_arp_reply(const uint8_t *f, unsigned len, uint32_t ip, uint8_t mac[6])
{
	const uint8_t *a = f + ETH_LEN;

	if (len < ETH_LEN + 28 || get16(f + 12) != 0x0806 || get16(a + 6) != 2 ||
	    get32(a + 14) != ip)
		return 0;
	memcpy(mac, a + 8, 6);
	return 1;
}
