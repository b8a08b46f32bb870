/*
 * fastpath.S - invoke and ret in their common case (kernel/fastpath.h), entered from
 * syscall_entry (entry.S) with the user's registers and left by sysret.
 *
 * Each checks everything the full path (kernel/invoke.c: sys_invoke; sys_ret and
 * thd_unwind in kernel/thd.c) would check, but what cannot fail here (each said where it
 * is left out), changing nothing until all have passed, and then does exactly what it
 * would do.  Anything unusual declines: the registers are put back as the user left them
 * and syscall_full runs the full path, which gives the error or does the unusual thing.
 * What each leaves to it:
 *  - invoke: a slot that is not an invocation capability, a callee that is not live or has
 *    no free stack, a caller at its stack quota, an invocation stack that is full, a thread
 *    the callee's scheduler may not run.
 *  - ret: no invocation to return from, a callee or caller that ended meanwhile (the full
 *    path unwinds further, or frees the thread), a return address outside the user half.
 *
 * Nothing is saved on the kernel stack: the thread goes on running, in another component,
 * so the registers go straight from one side to the other.  Interrupts are off (the
 * syscall mask), and the kernel never nests, so a few words of .bss hold the values that
 * must outlive the registers they arrived in.  The layout of the C structures comes from
 * fastpath.h, checked against them in fastpath.c.
 */
#include "asm.h"
#include "../../fastpath.h"
#include "../../abi/hr_syscall.h"

	.text
	.code64

/*
 * hw_set_space (hw.h): run in page table rax with FS base rdx.  rax, rcx and rdx are
 * clobbered (wrmsr takes the base in edx:eax).  The unusual cases (the same table, PCIDs)
 * are out of line, in subsection 1.
 */
.macro SET_SPACE
	mov	%cr3, %rcx
	cmp	%rax, %rcx
	je	83f
	cmpq	$0, hw_cr3_noflush(%rip)
	jne	84f
81:	mov	%rax, %cr3
82:	mov	%rdx, hw_fs_loaded(%rip)          /* another table: never trust the base left */
	mov	%rdx, %rax
	shr	$32, %rdx
	mov	$MSR_FS_BASE, %ecx
	wrmsr
	.subsection 1
83:	cmp	%rdx, hw_fs_loaded(%rip)          /* the same table: write the base if it changed */
	jne	82b
	jmp	85f
84:	mov	%rax, %rcx                        /* PCIDs: cr3 |= hw_cr3_keep[pcid], which turns */
	and	$PCID_MASK, %ecx                  /* into the no-flush bit for the next load */
	or	hw_cr3_keep(,%rcx,8), %rax
	mov	%rdx, fp_scratch(%rip)
	mov	hw_cr3_noflush(%rip), %rdx
	mov	%rdx, hw_cr3_keep(,%rcx,8)
	mov	fp_scratch(%rip), %rdx
	jmp	81b
	.subsection 0
85:
.endm

/*
 * thd_fpu_settle (thd.h) for thread rax: out of line when rax does not own the FPU
 * registers.  thd_fpu_claim keeps every register (no_caller_saved_registers); it needs a
 * stack and its argument in rdi.
 */
.macro FPU_SETTLE
	cmp	%rax, fpu_owner(%rip)
	jne	86f
87:
	.subsection 1
86:	mov	%rsp, fp_rsp(%rip)
	mov	%rdi, fp_scratch(%rip)
	lea	kstack_top(%rip), %rsp
	mov	%rax, %rdi
	call	thd_fpu_claim
	mov	fp_scratch(%rip), %rdi
	mov	fp_rsp(%rip), %rsp
	jmp	87b
	.subsection 0
.endm

/* ---- invoke: cap=rdi a0=rsi a1=rdx a2=r10 a3=r8, rip=rcx rflags=r11 ------------------ */
/*
 * The checks use rax, rcx, r9 and r11 (r9 and r11 saved) and the user's rsp, stored with
 * its rip in the frame about to be pushed (t->inv[t->ninv], no one's yet, so writing it
 * changes nothing); rdi becomes slot * 16 in place.  A decline undoes exactly that.
 */
#define F(x) T_INV + x(%rax,%r9,8)
	.globl fast_invoke
fast_invoke:
	mov	%r9, fp_r9(%rip)
	mov	cur(%rip), %rax                   /* t */
	movzbl	T_NINV(%rax), %r9d
	cmp	$FP_INV_MAX, %r9d
	je	inv_decline_r9
	mov	%r11, fp_r11(%rip)
	lea	(%r9,%r9,4), %r9                  /* t->inv[t->ninv] is F(x) = T_INV + x(%rax,%r9,8) */
	mov	%rcx, F(IV_RIP)
	mov	%rsp, F(IV_RSP)
	mov	T_FS(%rax), %r11
	mov	%r11, F(IV_FS)
	mov	T_COMP_GEN(%rax), %r11d
	mov	%r11d, F(IV_GEN)
	mov	T_COMP(%rax), %rcx                /* the caller */
	mov	%rcx, F(IV_COMP)
	cmp	$HR_CAP_MAX - 1, %rdi             /* slot 0 (HR_CAP_SELF) holds no capability */
	ja	inv_decline_frame
	shl	$4, %rdi                          /* the capability: C_CAPS(%rcx,%rdi) */
	cmpb	$FP_CAP_INVOKE, C_CAPS + CP_TYPE(%rcx,%rdi)
	jne	inv_decline_cap
	movzwl	C_CAPS + CP_COMP(%rcx,%rdi), %r11d
	imul	$C_SIZE, %r11, %r11
	lea	comps(%r11), %r11                 /* c, the callee */
	cmpb	$HR_CS_LIVE, C_STATE(%r11)
	jne	inv_decline_cap
	bsf	C_STK_FREE(%r11), %rsp            /* a free stack (and so an entry: comp.h) */
	jz	inv_decline_cap
	mov	%esp, F(IV_STK)
	mov	C_SUB(%r11), %rsp                 /* schedtree_sees(c->sub, t); never NULL */
	cmpb	$0, C_IS_SCHED(%rsp)
	je	inv_decline_cap
	movzbl	C_DEPTH(%rsp), %r9d
	cmp	%r9b, T_DEPTH(%rax)
	jb	inv_decline_cap
	cmp	%rsp, T_CHAIN(%rax,%r9,8)
	jne	inv_decline_cap
	cmpb	$0, C_STK_QUOTA(%r11)
	jne	inv_quota
inv_gen:                                          /* last: esp is c's gen for t->comp_gen */
	mov	C_CAPS + CP_GEN(%rcx,%rdi), %esp
	cmp	%esp, C_GEN(%r11)
	jne	inv_decline_cap
	/* decided.  The callee's arguments, each moved once (invoke.c): (a1, a2, a3, badge,
	 * caller, a0) in rdi, rsi, rdx, r10, r8, r9; a3 waits until wrmsr is done with rdx */
	mov	%rsi, %r9
	mov	%r10, %rsi
	mov	C_CAPS + CP_BADGE(%rcx,%rdi), %r10
	mov	%rdx, %rdi
	mov	%r8, fp_a3(%rip)
	/* push the frame filled in above: t runs in c now */
	incb	T_NINV(%rax)
	mov	%r11, T_COMP(%rax)
	mov	%esp, T_COMP_GEN(%rax)
	/* take c's first free stack, one more held by the caller */
	movzwl	C_ID(%rcx), %r8d
	incb	C_STK_HELD(%r11,%r8)
	bsf	C_STK_FREE(%r11), %rdx
	btr	%rdx, C_STK_FREE(%r11)
	imul	C_STK_STRIDE(%r11), %rdx
	mov	C_STK_SP0(%r11), %rsp
	add	%rdx, %rsp                        /* the callee's rsp: its stack's end */
	add	C_STK_FS0(%r11), %rdx             /* its FS base: its stack's TCB */
	mov	%rdx, T_FS(%rax)
	FPU_SETTLE
	mov	C_PGTBL(%r11), %rax
	SET_SPACE
	mov	fp_a3(%rip), %rdx
	mov	C_ENTRY(%r11), %rcx
	mov	cur(%rip), %rax
	movzwl	T_ID(%rax), %eax                  /* who runs there now */
	mov	$HW_RFLAGS_FORCE, %r11d           /* a thread's first flags, not the caller's */
	sysretq

	.subsection 1
inv_quota:                                        /* the caller may hold stk_quota stacks */
	movzwl	C_ID(%rcx), %esp
	movzbl	C_STK_HELD(%rsp,%r11), %esp
	cmp	C_STK_QUOTA(%r11), %spl
	jae	inv_decline_cap
	jmp	inv_gen
inv_decline_cap:
	shr	$4, %rdi
inv_decline_frame:                                /* rip and rsp back from the frame */
	mov	cur(%rip), %rax
	movzbl	T_NINV(%rax), %r9d
	lea	(%r9,%r9,4), %r9
	mov	F(IV_RIP), %rcx
	mov	F(IV_RSP), %rsp
	mov	fp_r11(%rip), %r11
inv_decline_r9:
	mov	fp_r9(%rip), %r9
	mov	$HR_SYSNO_INVOKE, %eax
	jmp	syscall_full
	.subsection 0
#undef F

/* ---- ret: value=rdi --------------------------------------------------------------------- */
/*
 * Once there is a frame to pop, the full path overwrites the rip, rsp and rflags this call
 * came with (thd_unwind) even when it unwinds further: rcx, r11 and rsp are scratch, and
 * a decline puts back rdx alone.  The caller gets the callee's registers but rax = value,
 * as from the full path.
 */
	.globl fast_ret
fast_ret:
	mov	cur(%rip), %rax                   /* t */
	cmpb	$0, T_NINV(%rax)
	je	ret_decline_rax
	mov	%rdx, fp_rdx(%rip)
	movzbl	T_NINV(%rax), %ecx
	lea	(%rcx,%rcx,4), %rcx
	lea	T_INV - IV_SIZE(%rax,%rcx,8), %r11 /* f = &t->inv[t->ninv - 1] */
	mov	T_COMP(%rax), %rdx                /* the callee */
	mov	T_COMP_GEN(%rax), %esp
	cmp	%esp, C_GEN(%rdx)
	jne	ret_decline
	mov	IV_COMP(%r11), %rcx               /* the caller */
	cmpb	$HR_CS_LIVE, C_STATE(%rcx)
	jne	ret_decline
	/*
	 * f->rip is where the system call that pushed f returns to (sys_invoke and
	 * fast_invoke are all that write it): past a user instruction, so in (0, USER_END].
	 * USER_END itself, after a syscall in the last bytes of the user half, goes to the
	 * full path (entry.S: ret_to_user, no sysret to it), and in that range it alone has
	 * this bit set (fastpath.c)
	 */
	btq	$FP_USER_END_BIT, IV_RIP(%r11)
	jc	ret_decline
	mov	IV_GEN(%r11), %esp
	cmp	%esp, C_GEN(%rcx)
	jne	ret_decline
	/* decided: thd_unwind.  t returns into the caller, and the stack goes back (stk is a
	 * bit index: never negative); the caller, alive and the one that took it, holds one
	 * fewer (at least one: comp.h) */
	mov	%esp, T_COMP_GEN(%rax)
	mov	%rcx, T_COMP(%rax)
	decb	T_NINV(%rax)
	mov	IV_STK(%r11), %esp
	bts	%rsp, C_STK_FREE(%rdx)
	movzwl	C_ID(%rcx), %esp
	decb	C_STK_HELD(%rsp,%rdx)
	mov	IV_FS(%r11), %rdx
	mov	%rdx, T_FS(%rax)
	FPU_SETTLE
	mov	C_PGTBL(%rcx), %rax
	SET_SPACE
	mov	IV_RSP(%r11), %rsp
	mov	IV_RIP(%r11), %rcx
	mov	fp_rdx(%rip), %rdx
	mov	$HW_RFLAGS_FORCE, %r11d           /* thd_unwind's rflags */
	mov	%rdi, %rax
	sysretq

	.subsection 1
ret_decline:
	mov	fp_rdx(%rip), %rdx
ret_decline_rax:
	mov	$HR_SYSNO_RET, %eax
	jmp	syscall_full
	.subsection 0

	.bss
	.balign 8
fp_r9:	.skip 8                                  /* invoke: the user's r9 and r11 */
fp_r11:	.skip 8
fp_a3:	.skip 8                                  /* invoke: a3, for rdx after wrmsr */
fp_rdx:	.skip 8                                  /* ret: the callee's rdx, the caller's now */
fp_scratch:
	.skip 8
fp_rsp:	.skip 8

	.section .note.GNU-stack, "", @progbits
