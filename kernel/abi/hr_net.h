/*
 * hr_net.h - the network rings a subsystem shares with the kernel (net_open), and the
 * rules the kernel applies to the frames that pass through them (docs/NETWORK.md).
 *
 * One ring set per subsystem that opened a card: a header page, then HR_NET_SLOTS receive
 * slots and HR_NET_SLOTS transmit slots of 2 KiB, mapped read-write at HR_VA_NET.  Each
 * field of the header names its writer.  The kernel keeps its own copy of every index and
 * counter it writes and reads the subsystem's indices (rx_tail, tx_head) once, checking
 * them: a subsystem that scribbles over its rings only loses its own frames.
 */
#ifndef HR_NET_H
#define HR_NET_H

#include <stdint.h>

#define HR_NET_CARDS	 2    /* e1000 cards the kernel drives */
#define HR_NET_SLOTS	 64   /* receive slots, and as many transmit slots */
#define HR_NET_SLOT_SIZE 2048 /* bytes of one slot: its length word and the frame */
#define HR_NET_FRAME_MIN 14   /* an Ethernet header */
#define HR_NET_FRAME_MAX 1514 /* an Ethernet frame without its CRC */

/* The IPv4 address of card i is HR_NET_IP(i): 10.0.2.15, 10.0.2.16 (network byte order
 * when stored in a frame).  10.0.2.15 is where QEMU's user-mode network forwards to. */
#define HR_NET_IP(i) (0x0a00020fu + (uint32_t) (i))

/* The highest bandwidth a subsystem may hold (kbit/s): one gigabit card. */
#define HR_NET_KBPS_MAX 1000000u

/* One slot: the frame's length (HR_NET_FRAME_MIN..HR_NET_FRAME_MAX) and its bytes. */
struct hr_net_slot {
	uint16_t len;
	uint16_t card; /* receive: the card it came in on */
	uint32_t resv;
	uint8_t frame[HR_NET_SLOT_SIZE - 8];
};
_Static_assert(sizeof(struct hr_net_slot) == HR_NET_SLOT_SIZE, "hr_net_slot is ABI");

/* What happened to frames, counted by the kernel (free-running). */
struct hr_net_count {
	uint64_t rx_frames, rx_bytes; /* delivered into the receive ring */
	uint64_t rx_full;	      /* dropped: the receive ring was full */
	uint64_t tx_frames, tx_bytes; /* sent */
	uint64_t tx_refused;	      /* dropped: not ours to send (source, port, length) */
	uint64_t tx_limited;	      /* times net_tx stopped at the bandwidth limit */
	uint64_t cycles;	      /* TSC the kernel spent on our frames, charged to us */
};

struct hr_net_hdr {
	uint32_t rx_head;     /* kernel: frames written (free-running) */
	uint32_t rx_tail;     /* subsystem: frames consumed */
	uint32_t tx_head;     /* subsystem: frames queued */
	uint32_t tx_tail;     /* kernel: frames taken (sent or refused) */
	uint8_t mac[6];	      /* kernel: the card's address */
	uint16_t card;	      /* kernel: the card we opened */
	uint32_t ip;	      /* kernel: the card's IPv4 address (HR_NET_IP) */
	uint32_t kbps;	      /* kernel: the bandwidth we hold (0: we may not send) */
	uint64_t tx_retry_at; /* kernel: TSC from which the frame net_tx stopped at may go */
	uint64_t irq_tsc;     /* kernel: when the interrupt that last filled the ring arrived */
	uint64_t ready_at;    /* kernel: TSC from which the card passes on what it receives
			       * (QEMU's e1000 holds frames for a second after it is enabled) */
	struct hr_net_count count;
};

#define HR_NET_REGION_PAGES (1 + 2 * HR_NET_SLOTS * HR_NET_SLOT_SIZE / 4096)
/* Where the slots sit in the region. */
#define HR_NET_RX(base, i) ((struct hr_net_slot *) ((base) + 4096 + (i) *HR_NET_SLOT_SIZE))
#define HR_NET_TX(base, i) \
	((struct hr_net_slot *) ((base) + 4096 + (HR_NET_SLOTS + (i)) * HR_NET_SLOT_SIZE))

/* net_info queries: a subsystem's counters (struct hr_net_count, by field) and holdings. */
enum hr_net_info {
	HR_NI_RX_FRAMES = 0,
	HR_NI_RX_BYTES,
	HR_NI_RX_FULL,
	HR_NI_TX_FRAMES,
	HR_NI_TX_BYTES,
	HR_NI_TX_REFUSED,
	HR_NI_TX_LIMITED,
	HR_NI_CYCLES,
	HR_NI_KBPS,	      /* bandwidth it holds, its children's included */
	HR_NI_PORTS,	      /* ports it owns itself (not passed on) */
	HR_NI_OWNER,	      /* arg: a port -> the id of the component that owns it */
	HR_NI_CARDS,	      /* cards the kernel found */
	HR_NI_CARD_MALFORMED, /* arg: a card -> frames dropped as malformed */
	HR_NI_CARD_UNCLAIMED, /* arg: a card -> frames for no owner, dropped */
	HR_NI_END
};

#endif
