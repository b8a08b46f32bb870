/*
 * memory.h - the memory rule: every subsystem's hard memory reservation must hold what
 * it needs itself plus the reservations of its children.  The arithmetic mirrors what
 * rm/ctor.c spends when it builds a subsystem, so an image that passes here fits at run
 * time.  docs/MANIFEST.md states the rule.
 */
#ifndef IMAGES_MEMORY_H
#define IMAGES_MEMORY_H

#include "manifest.h"
#include "rm/ctor.h" /* CTOR_*: the rule's constants, shared with the constructor */

#define MEMORY_USABLE_PERCENT 85 /* of the guest's RAM; the kernel keeps the rest */

/* Pages of RAM the root of img may hand out: memory-mib * 256 * 85 / 100. */
uint32_t memory_usable_pages(const struct image *img);

/*
 * Set mem_pages on every subsystem and component of img (raising the outer copies of a
 * sweep to what they need) and check the rule, with diag_error() at the memory-kib line of
 * the first node that does not fit.  desc_pages: pages of the image's descriptor.
 */
void memory_check(struct image *img, uint64_t desc_pages);

#endif
