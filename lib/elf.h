/*
 * elf.h - checking and describing a static ELF64 executable, and the initial stack musl
 * expects.  Pure code shared by the kernel (loading the root), rm/ctor.c (loading every
 * other component) and the image builder (images/prog.c); tested on the host against
 * malformed files (lib/test/elf_test.c).
 */
#ifndef RM_ELF_H
#define RM_ELF_H

#include <stdint.h>

#define ELF_SEG_MAX 8

/* The file's own headers (ELF64), as elf_parse reads them and the host tests write them. */
struct ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

_Static_assert(sizeof(struct ehdr) == 64, "ELF header");
_Static_assert(sizeof(struct phdr) == 56, "ELF program header");

struct elf_seg {
	uint64_t vaddr, memsz, offset, filesz;
	unsigned perms; /* HR_MEM_* */
};

struct elf_image {
	uint64_t entry;
	uint64_t phdr_va; /* where the program headers are once loaded (AT_PHDR), 0 if not */
	uint16_t phnum;
	unsigned nseg;
	struct elf_seg seg[ELF_SEG_MAX];
};

/*
 * Validate buf[0..len) as a static x86-64 executable whose loadable segments lie inside
 * [HR_VA_IMAGE_MIN, HR_VA_IMAGE_MAX) in ascending order, no two sharing a page, and whose entry
 * lies in that range, in an executable segment.  Returns 0 and fills img, or HR_EINVAL with
 * *why set to a sentence.
 */
int elf_parse(const void *buf, uint64_t len, struct elf_image *img, const char **why);

/*
 * Lay out argc/argv/envp/auxv at the top of a stack whose highest byte is stk[size-1] and
 * which the program sees ending at top_va.  Returns the initial stack pointer (as the
 * program sees it), or 0 if it does not fit.
 */
uint64_t elf_stack(void *stk, uint64_t size, uint64_t top_va, const char *name,
		   const struct elf_image *img);

#endif
