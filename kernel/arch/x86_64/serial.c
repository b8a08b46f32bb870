/*
 * serial.c - the console: COM1 at 115200 8N1, polled.  QEMU connects it to the terminal
 * (-serial stdio), so both kernel messages and components' printf land there.  The kernel
 * never waits on it for a component: kernel/console.c queues output and sends what the
 * UART takes without waiting (hw_console_room); only kernel messages and power-off wait.
 * COM2 is the trace port (kernel/trace.c), used only with tracing on; it waits for the UART,
 * which under QEMU (-serial file:...) takes every byte at once.
 */
#include "cpu.h"
#include "hw.h"

#define COM1	 0x3f8
#define COM2	 0x2f8
#define LSR_THRE 0x20 /* transmit FIFO empty */
#define FIFO	 16   /* bytes a 16550A's transmit FIFO holds */

static void
uart_init(uint16_t port)
{
	outb(port + 1, 0x00); /* no interrupts */
	outb(port + 3, 0x80); /* DLAB */
	outb(port + 0, 0x01); /* divisor 1: 115200 baud */
	outb(port + 1, 0x00);
	outb(port + 3, 0x03); /* 8N1 */
	outb(port + 2, 0xc7); /* FIFO on, cleared */
	outb(port + 4, 0x03);
}

void
hw_console_init(void)
{
	uart_init(COM1);
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

void
hw_trace_init(void)
{
	uart_init(COM2);
}

void
hw_trace_tx(char c)
{
	/* an absent UART reads as 0xff, THRE set: tracing without the port loses the trace,
	 * never hangs */
	while (!(inb(COM2 + 5) & LSR_THRE))
		;
	outb(COM2, (uint8_t) c);
}
