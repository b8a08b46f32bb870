/*
 * pci.c - the PCI configuration space through ports 0xcf8/0xcfc (mechanism #1), enough to
 * find devices on bus 0 and turn on their memory decoding and bus mastering.  One CPU and
 * legacy INTx lines: the interrupt line register, which the firmware filled in, says
 * which 8259 input the device drives (no IOAPIC or MSI needed; docs/NETWORK.md).
 */
#include "cpu.h"
#include "hw.h"

#define PCI_ADDR 0xcf8
#define PCI_DATA 0xcfc

static uint32_t
cfg_read(unsigned slot, unsigned fn, unsigned reg)
{
	outl(PCI_ADDR, 0x80000000u | slot << 11 | fn << 8 | (reg & 0xfc));
	return inl(PCI_DATA);
}

static void
cfg_write(unsigned slot, unsigned fn, unsigned reg, uint32_t v)
{
	outl(PCI_ADDR, 0x80000000u | slot << 11 | fn << 8 | (reg & 0xfc));
	outl(PCI_DATA, v);
}

unsigned
hw_pci_find(uint16_t vendor, uint16_t device, struct hw_pci_dev *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned slot = 0; slot < 32 && n < max; slot++) {
		uint32_t id = cfg_read(slot, 0, 0);
		if (id != ((uint32_t) device << 16 | vendor))
			continue;
		uint32_t bar0 = cfg_read(slot, 0, 0x10);
		out[n] = (struct hw_pci_dev){
			.slot = (uint8_t) slot,
			.irq = (uint8_t) cfg_read(slot, 0, 0x3c),
			.bar0 = bar0 & ~0xfu,
			/* bit 0: an I/O BAR; bits 2:1 == 2: a 64-bit memory BAR */
			.bar0_ok = !(bar0 & 1) && ((bar0 >> 1) & 3) == 0,
		};
		n++;
	}
	return n;
}

void
hw_pci_enable(const struct hw_pci_dev *d)
{
	uint32_t cmd = cfg_read(d->slot, 0, 4);

	cfg_write(d->slot, 0, 4, (cmd & 0xffff) | 0x6); /* memory space, bus master */
}
