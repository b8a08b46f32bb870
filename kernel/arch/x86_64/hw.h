/*
 * hw.h - the one header through which generic kernel code reaches the hardware.
 *
 * Everything x86-specific (register frames, page-table format, the timer, the console,
 * interrupt controllers) sits behind these declarations; generic kernel files include nothing else
 * from kernel/arch.
 */
#ifndef ARCH_HW_H
#define ARCH_HW_H

#include <stdint.h>
#include <stddef.h>

/* Saved user state of a thread; layout fixed by entry.S (see asm.h). */
struct regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, err;
	uint64_t rip, cs, rflags, rsp, ss;
};
_Static_assert(sizeof(struct regs) % 16 == 0, "interrupt frames are 16-byte aligned");

#define HW_VEC_SYSCALL	256
#define HW_VEC_TIMER	32
#define HW_IRQ_BASE	32 /* the PIC's 16 lines: 32..47 */
#define HW_VEC_DEADLINE 48 /* the local APIC's one-shot timer */
#define HW_VEC_SPURIOUS 63 /* the local APIC's spurious vector: ignored */
#define HW_VECTORS	64
#define HW_USER_RFLAGS	0x202ull /* IF | reserved bit 1 */

/* boot-time set-up, in order */
void hw_console_init(void);
void hw_cpu_init(void);		 /* GDT, TSS, IDT, syscall MSRs */
void hw_timer_init(uint32_t hz); /* periodic tick on HW_VEC_TIMER */
uint64_t hw_tsc_hz(void);	 /* TSC ticks per second, measured against the PIT */
/* one-shot interrupt on HW_VEC_DEADLINE at TSC `tsc` (0: none); replaces the last one set */
uint64_t hw_deadline_init(uint64_t tsc_hz); /* -> the timer's counts per second */
void hw_deadline_set(uint64_t tsc);
void hw_deadline_ack(void);

unsigned hw_console_room(void); /* bytes the UART takes now without waiting */
void hw_console_tx(char c);	/* send one byte; only after hw_console_room said so */
void hw_trace_init(void);	/* the trace port (COM2: kernel/trace.c) */
void hw_trace_tx(char c);	/* send one byte to it, waiting for room */

/* frames and threads */
void hw_frame_init_user(struct regs *r, uint64_t ip, uint64_t sp);
/* The frame ret_to_user restores (entry.S), and TSS.rsp0, where an interrupt from user mode
 * saves the frame: the current thread's.  Inline: every switch sets it. */
typedef uint64_t hw_u64_packed __attribute__((aligned(1))); /* the TSS's fields */
extern struct regs *cur_frame;				    /* cpu.c */
extern hw_u64_packed *const hw_tss_rsp0; /* its frame's end, also for syscall_entry */
static inline void
hw_set_current(struct regs *r)
{
	cur_frame = r;
	*hw_tss_rsp0 = (uint64_t) (r + 1);
}

/*
 * Arguments in a frame: the only place the kernel names the argument registers.  System
 * call arguments i = 0..5 arrive in rdi, rsi, rdx, r10, r8, r9 (docs/ABI.md); a thread
 * starting (thd_create) or migrating into a callee (invoke) receives its arguments in the
 * same registers.
 */
static inline uint64_t
hw_frame_arg(const struct regs *r, unsigned i)
{
	const uint64_t a[6] = { r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9 };
	return a[i];
}

/* Point the frame at ip with stack sp and arguments a[0..5]: the start of a call. */
static inline void
hw_frame_call(struct regs *r, uint64_t ip, uint64_t sp, const uint64_t a[6])
{
	r->rdi = a[0];
	r->rsi = a[1];
	r->rdx = a[2];
	r->r10 = a[3];
	r->r8 = a[4];
	r->r9 = a[5];
	r->rip = ip;
	r->rsp = sp;
}

/*
 * Per-thread state on the hot paths (switch, invocation): inline, no call, and no write
 * when the value would not change.
 *
 * FS base: hw_fs_loaded is the base last written (wrmsr costs some hundred cycles on
 * real hardware).  User code cannot write the base itself (CR4.FSGSBASE stays off), but
 * loading a selector into %fs sets it to 0 (or, on AMD, a null selector leaves it), so
 * the copy is trusted only inside one protection domain: a component that plays with %fs
 * confuses only its own threads, and a change of page table always writes the base.
 */
extern uint64_t hw_fs_loaded; /* cpu.c; this CPU's */
static inline void
hw_set_fs(uint64_t base)
{
	if (base == hw_fs_loaded)
		return;
	hw_fs_loaded = base;
	__asm__ volatile("wrmsr"
			 :
			 : "c"(0xc0000100u), "a"((uint32_t) base), "d"((uint32_t) (base >> 32)));
}

/*
 * Run in page table pgtbl with FS base fs.  A pgtbl is exactly what CR3 reads back (the
 * table's address and its PCID), so staying in the current component costs one read.
 * Loading another keeps its PCID's TLB entries unless they must go: hw_cr3_keep (paging.c)
 * holds, per PCID, the no-flush bit of CR3 (bit 63) or 0, and always 0 without PCIDs.
 */
#define HW_PCIDS 4096
extern uint64_t hw_cr3_keep[HW_PCIDS], hw_cr3_noflush; /* paging.c */
static inline void
hw_set_space(uint64_t pgtbl, uint64_t fs)
{
	uint64_t cur, keep = 0;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cur));
	if (cur == pgtbl) {
		hw_set_fs(fs);
		return;
	}
	if (hw_cr3_noflush) { /* PCIDs: without them every load flushes */
		uint64_t p = pgtbl & (HW_PCIDS - 1);
		keep = hw_cr3_keep[p];
		hw_cr3_keep[p] = hw_cr3_noflush;
	}
	__asm__ volatile("mov %0, %%cr3" : : "r"(pgtbl | keep) : "memory");
	/* another protection domain: never trust the FS base left behind */
	hw_fs_loaded = fs;
	__asm__ volatile("wrmsr"
			 :
			 : "c"(0xc0000100u), "a"((uint32_t) fs), "d"((uint32_t) (fs >> 32)));
}

void hw_irq_ack(unsigned vec);

/* Let the 8259 deliver legacy line irq (3..15), level-triggered as PCI lines are. */
void hw_irq_unmask(unsigned irq);

/* PCI devices on bus 0 (pci.c). */
struct hw_pci_dev {
	uint8_t slot, irq, bar0_ok; /* bar0_ok: a 32-bit memory BAR */
	uint64_t bar0;
};
/* Up to max devices vendor:device, in slot order: how many. */
unsigned hw_pci_find(uint16_t vendor, uint16_t device, struct hw_pci_dev *out, unsigned max);
void hw_pci_enable(const struct hw_pci_dev *d); /* memory decoding and bus mastering */

/*
 * Network cards (e1000.c).  The generic side is kernel/net.c, which provides net_rx: the
 * driver calls it for every frame it receives (len 0: a frame the card marked bad).
 */
struct hw_net_info {
	uint8_t slot, irq, usable, link, card; /* card: its number, when usable */
	uint8_t mac[6];
	uint64_t ready_at; /* TSC from which it passes on the frames it receives */
};
/* Find and start the e1000 cards: how many were found (info[i] says which work). */
unsigned hw_net_init(struct hw_net_info *info, unsigned max, uint64_t tsc_hz);
/* The cards whose line is vector vec, as a bit mask: PCI lines are shared (QEMU puts two
 * cards on one), so each must be asked whether it interrupted. */
unsigned hw_net_cards_on(unsigned vec);
/* Take the card's interrupt causes (its line goes down), then pass up to budget received
 * frames to net_rx: how many it passed. */
unsigned hw_net_service(unsigned card, unsigned budget);
int hw_net_rx_pending(unsigned card);  /* has it received frames not yet passed on? */
uint8_t *hw_net_tx_buf(unsigned card); /* the next transmit buffer; NULL while none is free */
void hw_net_tx_go(unsigned card, unsigned len); /* send the len bytes written into it */
void net_rx(unsigned card, const uint8_t *frame, unsigned len);

/* A flag of this run from QEMU's fw_cfg file `name` (fwcfg.c): 1 if it holds "1". */
int hw_fwcfg_flag(const char *name);

/* x87/SSE state of a thread (fxsave format). */
struct hw_fpu {
	uint8_t area[512];
} __attribute__((aligned(16)));
void hw_fpu_save(struct hw_fpu *f);
void hw_fpu_restore(const struct hw_fpu *f);
void hw_fpu_clean(struct hw_fpu *f); /* the state of a fresh thread */
/* Make the next x87/SSE instruction trap (#NM, vector 7) or not (CR0.TS): only a change
 * writes CR0.  Inline: a switch between threads of one component comes here. */
extern int hw_ts_set; /* cpu.c */
static inline void
hw_fpu_trap(int on)
{
	uint64_t cr0;

	if (on == hw_ts_set)
		return;
	hw_ts_set = on;
	if (!on) {
		__asm__ volatile("clts");
		return;
	}
	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0 | (1ull << 3)));
}

static inline uint64_t
hw_tsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t) hi << 32) | lo;
}

/*
 * Flags user code can set that the kernel must never run with: TF, DF, IOPL, NT.  entry.S
 * and the interrupt gates clear them on every way in; trap() and syscall_dispatch() assert
 * it, so a path that forgets panics at once under test instead of corrupting a copy or
 * faulting an iretq later.  AC is not among them: interrupt gates keep it, and without SMAP
 * (never enabled) it has no effect in ring 0.
 */
#define HW_FLAGS_KERNEL_NEVER 0x7500ull
static inline int
hw_kernel_flags_clean(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; pop %0" : "=r"(f));
	return !(f & HW_FLAGS_KERNEL_NEVER);
}

/* Let an interrupt that is pending in, here and nowhere else: the kernel runs with
 * interrupts off, and a long path opens this window between two of its steps (a
 * preemption point, trap.h).  STI holds interrupts off for one instruction more, hence the
 * nop. */
static inline void
hw_irq_window(void)
{
	__asm__ volatile("sti; nop; cli" ::: "memory");
}

_Noreturn void hw_ret_to_user(void);
_Noreturn void hw_idle(void);
_Noreturn void hw_poweroff(int code);
_Noreturn void hw_halt(void);

/* Set n bytes at p to byte c, 8 bytes a store with rep stosq and the last n % 8 with rep
 * stosb: memset's body (a fresh page-table pair is zeroed on every alias that needs one,
 * since tables are freed when they empty; a port range delegated is up to 64 KiB of owner
 * bytes, kernel/net.c). */
static inline void
hw_fill(void *p, uint8_t c, size_t n)
{
	size_t q = n / 8, r = n % 8;

	__asm__ volatile("rep stosq; mov %3, %%rcx; rep stosb"
			 : "+D"(p), "+c"(q)
			 : "a"(c * 0x0101010101010101ull), "r"(r)
			 : "memory");
}

/* Copy n bytes from s to d (not overlapping), 8 bytes a move with rep movsq and the last
 * n % 8 with rep movsb: memcpy's body (a received frame's copy into its port's ring is on
 * the path from the card's interrupt to the receiver, kernel/net.c). */
static inline void
hw_copy(void *d, const void *s, size_t n)
{
	size_t q = n / 8, r = n % 8;

	__asm__ volatile("rep movsq; mov %3, %%rcx; rep movsb"
			 : "+D"(d), "+S"(s), "+c"(q)
			 : "r"(r)
			 : "memory");
}

/* physical memory: the direct map covers all RAM */
#define HW_KDIRECT 0xffff800000000000ull
static inline void *
hw_phys_to_virt(uint64_t pa)
{
	return (void *) (pa + HW_KDIRECT);
}
static inline uint64_t
hw_virt_to_phys(const void *va)
{
	uint64_t v = (uint64_t) va;
	if (v >= 0xffffffff80000000ull)
		return v - 0xffffffff80000000ull;
	return v - HW_KDIRECT;
}

/*
 * Page tables.  A pgtbl is the physical address of a top-level table, with the PCID that
 * tags its TLB entries in the low 12 bits (0 where the CPU has no PCIDs).  Leaf entries carry
 * the HR_MEM_* permissions.  Intermediate tables come from pt_alloc(), which the generic
 * kernel provides (frame.c), so this layer has no allocation policy of its own.
 */
#define PT_LEVELS 4
/* How many tables pt_entry may allocate (left) and did (made). */
struct pt_budget {
	unsigned left, made;
};
uint64_t pt_new(void); /* fresh top level with the kernel half; 0 if none */
/* Frees every user-half table (leaf frames untouched): how many, the top level included. */
unsigned pt_free(uint64_t pgtbl);
/* Entry for va; with a budget, allocates missing tables (at most b->left, counted in
 * b->made); NULL when a table is absent and cannot be made. */
uint64_t *pt_entry(uint64_t pgtbl, uint64_t va, struct pt_budget *b);
/* How many tables pt_entry would have to allocate for va (0..PT_LEVELS-1). */
unsigned pt_missing(uint64_t pgtbl, uint64_t va);
/* Set the leaf entry e of va (from pt_entry) to pte, counting it in its table. */
void pt_map(uint64_t pgtbl, uint64_t va, uint64_t *e, uint64_t pte);
/* Clear va's leaf entry and its shadow word, flush it, and free the tables that emptied:
 * how many were freed. */
unsigned pt_unmap(uint64_t pgtbl, uint64_t va);
/* Per-entry word of kernel metadata beside the leaf table holding entry e. */
uint64_t *pt_shadow(uint64_t *e);
uint64_t pt_make(uint64_t pa, unsigned perms); /* leaf entry for a user page */
static inline int
pt_present(uint64_t e)
{
	return (int) (e & 1);
}
uint64_t pt_pa(uint64_t e);
unsigned pt_perms(uint64_t e);
/* After changing a present entry of va: in the current table at once, in another one
 * before that table is next loaded (its PCID's entries, paging.c). */
void pt_flush(uint64_t pgtbl, uint64_t va);
/* Direct map of [0, max_pa) and the kernel image, W^X: 0, or why it could not be made. */
const char *pt_kernel_init(uint64_t max_pa);
void *pt_kernel_mmio(uint64_t pa); /* device registers at pa, uncached, in the kernel half */
/* What the TLB code uses (on) of what the CPU has (has), for the boot line. */
struct hw_tlb {
	uint8_t pge, pcid, invpcid, has_pcid, has_invpcid;
};
struct hw_tlb hw_tlb_info(void);

/* Leaf page tables and their shadows come in pairs of frames; the allocator is generic. */
uint64_t pt_alloc(void); /* physical address of a zeroed 8 KiB pair, 0 if exhausted */
void pt_release(uint64_t pa);

/* multiboot2 */
struct hw_mem_range {
	uint64_t base, len;
};
struct hw_module {
	uint64_t start, end;
	const char *cmdline;
};
struct hw_boot {
	struct hw_mem_range ram[32];
	unsigned nram;
	struct hw_module mod[16];
	unsigned nmod;
	const char *cmdline;
	uint64_t info_start, info_end; /* the multiboot2 information itself */
};
int hw_boot_parse(uint32_t magic, uint64_t info_pa, struct hw_boot *out);

#endif
