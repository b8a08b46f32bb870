/*
 * ringif.h - an lwIP network interface on a subsystem's network rings (rm/net.h), and the
 * network thread's loop around it.
 *
 * One lwIP instance per subsystem, run by one thread (NO_SYS: lwIP has no locks), the
 * thread that calls ringif_open and then ringif_run.  Received frames are copied from the
 * ring into pbufs and handed to lwIP; lwIP's frames are copied into transmit slots and
 * handed to the kernel, which checks them against our ports and bandwidth.  Over our
 * bandwidth they wait in the ring until the kernel's retry time; with the ring full, lwIP's
 * frame is dropped and counted (TCP sends it again).
 */
#ifndef WEB_RINGIF_H
#define WEB_RINGIF_H

#include <stdint.h>

struct netif;

struct ringif_stats {
	uint64_t rx, tx, tx_dropped; /* frames passed to lwIP, handed to the kernel, dropped */
};

/* Open card, start lwIP on it with the card's address (10.0.2.15 + card, /24): our netif,
 * or NULL (the reason printed). */
struct netif *ringif_open(unsigned card);

/* Run lwIP until done() says so: drain the receive ring into lwIP, run its timers, push
 * what waits to be sent, and sleep until a frame, the next timer or the retry time. */
void ringif_run(struct netif *nif, int (*done)(void));

const struct ringif_stats *ringif_stats(void);

/* If set, called with every frame we receive before lwIP sees it: nonzero drops it. */
extern int (*ringif_inspect)(const uint8_t *frame, unsigned len);

/* If frame is a TCP segment in IPv4 over Ethernet: 1, its ports and flags (0x02 SYN,
 * 0x10 ACK, ...); else 0. */
int ringif_tcp(const uint8_t *frame, unsigned len, uint16_t *sport, uint16_t *dport,
	       uint8_t *flags);

#endif
