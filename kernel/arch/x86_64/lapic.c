/*
 * lapic.c - the local APIC timer as a one-shot deadline: scheduler timers (timer_next)
 * fire when they are due, not at the next periodic tick, so a server's budget ends and
 * its period starts within an interrupt's latency of the exact time.  The PIT tick
 * (timer.c) keeps the clock; the PIC stays in virtual-wire mode beside the APIC.
 */
#include "cpu.h"
#include "hw.h"

#define LAPIC_PA     0xfee00000ull
#define REG_EOI	     0x0b0
#define REG_SVR	     0x0f0
#define REG_LVT_TMR  0x320
#define REG_TMR_INIT 0x380
#define REG_TMR_CUR  0x390
#define REG_TMR_DIV  0x3e0
#define LVT_MASKED   (1u << 16)

static volatile uint32_t *regs;
static uint64_t counts_per_tsc; /* APIC timer counts per TSC tick, 32.32 fixed point */

static void
put(unsigned reg, uint32_t v)
{
	regs[reg / 4] = v;
}

static uint32_t
get(unsigned reg)
{
	return regs[reg / 4];
}

/* APIC timer counts across a 10 ms one-shot of PIT channel 2, as in hw_tsc_hz. */
static uint64_t
lapic_hz(void)
{
	uint32_t count = 1193182u / 100;

	outb(0x61, (uint8_t) ((inb(0x61) & ~0x02) | 0x01));
	outb(0x43, 0xb0);
	outb(0x42, (uint8_t) count);
	outb(0x42, (uint8_t) (count >> 8));
	put(REG_TMR_INIT, UINT32_MAX);
	while (!(inb(0x61) & 0x20))
		;
	return (uint64_t) (UINT32_MAX - get(REG_TMR_CUR)) * 100;
}

uint64_t
hw_deadline_init(uint64_t tsc_hz)
{
	uint64_t hz;

	regs = pt_kernel_mmio(LAPIC_PA);
	put(REG_SVR, 0x100 | HW_VEC_SPURIOUS); /* software-enable; LINT0 keeps the PIC */
	put(REG_TMR_DIV, 0xb);		       /* divide by 1 */
	put(REG_LVT_TMR, LVT_MASKED | HW_VEC_DEADLINE);
	hz = lapic_hz();
	counts_per_tsc = (uint64_t) (((unsigned __int128) hz << 32) / tsc_hz);
	put(REG_TMR_INIT, 0);
	put(REG_LVT_TMR, HW_VEC_DEADLINE); /* one-shot */
	return hz;
}

void
hw_deadline_set(uint64_t tsc)
{
	uint64_t now = hw_tsc();
	unsigned __int128 n;

	if (!regs)
		return;
	if (!tsc) {
		put(REG_TMR_INIT, 0); /* stops the timer */
		return;
	}
	n = tsc > now ? ((unsigned __int128) (tsc - now) * counts_per_tsc) >> 32 : 0;
	/* too far for 32 bits: wake early and set it again then */
	put(REG_TMR_INIT, n == 0 ? 1 : n > UINT32_MAX ? UINT32_MAX : (uint32_t) n);
}

void
hw_deadline_ack(void)
{
	put(REG_EOI, 0);
}
