/*
 * stdio.c - printf, vprintf, puts and putchar that write each call with one system
 * call.  musl's stdout FILE is not locked for threads it did not create; formatting into
 * a buffer on the caller's stack instead makes every line atomic on the serial console,
 * across threads and components, which is what the test runner reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int printf(const char *fmt, ...);
int vprintf(const char *fmt, va_list ap);
int puts(const char *s);
int putchar(int c);

static int
emit(const char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(1, buf + done, n - done);
		/* 0: the console's ring is full; writing again drains it (kernel/console.c) */
		if (w < 0)
			return -1;
		done += (size_t) w;
	}
	return (int) n;
}

int
vprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n < 0)
		return n;
	return emit(buf, (size_t) n < sizeof(buf) ? (size_t) n : sizeof(buf) - 1);
}

int
printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int
puts(const char *s)
{
	return printf("%s\n", s) < 0 ? EOF : 0;
}

int
putchar(int c)
{
	char ch = (char) c;
	return emit(&ch, 1) < 0 ? EOF : (unsigned char) c;
}
