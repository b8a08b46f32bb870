/*
 * entry.S - the assembly stubs of thread-migration invocation (the ASM rows of
 * kernel/abi/hr_syscall.h, declared in sys.h).
 *
 * hr_invoke is the caller side: it keeps the caller's callee-saved registers on the
 * caller's own stack, so a callee that clobbers them cannot corrupt the caller.
 * hr_entry_stub is where the kernel starts a migrated thread in the callee (comp_entry):
 * it calls hr_dispatch (export.c) and returns the result through the ret system call.
 * hr_ret is that call for C code.
 */
#include "../kernel/abi/hr_syscall.h"
#include "tls.h"

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
	cld
	ret
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
hr_entry_stub:				/* op=rdi a1=rsi a2=rdx a3=r10 badge=r8 caller=r9 tid=rax */
	mov	%eax, %fs:TCB_TID		/* this stack's TCB now belongs to this thread */
	mov	%r10, %rcx
	xor	%ebp, %ebp
	call	hr_dispatch
	mov	%rax, %rdi
	mov	$HR_SYSNO_RET, %eax
	syscall
	ud2
	.size hr_entry_stub, . - hr_entry_stub

	.section .note.GNU-stack, "", @progbits
