/*
 * hello - the smallest subsystem: says where it stands in the tree and exits.
 */
#include "rm/runtime.h"

#include <stdio.h>

int
hr_main(void)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	printf("hello from component %u at depth %u (parent %u), %lu pages of memory\n",
	       bi->comp_id, bi->depth, bi->parent_id, (unsigned long) bi->mem_pages);
	return 0;
}
