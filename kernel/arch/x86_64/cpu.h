/*
 * cpu.h - x86-64 instructions as inline functions.  Only kernel/arch/x86_64 includes this;
 * generic kernel code uses hw.h.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <stdint.h>

#define MSR_EFER   0xc0000080u
#define MSR_STAR   0xc0000081u
#define MSR_LSTAR  0xc0000082u
#define MSR_SFMASK 0xc0000084u

static inline void
outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t
inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void
outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void
outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t
inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void
wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t) v), "d"((uint32_t) (v >> 32)));
}

static inline uint64_t
rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t) hi << 32) | lo;
}

static inline uint64_t
read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t
read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void
write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void
invlpg(uint64_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline uint64_t
read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void
write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* INVPCID of one address (type 0) or of every entry of one PCID (type 1). */
#define INVPCID_ADDR 0
#define INVPCID_ONE  1
static inline void
invpcid(uint64_t type, uint64_t pcid, uint64_t va)
{
	struct {
		uint64_t pcid, va;
	} d = { pcid, va };
	__asm__ volatile("invpcid %0, %1" : : "m"(d), "r"(type) : "memory");
}

/* CPUID leaf/subleaf: r[0..3] = eax, ebx, ecx, edx; zeros for a leaf above the highest. */
static inline void
cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	uint32_t max = 0, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(max), "=b"(b), "+c"(c), "=d"(d));
	r[0] = r[1] = r[2] = r[3] = 0;
	if (leaf > max)
		return;
	r[0] = leaf, r[2] = sub;
	__asm__ volatile("cpuid" : "+a"(r[0]), "=b"(r[1]), "+c"(r[2]), "=d"(r[3]));
}

/* paging.c: global kernel pages and PCIDs where the CPU has them; one boot line says which. */
void pt_tlb_init(void);

#endif
