/*
 * cpu.c - descriptor tables and the syscall MSRs: the final GDT (kernel and user segments
 * laid out for syscall/sysret, one TSS), the IDT pointing at entry.S's stubs, and the
 * per-thread state the return path needs (TSS.rsp0, FS base, page table).
 */
#include "asm.h"
#include "cpu.h"
#include "hw.h"
#include "../../abi/hr_layout.h"

struct tss {
	uint32_t resv0;
	uint64_t rsp0, rsp1, rsp2;
	uint64_t resv1;
	uint64_t ist[7];
	uint64_t resv2;
	uint16_t resv3, iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss) == 104 && offsetof(struct tss, rsp0) == TSS_RSP0, "TSS layout");

struct gate {
	uint16_t off_lo, sel;
	uint8_t ist, type;
	uint16_t off_mid;
	uint32_t off_hi, resv;
} __attribute__((packed));

_Static_assert(USER_END == HR_VA_USER_END, "entry.S's bound of the user half");
/* entry.S and fastpath.S see struct regs, CR3 and the FS base through asm.h */
_Static_assert(offsetof(struct regs, r15) == R_R15 && offsetof(struct regs, r14) == R_R14 &&
		       offsetof(struct regs, r13) == R_R13 && offsetof(struct regs, r12) == R_R12 &&
		       offsetof(struct regs, r11) == R_R11 && offsetof(struct regs, r10) == R_R10 &&
		       offsetof(struct regs, r9) == R_R9 && offsetof(struct regs, r8) == R_R8 &&
		       offsetof(struct regs, rbp) == R_RBP && offsetof(struct regs, rdi) == R_RDI &&
		       offsetof(struct regs, rsi) == R_RSI && offsetof(struct regs, rdx) == R_RDX &&
		       offsetof(struct regs, rcx) == R_RCX && offsetof(struct regs, rbx) == R_RBX &&
		       offsetof(struct regs, rax) == R_RAX &&
		       offsetof(struct regs, vector) == R_VECTOR &&
		       offsetof(struct regs, err) == R_ERR && offsetof(struct regs, rip) == R_RIP &&
		       offsetof(struct regs, cs) == R_CS &&
		       offsetof(struct regs, rflags) == R_RFLAGS &&
		       offsetof(struct regs, rsp) == R_RSP && offsetof(struct regs, ss) == R_SS &&
		       sizeof(struct regs) == R_SIZE,
	       "asm.h's R_* offsets of struct regs");
_Static_assert(PCID_MASK == HW_PCIDS - 1 && HW_RFLAGS_FORCE == HW_USER_RFLAGS,
	       "asm.h's PCID bits and first flags");

/* the one TSS; entry.S and fastpath.S use its rsp0 (TSS_RSP0) as the current frame's end */
struct tss hw_tss;
static uint64_t gdt[7];
static struct gate idt[HW_VECTORS];

extern const uint64_t vec_table[HW_VECTORS];
extern char syscall_entry[], df_stack_top[], nmi_stack_top[];

#define VEC_NMI		 2
#define VEC_DOUBLE_FAULT 8

/* read by entry.S */
struct regs *cur_frame;
hw_u64_packed *const hw_tss_rsp0 = &hw_tss.rsp0;

/* This CPU's copies of state whose writes cost more than a compare (hw.h) */
uint64_t hw_fs_loaded;

static void
load_gdt(void)
{
	uint64_t base = (uint64_t) &hw_tss, lim = sizeof(hw_tss) - 1;
	struct {
		uint16_t lim;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(gdt) - 1, (uint64_t) gdt };

	gdt[0] = 0;
	gdt[1] = 0x00209a0000000000ull; /* kernel code, long mode */
	gdt[2] = 0x0000920000000000ull; /* kernel data */
	gdt[3] = 0x0000f20000000000ull; /* user data (DPL 3) */
	gdt[4] = 0x0020fa0000000000ull; /* user code, long mode (DPL 3) */
	gdt[5] = (lim & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) |
		 (((lim >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;
	hw_tss.iomap_base = sizeof(hw_tss);	  /* no I/O bitmap: user mode has no port access */
	hw_tss.ist[0] = (uint64_t) df_stack_top;  /* IST 1: double faults (entry.S) */
	hw_tss.ist[1] = (uint64_t) nmi_stack_top; /* IST 2: NMIs (entry.S) */
	__asm__ volatile("lgdt %0" : : "m"(ptr));
	__asm__ volatile("ltr %w0" : : "r"(TSS_SEL));
}

/* The TSS stack a vector runs on (0: where it lands): a double fault and an NMI each on its
 * own, as either may come where the kernel's stack is not to be trusted. */
static uint8_t
ist_of(int vec)
{
	return vec == VEC_DOUBLE_FAULT ? 1 : vec == VEC_NMI ? 2 : 0;
}

static void
load_idt(void)
{
	struct {
		uint16_t lim;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(idt) - 1, (uint64_t) idt };

	for (int i = 0; i < HW_VECTORS; i++) {
		uint64_t off = vec_table[i];
		idt[i] = (struct gate){ .off_lo = (uint16_t) off,
					.sel = KCODE_SEL,
					.ist = ist_of(i),
					.type = 0x8e, /* present, DPL 0, interrupt gate */
					.off_mid = (uint16_t) (off >> 16),
					.off_hi = (uint32_t) (off >> 32),
					.resv = 0 };
	}
	__asm__ volatile("lidt %0" : : "m"(ptr));
}

static struct hw_fpu clean_fpu;

static void
fpu_init(void)
{
	uint64_t cr0, cr4;

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 & ~(1ull << 2)) | (1ull << 1); /* no x87 emulation, monitor coprocessor */
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= (1ull << 9) | (1ull << 10); /* OSFXSR, OSXMMEXCPT: SSE for user mode */
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4));
	__asm__ volatile("fninit");
	hw_fpu_save(&clean_fpu);
}

void
hw_fpu_save(struct hw_fpu *f)
{
	__asm__ volatile("fxsave64 %0" : "=m"(*f));
}

void
hw_fpu_restore(const struct hw_fpu *f)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(*f));
}

/* CR0.TS as we last wrote it: a switch writes CR0 only when it changes */
int hw_ts_set;

void
hw_fpu_clean(struct hw_fpu *f)
{
	*f = clean_fpu;
}

/* SMEP, where the CPU has it: the kernel can then never execute a page of the user half
 * (the kernel half is W^X already, paging.c).  QEMU's default TCG CPU lacks it. */
static void
smep_init(void)
{
	uint32_t r[4];

	cpuid(7, 0, r);
	if (r[1] & (1u << 7))
		write_cr4(read_cr4() | (1ull << 20));
}

void
hw_cpu_init(void)
{
	fpu_init();
	smep_init();
	pt_tlb_init();
	load_gdt();
	load_idt();
	wrmsr(MSR_STAR, ((uint64_t) KDATA_SEL << 48) | ((uint64_t) KCODE_SEL << 32));
	wrmsr(MSR_LSTAR, (uint64_t) syscall_entry);
	/* every flag user code can set and the kernel must not run with: TF (single-step
	 * the kernel), IF (interrupts in the kernel), DF (string copies run backwards), AC,
	 * NT (an iretq with NT set raises #GP in long mode) and IOPL */
	wrmsr(MSR_SFMASK, HW_RFLAGS_TF | HW_RFLAGS_IF | HW_RFLAGS_DF | HW_RFLAGS_IOPL |
				  HW_RFLAGS_NT | HW_RFLAGS_AC);
}

void
hw_frame_init_user(struct regs *r, uint64_t ip, uint64_t sp)
{
	*r = (struct regs){ 0 };
	r->vector = VEC_SYSCALL;
	r->rip = ip;
	r->rsp = sp;
	r->cs = UCODE_SEL;
	r->ss = UDATA_SEL;
	r->rflags = HW_USER_RFLAGS;
}

extern void ret_to_user(void);

_Noreturn void
hw_ret_to_user(void)
{
	__asm__ volatile("jmp ret_to_user");
	__builtin_unreachable();
}

_Noreturn void
hw_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* QEMU's isa-debug-exit at 0xf4 turns code into exit status (code << 1) | 1. */
_Noreturn void
hw_poweroff(int code)
{
	outl(0xf4, (uint32_t) code);
	outw(0x604, 0x2000); /* QEMU ACPI power-off, for machines without isa-debug-exit */
	hw_halt();
}
