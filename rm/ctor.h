/*
 * ctor.h - the generic constructor: how every parent builds a child.
 *
 * From a program module and the child's part of the descriptor it creates the component,
 * bounds its memory, loads the program into pages of our own, gives it a stack, boot
 * information, its descriptor, the modules it needs for its own children and the rest of
 * its reservation as its memory window, a capability to our services, and its first
 * thread.  A subsystem is then promoted to a scheduler with that thread as its c^s.  The
 * parent never reaches further down: each child builds its own children the same way.
 */
#ifndef RM_CTOR_H
#define RM_CTOR_H

#include <stddef.h>
#include <stdint.h>
#include "window.h"

/*
 * The memory rule, in pages, shared with the image builder (images/memory.c) and stated
 * in docs/MANIFEST.md.  Besides its program image, stack, boot information, descriptor and
 * the modules it hands down, a child needs these; the builder reserves them, the
 * constructor refuses a reservation that cannot hold them.
 */
#define CTOR_HEAP_MIN 64 /* the smallest heap a program starts with */
/*
 * A subsystem's invocation stacks (rm/export.c; each 16 KiB, a guard page and a page of
 * TLS: 6 pages): 4 and, for each child, CTOR_STACKS_EACH, which is as many as one child may
 * hold at once (the kernel counts them by caller, comp_entry's per_caller): its sleepers
 * in us (SLEEPERS_PER_CHILD, rm/events.h) and one call more.  So no child, nor two, can
 * take the stacks a sibling's calls need.  The kernel's pool holds 64 at most; beyond that
 * the share is what 64 - 4 gives each.
 */
#define CTOR_STACK_PAGES      6
#define CTOR_STACKS_EACH      5
#define CTOR_STACKS_PER_CHILD (CTOR_STACK_PAGES * CTOR_STACKS_EACH)
#define CTOR_STACKS_MAX	      64

/* The stacks a subsystem with `children` children registers, and one child's share. */
static inline unsigned
ctor_stacks(unsigned children)
{
	unsigned n = 4 + children * CTOR_STACKS_EACH;
	return n < CTOR_STACKS_MAX ? n : CTOR_STACKS_MAX;
}

static inline unsigned
ctor_stacks_each(unsigned children)
{
	unsigned each = children ? (ctor_stacks(children) - 4) / children : 0;
	return each > CTOR_STACKS_EACH ? CTOR_STACKS_EACH : each;
}
#define CTOR_BOOTINFO 1
#define CTOR_PCB      1 /* the page a subsystem shares with its parent */

struct ctor_spec {
	const char *name;
	const char *program;
	uint32_t mem_pages; /* the child's memory reservation (its bound) */
	const void *desc;   /* our descriptor and the child's node in it */
	int node;
	int subsystem; /* promote: a child subsystem rather than a component of ours */
	uint64_t arg;
	const void *image; /* program bytes to load instead of the module (tests); else 0 */
	uint64_t image_size;
	const void *desc_blob; /* descriptor to hand down instead of the cut one (tests) */
	uint64_t desc_bytes;
	uint64_t fail_map; /* tests: the page mapping with this number (1 ..) and all after it
			      fail, as in a kernel out of mapping nodes (0: none) */
};

struct ctor_child {
	long slot;     /* our COMP capability */
	uint32_t comp; /* its component id */
	long tid;      /* its first thread (the c^s of a subsystem) */
	uint64_t fixed,
		fixed_pages;  /* our pages for its image, stack, boot info, pcb, descriptor */
	struct window window; /* our pages that make its memory window */
	struct hr_pcb *pcb;   /* page shared with a subsystem (our mapping) */
};

/* 0, or an HR_E* code with a sentence in why (never empty).  On failure nothing is left
 * behind. */
long ctor_build(const struct ctor_spec *s, struct ctor_child *c, char *why, size_t len);
/* Destroy the child and its whole subtree and take our pages back. */
void ctor_destroy(struct ctor_child *c);
/* Threads and components the subtree at node needs from us (the kernel quotas). */
void ctor_quota(const void *desc, int node, uint32_t *threads, uint32_t *comps);

#endif
