/*
 * network.h - the network rules: like memory, ports and transmit bandwidth are handed down
 * the tree.  The root holds every port and, when the image has a card, its bandwidth; a
 * child holds a subset of its parent's ports, none that a sibling holds, and at most the
 * bandwidth its parent has left.  The kernel enforces what the descriptor says (receive by
 * destination port, transmit by a token bucket); docs/MANIFEST.md states the rules.
 */
#ifndef IMAGES_NETWORK_H
#define IMAGES_NETWORK_H

#include "manifest.h"

#define NETWORK_KBPS_DEFAULT 1000000 /* the root's, if it says none: one e1000's gigabit */

/*
 * The bandwidth subsystem s may send with, in kbit/s: its net-kbps; for the root of an
 * image with a card, NETWORK_KBPS_DEFAULT if it declares none; otherwise 0 (it may receive
 * on its ports but not send).
 */
uint32_t network_kbps(const struct node *s);

/* 1 if s's descriptor node carries net-kbps: it declares one, or it is a root with a card. */
int network_has_kbps(const struct node *s);

/*
 * Check the rules over img in manifest order, with diag_error() at the line of the first
 * net-* property (or the port, or the net-kbps) that breaks one: net-* in an image without
 * a card, a child's port its parent does not hold, a port two siblings hold, a child's
 * bandwidth beyond what its parent has left.
 */
void network_check(const struct image *img);

#endif
