/*
 * e1000.c - the Intel 8254x gigabit card QEMU emulates (-device e1000, 8086:100e), up to
 * HR_NET_CARDS of them: one receive and one transmit ring of legacy descriptors each, the
 * buffers in the kernel image.  Received frames go to net_rx (kernel/net.c); what to send
 * is written by net.c straight into a transmit buffer (hw_net_tx_buf), checked there, and
 * only then handed to the card (hw_net_tx_go).
 *
 * QEMU's e1000 keeps what it receives queued for one virtual second after the receiver is
 * enabled (its "flush queue" delay): frames sent to a card in its first second arrive then.
 *
 * Interrupts come on the card's legacy line, which is level-triggered: reading ICR clears
 * the causes and so lowers the line, and only then may the 8259 have its end of interrupt
 * (trap.c acknowledges after hw_net_service returns), or the line would still be up and
 * interrupt again at once.  A cause that arrives after the read raises the line anew.
 */
#include "cpu.h"
#include "hw.h"
#include "abi/hr_net.h"

#define CTRL   0x0000
#define STATUS 0x0008
#define ICR    0x00c0
#define ITR    0x00c4
#define IMS    0x00d0
#define IMC    0x00d8
#define RCTL   0x0100
#define TCTL   0x0400
#define TIPG   0x0410
#define RDBAL  0x2800
#define RDBAH  0x2804
#define RDLEN  0x2808
#define RDH    0x2810
#define RDT    0x2818
#define TDBAL  0x3800
#define TDBAH  0x3804
#define TDLEN  0x3808
#define TDH    0x3810
#define TDT    0x3818
#define MTA    0x5200
#define RAL0   0x5400
#define RAH0   0x5404

#define CTRL_SLU   (1u << 6)
#define CTRL_RST   (1u << 26)
#define STATUS_LU  (1u << 1)
#define RCTL_EN	   (1u << 1)
#define RCTL_BAM   (1u << 15)
#define RCTL_SECRC (1u << 26) /* strip the CRC: frames arrive as HR_NET_FRAME_MAX at most */
#define TCTL_EN	   (1u << 1)
#define TCTL_PSP   (1u << 3)
#define ICR_LSC	   (1u << 2)
#define ICR_RXDMT0 (1u << 4)
#define ICR_RXO	   (1u << 6)
#define ICR_RXT0   (1u << 7)
#define RX_DD	   0x01
#define RX_EOP	   0x02
#define TX_EOP	   0x01
#define TX_IFCS	   0x02
#define TX_RS	   0x08
#define TX_DD	   0x01

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define NRX	  64
#define NTX	  64
#define BUF_SIZE  2048 /* the card's default receive buffer size (RCTL.BSIZE 0) */

struct rx_desc {
	uint64_t addr;
	uint16_t len, csum;
	uint8_t status, errors;
	uint16_t special;
};

struct tx_desc {
	uint64_t addr;
	uint16_t len;
	uint8_t cso, cmd, status, css;
	uint16_t special;
};

struct card {
	volatile uint32_t *regs;
	uint8_t irq, link;
	uint8_t mac[6];
	unsigned rx_next; /* the next receive descriptor the card fills */
	unsigned tx_next; /* the next transmit descriptor we fill */
	struct rx_desc rx[NRX] __attribute__((aligned(128)));
	struct tx_desc tx[NTX] __attribute__((aligned(128)));
	uint8_t rx_buf[NRX][BUF_SIZE] __attribute__((aligned(4096)));
	uint8_t tx_buf[NTX][BUF_SIZE] __attribute__((aligned(4096)));
};

static struct card cards[HR_NET_CARDS];
static unsigned ncards;

static uint32_t
rd(const struct card *c, unsigned reg)
{
	return c->regs[reg / 4];
}

static void
wr(struct card *c, unsigned reg, uint32_t v)
{
	c->regs[reg / 4] = v;
}

static void
rings_init(struct card *c)
{
	uint64_t rx = hw_virt_to_phys(c->rx), tx = hw_virt_to_phys(c->tx);

	for (unsigned i = 0; i < NRX; i++)
		c->rx[i] = (struct rx_desc){ .addr = hw_virt_to_phys(c->rx_buf[i]) };
	for (unsigned i = 0; i < NTX; i++)
		c->tx[i] = (struct tx_desc){ .status = TX_DD }; /* free */
	wr(c, RDBAL, (uint32_t) rx);
	wr(c, RDBAH, (uint32_t) (rx >> 32));
	wr(c, RDLEN, sizeof(c->rx));
	wr(c, RDH, 0);
	wr(c, RDT, NRX - 1); /* the card fills [RDH, RDT): all but one */
	c->rx_next = 0;
	wr(c, TDBAL, (uint32_t) tx);
	wr(c, TDBAH, (uint32_t) (tx >> 32));
	wr(c, TDLEN, sizeof(c->tx));
	wr(c, TDH, 0);
	wr(c, TDT, 0);
	c->tx_next = 0;
}

static void
card_start(struct card *c)
{
	uint32_t ral, rah;

	wr(c, IMC, 0xffffffffu);
	wr(c, CTRL, rd(c, CTRL) | CTRL_RST);
	while (rd(c, CTRL) & CTRL_RST)
		;
	wr(c, IMC, 0xffffffffu);
	(void) rd(c, ICR);
	wr(c, CTRL, rd(c, CTRL) | CTRL_SLU);
	/* the address the card loaded from its EEPROM at reset */
	ral = rd(c, RAL0);
	rah = rd(c, RAH0);
	for (unsigned i = 0; i < 4; i++)
		c->mac[i] = (uint8_t) (ral >> (8 * i));
	c->mac[4] = (uint8_t) rah;
	c->mac[5] = (uint8_t) (rah >> 8);
	wr(c, RAH0, (rah & 0xffff) | 1u << 31); /* address valid: unicast filter on */
	for (unsigned i = 0; i < 128; i++)
		wr(c, MTA + 4 * i, 0);
	rings_init(c);
	wr(c, RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
	wr(c, TIPG, 10 | 10 << 10 | 10 << 20);
	wr(c, TCTL, TCTL_EN | TCTL_PSP | 0x0f << 4 | 0x40 << 12);
	wr(c, ITR, 0); /* no moderation: latency is measured; net.c bounds the work per interrupt */
	wr(c, IMS, ICR_RXT0 | ICR_RXO | ICR_RXDMT0 | ICR_LSC);
	c->link = (rd(c, STATUS) & STATUS_LU) != 0;
}

unsigned
hw_net_init(struct hw_net_info *info, unsigned max, uint64_t tsc_hz)
{
	struct hw_pci_dev d[HR_NET_CARDS];
	unsigned n = hw_pci_find(0x8086, 0x100e, d, MIN(max, HR_NET_CARDS));

	for (unsigned i = 0; i < n; i++) {
		struct card *c = &cards[ncards];
		info[i] = (struct hw_net_info){ .slot = d[i].slot, .irq = d[i].irq };
		/* a memory BAR below 4 GiB and a line of the 8259s other than the timer's,
		 * the cascade and the RTC's */
		if (!d[i].bar0_ok || d[i].irq < 3 || d[i].irq > 15 || d[i].irq == 8)
			continue;
		hw_pci_enable(&d[i]);
		/* 128 KiB of registers: both 2 MiB pages, should they straddle a boundary */
		pt_kernel_mmio(d[i].bar0 + 0x1ffff);
		c->regs = pt_kernel_mmio(d[i].bar0);
		c->irq = d[i].irq;
		card_start(c);
		hw_irq_unmask(c->irq);
		info[i].usable = 1;
		info[i].ready_at = hw_tsc() + tsc_hz; /* QEMU's flush-queue delay: see above */
		info[i].link = c->link;
		info[i].card = (uint8_t) ncards++;
		for (unsigned k = 0; k < 6; k++)
			info[i].mac[k] = c->mac[k];
	}
	return n;
}

unsigned
hw_net_cards_on(unsigned vec)
{
	unsigned mask = 0;

	for (unsigned i = 0; i < ncards; i++)
		if (vec == HW_IRQ_BASE + (unsigned) cards[i].irq)
			mask |= 1u << i;
	return mask;
}

/* Pass up to budget received frames to net_rx and give their buffers back to the card. */
static unsigned
receive(struct card *c, unsigned card, unsigned budget)
{
	unsigned n = 0;

	while (n < budget) {
		struct rx_desc *d = &c->rx[c->rx_next];
		if (!(d->status & RX_DD))
			break;
		/* a frame the card marked bad, or spread over buffers (it is longer than any
		 * we accept): net_rx counts it as malformed */
		int whole = (d->status & RX_EOP) && !d->errors && d->len <= BUF_SIZE;
		net_rx(card, c->rx_buf[c->rx_next], whole ? d->len : 0);
		d->status = 0;
		wr(c, RDT, c->rx_next);
		c->rx_next = (c->rx_next + 1) % NRX;
		n++;
	}
	return n;
}

unsigned
hw_net_service(unsigned card, unsigned budget)
{
	struct card *c = &cards[card];
	uint32_t icr = rd(c, ICR); /* clears the causes: the line goes down */

	if (icr & ICR_LSC)
		c->link = (rd(c, STATUS) & STATUS_LU) != 0;
	return receive(c, card, budget);
}

int
hw_net_rx_pending(unsigned card)
{
	const struct card *c = &cards[card];
	return (c->rx[c->rx_next].status & RX_DD) != 0;
}

uint8_t *
hw_net_tx_buf(unsigned card)
{
	struct card *c = &cards[card];

	return c->tx[c->tx_next].status & TX_DD ? c->tx_buf[c->tx_next] : 0;
}

void
hw_net_tx_go(unsigned card, unsigned len)
{
	struct card *c = &cards[card];
	struct tx_desc *d = &c->tx[c->tx_next];

	*d = (struct tx_desc){ .addr = hw_virt_to_phys(c->tx_buf[c->tx_next]),
			       .len = (uint16_t) len,
			       .cmd = TX_EOP | TX_IFCS | TX_RS };
	c->tx_next = (c->tx_next + 1) % NTX;
	__asm__ volatile("" ::: "memory"); /* the descriptor before the tail that hands it over */
	wr(c, TDT, c->tx_next);
}
