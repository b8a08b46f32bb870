/*
 * regs.S - the register-level half of invregs (main.c): what a failing system call leaves
 * in the registers (a fast path that declines must change nothing), what hr_invoke keeps
 * for its C caller whatever the callee does, and a callee that does its worst.  Register i
 * of a case holds PAT + i going in.
 */
#include "kernel/abi/hr_syscall.h"
#include "subsystems/regpat.inc"

	.text
/*
 * long regs_raw(long nr, long a0, long a1, long a2, long flags, uint64_t *changed): system
 * call nr with arguments a0..a2 in rdi, rsi, rdx, PAT + i in r10, r8, r9 and in rbx, rbp,
 * r12..r15, and DF and AC set if flags is 1; returns rax.  *changed gets bit i for each of
 * those registers (0..5: rdi, rsi, rdx, r10, r8, r9; 6..11: rbx, rbp, r12..r15) that came
 * back other than it went, and bit 12 if DF or AC did.  Only failing calls keep them all.
 */
	.globl regs_raw
regs_raw:
	SAVE_CALLEE_SAVED
	push	%r9				/* changed */
	push	%r8				/* flags */
	mov	%rdi, %rax
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	mov	%rcx, %rdx
	push	%rdi				/* a0..a2, as they went */
	push	%rsi
	push	%rdx
	movabs	$PAT + 3, %r10
	movabs	$PAT + 4, %r8
	movabs	$PAT + 5, %r9
	FILL_CALLEE_SAVED
	cmpq	$1, 24(%rsp)
	jne	2f
	pushf
	orq	$RFLAGS_DF | RFLAGS_AC, (%rsp)
	popf
2:	syscall
	pushf					/* what came back, with DF and AC clear again */
	pop	%rcx
	and	$RFLAGS_DF | RFLAGS_AC, %ecx
	cld
	pushf
	andq	$~RFLAGS_AC, (%rsp)
	popf
	xor	%r11d, %r11d
	cmp	24(%rsp), %r11			/* flags 1: they must stay set */
	je	3f
	xor	$RFLAGS_DF | RFLAGS_AC, %ecx
3:	test	%ecx, %ecx
	mov	$0, %ecx
	jz	4f
	bts	$12, %rcx
4:	cmp	16(%rsp), %rdi
	je	5f
	bts	$0, %rcx
5:	cmp	8(%rsp), %rsi
	je	6f
	bts	$1, %rcx
6:	cmp	(%rsp), %rdx
	je	7f
	bts	$2, %rcx
7:	CHECK	%r10, 3
	CHECK	%r8, 4
	CHECK	%r9, 5
	CHECK_CALLEE_SAVED
	add	$32, %rsp
	pop	%r9
	mov	%rcx, (%r9)
	RESTORE_CALLEE_SAVED
	ret

/*
 * long regs_guarded(long cap, long op, long a1, uint64_t *changed): hr_invoke(cap, op, a1,
 * 0, 0), as the compiler builds it into a C caller (main.c: regs_invoke), with PAT + i in
 * rbx, rbp, r12..r15 (i = 6..11) and in a word on our stack (i = 12); returns what it
 * returns.  *changed gets bit i for each that did not survive, and bit 13 if DF came back
 * set.
 */
	.globl regs_guarded
regs_guarded:
	SAVE_CALLEE_SAVED
	push	%rcx				/* changed */
	movabs	$PAT + 12, %rax
	push	%rax
	FILL_CALLEE_SAVED
	call	regs_invoke
	xor	%ecx, %ecx
	CHECK_CALLEE_SAVED
	CHECK	(%rsp), 12
	pushf
	pop	%r11
	test	$RFLAGS_DF, %r11d
	jz	1f
	bts	$13, %rcx
	cld
1:	add	$8, %rsp
	pop	%r11
	mov	%rcx, (%r11)
	RESTORE_CALLEE_SAVED
	ret

/*
 * An exported operation (export.h) that returns a1 + 1 through the ret system call itself,
 * with every other register, xmm0..xmm15, rsp and FS clobbered and DF and AC set: what an
 * untrusted callee may do to the caller it returns to.
 */
	.globl regs_clobber
regs_clobber:
	lea	1(%rdi), %rdi
	.irp	x, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	pcmpeqd	%xmm\x, %xmm\x
	.endr
	pushf
	orq	$RFLAGS_DF | RFLAGS_AC, (%rsp)
	popf
	xor	%eax, %eax
	mov	%eax, %fs			/* FS base 0 (the selector's) */
	movabs	$0xbad0bad0bad0bad0, %rax
	mov	%rax, %rbx
	mov	%rax, %rcx
	mov	%rax, %rdx
	mov	%rax, %rsi
	mov	%rax, %rbp
	mov	%rax, %r8
	mov	%rax, %r9
	mov	%rax, %r10
	mov	%rax, %r11
	mov	%rax, %r12
	mov	%rax, %r13
	mov	%rax, %r14
	mov	%rax, %r15
	mov	%rax, %rsp
	mov	$HR_SYSNO_RET, %eax
	syscall
	ud2

/*
 * long regs_given(long cap, long op, uint64_t *changed): invoke cap with op through the
 * system call itself, the callee being regs_give; returns rax.  *changed gets bit i for
 * each of rdi, rsi, rdx, r10, r8, r9, rbx, rbp, r12..r15 (i = 0..11) that did not come
 * back as PAT + i, the callee's: a caller gets the callee's registers but for rax (the
 * value, PAT + 0 too), rcx and r11.
 */
	.globl regs_given
regs_given:
	SAVE_CALLEE_SAVED
	push	%rdx				/* changed */
	mov	$HR_SYSNO_INVOKE, %eax		/* cap and op are where they go */
	syscall
	xor	%ecx, %ecx
	movabs	$PAT + 0, %r11
	cmp	%r11, %rax
	je	1f
	bts	$0, %rcx
1:	CHECK	%rdi, 0
	CHECK	%rsi, 1
	CHECK	%rdx, 2
	CHECK	%r10, 3
	CHECK	%r8, 4
	CHECK	%r9, 5
	CHECK_CALLEE_SAVED
	pop	%r11
	mov	%rcx, (%r11)
	RESTORE_CALLEE_SAVED
	ret

/* An exported operation that returns PAT + 0 through the ret system call itself, with
 * PAT + i in rdi, rsi, rdx, r10, r8, r9, rbx, rbp, r12..r15. */
	.globl regs_give
regs_give:
	movabs	$PAT + 0, %rdi
	movabs	$PAT + 1, %rsi
	movabs	$PAT + 2, %rdx
	movabs	$PAT + 3, %r10
	movabs	$PAT + 4, %r8
	movabs	$PAT + 5, %r9
	FILL_CALLEE_SAVED
	mov	$HR_SYSNO_RET, %eax
	syscall
	ud2

/* An exported operation that returns a bit i for each of rbx, r12..r15 (i = 6, 8..11) not
 * holding PAT + i: what the caller had there, as regs_raw leaves them (rbp is the entry
 * stub's). */
	.globl regs_seen
regs_seen:
	xor	%ecx, %ecx
	CHECK	%rbx, 6
	CHECK	%r12, 8
	CHECK	%r13, 9
	CHECK	%r14, 10
	CHECK	%r15, 11
	mov	%rcx, %rax
	ret

/* An exported operation that returns the flags it starts with. */
	.globl regs_flags
regs_flags:
	pushf
	pop	%rax
	ret

	.section .note.GNU-stack, "", @progbits
