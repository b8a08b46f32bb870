/* packet_test.c - what the kernel reads in a frame, and refuses to send (kernel/packet.c). */
#include "check.h"
#include "packet.h"
#include "abi/hr_net.h"
#include "lib/bytes.h"

#include <string.h>

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint32_t ip = HR_NET_IP(0);
static uint8_t owner[65536];

/* A UDP frame from src to dst (ports sport -> dport) with n bytes of payload: its length. */
static unsigned
udp(uint8_t *f, uint32_t src, uint32_t dst, unsigned sport, unsigned dport, unsigned n)
{
	memset(f, 0, 64 + n);
	memcpy(f, mac, 6);
	memcpy(f + 6, mac, 6);
	be16_put(f + 12, 0x0800);
	f[14] = 0x45;
	be16_put(f + 16, 28 + n);
	f[23] = 17;
	be32_put(f + 26, src);
	be32_put(f + 30, dst);
	be16_put(f + 34, sport);
	be16_put(f + 36, dport);
	be16_put(f + 38, 8 + n);
	return 14 + 28 + n;
}

static unsigned
arp(uint8_t *f, unsigned op, uint32_t sender, uint32_t target)
{
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	memcpy(f + 6, mac, 6);
	be16_put(f + 12, 0x0806);
	be16_put(f + 14, 1);
	be16_put(f + 16, 0x0800);
	f[18] = 6;
	f[19] = 4;
	be16_put(f + 20, op);
	memcpy(f + 22, mac, 6);
	be32_put(f + 28, sender);
	be32_put(f + 38, target);
	return 42;
}

TEST(udp_to_our_address_goes_to_its_destination_port)
{
	uint8_t f[1600];
	uint16_t port = 0;

	CHECK_EQ(packet_classify(f, udp(f, 1, ip, 9, 7, 5), ip, &port), PKT_PORT);
	CHECK_EQ(port, 7);
}

TEST(malformed_frames_are_told_apart)
{
	uint8_t f[1600];
	uint16_t port;
	unsigned len = udp(f, 1, ip, 9, 7, 5);

	CHECK_EQ(packet_classify(f, 10, ip, &port), PKT_MALFORMED);   /* short */
	CHECK_EQ(packet_classify(f, 1515, ip, &port), PKT_MALFORMED); /* oversized */
	be16_put(f + 16, 200);					      /* beyond the frame */
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_MALFORMED);
	udp(f, 1, ip, 9, 7, 5);
	f[14] = 0x44; /* a header of 16 bytes */
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_MALFORMED);
	udp(f, 1, ip, 9, 7, 5);
	be16_put(f + 16, 22); /* no room for the ports */
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_MALFORMED);
	CHECK_EQ(packet_classify(f, 20, ip, &port), PKT_MALFORMED); /* IPv4 cut short */
}

TEST(frames_for_nobody_are_unclaimed)
{
	uint8_t f[1600];
	uint16_t port;
	unsigned len = udp(f, 1, ip + 1, 9, 7, 5);

	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_UNCLAIMED); /* not our address */
	udp(f, 1, ip, 9, 7, 5);
	be16_put(f + 12, 0x86dd);
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_UNCLAIMED); /* IPv6 */
	udp(f, 1, ip, 9, 7, 5);
	be16_put(f + 20, 0x2000); /* more fragments */
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_UNCLAIMED);
	udp(f, 1, ip, 9, 7, 5);
	f[23] = 1; /* ICMP */
	CHECK_EQ(packet_classify(f, len, ip, &port), PKT_UNCLAIMED);
}

TEST(arp_requests_for_us_are_answered_replies_shared)
{
	uint8_t f[64], out[64];
	uint16_t port;
	static const uint8_t other[6] = { 2, 0, 0, 0, 0, 1 };

	CHECK_EQ(packet_classify(f, arp(f, 1, 5, ip), ip, &port), PKT_ARP_REQUEST);
	CHECK_EQ(packet_classify(f, arp(f, 1, 5, ip + 1), ip, &port), PKT_UNCLAIMED);
	CHECK_EQ(packet_classify(f, arp(f, 2, 5, ip), ip, &port), PKT_ARP_REPLY);
	CHECK_EQ(packet_classify(f, 30, ip, &port), PKT_MALFORMED);
	/* the answer: from us, to the asker, saying our address is at our MAC */
	arp(f, 1, 5, ip);
	memcpy(f + 22, other, 6);
	CHECK_EQ(packet_arp_reply(f, mac, ip, out), PKT_ARP_LEN);
	CHECK(!memcmp(out, other, 6));
	CHECK(!memcmp(out + 6, mac, 6));
	CHECK_EQ(out[21], 2);
	CHECK(!memcmp(out + 22, mac, 6));
	CHECK(!memcmp(out + 32, other, 6));
	CHECK_EQ(packet_classify(out, PKT_ARP_LEN, 5, &port), PKT_ARP_REPLY);
}

TEST(a_sender_sends_only_from_its_own_port_mac_and_address)
{
	uint8_t f[1600];
	unsigned len;

	memset(owner, 0, sizeof(owner));
	owner[9] = 3;
	len = udp(f, ip, 1, 9, 7, 5);
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_OK);
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 4), PKT_BAD_PORT);
	udp(f, ip, 1, 10, 7, 5);
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_BAD_PORT);
	udp(f, ip + 1, 1, 9, 7, 5);
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_BAD_SOURCE);
	udp(f, ip, 1, 9, 7, 5);
	f[11] ^= 1;
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_BAD_SOURCE);
	udp(f, ip, 1, 9, 7, 5);
	be16_put(f + 12, 0x86dd);
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_BAD_TYPE);
	udp(f, ip, 1, 9, 7, 5);
	be16_put(f + 20, 0x0010); /* a later fragment: no ports in it */
	CHECK_EQ(packet_check_send(f, len, mac, ip, owner, 3), PKT_BAD_LENGTH);
	CHECK_EQ(packet_check_send(f, 13, mac, ip, owner, 3), PKT_BAD_LENGTH);
	CHECK_EQ(packet_check_send(f, 1515, mac, ip, owner, 3), PKT_BAD_LENGTH);
}

TEST(arp_is_sent_only_in_the_cards_own_name)
{
	uint8_t f[64];

	CHECK_EQ(packet_check_send(f, arp(f, 1, ip, 5), mac, ip, owner, 3), PKT_OK);
	CHECK_EQ(packet_check_send(f, arp(f, 2, ip + 1, 5), mac, ip, owner, 3), PKT_BAD_SOURCE);
	arp(f, 1, ip, 5);
	be16_put(f + 16, 0x86dd); /* not IPv4 over Ethernet */
	CHECK_EQ(packet_check_send(f, 42, mac, ip, owner, 3), PKT_BAD_TYPE);
}
