/*
 * entry.S - the assembly stubs of thread-migration invocation (the ASM rows of
 * kernel/abi/hr_syscall.h, declared in sys.h).
 *
 * hr_invoke is the caller side: it keeps the caller's callee-saved registers on the
 * caller's own stack, so a callee that clobbers them cannot corrupt the caller.
 * hr_entry_stub is where the kernel starts a migrated thread in the callee (comp_entry):
 * it calls the function exported under the operation (export.c) and returns the result
 * through the ret system call.  hr_ret is that call for C code.
 */
#include "../kernel/abi/hr_syscall.h"
#include "tls.h"
#include "export.h"

	.text
	.globl hr_invoke
	.type hr_invoke, @function
hr_invoke:				/* cap=rdi a0=rsi a1=rdx a2=rcx a3=r8 */
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rcx, %r10
	mov	$HR_SYSNO_INVOKE, %eax
	syscall
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret				/* DF is clear: ret returns a thread's first flags, a refusal ours */
	.size hr_invoke, . - hr_invoke

	.globl hr_ret
	.type hr_ret, @function
hr_ret:					/* value=rdi; returns only on error */
	mov	$HR_SYSNO_RET, %eax
	syscall
	ret
	.size hr_ret, . - hr_ret

	.globl hr_entry_stub
	.type hr_entry_stub, @function
hr_entry_stub:				/* a1=rdi a2=rsi a3=rdx badge=r10 caller=r8 op=r9 tid=rax */
	mov	%eax, %fs:TCB_TID		/* this stack's TCB now belongs to this thread */
	xor	%ebp, %ebp			/* the outermost frame */
	cmp	$HR_EXPORT_MAX - 1, %r9
	ja	1f
	mov	%r10, %rcx			/* the kernel passes them as a system call's */
	call	*hr_export_table(,%r9,8)	/* fn(a1, a2, a3, badge, caller) */
2:	mov	%rax, %rdi
	mov	$HR_SYSNO_RET, %eax
	syscall
	ud2
1:	call	hr_export_none			/* no such operation */
	jmp	2b
	.size hr_entry_stub, . - hr_entry_stub

	.section .note.GNU-stack, "", @progbits
