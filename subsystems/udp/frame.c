/* frame.c - writing and reading frames (frame.h). */
#include "frame.h"
#include "lib/bytes.h"

#include <string.h>

unsigned
frame_udp(uint8_t *f, const struct udp_view *v)
{
	uint8_t *ip = f + ETH_LEN, *udp = ip + 20;

	memcpy(f, v->dst_mac, 6);
	memcpy(f + 6, v->src_mac, 6);
	be16_put(f + 12, 0x0800);
	memset(ip, 0, 20);
	ip[0] = 0x45;
	be16_put(ip + 2, (uint16_t) (20 + 8 + v->len));
	ip[8] = 64; /* time to live */
	ip[9] = 17; /* UDP */
	be32_put(ip + 12, v->src_ip);
	be32_put(ip + 16, v->dst_ip);
	be16_put(ip + 10, inet_sum(ip, 20, 0));
	be16_put(udp, v->src_port);
	be16_put(udp + 2, v->dst_port);
	be16_put(udp + 4, (uint16_t) (8 + v->len));
	be16_put(udp + 6, 0); /* no checksum: UDP over IPv4 allows it */
	memcpy(udp + 8, v->data, v->len);
	return UDP_HDRS + v->len;
}

int
frame_udp_read(const uint8_t *f, unsigned len, struct udp_view *v)
{
	const uint8_t *ip = f + ETH_LEN, *udp;
	unsigned ihl, total;

	if (len < UDP_HDRS || be16_get(f + 12) != 0x0800 || ip[9] != 17)
		return 0;
	ihl = (ip[0] & 0xfu) * 4;
	total = be16_get(ip + 2);
	if (ihl < 20 || total > len - ETH_LEN || total < ihl + 8)
		return 0;
	udp = ip + ihl;
	memcpy(v->dst_mac, f, 6);
	memcpy(v->src_mac, f + 6, 6);
	v->src_ip = be32_get(ip + 12);
	v->dst_ip = be32_get(ip + 16);
	v->src_port = be16_get(udp);
	v->dst_port = be16_get(udp + 2);
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
	be16_put(f + 12, 0x0806);
	be16_put(a, 1);
	be16_put(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	be16_put(a + 6, 1);
	memcpy(a + 8, mac, 6);
	be32_put(a + 14, ip);
	memset(a + 18, 0, 6);
	be32_put(a + 24, want);
	return ETH_LEN + 28;
}

int
frame_arp_reply(const uint8_t *f, unsigned len, uint32_t ip, uint8_t mac[6])
{
	const uint8_t *a = f + ETH_LEN;

	if (len < ETH_LEN + 28 || be16_get(f + 12) != 0x0806 || be16_get(a + 6) != 2 ||
	    be32_get(a + 14) != ip)
		return 0;
	memcpy(mac, a + 8, 6);
	return 1;
}
