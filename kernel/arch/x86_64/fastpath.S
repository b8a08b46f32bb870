/*
 * fastpath.S - invoke, ret and thd_switch in their common case (kernel/fastpath.h),
 * entered from syscall_entry (entry.S) with the user's registers: invoke and ret left by
 * sysret, thd_switch by ret_to_user once it has saved what the call keeps (below).
 *
 * Each checks everything the full path (kernel/invoke.c: sys_invoke; sys_ret and
 * thd_unwind in kernel/thd.c) would check, but what cannot fail here (each said where it
 * is left out), changing nothing until all have passed, and then does exactly what it
 * would do.  Anything unusual declines: the registers are put back as the user left them
 * (thd_switch: stored in its frame) and the full path runs, which gives the error or does
 * the unusual thing.
 * What each leaves to it:
 *  - invoke: a slot that is not an invocation capability, a callee that is not live, is
 *    behind (comp.h: the full path catches its region up) or has no free stack, a caller
 *    at its stack quota, an invocation stack that is full, a thread the callee's scheduler
 *    may not run.
 *  - ret: no invocation to return from, a callee or caller that ended meanwhile (the full
 *    path unwinds further, or frees the thread), a caller behind, a return address outside
 *    the user half.
 *  - thd_switch: flags other than BLOCK, EVWAIT or TIMER, an EVWAIT that fails, a thread
 *    blocked by another level, a switch that is not from a thread of the caller's own to
 *    another or to a child subsystem's c^s (the full path's accounting closes every level
 *    where the two part), a pending PEVT, a waiting c^s when the caller has a record of
 *    a thread its activation preempted or the c^s's scheduler is on the path of a wake
 *    that did not get the CPU (either may run past it), the thread itself with any flag
 *    (TIMER alone, which arms the timer, or EINVAL), a thread with frames to pop first or
 *    in a component behind, tracing.  Its decline leaves r8 to r10 0, which the call does
 *    not keep (docs/ABI.md).
 *
 * invoke and ret save nothing, on the kernel stack or elsewhere: the thread goes on
 * running, in another component, so the registers go straight from one side to the
 * other.  Interrupts are off (the syscall mask), and the kernel never nests, so a few
 * words of .bss hold the values that must outlive the registers they arrived in.  The
 * layout of the C structures comes from fastpath.h, checked against them in fastpath.c.
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
.macro SET_SPACE who
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
\who\()_same_space:
83:	cmp	%rdx, hw_fs_loaded(%rip)          /* the same table: write the base if it changed */
	jne	82b
	jmp	85f
\who\()_pcid:
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
.macro FPU_SETTLE who
	cmp	%rax, fpu_owner(%rip)
	jne	86f
87:
	.subsection 1
\who\()_fpu_claim:
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

/*
 * The fast switch's body (below: fast_switch), flagged 0 for flags 0 and 1 for the others.
 * rdi, rsi and rdx stay as they came until every check has passed, for sw_decline.
 */
.macro SWITCH flagged
	.if \flagged
	mov	%rsi, %rax                        /* how: 0, BLOCK or EVWAIT (fastpath.c) */
	and	$~FP_SW_TIMER, %rax
	cmp	$FP_SW_EVWAIT, %rax
	ja	sw_decline
	mov	%rdx, %r12
	.endif
	cmp	fast_switch_max(%rip), %rdi       /* 0 is thds[0], never a thread: its state */
	ja	sw_decline                        /* (free) fails below; all, while tracing */
	imul	$T_SIZE, %rdi, %r8
	lea	thds(%r8), %r8
	mov	T_COMP(%r9), %r10
	cmpw	$1, C_IS_SCHED(%r10)              /* is_sched 1 and pevt 0 (fastpath.c) */
	jne	sw_decline
	/* t is s's own (the owner at a thread's depth is at that depth: k is s's depth too),
	 * and x is t itself (a yield: 90) or s's own or a child subsystem's (91) */
	movzbl	T_DEPTH(%r9), %r11d
	cmp	%r10, T_CHAIN(%r9,%r11,8)
	jne	sw_decline
	cmp	%r8, %r9
	.if \flagged
	je	sw_decline                        /* to itself: TIMER alone, or EINVAL */
	.else
	je	90f
	.endif
	movzbl	T_DEPTH(%r8), %ecx
	cmp	%r10, T_CHAIN(%r8,%rcx,8)
	jne	91f
92:	mov	T_COMP(%r8), %rbx                 /* no frames to pop first: thd_prepare */
	mov	T_COMP_GEN(%r8), %ebp
	cmp	%ebp, C_GEN(%rbx)
	jne	sw_decline
	cmpw	$HR_CS_LIVE, C_STATE(%rbx)        /* live, and not behind (comp.h) */
	jne	sw_decline
	.if \flagged
	test	$FP_SW_EVWAIT, %eax
	jnz	93f
	.endif
94:	cmpb	$FP_TS_READY, T_STATE(%r8)        /* the last check: x is ready, or (95) */
	jne	95f                               /* is made ready */

	/* decided: t's result, then each state change published to its owner */
96:	movq	$0, R_RAX(%r9)
	.if \flagged
	test	%eax, %eax
	jnz	97f
	.endif
	/* schedtree_account_down(t, s, x, k): now in rdx, the open levels' bits in eax.  First
	 * what is owed, and the wake notice to tell at x's depth (not any depth's: a subtree
	 * deep down leaves those of the levels above waiting for long) */
98:	cmpl	$0, schedtree_acct + A_NOWED(%rip)
	jne	99f
	bt	%ecx, schedtree_acct + A_WOKE_MASK(%rip)
	jc	99f
71:	rdtsc
	shl	$32, %rdx
	or	%rax, %rdx
	sub	schedtree_acct + A_STOLEN(%rip), %rdx
	mov	schedtree_acct + A_OPEN_MASK(%rip), %eax
	and	schedtree_upto(,%r11,4), %eax     /* schedtree_opened(k) */
	bsr	%eax, %edi
	mov	schedtree_acct + A_SINCE(,%rdi,8), %rdi
	movzwl	T_ID(%r9), %ebp
	shl	$5, %rbp                          /* struct hr_slot is 32 bytes */
	add	C_REGION(%r10), %rbp
	add	%rdx, RG_SLOT + SL_CONSUMED(%rbp) /* += now - opened */
	sub	%rdi, RG_SLOT + SL_CONSUMED(%rbp)
	mov	%rdx, schedtree_acct + A_SINCE(,%r11,8) /* schedtree_open(k): level k and, */
	bts	%r11d, %eax                       /* when x is a child's, x's level k + 1 */
	mov	%eax, schedtree_acct + A_OPEN_MASK(%rip)
	mov	%r8, cur(%rip)
	/* thd_enter(x): its FPU (thd.h: lazy within a component) */
	mov	fpu_owner(%rip), %rax
	cmp	%rax, %r8
	je	74f
	cmp	%rbx, T_COMP(%rax)                /* FPU_NOBODY's comp is NULL */
	jne	75f
	cmpl	$1, hw_ts_set(%rip)
	jne	76f
77:	mov	%r8, cur_frame(%rip)              /* hw_set_current */
	lea	R_SIZE(%r8), %rax
	mov	%rax, hw_tss + TSS_RSP0(%rip)
	mov	C_PGTBL(%rbx), %rax
	mov	T_FS(%r8), %rdx
	SET_SPACE sw\flagged
	.if \flagged
	test	$FP_SW_TIMER, %esi
	jz	ret_to_user
	lea	kstack_top(%rip), %rsp
	mov	%r10, %rdi                        /* schedtree_timer(s, tsc) */
	mov	%r12, %rsi
	call	schedtree_timer
	.endif
	jmp	ret_to_user

	.subsection 1
	.if !\flagged
sw0_self:
90:	movq	$0, R_RAX(%r9)                    /* to itself: a yield, nothing to do */
	jmp	ret_to_user
	.endif
sw\flagged\()_x_below:
91:	lea	-1(%rcx), %ebp                    /* x is at depth k + 1, under s */
	cmp	%ebp, %r11d
	jne	sw_decline
	cmp	%r10, T_CHAIN(%r8,%r11,8)
	jne	sw_decline
	jmp	92b
	.if \flagged
sw\flagged\()_evwait:
93:	cmp	%r9, C_EVT(%r10)                  /* only s's event thread waits, and not */
	jne	sw_decline                        /* with events pending (EPERM, EAGAIN) */
	cmpb	$0, C_EVT_PENDING(%r10)
	jne	sw_decline
	jmp	94b
	.endif
sw\flagged\()_unpark:
95:	cmpb	$FP_TS_EVWAIT, T_STATE(%r8)       /* x waits for events, and t has no record */
	jne	2f                                /* of a thread its activation preempted, */
	cmpq	$0, T_PREEMPTED(%r9)              /* which might run past x instead */
	jne	sw_decline                        /* (schedtree_through), nor a wake below */
	bt	%ecx, schedtree_acct + A_THROUGH(%rip) /* at a depth of the path of one */
	jc	sw\flagged\()_through             /* that did not get the CPU */
1:	movb	$FP_TS_READY, T_STATE(%r8)        /* decided; x's owner is s or a child */
	lea	kstack_top(%rip), %rsp
	mov	%r8, %rdi
	mov	T_CHAIN(%r8,%rcx,8), %rbp
	call	sw_publish
	jmp	96b
sw\flagged\()_through:
	mov	T_CHAIN(%r8,%rcx,8), %rbp         /* x's scheduler on it, whose dispatch may */
	movzwl	C_ID(%rbp), %ebp                  /* run that one instead */
	cmpb	%bpl, schedtree_acct + A_THRU_PATH - 1(%rcx) /* (schedtree_wake_through) */
	je	sw_decline
	jmp	1b
2:	cmpb	$FP_TS_BLOCKED, T_STATE(%r8)       /* or x is blocked by s */
	jne	sw_decline
	cmp	%r11b, T_BLOCKER(%r8)
	jne	sw_decline
	jmp	1b
	.if \flagged
sw\flagged\()_park:
97:	lea	kstack_top(%rip), %rsp            /* BLOCK: blocked by s; or EVWAIT */
	test	$FP_SW_BLOCK, %eax
	jz	1f
	movb	$FP_TS_BLOCKED, T_STATE(%r9)
	mov	%r11b, T_BLOCKER(%r9)
	jmp	2f
1:	movb	$FP_TS_EVWAIT, T_STATE(%r9)
2:	mov	%r9, %rdi
	mov	%r10, %rbp
	call	sw_publish
	jmp	98b
	.endif
sw\flagged\()_news:
99:	lea	kstack_top(%rip), %rsp            /* schedtree_owed_pay_into(x's component): */
	cmpl	$0, schedtree_acct + A_NOWED(%rip) /* a charge may mark the one whose mark */
	je	1f                                /* was tested above */
	mov	T_COMP(%r8), %rdi
	call	schedtree_owed_pay_into
1:	bt	%ecx, schedtree_acct + A_WOKE_MASK(%rip)
	jnc	71b
	mov	%r8, %rdi                         /* schedtree_woke_tell(x) */
	call	schedtree_woke_tell
	jmp	71b
sw\flagged\()_fpu_mine:
74:	cmpl	$0, hw_ts_set(%rip)               /* hw_fpu_trap(0) */
	je	77b
	movl	$0, hw_ts_set(%rip)
	clts
	jmp	77b
sw\flagged\()_fpu_trap:
76:	movl	$1, hw_ts_set(%rip)               /* hw_fpu_trap(1) */
	mov	%cr0, %rax
	or	$CR0_TS, %rax
	mov	%rax, %cr0
	jmp	77b
sw\flagged\()_fpu_claim:
75:	lea	kstack_top(%rip), %rsp
	mov	%r8, %rdi
	call	thd_fpu_claim
	jmp	77b
	.subsection 0
.endm

/* ---- invoke: cap=rdi a0=rsi a1=rdx a2=r10 a3=r8, rip=rcx rflags=r11 ------------------ */
/*
 * The checks use rax, rcx, r9 and r11 (r9 and r11 saved) and the user's rsp, stored with
 * its rip in the frame about to be pushed (t->inv[ninv], no one's yet, so writing it
 * changes nothing); rdi becomes slot * 16 in place.  A decline undoes exactly that.
 */
#define F(x) T_INV + x(%rax,%r9)
	.globl fast_invoke
fast_invoke:
	mov	%r9, fp_r9(%rip)
	mov	cur(%rip), %rax                   /* t */
	movzwl	T_INV_TOP(%rax), %r9d             /* t->inv[ninv] is F(x) = T_INV + x(%rax,%r9) */
	cmp	$IV_SIZE * FP_INV_MAX, %r9d
	je	inv_decline_r9
	mov	%r11, fp_r11(%rip)
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
	cmpw	$HR_CS_LIVE, C_STATE(%r11)        /* live, and not behind (comp.h) */
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
	addw	$IV_SIZE, T_INV_TOP(%rax)
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
	FPU_SETTLE inv
	mov	C_PGTBL(%r11), %rax
	SET_SPACE inv
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
	movzwl	T_INV_TOP(%rax), %r9d
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
	cmpw	$0, T_INV_TOP(%rax)
	je	ret_decline_rax
	mov	%rdx, fp_rdx(%rip)
	movzwl	T_INV_TOP(%rax), %ecx
	lea	T_INV - IV_SIZE(%rax,%rcx), %r11  /* f = &t->inv[ninv - 1] */
	mov	T_COMP(%rax), %rdx                /* the callee */
	mov	T_COMP_GEN(%rax), %esp
	cmp	%esp, C_GEN(%rdx)
	jne	ret_decline
	mov	IV_COMP(%r11), %rcx               /* the caller */
	cmpw	$HR_CS_LIVE, C_STATE(%rcx)        /* live, and not behind (comp.h) */
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
	subw	$IV_SIZE, T_INV_TOP(%rax)
	mov	IV_STK(%r11), %esp
	bts	%rsp, C_STK_FREE(%rdx)
	movzwl	C_ID(%rcx), %esp
	decb	C_STK_HELD(%rsp,%rdx)
	mov	IV_FS(%r11), %rdx
	mov	%rdx, T_FS(%rax)
	FPU_SETTLE ret
	mov	C_PGTBL(%rcx), %rax
	SET_SPACE ret
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

/* ---- thd_switch: thd=rdi flags=rsi tsc=rdx ------------------------------------------ */
/*
 * The C statement of what this does is sys_thd_switch (thd.c) narrowed to the cases below
 * (kernel/fastpath.h), its accounting schedtree_account_down (schedtree.h, host-tested
 * against the general schedtree_account), its publishing schedtree_publish_to and its
 * entry thd_enter.
 *
 * Entered straight from syscall_entry, it saves of the calling thread t only what the call
 * keeps (docs/ABI.md: what a C call keeps, rbx, rbp and r12 to r15, with rip, rflags and
 * rsp) into t's frame, which is where struct thd starts (cur is the frame).  Every
 * register is free after that, r8 to r10 and the arguments being the caller's to lose.  A
 * decline stores what the full path reads (the number and the three arguments, and r8 to
 * r10 as 0, never a kernel value) and runs syscall_dispatch on the frame.  Calls out of
 * line, each to a function that keeps every register (no_caller_saved_registers), take the
 * kernel stack first.
 *
 * Two copies of the body (SWITCH): for flags 0, the plain switch between threads (a lock
 * handed over, a request to the event thread), which tests no flag; and for the others, a
 * BLOCK or a scheduler's dispatch (EVWAIT, TIMER).  Through the checks:
 *   rax how (flags without TIMER)  rsi flags  r12 tsc  r8 x (thds[thd])  r9 t (cur)
 *   r10 s (t->comp)  r11 k (t->depth, s's)  rcx x->depth  rbx x->comp
 */
	.globl fast_switch
fast_switch:
	mov	cur(%rip), %r9
	mov	%rcx, R_RIP(%r9)
	mov	%r11, R_RFLAGS(%r9)
	mov	%rsp, R_RSP(%r9)
	movq	$VEC_SYSCALL, R_VECTOR(%r9)       /* sysret-able (cs and ss are the user's) */
	mov	%rbx, R_RBX(%r9)
	mov	%rbp, R_RBP(%r9)
	mov	%r12, R_R12(%r9)
	mov	%r13, R_R13(%r9)
	mov	%r14, R_R14(%r9)
	mov	%r15, R_R15(%r9)
	test	%rsi, %rsi
	jnz	sw_flagged
	SWITCH	0
sw_flagged:
	SWITCH	1

sw_decline:
	movq	$HR_SYSNO_THD_SWITCH, R_RAX(%r9)
	mov	%rdi, R_RDI(%r9)
	mov	%rsi, R_RSI(%r9)
	mov	%rdx, R_RDX(%r9)
	movq	$0, R_R8(%r9)
	movq	$0, R_R9(%r9)
	movq	$0, R_R10(%r9)
	lea	kstack_top(%rip), %rsp
	mov	%r9, %rdi
	call	syscall_dispatch
	jmp	ret_to_user

/*
 * schedtree_publish_to(rdi, rbp): thread rdi's state to its owner rbp's slot, and for a
 * child scheduler's c^s to its parent's view of the child too.  Clobbers r13 to r15.
 */
sw_publish:
	movzwl	T_ID(%rdi), %r13d
	shl	$5, %r13
	add	C_REGION(%rbp), %r13
	movzbl	T_STATE(%rdi), %r14d
	mov	%r14d, RG_SLOT + SL_STATE(%r13)
	movzbl	T_BLOCKER(%rdi), %r15d
	mov	%r15d, RG_SLOT + SL_BLOCKER(%r13)
	mov	$FP_SLOT_OWNED, %r15d
	cmp	%rdi, C_EVT(%rbp)
	jne	1f
	or	$FP_SLOT_EVT, %r15d
1:	mov	%r15d, RG_SLOT + SL_FLAGS(%r13)
	mov	T_HOME(%rdi), %r15
	test	%r15, %r15
	jz	2f
	cmp	%rdi, C_CS(%r15)
	jne	2f
	orl	$FP_SLOT_CS, RG_SLOT + SL_FLAGS(%r13)
	mov	C_UP_SLOT(%r15), %r15                   /* never NULL (schedtree_nobody) */
	mov	%r14d, SL_STATE(%r15)
2:	ret

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
