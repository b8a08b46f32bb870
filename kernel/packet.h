/*
 * packet.h - what the kernel reads in an Ethernet frame: enough to hand a received frame
 * to the owner of its destination port, to answer ARP for a card's address, and to check
 * that a frame a subsystem sends is its own to send (docs/NETWORK.md has the rules).
 * Pure: no state, no hardware, host-tested (kernel/test/packet_test.c).  Every offset is
 * checked against the frame's length before it is read.
 */
#ifndef PACKET_H
#define PACKET_H

#include <stdint.h>

enum packet_kind {
	PKT_MALFORMED = 0, /* too short or too long, or lengths inside that do not add up */
	PKT_UNCLAIMED,	   /* well formed, but for nobody here: not IPv4 TCP/UDP/ARP, not our
			    * address, a fragment */
	PKT_PORT,	   /* TCP or UDP to our address: goes to the owner of the port */
	PKT_ARP_REQUEST,   /* who has our address: the kernel answers */
	PKT_ARP_REPLY,	   /* an answer: every subsystem on the card gets a copy */
};

/* Why a frame may not be sent (0: it may). */
enum packet_refusal {
	PKT_OK = 0,
	PKT_BAD_LENGTH,
	PKT_BAD_SOURCE, /* the source MAC or IPv4 address is not the card's */
	PKT_BAD_PORT,	/* the source port is not the sender's */
	PKT_BAD_TYPE,	/* neither IPv4 (TCP, UDP, ICMP) nor ARP */
};

#define PKT_ARP_LEN 42 /* an ARP packet over Ethernet, without padding */

/* What frame f (len bytes) received by a card whose IPv4 address is ip is; for PKT_PORT,
 * *port is its destination port. */
enum packet_kind packet_classify(const uint8_t *f, unsigned len, uint32_t ip, uint16_t *port);
/* May the component whose id is `id` send f from a card with address mac/ip?  owner[p] is
 * the id of the component owning port p. */
enum packet_refusal packet_check_send(const uint8_t *f, unsigned len, const uint8_t mac[6],
				      uint32_t ip, const uint8_t owner[65536], uint8_t id);
/* Write into out the reply to ARP request req from a card with address mac/ip: its length. */
unsigned packet_arp_reply(const uint8_t *req, const uint8_t mac[6], uint32_t ip, uint8_t *out);

#endif
