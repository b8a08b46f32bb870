/* string.c - the few libc string functions the freestanding kernel (and gcc) needs. */
#include "kernel.h"

/* Both go through the arch layer, 8 bytes a store or move and then the rest a byte at a
 * time (hw_fill, hw_copy): a byte loop took 5 instructions a byte, and the kernel copies
 * every received frame into its port's ring on the way from the interrupt to its owner. */
void *
memset(void *d, int c, size_t n)
{
	hw_fill(d, (uint8_t) c, n);
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
