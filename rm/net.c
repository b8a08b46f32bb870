/* net.c - a subsystem's network rings (net.h). */
#include "net.h"
#include "sched.h"
#include "sys.h"
#include "tls.h"

static struct hr_net_hdr *const hdr = (struct hr_net_hdr *) HR_VA_NET;
static int opened;
static volatile uint32_t waiter; /* the thread in net_wait, 0 if none */

long
net_open(unsigned card)
{
	long r = hr_net_open(card);

	opened |= r == 0;
	return r;
}

struct hr_net_hdr *
net_hdr(void)
{
	return hdr;
}

const struct hr_net_slot *
net_recv(void)
{
	uint32_t tail = hdr->rx_tail;

	if (__atomic_load_n(&hdr->rx_head, __ATOMIC_ACQUIRE) == tail)
		return 0;
	return HR_NET_RX((uint8_t *) hdr, tail % HR_NET_SLOTS);
}

void
net_recv_done(void)
{
	__atomic_store_n(&hdr->rx_tail, hdr->rx_tail + 1, __ATOMIC_RELEASE);
}

struct hr_net_slot *
net_send_slot(void)
{
	if (hdr->tx_head - __atomic_load_n(&hdr->tx_tail, __ATOMIC_ACQUIRE) >= HR_NET_SLOTS)
		return 0;
	return HR_NET_TX((uint8_t *) hdr, hdr->tx_head % HR_NET_SLOTS);
}

long
net_send(unsigned len)
{
	HR_NET_TX((uint8_t *) hdr, hdr->tx_head % HR_NET_SLOTS)->len = (uint16_t) len;
	__atomic_store_n(&hdr->tx_head, hdr->tx_head + 1, __ATOMIC_RELEASE);
	return hr_net_tx();
}

void
net_wait(void)
{
	while (!net_recv()) {
		waiter = tls_tid();
		sched_block_self(); /* our event thread wakes us (net_turn) */
		waiter = 0;
	}
}

void
net_wait_until(uint64_t deadline)
{
	while (!net_recv() && hr_tsc() < deadline) {
		waiter = tls_tid();
		sched_sleep(deadline); /* net_turn wakes a sleeper as it wakes a blocked thread */
		waiter = 0;
	}
}

/* Frames of ours wait in the transmit ring. */
static int
tx_waiting(void)
{
	return hdr->tx_head != hdr->tx_tail;
}

/* Hand the kernel what waits in our transmit ring: 1 if some of it is left for later
 * (over our bandwidth: from tx_retry_at; the card's buffers were full: tx_retry_at is
 * past, so at once), 0 if all of it has gone or what is left never will (our ring's
 * indices are wrong: HR_EINVAL).  net_tx returns the frames it sent when it sent some
 * before it had to stop, not HR_ERATE. */
static int
tx_later(void)
{
	long r;

	if (!tx_waiting())
		return 0;
	r = hr_net_tx();
	return tx_waiting() && (r >= 0 || r == HR_ERATE || r == HR_EBUSY);
}

void
net_wait_sending(void)
{
	while (tx_later()) {
		net_wait_until(hdr->tx_retry_at);
		if (net_recv())
			return;
	}
	net_wait();
}

void
net_flush(void)
{
	while (tx_later())
		sched_sleep(hdr->tx_retry_at);
}

int
net_waiting(void)
{
	return opened && waiter;
}

void
net_turn(void)
{
	uint32_t t = waiter;

	/* waiter stays set until the thread itself runs: should it not have blocked yet, this
	 * wake finds it ready and does nothing, and the turn its block brings wakes it */
	if (opened && t && hdr->rx_head != hdr->rx_tail)
		sched_wake(sched_find(t));
}
