/*
 * alias.h - memory delegation: every user mapping is a node in a derivation tree.
 *
 * A component aliases a page it holds into a child; the new mapping's node hangs under
 * the source's.  Removing a mapping removes everything derived from it, in the whole
 * subtree.  The node of a mapping is found from its page-table entry (its shadow word), so
 * alias and remove cost two page-table walks and O(1) list operations at any depth.
 */
#ifndef ALIAS_H
#define ALIAS_H

#include "kernel.h"

struct comp;
struct thd;

void alias_init(uint64_t nodes);
/* A mapping with no parent (the kernel's gifts to the root); 0, HR_EEXIST or HR_ENOMEM
 * (no node, or no page table within c's budget), either changing nothing. */
long alias_origin(struct comp *c, uint64_t va, uint64_t pa, unsigned perms);
/* Remove every mapping of c and everything derived from them. */
void alias_comp_clear(struct comp *c);
uint64_t alias_free_nodes(void);
/* Set c's bound to pages, promising it that many mapping nodes (what it may map): 0, or
 * HR_ENOMEM (changing nothing) if the nodes not promised yet cannot cover the growth. */
long alias_bound(struct comp *c, uint64_t pages);

#endif
