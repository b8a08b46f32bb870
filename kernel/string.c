/* string.c - the few libc string functions the freestanding kernel (and gcc) needs. */
#include "kernel.h"

/* Zeroing whole aligned words, the common case (page-table pairs, object tables), goes 8
 * bytes a store through the arch layer; anything else a byte at a time.  memcpy goes
 * through the arch layer always (hw_copy: 8 bytes a move, the rest a byte). */
void *
memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	if (!c && !((uintptr_t) d % 8) && !(n % 8)) {
		hw_zero(d, n);
		return d;
	}
	while (n--)
		*p++ = (unsigned char) c;
	return d;
}

void *
memcpy(void *d, const void *s, size_t n)
{
	hw_copy(d, s, n);
	return d;
}

void *
memmove(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	if (p < q) {
		while (n--)
			*p++ = *q++;
	} else {
		while (n--)
			p[n] = q[n];
	}
	return d;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;
	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t
strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int
strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char) *a - (unsigned char) *b;
		if (!*a)
			return 0;
	}
	return 0;
}
