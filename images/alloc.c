/*
 * alloc.c - memory for the builder (alloc.h).
 */
#include "alloc.h"
#include "diag.h"

#include <stdlib.h>
#include <string.h>

void *
alloc_zero(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		diag_fatal("out of memory");
	return p;
}

void *
alloc_resize(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		diag_fatal("out of memory");
	return q;
}

char *
alloc_string(const char *s, size_t len)
{
	char *c = alloc_zero(len + 1, 1);

	memcpy(c, s, len);
	return c;
}
