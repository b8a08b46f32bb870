/*
 * elf.c - ELF64 executable checks and the initial stack (elf.h).  Every field of the file
 * is untrusted: offsets and sizes are checked for overflow before any arithmetic uses them.
 */
#include "elf.h"
#include "../kernel/abi/hr_errno.h"
#include "../kernel/abi/hr_layout.h"
#include "../kernel/abi/hr_syscall.h"

#define PT_LOAD 1
#define PT_PHDR 6
#define PT_TLS	7

static int
fail(const char **why, const char *msg)
{
	*why = msg;
	return HR_EINVAL;
}

static int
check_header(const struct ehdr *h, uint64_t len, const char **why)
{
	if (h->ident[0] != 0x7f || h->ident[1] != 'E' || h->ident[2] != 'L' || h->ident[3] != 'F')
		return fail(why, "not an ELF file (bad magic)");
	if (h->ident[4] != 2 || h->ident[5] != 1)
		return fail(why, "not a 64-bit little-endian ELF file");
	if (h->type != 2)
		return fail(why, "not an executable (ELF type is not EXEC; PIE is unsupported)");
	if (h->machine != 62)
		return fail(why, "not an x86-64 executable");
	if (h->phentsize != sizeof(struct phdr))
		return fail(why, "unexpected program header size");
	if (h->phnum == 0 || h->phnum > 64)
		return fail(why, "program header count out of range");
	if (h->phoff > len || (uint64_t) h->phnum * sizeof(struct phdr) > len - h->phoff)
		return fail(why, "program headers lie outside the file");
	if (h->phoff % 8)
		return fail(why, "program headers misaligned");
	return 0;
}

static unsigned
perms_of(uint32_t flags)
{
	unsigned p = HR_MEM_READ;
	if (flags & 2)
		p |= HR_MEM_WRITE;
	if (flags & 1)
		p |= HR_MEM_EXEC;
	return p;
}

static int
check_load(const struct phdr *p, uint64_t len, uint64_t prev_end, const char **why)
{
	if (p->filesz > p->memsz)
		return fail(why, "segment file size exceeds its memory size");
	if (p->offset > len || p->filesz > len - p->offset)
		return fail(why, "segment data lies outside the file");
	/* vaddr first: HR_VA_IMAGE_MAX - vaddr wraps for a vaddr above the range */
	if (p->vaddr < HR_VA_IMAGE_MIN || p->vaddr > HR_VA_IMAGE_MAX ||
	    p->memsz > HR_VA_IMAGE_MAX - p->vaddr)
		return fail(why, "segment outside the program image range");
	if ((p->vaddr ^ p->offset) & (HR_PAGE_SIZE - 1))
		return fail(why, "segment address and file offset disagree modulo the page size");
	/* each page belongs to one segment, so its permissions are that segment's */
	if (p->vaddr < ((prev_end + HR_PAGE_SIZE - 1) & ~(HR_PAGE_SIZE - 1)))
		return fail(why, "segments share a page, overlap or are out of order");
	if ((p->flags & 3) == 3)
		return fail(why, "segment both writable and executable");
	return 0;
}

int
elf_parse(const void *buf, uint64_t len, struct elf_image *img, const char **why)
{
	const struct ehdr *h = buf;
	const struct phdr *ph;
	uint64_t prev_end = 0;
	int err, entry_ok = 0;

	*img = (struct elf_image){ 0 };
	if (!buf || len < sizeof(*h))
		return fail(why, "file too short for an ELF header");
	if ((err = check_header(h, len, why)))
		return err;
	if (h->entry < HR_VA_IMAGE_MIN || h->entry >= HR_VA_IMAGE_MAX)
		return fail(why, "entry point outside the program image range");
	ph = (const struct phdr *) ((const uint8_t *) buf + h->phoff);
	for (unsigned i = 0; i < h->phnum; i++) {
		const struct phdr *p = &ph[i];
		if (p->type != PT_LOAD || p->memsz == 0)
			continue;
		if ((err = check_load(p, len, prev_end, why)))
			return err;
		if (img->nseg == ELF_SEG_MAX)
			return fail(why, "too many loadable segments");
		img->seg[img->nseg++] = (struct elf_seg){ p->vaddr, p->memsz, p->offset, p->filesz,
							  perms_of(p->flags) };
		if ((p->flags & 1) && h->entry >= p->vaddr && h->entry - p->vaddr < p->memsz)
			entry_ok = 1;
		if (h->phoff >= p->offset && h->phoff - p->offset < p->filesz)
			img->phdr_va = p->vaddr + (h->phoff - p->offset);
		prev_end = p->vaddr + p->memsz;
	}
	if (!img->nseg)
		return fail(why, "no loadable segment");
	if (!entry_ok)
		return fail(why, "entry point is not in an executable segment");
	img->entry = h->entry;
	img->phnum = h->phnum;
	return 0;
}

/* auxv keys musl reads */
enum {
	AT_NULL = 0,
	AT_PHDR = 3,
	AT_PHENT = 4,
	AT_PHNUM = 5,
	AT_PAGESZ = 6,
	AT_ENTRY = 9,
	AT_RANDOM = 25
};

uint64_t
elf_stack(void *stk, uint64_t size, uint64_t top_va, const char *name, const struct elf_image *img)
{
	uint8_t *top = (uint8_t *) stk + size;
	uint64_t nlen = 0, words[32], n = 0;

	while (name && name[nlen] && nlen < 63)
		nlen++;
	/* strings and 16 "random" bytes (fixed: runs must be repeatable) at the very top */
	uint64_t str_va = top_va - 64, rnd_va = top_va - 80;
	if (size < 4096)
		return 0;
	for (uint64_t i = 0; i < nlen; i++)
		top[-64 + (long) i] = (uint8_t) name[i];
	top[-64 + (long) nlen] = 0;
	for (int i = 0; i < 16; i++)
		top[-80 + i] = (uint8_t) (0x5a ^ (i * 37));

	words[n++] = 1;	     /* argc */
	words[n++] = str_va; /* argv[0] */
	words[n++] = 0;
	words[n++] = 0; /* envp */
	uint64_t aux[][2] = { { AT_PHDR, img->phdr_va },
			      { AT_PHENT, 56 },
			      { AT_PHNUM, img->phnum },
			      { AT_PAGESZ, HR_PAGE_SIZE },
			      { AT_ENTRY, img->entry },
			      { AT_RANDOM, rnd_va },
			      { AT_NULL, 0 } };
	for (unsigned i = 0; i < sizeof(aux) / sizeof(aux[0]); i++) {
		if (aux[i][0] == AT_PHDR && !aux[i][1])
			continue;
		words[n++] = aux[i][0];
		words[n++] = aux[i][1];
	}
	uint64_t sp_va = (rnd_va - n * 8) & ~15ull;
	uint64_t *sp = (uint64_t *) (top - (top_va - sp_va));
	for (uint64_t i = 0; i < n; i++)
		sp[i] = words[i];
	return sp_va;
}
