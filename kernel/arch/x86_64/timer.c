/*
 * timer.c - the periodic tick (8254 PIT channel 0 through the 8259 PIC) and TSC
 * calibration against PIT channel 2.  All other legacy IRQs stay masked until a driver
 * unmasks its line (hw_irq_unmask).
 */
#include "cpu.h"
#include "hw.h"

#define PIC1   0x20
#define PIC2   0xa0
#define PIT_HZ 1193182u

static void
pic_init(void)
{
	outb(PIC1, 0x11);
	outb(PIC2, 0x11);
	outb(PIC1 + 1, HW_IRQ_BASE);	 /* IRQ 0-7  -> vectors 32-39 */
	outb(PIC2 + 1, HW_IRQ_BASE + 8); /* IRQ 8-15 -> vectors 40-47 */
	outb(PIC1 + 1, 4);
	outb(PIC2 + 1, 2);
	outb(PIC1 + 1, 1);
	outb(PIC2 + 1, 1);
	outb(PIC1 + 1, 0xfe); /* only IRQ 0 */
	outb(PIC2 + 1, 0xff);
}

void
hw_timer_init(uint32_t hz)
{
	uint32_t div = PIT_HZ / hz;

	pic_init();
	outb(0x43, 0x34); /* channel 0, lobyte/hibyte, rate generator */
	outb(0x40, (uint8_t) div);
	outb(0x40, (uint8_t) (div >> 8));
}

void
hw_irq_unmask(unsigned irq)
{
	uint16_t elcr = (uint16_t) (0x4d0 + irq / 8), pic = irq < 8 ? PIC1 + 1 : PIC2 + 1;

	/* the edge/level control register of the PIIX: a PCI line is level-triggered */
	outb(elcr, (uint8_t) (inb(elcr) | 1u << (irq % 8)));
	outb(pic, (uint8_t) (inb(pic) & ~(1u << (irq % 8))));
	if (irq >= 8)
		outb(PIC1 + 1, (uint8_t) (inb(PIC1 + 1) & ~(1u << 2))); /* the cascade */
}

void
hw_irq_ack(unsigned vec)
{
	if (vec >= HW_IRQ_BASE + 8)
		outb(PIC2, 0x20);
	outb(PIC1, 0x20);
}

/* Count TSC ticks across a 10 ms one-shot of PIT channel 2. */
uint64_t
hw_tsc_hz(void)
{
	uint32_t count = PIT_HZ / 100;
	uint64_t t0, t1;

	outb(0x61, (uint8_t) ((inb(0x61) & ~0x02) | 0x01));
	outb(0x43, 0xb0); /* channel 2, lobyte/hibyte, interrupt on terminal count */
	outb(0x42, (uint8_t) count);
	outb(0x42, (uint8_t) (count >> 8));
	t0 = hw_tsc();
	while (!(inb(0x61) & 0x20))
		;
	t1 = hw_tsc();
	return (t1 - t0) * 100;
}
