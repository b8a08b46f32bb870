/*
 * elf_test.c - the ELF checker (lib/elf.c) against a valid synthetic executable and every
 * kind of malformed one a hostile or broken module could be.
 */
#include "check.h"
#include "lib/elf.h"
#include "kernel/abi/hr_errno.h"
#include "kernel/abi/hr_layout.h"
#include "kernel/abi/hr_syscall.h"

#include <string.h>

static uint8_t file[3 * 4096];

/* text at 0x401000 (R-X, one page), data at 0x402000 (RW-, 100 bytes + bss) */
static void
make_valid(void)
{
	struct ehdr *h = (struct ehdr *) file;
	struct phdr *p = (struct phdr *) (file + 64);

	memset(file, 0, sizeof(file));
	memcpy(h->ident, "\177ELF\2\1\1", 7);
	h->type = 2;
	h->machine = 62;
	h->version = 1;
	h->entry = 0x401010;
	h->phoff = 64;
	h->ehsize = 64;
	h->phentsize = 56;
	h->phnum = 2;
	p[0] = (struct phdr){ 1, 5, 4096, 0x401000, 0x401000, 4096, 4096, 4096 };
	p[1] = (struct phdr){ 1, 6, 8192, 0x402000, 0x402000, 100, 5000, 4096 };
}

static int
parse(uint64_t len, const char **why)
{
	struct elf_image img;
	return elf_parse(file, len, &img, why);
}

TEST(valid_executable_is_described)
{
	struct elf_image img;
	const char *why = 0;
	make_valid();
	CHECK_EQ(elf_parse(file, sizeof(file), &img, &why), 0);
	CHECK_EQ(img.nseg, 2);
	CHECK_EQ(img.entry, 0x401010);
	CHECK_EQ(img.seg[0].perms, HR_MEM_READ | HR_MEM_EXEC);
	CHECK_EQ(img.seg[1].perms, HR_MEM_READ | HR_MEM_WRITE);
	CHECK_EQ(img.seg[1].memsz, 5000);
}

#define REJECTS(mutation, text)                                 \
	do {                                                    \
		const char *why = "";                           \
		make_valid();                                   \
		mutation;                                       \
		CHECK_EQ(parse(sizeof(file), &why), HR_EINVAL); \
		CHECK(strstr(why, text) != 0);                  \
	} while (0)

static struct ehdr *
H(void)
{
	return (struct ehdr *) file;
}
static struct phdr *
P(int i)
{
	return (struct phdr *) (file + 64) + i;
}

TEST(rejects_bad_magic)
{
	REJECTS(file[1] = 'X', "magic");
}
TEST(rejects_32_bit)
{
	REJECTS(file[4] = 1, "64-bit");
}
TEST(rejects_big_endian)
{
	REJECTS(file[5] = 2, "little-endian");
}
TEST(rejects_pie_or_relocatable)
{
	REJECTS(H()->type = 3, "not an executable");
}
TEST(rejects_other_machine)
{
	REJECTS(H()->machine = 40, "x86-64");
}
TEST(rejects_odd_phentsize)
{
	REJECTS(H()->phentsize = 32, "program header size");
}
TEST(rejects_zero_or_huge_phnum)
{
	REJECTS(H()->phnum = 0, "count");
	REJECTS(H()->phnum = 1000, "count");
}
TEST(rejects_phdrs_past_end)
{
	REJECTS(H()->phoff = sizeof(file) - 8, "outside the file");
}
TEST(rejects_phoff_overflow)
{
	REJECTS(H()->phoff = ~0ull - 8, "outside the file");
}
TEST(rejects_filesz_above_memsz)
{
	REJECTS(P(1)->filesz = 6000, "file size exceeds");
}
TEST(rejects_segment_data_past_end)
{
	REJECTS(P(1)->offset = sizeof(file) - 10, "outside the file");
}
TEST(rejects_offset_overflow)
{
	REJECTS((P(1)->offset = ~0ull - 4, P(1)->vaddr = 0x402000 + ((~0ull - 4) & 4095)),
		"outside the file");
}
TEST(rejects_segment_below_image_range)
{
	REJECTS((P(0)->vaddr = 0x1000, P(0)->offset = 4096), "image range");
}
TEST(rejects_segment_size_wrapping)
{
	REJECTS(P(1)->memsz = ~0ull, "image range");
}
/* above the range, HR_VA_IMAGE_MAX - vaddr wraps: each of these once passed the check */
#define REJECTS_VADDR(va)                                                               \
	do {                                                                            \
		REJECTS(P(1)->vaddr = (va), "image range");                             \
		REJECTS((P(0)->vaddr = (va), H()->entry = (va) + 0x10), "image range"); \
	} while (0)

TEST(rejects_segment_at_4_gib)
{
	REJECTS_VADDR(0x100000000ull);
}
TEST(rejects_segment_at_top_of_user_half)
{
	REJECTS_VADDR(0x7ffffffff000ull);
}
TEST(rejects_segment_at_kernel_half)
{
	REJECTS_VADDR(0xffff800000000000ull);
}
TEST(rejects_segment_at_kernel_image)
{
	REJECTS_VADDR(0xffffffff80000000ull);
}
TEST(rejects_segment_whose_end_wraps_into_the_range)
{
	REJECTS((P(1)->vaddr = 0xfffffffffffff000ull, P(1)->memsz = 0x403000), "image range");
	REJECTS((P(1)->vaddr = 0x402000, P(1)->memsz = ~0ull - 0x401000), "image range");
}
TEST(accepts_segment_ending_at_the_range_end)
{
	struct elf_image img;
	const char *why = 0;

	make_valid();
	P(1)->vaddr = HR_VA_IMAGE_MAX - 0x2000;
	P(1)->memsz = 0x2000;
	CHECK_EQ(elf_parse(file, sizeof(file), &img, &why), 0);
}
TEST(rejects_segment_past_the_range_end)
{
	REJECTS((P(1)->vaddr = HR_VA_IMAGE_MAX - 0x2000, P(1)->memsz = 0x2001), "image range");
	REJECTS((P(1)->vaddr = HR_VA_IMAGE_MAX, P(1)->filesz = 0, P(1)->memsz = 1), "image range");
}
TEST(rejects_entry_outside_image_range)
{
	REJECTS(H()->entry = 0x100000010ull, "entry point outside");
	REJECTS(H()->entry = 0xffffffff80000010ull, "entry point outside");
	REJECTS(H()->entry = 0x10, "entry point outside");
}
TEST(rejects_misaligned_offset)
{
	REJECTS(P(1)->offset = 8192 + 8, "modulo the page size");
}
TEST(rejects_overlap_and_shared_pages)
{
	REJECTS((P(1)->vaddr = 0x401800, P(1)->offset = 4096 + 0x800), "share a page");
}
TEST(rejects_writable_code)
{
	REJECTS(P(0)->flags = 7, "writable and executable");
}
TEST(rejects_entry_outside_code)
{
	REJECTS(H()->entry = 0x402010, "entry point");
	REJECTS(H()->entry = 0x500000, "entry point");
}
TEST(rejects_no_load_segment)
{
	REJECTS((P(0)->type = 4, P(1)->type = 4), "no loadable segment");
}
TEST(rejects_truncated_file)
{
	const char *why = "";
	make_valid();
	CHECK_EQ(parse(10, &why), HR_EINVAL);
	CHECK(strstr(why, "too short") != 0);
	CHECK_EQ(parse(4096 + 100, &why), HR_EINVAL);
}

TEST(stack_layout_matches_what_musl_reads)
{
	static uint8_t stk[4096];
	struct elf_image img = { .entry = 0x401010, .phdr_va = 0x400040, .phnum = 2 };
	uint64_t top = 0x80000000, sp = elf_stack(stk, sizeof(stk), top, "prog", &img);
	uint64_t *w = (uint64_t *) (stk + sizeof(stk) - (top - sp));
	CHECK(sp && sp % 16 == 0 && sp < top);
	CHECK_EQ(w[0], 1); /* argc */
	const char *argv0 = (const char *) (stk + sizeof(stk) - (top - w[1]));
	CHECK(!strcmp(argv0, "prog"));
	CHECK_EQ(w[2], 0); /* argv terminator */
	CHECK_EQ(w[3], 0); /* empty envp */
	int found_phdr = 0, found_null = 0;
	for (int i = 4; i < 40; i += 2) {
		if (w[i] == 3 && w[i + 1] == 0x400040)
			found_phdr = 1;
		if (w[i] == 0) {
			found_null = 1;
			break;
		}
	}
	CHECK(found_phdr && found_null);
}
