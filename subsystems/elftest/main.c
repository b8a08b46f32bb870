/*
 * elftest - the generic constructor refuses malformed programs with a clear message and
 * the subsystem goes on.  Corrupted copies of a real module (hello) are offered as
 * programs; then the subsystem builds its manifest children (a real hello) as usual.
 */
#include "rm/ctor.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct corruption {
	const char *name;
	uint64_t off;	/* byte to change (bytes from 0 .. 63 are the ELF header) */
	uint64_t value; /* 8 bytes written there, unless width is 1 */
	int width;
	uint64_t keep; /* truncate the file to this many bytes (0: keep all) */
	const char *expect;
};

static const struct corruption cases[] = {
	{ "elf_rejects_bad_magic", 1, 'X', 1, 0, "magic" },
	{ "elf_rejects_32_bit_class", 4, 1, 1, 0, "64-bit" },
	{ "elf_rejects_truncated_header", 0, 0, 0, 40, "too short" },
	{ "elf_rejects_truncated_segments", 0, 0, 0, 6000, "outside the file" },
	{ "elf_rejects_program_headers_past_end", 32, 0x7fffffffffff, 8, 0, "outside the file" },
	{ "elf_rejects_entry_outside_code", 24, 0x10000000, 8, 0, "entry point" },
	{ "elf_rejects_shared_object", 16, 3, 1, 0, "not an executable" },
};

static const struct hr_module *
module(const char *name)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	for (uint32_t i = 0; i < bi->nmodules; i++)
		if (!strcmp(bi->modules[i].name, name))
			return &bi->modules[i];
	return 0;
}

static void
offer(const struct hr_module *m, const struct corruption *k)
{
	uint8_t *copy = malloc(m->size);
	struct ctor_child c;
	char why[160];
	long r;

	memcpy(copy, (const void *) m->base, m->size);
	if (k->width == 1)
		copy[k->off] = (uint8_t) k->value;
	else if (k->width == 8)
		memcpy(copy + k->off, &k->value, 8);
	struct ctor_spec s = { .name = k->name,
			       .program = "hello",
			       .mem_pages = 256,
			       .image = copy,
			       .image_size = k->keep ? k->keep : m->size };
	r = ctor_build(&s, &c, why, sizeof(why));
	if (r >= 0)
		ctor_destroy(&c);
	printf("offered a broken hello: %s\n", r < 0 ? why : "accepted!");
	hr_report(k->name, r < 0 && strstr(why, k->expect), "want '%s', got '%s'", k->expect,
		  r < 0 ? why : "accepted");
	free(copy);
}

int
hr_main(void)
{
	const struct hr_module *m = module("hello");

	if (!hr_report("elf_module_available", m != 0, "no hello module"))
		return 1;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		offer(m, &cases[i]);
	subsys_main(); /* and the real hello still boots */
}
