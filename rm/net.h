/*
 * net.h - a subsystem's side of its network rings (kernel/abi/hr_net.h; docs/NETWORK.md).
 *
 * A subsystem opens one card; the kernel then puts every frame for the ports it owns into
 * its receive ring and wakes its event thread when that ring was empty.  One thread of the
 * subsystem (its network thread) waits for frames with net_wait; the event thread wakes it
 * on its next turn whenever the ring holds frames (net_turn), so a frame that arrives
 * while the network thread is about to wait is never missed.  Sending: fill a slot, then
 * net_send hands everything queued to the kernel, which checks and sends it.
 */
#ifndef RM_NET_H
#define RM_NET_H

#include <stdint.h>
#include "kernel/abi/hr_net.h"

/* Map our rings for card: 0, or the kernel's HR_E* code. */
long net_open(unsigned card);
/* Our ring header (after net_open). */
struct hr_net_hdr *net_hdr(void);
/* The oldest received frame not yet released, or NULL. */
const struct hr_net_slot *net_recv(void);
/* Release the frame net_recv returned. */
void net_recv_done(void);
/* A free transmit slot to fill, or NULL while the ring is full. */
struct hr_net_slot *net_send_slot(void);
/* Queue the slot net_send_slot returned, holding len bytes, and hand the ring to the kernel:
 * what hr_net_tx returned (frames sent, or HR_ERATE with net_hdr()->tx_retry_at, ...). */
long net_send(unsigned len);
/* Block the calling thread (the subsystem's network thread) until a frame is there. */
void net_wait(void);
/* The same, but return at TSC deadline at the latest (a protocol's next timer). */
void net_wait_until(uint64_t deadline);
/* Block until a frame is there, handing the kernel again, when they may go, frames of ours
 * that wait in the transmit ring for our bandwidth (net_send's HR_ERATE): a server that
 * waits with net_wait leaves its answers there until the next frame arrives. */
void net_wait_sending(void);
/* Block until every frame queued in our transmit ring has left: before a task that sent
 * stops, or what waits for its bandwidth never goes. */
void net_flush(void);
/* Does a thread wait for frames?  (Then the subsystem is not finished: subsys.c.) */
int net_waiting(void);
/* The event thread's turn (subsys.c): wake the network thread if frames wait. */
void net_turn(void);

#endif
