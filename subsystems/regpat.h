/*
 * regpat.h - assembly macros of the register-level tests (subsystems/invregs/regs.S: the
 * invocation fast path; subsystems/threads/switch.S: thd_switch).  A case fills register
 * i with a pattern plus i, makes its call, and sets bit i of rcx for each register that
 * came back holding something else (r11 is the checks' scratch).
 */
#ifndef SUBSYSTEMS_REGPAT_H
#define SUBSYSTEMS_REGPAT_H

#define PAT	  0x5a5a000000000000 /* the pattern, unless a case names another */
#define RFLAGS_DF 0x400
#define RFLAGS_AC 0x40000

/* \reg holds \pat + \i, or bit \i of rcx is set */
.macro CHECK reg, i, pat=PAT
	movabs	$\pat + \i, %r11
	cmp	%r11, \reg
	je	1f
	bts	$\i, %rcx
1:
.endm

/* The C caller's callee-saved registers, kept on our stack around a case. */
.macro SAVE_CALLEE_SAVED
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
.endm

.macro RESTORE_CALLEE_SAVED
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
.endm

/* \pat + i in rbx, rbp, r12..r15 (i = 6..11) */
.macro FILL_CALLEE_SAVED pat=PAT
	movabs	$\pat + 6, %rbx
	movabs	$\pat + 7, %rbp
	movabs	$\pat + 8, %r12
	movabs	$\pat + 9, %r13
	movabs	$\pat + 10, %r14
	movabs	$\pat + 11, %r15
.endm

/* bit i of rcx for each of rbx, rbp, r12..r15 (i = 6..11) not holding \pat + i */
.macro CHECK_CALLEE_SAVED pat=PAT
	CHECK	%rbx, 6, \pat
	CHECK	%rbp, 7, \pat
	CHECK	%r12, 8, \pat
	CHECK	%r13, 9, \pat
	CHECK	%r14, 10, \pat
	CHECK	%r15, 11, \pat
.endm

#endif
