/*
 * asm.h - constants shared by the assembly entry code and C (segment selectors and the
 * layout of struct regs).  cpu.c checks the C layout against these offsets.
 */
#ifndef ARCH_ASM_H
#define ARCH_ASM_H

#define KCODE_SEL 0x08
#define KDATA_SEL 0x10
#define UDATA_SEL 0x1b /* 0x18 | RPL 3 */
#define UCODE_SEL 0x23 /* 0x20 | RPL 3 */
#define TSS_SEL	  0x28

/* struct regs: general registers pushed by the stubs, then the hardware frame. */
#define R_R15	 0
#define R_R14	 8
#define R_R13	 16
#define R_R12	 24
#define R_R11	 32
#define R_R10	 40
#define R_R9	 48
#define R_R8	 56
#define R_RBP	 64
#define R_RDI	 72
#define R_RSI	 80
#define R_RDX	 88
#define R_RCX	 96
#define R_RBX	 104
#define R_RAX	 112
#define R_VECTOR 120
#define R_ERR	 128
#define R_RIP	 136
#define R_CS	 144
#define R_RFLAGS 152
#define R_RSP	 160
#define R_SS	 168
#define R_SIZE	 176

/* the TSS's rsp0 (cpu.c: hw_tss), where an interrupt from user mode saves its frame:
 * always the end of the current thread's, where the syscall entry saves one too */
#define TSS_RSP0 4

/* vector value that marks a frame saved by the syscall instruction (sysret-able) */
#define VEC_SYSCALL 256

/*
 * RFLAGS bits.  HW_RFLAGS_USER are the ones a user frame may carry back to user mode
 * (arithmetic flags, TF, IF, DF, NT, RF, AC, ID); ret_to_user clears every other bit
 * (IOPL above all) and sets IF and the always-one bit 1.
 */
#define HW_RFLAGS_TF	0x100
#define HW_RFLAGS_IF	0x200
#define HW_RFLAGS_DF	0x400
#define HW_RFLAGS_IOPL	0x3000
#define HW_RFLAGS_NT	0x4000
#define HW_RFLAGS_AC	0x40000
#define HW_RFLAGS_USER	0x254fd7
#define HW_RFLAGS_FORCE 0x202

/* the FS base MSR, and the PCID bits of CR3 (HW_PCIDS - 1) */
#define MSR_FS_BASE 0xc0000100
#define PCID_MASK   0xfff

/* first address past the user half (HR_VA_USER_END): never returned to */
#define USER_END 0x0000800000000000

#define KERNEL_VMA 0xffffffff80000000
#define KDIRECT	   0xffff800000000000

#endif
