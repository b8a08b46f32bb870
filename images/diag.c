/*
 * diag.c - the builder's error reports (diag.h).  Keeps the problem with the lowest line so
 * that checks may run in any order and the user still sees the first one in the file.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *file = "MANIFEST";
static char first[512];
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

void
diag_error(int line, const char *fmt, ...)
{
	va_list ap;

	count++;
	if (first_line >= 0 && first_line <= line)
		return;
	first_line = line;
	va_start(ap, fmt);
	vsnprintf(first, sizeof(first), fmt, ap);
	va_end(ap);
	if (context) {
		size_t len = strlen(first);
		snprintf(first + len, sizeof(first) - len, " (%s)", context);
	}
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
