/*
 * boot.S - multiboot2 header and the climb from 32-bit protected mode into the higher half.
 *
 * GRUB enters boot_entry in 32-bit protected mode with paging off, eax = multiboot2 magic,
 * ebx = physical address of the boot information.  We build throw-away page tables that
 * map the first GiB three times (identity, direct map at HR_KDIRECT, kernel image at
 * -2 GiB), enter long mode and call kmain(magic, info).  kernel/arch/x86_64/paging.c
 * replaces these tables once the memory map is known.
 */
#include "asm.h"

	.section .mb2hdr, "a"
	.balign 8
mb2_header:
	.long 0xe85250d6                          /* multiboot2 magic */
	.long 0                                   /* i386 protected mode */
	.long mb2_header_end - mb2_header
	.long -(0xe85250d6 + (mb2_header_end - mb2_header))
	.short 0, 0                               /* end tag */
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl boot_entry
boot_entry:
	cli
	cld
	mov	%eax, %edi                        /* survives into kmain's first argument */
	mov	%ebx, %esi
	mov	$boot_stack_top, %esp
	pushl	$0                                /* multiboot2 leaves most flags undefined: */
	popfl                                     /* NT or IOPL must not outlive the boot */

	/* pd: 512 x 2 MiB pages covering the first GiB */
	mov	$boot_pd, %ebx
	xor	%ecx, %ecx
1:	mov	%ecx, %eax
	shl	$21, %eax
	or	$0x83, %eax                       /* present | writable | 2 MiB */
	mov	%eax, (%ebx, %ecx, 8)
	movl	$0, 4(%ebx, %ecx, 8)
	inc	%ecx
	cmp	$512, %ecx
	jne	1b

	movl	$boot_pd + 3, boot_pdpt_lo            /* pdpt_lo[0]   -> pd */
	movl	$boot_pd + 3, boot_pdpt_hi + 510 * 8  /* pdpt_hi[510] -> pd (-2 GiB) */
	movl	$boot_pdpt_lo + 3, boot_pml4          /* identity */
	movl	$boot_pdpt_lo + 3, boot_pml4 + 256 * 8 /* direct map */
	movl	$boot_pdpt_hi + 3, boot_pml4 + 511 * 8 /* kernel image */

	mov	$boot_pml4, %eax
	mov	%eax, %cr3
	mov	%cr4, %eax
	or	$0x20, %eax                       /* PAE */
	mov	%eax, %cr4
	mov	$0xc0000080, %ecx                 /* EFER */
	rdmsr
	or	$0x901, %eax                      /* SCE | LME | NXE */
	wrmsr
	mov	%cr0, %eax
	or	$0x80010001, %eax                 /* PG | WP | PE */
	mov	%eax, %cr0

	lgdt	boot_gdt_ptr
	ljmp	$KCODE_SEL, $boot_long

	.code64
boot_long:
	mov	$KDATA_SEL, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	xor	%ax, %ax
	mov	%ax, %fs
	mov	%ax, %gs
	movabs	$kstack_top, %rsp
	movabs	$kmain, %rax
	call	*%rax
2:	hlt
	jmp	2b

	.section .boot.data, "aw"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00209a0000000000                  /* 64-bit kernel code */
	.quad 0x0000920000000000                  /* kernel data */
boot_gdt_ptr:
	.short boot_gdt_ptr - boot_gdt - 1
	.long boot_gdt

	.section .boot.bss, "aw", @nobits
	.balign 4096
boot_pml4:	.skip 4096
boot_pdpt_lo:	.skip 4096
boot_pdpt_hi:	.skip 4096
boot_pd:	.skip 4096
boot_stack:	.skip 4096
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
