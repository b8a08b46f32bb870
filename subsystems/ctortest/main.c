/*
 * ctortest - construction that goes wrong is reported by the parent, which carries on.
 * First it offers the constructor damaged children (a truncated and a corrupted
 * descriptor, a program it does not have, a reservation too small, one larger than all
 * our memory) and builds a good one with each of its page mappings refused in turn: every
 * failure must say why and leave nothing behind.  Then it builds its manifest children as
 * usual: 'crasher' faults while starting, 'after' must still run.
 */
#include "rm/ctor.h"
#include "rm/desc.h"
#include "rm/pages.h"
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

/* A build of s that must fail: did it say why, and leave our free pages as they were? */
static int
fails_cleanly(const struct ctor_spec *s, int *mute, int *leaked)
{
	struct ctor_child c;
	char why[160] = "";
	uint64_t before = pages_left();
	long r = ctor_build(s, &c, why, sizeof(why));

	if (r >= 0) {
		ctor_destroy(&c);
		return 0;
	}
	*mute += !why[0];
	*leaked += pages_left() != before;
	return 1;
}

/* Each page mapping the constructor makes refused in turn, as a kernel out of mapping
 * nodes would refuse it, until one build gets through. */
static void
every_mapping_refused(const struct ctor_spec *base)
{
	struct ctor_spec s = *base;
	struct ctor_child c;
	char why[160];
	int mute = 0, leaked = 0, builds = 0;

	/* one whole build first: the heap keeps the pages it carves for our bookkeeping */
	if (!ctor_build(&s, &c, why, sizeof(why)))
		ctor_destroy(&c);
	for (s.fail_map = 1; s.fail_map <= s.mem_pages + 1; s.fail_map++, builds++)
		if (!fails_cleanly(&s, &mute, &leaked))
			break;
	printf("[ctortest] %d builds, each with one more mapping allowed\n", builds);
	hr_report("ctor_says_why_for_every_mapping_refused", builds > 1 && !mute,
		  "%d of %d failed builds gave no reason", mute, builds);
	hr_report("ctor_leaves_nothing_when_a_mapping_is_refused", builds > 1 && !leaked,
		  "%d of %d failed builds kept some of our pages", leaked, builds);
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
	s = base;
	s.mem_pages = (uint32_t) pages_left() + 64;
	{
		uint64_t before = pages_left();
		refused("ctor_refuses_more_than_our_pages", s, "free pages");
		hr_report("ctor_keeps_no_pages_when_refusing_more_than_ours",
			  pages_left() == before, "%lu of our free pages went",
			  (unsigned long) (before - pages_left()));
	}
	every_mapping_refused(&base);
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
