/*
 * source.c - the manifest's text before dtc (source.h).  The directive scan skips comments,
 * strings and character literals the way dtc's lexer does, so a "/include/" inside a
 * comment or an args string is not taken for a directive.  It also finds the one escape
 * dtc dies on without saying where: \x without a hex digit.
 */
#include "source.h"
#include "alloc.h"
#include "diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct directive {
	int line;
	char *name; /* as written between the quotes */
};

static struct directive *dirs;
static unsigned ndirs;

static void
add_directive(int line, const char *name, size_t len)
{
	dirs = alloc_resize(dirs, (ndirs + 1) * sizeof(*dirs));
	dirs[ndirs].line = line;
	dirs[ndirs].name = alloc_string(name, len);
	ndirs++;
}

/* Past the comment, string or literal that starts at s, counting the newlines it holds. */
static const char *
skip_token(const char *s, int *line)
{
	const char *end = s[1] == '*' ? "*/" : s[1] == '/' ? "\n" : NULL;
	char quote = *s;

	if (end) {
		const char *e = strstr(s + 2, end);
		e = e ? e + strlen(end) : s + strlen(s);
		for (const char *p = s; p < e; p++)
			*line += *p == '\n';
		return e;
	}
	for (s++; *s && *s != quote; s++) {
		if (*s == '\\' && s[1] == 'x' && !isxdigit((unsigned char) s[2]))
			diag_error(*line, "\\x used with no following hex digits");
		if (*s == '\\' && s[1])
			s++;
		*line += *s == '\n';
	}
	return *s ? s + 1 : s;
}

/* `/include/ "NAME"` or `/incbin/ ("NAME", ...)` at s: remember NAME and its line. */
static void
directive(const char *s, int line)
{
	const char *name, *end;

	s += strcspn(s, "\"\n");
	if (*s != '"')
		return;
	name = s + 1;
	end = name + strcspn(name, "\"\n");
	add_directive(line, name, (size_t) (end - name));
}

static void
scan(const char *s)
{
	int line = 1;

	while (*s) {
		if (*s == '\n')
			line++;
		if ((s[0] == '/' && (s[1] == '*' || s[1] == '/')) || *s == '"' || *s == '\'') {
			s = skip_token(s, &line);
			continue;
		}
		if (!strncmp(s, "/include/", 9) || !strncmp(s, "/incbin/", 8))
			directive(s + 8, line);
		s++;
	}
}

static int
line_of(const char *text, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/* At most SOURCE_BYTES_MAX + 1 bytes of the file, NUL-terminated; *len is how many. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;

	if (!f)
		diag_fatal("cannot read the manifest '%s': %s", path, strerror(errno));
	text = alloc_zero(SOURCE_BYTES_MAX + 2, 1);
	*len = fread(text, 1, SOURCE_BYTES_MAX + 1, f);
	if (ferror(f))
		diag_fatal("cannot read the manifest '%s': %s", path, strerror(errno));
	fclose(f);
	return text;
}

int
source_read(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	size_t nul = strlen(text);
	int ok = -1;

	if (len > SOURCE_BYTES_MAX)
		diag_error(1, "the manifest is larger than %d bytes (1 MiB)", SOURCE_BYTES_MAX);
	else if (nul < len)
		diag_error(line_of(text, nul), "the manifest contains a NUL byte");
	else if (strspn(text, " \t\r\n") == len)
		diag_error(1, "empty manifest: it defines no images");
	else
		ok = 0;
	if (!ok)
		scan(text);
	free(text);
	return ok;
}

int
source_include_line(const char *file)
{
	size_t flen = file ? strlen(file) : 0;

	for (unsigned i = 0; file && i < ndirs; i++) {
		size_t n = strlen(dirs[i].name);
		if (!strcmp(file, dirs[i].name) || (flen > n && file[flen - n - 1] == '/' &&
						    !strcmp(file + flen - n, dirs[i].name)))
			return dirs[i].line;
	}
	return ndirs ? dirs[0].line : 0;
}
