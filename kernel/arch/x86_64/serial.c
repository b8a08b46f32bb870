/*
 * serial.c - the console: COM1 at 115200 8N1, polled.  QEMU connects it to the terminal
 * (-serial stdio), so both kernel messages and components' printf land there.  The kernel
 * never waits on it for a component: kernel/console.c queues output and sends what the
 * UART takes without waiting (hw_console_room); only kernel messages and power-off wait.
 */
#include "cpu.h"
#include "hw.h"

#define COM1	 0x3f8
#define LSR_THRE 0x20 /* transmit FIFO empty */
#define FIFO	 16   /* bytes a 16550A's transmit FIFO holds */

void
hw_console_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* DLAB */
	outb(COM1 + 0, 0x01); /* divisor 1: 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7); /* FIFO on, cleared */
	outb(COM1 + 4, 0x03);
}

unsigned
hw_console_room(void)
{
	return inb(COM1 + 5) & LSR_THRE ? FIFO : 0;
}

void
hw_console_tx(char c)
{
	outb(COM1, (uint8_t) c);
}
