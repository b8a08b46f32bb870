/*
 * tls.c - TLS areas for threads and invocation stacks (tls.h).
 *
 * Layout of an area (x86-64 TLS variant II): [TLS block][TCB], FS pointing at the TCB and
 * the block ending right below it, as the linker assumes for local-exec TLS.  The TCB is a
 * copy of the initial thread's musl struct pthread with the fields that must differ
 * patched.  Offsets below are musl 1.2.3's (Debian 12); tls_init checks the self pointer
 * so a different layout fails loudly instead of corrupting memory.
 */
#include "tls.h"
#include "runtime.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>

#define TCB_SIZE   200 /* sizeof(struct pthread) in musl 1.2.3, x86-64 */
#define TCB_SELF   0
#define TCB_PREV   16
#define TCB_NEXT   24
#define TCB_ERRNO  52
#define AREA_ALIGN 64

static uint8_t *main_tcb;
static const uint8_t *image;
static size_t filesz, memsz, block; /* block: TLS size rounded to its alignment */

static void
find_tls_segment(void)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *) getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM), align = 1;

	for (size_t i = 0; ph && i < n; i++) {
		if (ph[i].p_type != PT_TLS)
			continue;
		image = (const uint8_t *) ph[i].p_vaddr;
		filesz = ph[i].p_filesz;
		memsz = ph[i].p_memsz;
		align = ph[i].p_align ? ph[i].p_align : 1;
	}
	if (align > AREA_ALIGN)
		hr_die("TLS alignment %zu is larger than %d", align, AREA_ALIGN);
	block = (memsz + align - 1) & ~(align - 1);
}

void
tls_init(void)
{
	__asm__ volatile("mov %%fs:0, %0" : "=r"(main_tcb));
	if (*(uint8_t **) (main_tcb + TCB_SELF) != main_tcb)
		hr_die("unexpected musl thread control block layout");
	find_tls_segment();
}

size_t
tls_tcb_offset(void)
{
	return (block + AREA_ALIGN - 1) & ~(size_t) (AREA_ALIGN - 1);
}

size_t
tls_area_size(void)
{
	return tls_tcb_offset() + TCB_SIZE;
}

uint64_t
tls_setup(void *mem, uint32_t tid)
{
	uint8_t *tcb = (uint8_t *) mem + tls_tcb_offset();
	uint8_t *tls = tcb - block;

	memcpy(tls, image, filesz);
	memset(tls + filesz, 0, block - filesz);
	memcpy(tcb, main_tcb, TCB_SIZE);
	*(uint8_t **) (tcb + TCB_SELF) = tcb;
	*(uint8_t **) (tcb + TCB_PREV) = tcb;
	*(uint8_t **) (tcb + TCB_NEXT) = tcb;
	*(int *) (tcb + TCB_TID) = (int) tid;
	*(int *) (tcb + TCB_ERRNO) = 0;
	return (uint64_t) tcb;
}

void
tls_set_tid(uint32_t tid)
{
	uint8_t *tcb;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(tcb));
	*(int *) (tcb + TCB_TID) = (int) tid;
}
