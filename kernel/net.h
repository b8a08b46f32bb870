/*
 * net.h - the network as a delegated resource: who owns which port, who may send how
 * fast, and the rings through which frames reach and leave a subsystem (abi/hr_net.h).
 *
 * The root owns every port and the whole bandwidth at boot; a parent passes port ranges
 * and bandwidth to a child subsystem out of what it holds (net_bind, net_rate), so a
 * subsystem's holdings are always a part of its parent's.  A received frame goes to the
 * owner of its destination port by one table lookup, whatever the owner's depth; a frame
 * sent is checked against the sender's own ports and its own token bucket, one check at any
 * depth, because what a child holds was taken from its parent's.  docs/NETWORK.md.
 */
#ifndef NET_H
#define NET_H

#include "kernel.h"

/* Find the cards; the root owns every port and all the bandwidth. */
void net_init(struct comp *root, uint64_t tsc_hz);
/* The interrupt of a line the cards in the mask share: take their frames (the caller
 * acknowledges the line afterwards). */
void net_irq(unsigned cards);
/* The periodic tick: frames a card holds beyond what its last interrupt took. */
void net_poll(void);
/* c ended or faulted: its ports and bandwidth go back to its parent. */
void net_release(struct comp *c);
/* c is destroyed: also its rings go. */
void net_destroy(struct comp *c);

#endif
