/*
 * switch.S - thd_switch at the register level (main.c: switch_regs_task): what the call
 * keeps for its caller is what a C call keeps (docs/ABI.md), as the kernel's fast switch
 * saves no more (kernel/arch/x86_64/fastpath.S), and nothing of another thread comes back
 * in the registers it does not keep.  Two threads switch back and forth, each holding its
 * own pattern in every register and its own DF and AC.
 */
#include "kernel/abi/hr_syscall.h"
#include "subsystems/regpat.inc"

#define OTHER 0x3c3c000000000000 /* switch_other's pattern; switch_regs's is PAT */

/* bit 13 of rcx if \reg holds one of switch_other's values (OTHER's top 16 bits) */
.macro NOT_OTHERS reg
	mov	\reg, %r11
	shr	$48, %r11
	cmp	$OTHER >> 48, %r11
	jne	1f
	bts	$13, %rcx
1:
.endm

	.text
/*
 * long switch_regs(long thd, long flags, uint64_t *changed): thd_switch(thd, flags, 0)
 * with PAT + i in rbx, rbp, r12..r15 (i = 6..11) and in r8..r10 (3..5), and DF and AC
 * set; returns rax.  *changed gets bit i for each of rbx, rbp, r12..r15 that came back
 * other than it went, bit 12 if DF or AC did, and bit 13 if one of the registers the call
 * does not keep (rdi, rsi, rdx, r8..r10) came back holding switch_other's pattern.
 */
	.globl switch_regs
switch_regs:
	SAVE_CALLEE_SAVED
	push	%rdx				/* changed */
	movabs	$PAT + 3, %r10
	movabs	$PAT + 4, %r8
	movabs	$PAT + 5, %r9
	FILL_CALLEE_SAVED
	xor	%edx, %edx
	pushf
	orq	$RFLAGS_DF | RFLAGS_AC, (%rsp)
	popf
	mov	$HR_SYSNO_THD_SWITCH, %eax
	syscall
	pushf					/* what came back, with DF and AC clear again */
	pop	%rcx
	and	$RFLAGS_DF | RFLAGS_AC, %ecx
	cld
	pushf
	andq	$~RFLAGS_AC, (%rsp)
	popf
	cmp	$RFLAGS_DF | RFLAGS_AC, %ecx
	mov	$0, %ecx
	je	2f
	bts	$12, %rcx
2:	CHECK_CALLEE_SAVED
	NOT_OTHERS %rdi
	NOT_OTHERS %rsi
	NOT_OTHERS %rdx
	NOT_OTHERS %r8
	NOT_OTHERS %r9
	NOT_OTHERS %r10
	pop	%r11
	mov	%rcx, (%r11)
	RESTORE_CALLEE_SAVED
	ret

/*
 * void switch_other(void *arg): a thread's function.  Until switch_stop is set, it switches
 * back to switch_main with OTHER + i in every register but rsp (and the arguments), DF
 * and AC clear; each time it comes back, switch_other_changed gets bits as switch_regs's
 * *changed for its own registers (bit 12: DF or AC came back set).
 */
	.globl switch_other
switch_other:
	SAVE_CALLEE_SAVED
1:	cmpl	$0, switch_stop(%rip)
	jne	3f
	FILL_CALLEE_SAVED OTHER
	movabs	$OTHER + 3, %r10
	movabs	$OTHER + 4, %r8
	movabs	$OTHER + 5, %r9
	mov	switch_main(%rip), %rdi
	xor	%esi, %esi
	movabs	$OTHER + 2, %rdx		/* tsc: read only with HR_SW_TIMER */
	mov	$HR_SYSNO_THD_SWITCH, %eax
	syscall
	pushf
	pop	%rcx
	and	$RFLAGS_DF | RFLAGS_AC, %ecx
	jz	2f
	mov	$1 << 12, %ecx
2:	CHECK_CALLEE_SAVED OTHER
	or	%rcx, switch_other_changed(%rip)
	jmp	1b
3:	RESTORE_CALLEE_SAVED
	ret

	.section .note.GNU-stack, "", @progbits
