/* packet.c - reading and checking frames (packet.h). */
#include "packet.h"
#include "abi/hr_net.h"
#include "../lib/bytes.h"

#define ETH_HDR	 14
#define ETH_IPV4 0x0800
#define ETH_ARP	 0x0806
#define IP_ICMP	 1
#define IP_TCP	 6
#define IP_UDP	 17

static int
same_mac(const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < 6; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* The IPv4 header at ip (l bytes follow the Ethernet header): its header length, or 0
 * when the header or the total length it claims does not fit. */
static unsigned
ipv4_header(const uint8_t *ip, unsigned l)
{
	unsigned ihl, total;

	if (l < 20 || ip[0] >> 4 != 4)
		return 0;
	ihl = (ip[0] & 0xfu) * 4;
	total = be16_get(ip + 2);
	return ihl >= 20 && ihl <= total && total <= l ? ihl : 0;
}

/* An ARP packet for IPv4 over Ethernet (what else ARP carries we do not speak). */
static int
arp_ipv4(const uint8_t *a, unsigned l)
{
	return l >= PKT_ARP_LEN - ETH_HDR && be16_get(a) == 1 && be16_get(a + 2) == ETH_IPV4 &&
	       a[4] == 6 && a[5] == 4;
}

static enum packet_kind
classify_arp(const uint8_t *a, unsigned l, uint32_t ip)
{
	if (l < PKT_ARP_LEN - ETH_HDR)
		return PKT_MALFORMED;
	if (!arp_ipv4(a, l))
		return PKT_UNCLAIMED;
	if (be16_get(a + 6) == 1 && be32_get(a + 24) == ip)
		return PKT_ARP_REQUEST;
	return be16_get(a + 6) == 2 ? PKT_ARP_REPLY : PKT_UNCLAIMED;
}

enum packet_kind
packet_classify(const uint8_t *f, unsigned len, uint32_t ip, uint16_t *port)
{
	const uint8_t *h = f + ETH_HDR;
	unsigned l = len - ETH_HDR, ihl;

	if (len < ETH_HDR || len > HR_NET_FRAME_MAX)
		return PKT_MALFORMED;
	if (be16_get(f + 12) == ETH_ARP)
		return classify_arp(h, l, ip);
	if (be16_get(f + 12) != ETH_IPV4)
		return PKT_UNCLAIMED;
	if (!(ihl = ipv4_header(h, l)))
		return PKT_MALFORMED;
	/* fragments are not reassembled (more fragments, or an offset): nobody's */
	if (be32_get(h + 16) != ip || (be16_get(h + 6) & 0x3fff) ||
	    (h[9] != IP_TCP && h[9] != IP_UDP))
		return PKT_UNCLAIMED;
	if (be16_get(h + 2) < ihl + 4)
		return PKT_MALFORMED; /* no room for the ports */
	*port = be16_get(h + ihl + 2);
	return PKT_PORT;
}

enum packet_refusal
packet_check_send(const uint8_t *f, unsigned len, const uint8_t mac[6], uint32_t ip,
		  const uint8_t owner[65536], uint8_t id)
{
	const uint8_t *h = f + ETH_HDR;
	unsigned l = len - ETH_HDR, ihl;

	if (len < ETH_HDR || len > HR_NET_FRAME_MAX)
		return PKT_BAD_LENGTH;
	if (!same_mac(f + 6, mac))
		return PKT_BAD_SOURCE;
	if (be16_get(f + 12) == ETH_ARP) {
		if (!arp_ipv4(h, l))
			return l < PKT_ARP_LEN - ETH_HDR ? PKT_BAD_LENGTH : PKT_BAD_TYPE;
		return same_mac(h + 8, mac) && be32_get(h + 14) == ip ? PKT_OK : PKT_BAD_SOURCE;
	}
	if (be16_get(f + 12) != ETH_IPV4)
		return PKT_BAD_TYPE;
	if (!(ihl = ipv4_header(h, l)))
		return PKT_BAD_LENGTH;
	if (be32_get(h + 12) != ip)
		return PKT_BAD_SOURCE;
	if (h[9] == IP_ICMP)
		return PKT_OK;
	if (h[9] != IP_TCP && h[9] != IP_UDP)
		return PKT_BAD_TYPE;
	/* a later fragment carries no ports: the sender may not make one */
	if ((be16_get(h + 6) & 0x1fff) || be16_get(h + 2) < ihl + 4)
		return PKT_BAD_LENGTH;
	return owner[be16_get(h + ihl)] == id ? PKT_OK : PKT_BAD_PORT;
}

unsigned
packet_arp_reply(const uint8_t *req, const uint8_t mac[6], uint32_t ip, uint8_t *out)
{
	const uint8_t *a = req + ETH_HDR;
	uint8_t *r = out + ETH_HDR;

	for (int i = 0; i < 6; i++) {
		out[i] = a[8 + i];    /* to the asker */
		out[6 + i] = mac[i];  /* from us */
		r[8 + i] = mac[i];    /* sender: us */
		r[18 + i] = a[8 + i]; /* target: the asker */
	}
	be16_put(out + 12, ETH_ARP);
	be16_put(r, 1);
	be16_put(r + 2, ETH_IPV4);
	r[4] = 6;
	r[5] = 4;
	be16_put(r + 6, 2);
	be32_put(r + 14, ip);
	for (int i = 0; i < 4; i++)
		r[24 + i] = a[14 + i];
	return PKT_ARP_LEN;
}
