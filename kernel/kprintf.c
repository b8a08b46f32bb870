/*
 * kprintf.c - formatted kernel console output: %d %i %u %x %lx %lu %ld %p %s %c %%, with
 * optional zero padding and width.  Enough for diagnostics; nothing parses it but people
 * and the test runner.
 */
#include "kernel.h"
#include "console.h"
#include "trace.h"

int kdebug;

static void
put_num(uint64_t v, unsigned base, int neg, int width, char pad)
{
	char buf[24];
	int n = 0;

	do {
		buf[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		buf[n++] = '-';
	while (width-- > n)
		console_kputc(pad);
	while (n)
		console_kputc(buf[--n]);
}

/* A string argument may be a user's (a name a refusal quotes): a line break or an escape
 * in it must not start a line that looks like another writer's. */
static char
shown(char ch)
{
	return (unsigned char) ch < 0x20 || ch == 0x7f ? '?' : ch;
}

static uint64_t
get_arg(va_list *ap, int lng, int sgn)
{
	if (lng)
		return sgn ? (uint64_t) va_arg(*ap, long) : va_arg(*ap, unsigned long);
	return sgn ? (uint64_t) (long) va_arg(*ap, int) : va_arg(*ap, unsigned int);
}

void
kvprintf(const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	for (; *fmt; fmt++) {
		int lng = 0, width = 0;
		char pad = ' ';
		if (*fmt != '%') {
			console_kputc(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l')
			lng = 1, fmt++;
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = (int64_t) get_arg(&aq, lng, 1);
			put_num(v < 0 ? (uint64_t) -v : (uint64_t) v, 10, v < 0, width, pad);
			break;
		}
		case 'u':
			put_num(get_arg(&aq, lng, 0), 10, 0, width, pad);
			break;
		case 'x':
			put_num(get_arg(&aq, lng, 0), 16, 0, width, pad);
			break;
		case 'p':
			put_num((uint64_t) va_arg(aq, void *), 16, 0, 16, '0');
			break;
		case 's': {
			const char *s = va_arg(aq, const char *);
			for (s = s ? s : "(null)"; *s; s++)
				console_kputc(shown(*s));
			break;
		}
		case 'c':
			console_kputc(shown((char) va_arg(aq, int)));
			break;
		default:
			console_kputc('%');
			if (*fmt)
				console_kputc(*fmt);
			else
				fmt--;
		}
	}
	va_end(aq);
	console_drain();
}

void
kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

_Noreturn void
panic(const char *fmt, ...)
{
	va_list ap;
	kprintf("\n[k] PANIC: ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	trace_end();
	console_sync();
	hw_poweroff(0x7f);
}
