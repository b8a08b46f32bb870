/*
 * frame.h - UDP over IPv4 over Ethernet, and ARP, as the udp program writes and reads them
 * (no options, no fragments; the kernel checks what matters: kernel/packet.c).
 */
#ifndef UDP_FRAME_H
#define UDP_FRAME_H

#include <stdint.h>

#define ETH_LEN	 14
#define UDP_HDRS (ETH_LEN + 20 + 8) /* Ethernet, IPv4, UDP */

struct udp_view {
	uint8_t src_mac[6], dst_mac[6];
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	const uint8_t *data;
	unsigned len;
};

/* Write a UDP frame into f from v (v->data, v->len bytes of payload): its length. */
unsigned frame_udp(uint8_t *f, const struct udp_view *v);
/* Read f (len bytes) as a UDP frame into v: 1, or 0 if it is not one. */
int frame_udp_read(const uint8_t *f, unsigned len, struct udp_view *v);
/* An ARP request from mac/ip asking who has `want`: its length. */
unsigned frame_arp_request(uint8_t *f, const uint8_t mac[6], uint32_t ip, uint32_t want);
/* Is f an ARP reply saying who has `ip`?  Then its MAC into mac. */
int frame_arp_reply(const uint8_t *f, unsigned len, uint32_t ip, uint8_t mac[6]);

#endif
