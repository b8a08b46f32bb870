/*
 * diag.c - the builder's error reports (diag.h).  Keeps the problem with the lowest line so
 * that checks may run in any order and the user still sees the first one in the file.  A
 * report is one line whatever the manifest holds: control characters are escaped and long
 * messages are cut.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *file = "MANIFEST";
static char first[DIAG_MSG_MAX + 1];
static int first_line = -1;
static unsigned count;
static const char *context;

void
diag_context(const char *c)
{
	context = c;
}

void
diag_file(const char *path)
{
	file = path;
}

/* src into out[0..DIAG_MSG_MAX], control characters as \n or \xNN, "..." if it is cut. */
static void
printable(char *out, const char *src, int src_cut)
{
	size_t o = 0;

	for (; *src && o + 4 <= DIAG_MSG_MAX - 3; src++) {
		unsigned char c = (unsigned char) *src;
		if (c == '\n')
			o += (size_t) sprintf(out + o, "\\n");
		else if (c < 0x20 || c == 0x7f)
			o += (size_t) sprintf(out + o, "\\x%02x", c);
		else
			out[o++] = (char) c;
	}
	if (*src || src_cut)
		o += (size_t) sprintf(out + o, "...");
	out[o] = 0;
}

void
diag_error(int line, const char *fmt, ...)
{
	char raw[2 * DIAG_MSG_MAX];
	va_list ap;
	int n;

	count++;
	if (first_line >= 0 && first_line <= line)
		return;
	first_line = line;
	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (context && n >= 0 && (size_t) n < sizeof(raw))
		n += snprintf(raw + n, sizeof(raw) - (size_t) n, " (%s)", context);
	printable(first, raw, n < 0 || (size_t) n >= sizeof(raw));
}

const char *
diag_cut(const char *s, char buf[DIAG_SHOW_MAX + 4])
{
	snprintf(buf, DIAG_SHOW_MAX + 4, "%.*s%s", DIAG_SHOW_MAX, s,
		 strlen(s) > DIAG_SHOW_MAX ? "..." : "");
	return buf;
}

unsigned
diag_count(void)
{
	return count;
}

int
diag_report(void)
{
	if (!count)
		return 0;
	if (first_line > 0)
		fprintf(stderr, "%s:%d: error: %s\n", file, first_line, first);
	else
		fprintf(stderr, "%s: error: %s\n", file, first);
	return 1;
}

void
diag_fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("hrimage: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}
