/*
 * entry.S - the callee side of thread-migration invocation (the caller side, hr_invoke,
 * is inline assembly in sys.h).
 *
 * hr_entry_stub is where the kernel starts a migrated thread in the callee (comp_entry):
 * it calls the function exported under the operation (export.c) and returns the result
 * through the ret system call.  The thread brings the caller's FPU state along, so the
 * callee first puts the x87 and SSE controls at the ABI's start values and empties the
 * x87 stack: a caller that unmasked every exception, say, would otherwise make the
 * callee's arithmetic trap, and fault the component for every caller.
 */
#include "../kernel/abi/hr_syscall.h"
#include "tls.h"
#include "export.h"

	.text
	.globl hr_entry_stub
	.type hr_entry_stub, @function
hr_entry_stub:				/* a1=rdi a2=rsi a3=rdx badge=r10 caller=r8 op=r9 tid=rax */
	mov	%eax, %fs:TCB_TID		/* this stack's TCB now belongs to this thread */
	xor	%ebp, %ebp			/* the outermost frame */
	fninit					/* x87: control word 0x37f, stack empty */
	ldmxcsr	mxcsr_start(%rip)
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

	.section .rodata
	.balign 4
mxcsr_start:
	.long	0x1f80				/* every exception masked, round to nearest */

	.section .note.GNU-stack, "", @progbits
