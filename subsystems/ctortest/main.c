/*
 * ctortest - construction that goes wrong is reported by the parent, which carries on.
 * First it offers the constructor damaged children (a truncated and a corrupted
 * descriptor, a program it does not have, a reservation too small); then it builds its
 * manifest children as usual: 'crasher' faults while starting, 'after' must still run.
 */
#include "rm/ctor.h"
#include "rm/desc.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const void *fdt;
static int after_node;

/* Build 'after' with the given spec changes; report whether it was refused as expected. */
static void
refused(const char *name, struct ctor_spec s, const char *expect)
{
	struct ctor_child c;
	char why[160] = "";
	long r = ctor_build(&s, &c, why, sizeof(why));

	if (r >= 0)
		ctor_destroy(&c);
	printf("%s: %s\n", name, r < 0 ? why : "accepted!");
	hr_report(name, r < 0 && strstr(why, expect), "want '%s', got '%s'", expect,
		  r < 0 ? why : "accepted");
}

static void
damaged_children(void)
{
	struct desc_node d;
	const char *why;
	struct ctor_spec base;
	static uint8_t blob[8192];
	long n;

	desc_read(fdt, after_node, &d, &why);
	base = (struct ctor_spec){ .name = "damaged",
				   .program = d.program,
				   .mem_pages = d.memory_pages,
				   .desc = fdt,
				   .node = after_node,
				   .subsystem = 1 };
	n = desc_extract(fdt, after_node, blob, sizeof(blob));
	struct ctor_spec s = base;
	s.desc_blob = blob;
	s.desc_bytes = (uint64_t) n / 2;
	refused("ctor_refuses_truncated_descriptor", s, "corrupt");
	/* garbage over the first property's tag, right after the root node's begin tag */
	uint32_t off =
		(uint32_t) blob[8] << 24 | (uint32_t) blob[9] << 16 | blob[10] << 8 | blob[11];
	memset(blob + off + 8, 0xa5, 4);
	s.desc_bytes = (uint64_t) n;
	refused("ctor_refuses_corrupted_descriptor", s, "corrupt");
	s = base;
	s.program = "no-such-program";
	refused("ctor_refuses_missing_program", s, "not among our modules");
	s = base;
	s.mem_pages = 20;
	refused("ctor_refuses_reservation_too_small", s, "needs at least");
}

void
hr_child_ended(const char *name, int faulted, long status)
{
	if (!strcmp(name, "crasher"))
		hr_report("child_faulting_while_starting_is_reported", faulted,
			  "it exited with status %ld instead", status);
	if (!strcmp(name, "after"))
		hr_report("siblings_keep_running_after_a_fault", !faulted && status == 0,
			  "faulted %d, status %ld", faulted, status);
}

int
hr_main(void)
{
	const char *why;

	if (!(fdt = desc_self(&why)))
		hr_die("descriptor: %s", why);
	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n)) {
		struct desc_node d;
		if (!desc_read(fdt, n, &d, &why) && !strcmp(d.name, "after"))
			after_node = n;
	}
	if (!hr_report("after_child_in_manifest", after_node > 0, "no child named 'after'"))
		return 1;
	damaged_children();
	subsys_main();
}
