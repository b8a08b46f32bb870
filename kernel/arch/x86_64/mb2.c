/*
 * mb2.c - reads the multiboot2 information GRUB leaves behind: RAM ranges, modules and the
 * command line.  The information lies in low memory, reached through the direct map.
 */
#include "hw.h"

#define MB2_MAGIC 0x36d76289u

struct tag {
	uint32_t type, size;
};

static void
add_ram(struct hw_boot *b, const uint8_t *t, uint32_t size)
{
	uint32_t esz = *(const uint32_t *) (t + 8);
	if (esz < 24)
		return;
	for (uint32_t off = 16; off + esz <= size && b->nram < 32; off += esz) {
		const uint64_t *e = (const uint64_t *) (t + off);
		uint32_t type = *(const uint32_t *) (t + off + 16);
		if (type == 1)
			b->ram[b->nram++] = (struct hw_mem_range){ e[0], e[1] };
	}
}

int
hw_boot_parse(uint32_t magic, uint64_t info_pa, struct hw_boot *b)
{
	const uint8_t *p = hw_phys_to_virt(info_pa);
	uint32_t total = *(const uint32_t *) p;

	if (magic != MB2_MAGIC)
		return -1;
	*b = (struct hw_boot){ 0 };
	b->info_start = info_pa;
	b->info_end = info_pa + total;
	for (uint32_t off = 8; off + 8 <= total;) {
		const struct tag *t = (const struct tag *) (p + off);
		if (t->type == 0)
			break;
		if (t->type == 1)
			b->cmdline = (const char *) (t + 1);
		if (t->type == 3 && b->nmod < 16) {
			const uint32_t *m = (const uint32_t *) (t + 1);
			b->mod[b->nmod++] =
				(struct hw_module){ m[0], m[1], (const char *) (m + 2) };
		}
		if (t->type == 6)
			add_ram(b, (const uint8_t *) t, t->size);
		off += (t->size + 7) & ~7u;
	}
	return 0;
}
