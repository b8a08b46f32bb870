/*
 * entry.S - every way into and out of the kernel.
 *
 * User state is saved straight into the current thread's struct regs: the syscall path
 * pushes onto its end, and interrupts from user mode arrive there too (TSS.rsp0, which
 * the syscall path reads).  Switching threads therefore copies no registers: C code changes
 * cur_frame and ret_to_user restores whatever frame is current.  The kernel itself runs on
 * one stack (kstack) with interrupts disabled; it is never preempted (a preemption point,
 * trap.h, lets an interrupt in only to note it for the path to handle when it stops).
 */
#include "asm.h"
#include "../../abi/hr_syscall.h"

	.text
	.code64

/* The general registers of struct regs (kernel/arch/x86_64/hw.h), pushed from rax down to r15
 * (its first field): saved on the way in and restored on the way out by every path, so the
 * frame has one layout. */
.macro SAVE_GPRS
	push	%rax
	push	%rbx
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	push	%rbp
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%r12
	push	%r13
	push	%r14
	push	%r15
.endm

.macro RESTORE_GPRS
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rbp
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%rbx
	pop	%rax
.endm

/* ---- syscall ------------------------------------------------------------------------- */
/*
 * invoke and ret try their fast path (fastpath.S) first, before any register is saved:
 * the thread goes on running, in another component, so nothing of it needs to be in its
 * frame.  A fast path that declines puts back the registers the user left and comes back
 * to syscall_full.  thd_switch goes to its own (fastpath.S: fast_switch), which saves the
 * registers the call keeps (docs/ABI.md) and, when it declines, dispatches that frame.
 */
	.globl syscall_entry
syscall_entry:
	cmp	$HR_SYSNO_INVOKE, %eax
	je	fast_invoke
	cmp	$HR_SYSNO_RET, %eax
	je	fast_ret
	cmp	$HR_SYSNO_THD_SWITCH, %eax
	je	fast_switch
	.globl syscall_full
syscall_full:
	mov	%rsp, user_rsp_scratch(%rip)
	mov	hw_tss + TSS_RSP0(%rip), %rsp
	pushq	$UDATA_SEL
	pushq	user_rsp_scratch(%rip)
	push	%r11                              /* rflags */
	pushq	$UCODE_SEL
	push	%rcx                              /* rip */
	pushq	$0
	pushq	$VEC_SYSCALL
	SAVE_GPRS
	mov	%rsp, %rdi
	lea	kstack_top(%rip), %rsp
	call	syscall_dispatch
	/* fall through */

/* ---- return to whatever thread is current ------------------------------------------ */
	.globl ret_to_user
ret_to_user:
	mov	cur_frame(%rip), %rsp
	/*
	 * Never return to an address outside the user half: sysret to a non-canonical rip
	 * raises #GP in ring 0 on Intel CPUs with the user's stack already loaded
	 * (CVE-2012-0217), and iretq faults in ring 0 on any CPU.  A thread can get there by
	 * a syscall in the last bytes of the user half; it faults instead, as if its next
	 * instruction had.  rax is scratch until it is popped below.
	 */
	movabs	$USER_END, %rax
	cmp	%rax, R_RIP(%rsp)
	jae	bad_return
	/* only flags user code may own go back (IOPL never), and interrupts are on */
	andq	$HW_RFLAGS_USER, R_RFLAGS(%rsp)
	orq	$HW_RFLAGS_FORCE, R_RFLAGS(%rsp)
	cmpq	$VEC_SYSCALL, R_VECTOR(%rsp)
	jne	1f
	/* a syscall frame: the cheap sysret path, which takes rip and rflags in rcx and r11
	 * (so their own slots are not read) */
	mov	R_R15(%rsp), %r15
	mov	R_R14(%rsp), %r14
	mov	R_R13(%rsp), %r13
	mov	R_R12(%rsp), %r12
	mov	R_R10(%rsp), %r10
	mov	R_R9(%rsp), %r9
	mov	R_R8(%rsp), %r8
	mov	R_RBP(%rsp), %rbp
	mov	R_RDI(%rsp), %rdi
	mov	R_RSI(%rsp), %rsi
	mov	R_RDX(%rsp), %rdx
	mov	R_RBX(%rsp), %rbx
	mov	R_RAX(%rsp), %rax
	mov	R_RIP(%rsp), %rcx                 /* in the user half: checked above */
	mov	R_RFLAGS(%rsp), %r11
	mov	R_RSP(%rsp), %rsp
	sysretq
1:	RESTORE_GPRS
	add	$16, %rsp                         /* vector, error code */
	iretq

bad_return:
	lea	kstack_top(%rip), %rsp
	call	trap_bad_return
	jmp	ret_to_user

/* ---- interrupts and exceptions -------------------------------------------------------- */
.macro STUB vec, has_err
	.globl vec_\vec
vec_\vec:
	.if \has_err == 0
	pushq	$0
	.endif
	pushq	$\vec
	jmp	trap_common
.endm

/*
 * NMI (vector 2), on its own stack (TSS IST 2: cpu.c) wherever it lands: in user mode, in
 * the idle loop, or in the kernel where rsp is not a kernel stack (the syscall entry's
 * first instructions, the fast paths' use of rsp as a scratch register).  trap_nmi changes
 * nothing but a count, so the frame is not the thread's and the stub returns to exactly
 * where it came from; NMIs are held off until that iretq.
 */
.macro NMI_STUB
	.globl vec_2
vec_2:
	pushq	$0
	pushq	$2
	SAVE_GPRS
	cld
	mov	%rsp, %rdi
	call	trap_nmi
	RESTORE_GPRS
	add	$16, %rsp
	iretq
.endm

.altmacro
.macro STUBS from, to
	.if \from == 2
	NMI_STUB
	.elseif \from == 8 || \from == 10 || \from == 11 || \from == 12 || \from == 13 || \from == 14 || \from == 17 || \from == 21 || \from == 29 || \from == 30
	STUB \from, 1
	.else
	STUB \from, 0
	.endif
	.if \to - \from
	STUBS %(\from + 1), \to
	.endif
.endm
	STUBS 0, 63

trap_common:
	cld                                       /* user code may set DF; C expects it clear */
	SAVE_GPRS
	mov	%rsp, %rdi
	testb	$3, R_CS(%rsp)
	jz	2f
	lea	kstack_top(%rip), %rsp            /* from user: frame is in the thread */
	call	trap
	jmp	ret_to_user
2:	/* from kernel mode (the idle loop, or a preemption point: trap.h): stay on this stack */
	mov	%rsp, %rbx
	and	$-16, %rsp
	call	trap_kernel
	mov	%rbx, %rsp
	RESTORE_GPRS
	add	$16, %rsp
	iretq

/*
 * hw_idle: wait for interrupts with an empty kernel stack.  Interrupt handlers running
 * from here may make a thread current (cur_frame != 0); then we return to it.
 */
	.globl hw_idle
hw_idle:
	lea	kstack_top(%rip), %rsp
	movq	$0, cur_frame(%rip)
	/*
	 * rdtsc: nothing for the hardware, but under QEMU's -icount (the figures' clock) a halt
	 * that no I/O instruction preceded since the deadline was set could take the deadline
	 * interrupt late by about the instructions run in between (seen: 1960 in one timer
	 * sample in ten runs at depth 16, after idle_up's walk, with the APIC counting exactly;
	 * never in 30 runs with it).  Reading the clock makes QEMU account for them first.
	 */
1:	rdtsc
	sti
	hlt
	cli
	cmpq	$0, cur_frame(%rip)
	je	1b
	jmp	ret_to_user

/* Address table of the stubs, for cpu.c. */
	.section .rodata
	.balign 8
	.globl vec_table
.macro VADDR n
	.quad vec_\n
.endm
vec_table:
.set i, 0
.rept 64
	VADDR %i
	.set i, i + 1
.endr

	.bss
	.balign 16
user_rsp_scratch:
	.skip 8
	/* the kernel stack sits above a guard page paging.c leaves unmapped: an overflow
	 * faults, and the double fault that follows runs on df_stack (TSS IST 1) and panics,
	 * instead of writing over whatever lies below */
	.balign 4096
	.globl kstack_guard
kstack_guard:
	.skip 4096
	.globl kstack
kstack:
	.skip 16384
	.globl kstack_top
kstack_top:
	.balign 16
df_stack:
	.skip 4096
	.globl df_stack_top
df_stack_top:
nmi_stack:
	.skip 4096
	.globl nmi_stack_top
nmi_stack_top:

	.section .note.GNU-stack, "", @progbits
