/*
 * lines.c - the manifest's line map (lines.h).  dtc prints one node opening, one node
 * closing or one property per line, each followed by its source annotation; this walks
 * those lines with a stack of open nodes.  Values are only classified, never decoded:
 * libfdt reads the blob.
 */
#include "lines.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *path;
	char *prop; /* NULL: the node itself */
	int line;
	unsigned form;
};

static struct entry *map;
static unsigned nmap, cap;

static void
add(const char *path, const char *prop, size_t prop_len, int line, unsigned form)
{
	if (nmap == cap) {
		cap = cap ? 2 * cap : 256;
		map = alloc_resize(map, cap * sizeof(*map));
	}
	map[nmap].path = alloc_string(path, strlen(path));
	map[nmap].prop = prop ? alloc_string(prop, prop_len) : NULL;
	map[nmap].line = line;
	map[nmap].form = form;
	nmap++;
}

/* "FILE:12:3-12:20" (possibly followed by more ranges) -> 12 if FILE is the manifest. */
static int
annotation_line(const char *ann, const char *path)
{
	size_t plen = strlen(path);

	if (strncmp(ann, path, plen) || ann[plen] != ':')
		return 0;
	return atoi(ann + plen + 1);
}

/* Skip one value piece starting at v: "...", <...>, [...] or anything up to a comma. */
static const char *
skip_piece(const char *v, const char *end)
{
	char close = *v == '"' ? '"' : *v == '<' ? '>' : *v == '[' ? ']' : ',';

	for (v++; v < end && *v != close; v++)
		if (*v == '\\' && close == '"' && v + 1 < end)
			v++;
	return v < end && close != ',' ? v + 1 : v;
}

static unsigned
value_form(const char *v, const char *end)
{
	unsigned form = 0, pieces = 0;

	while (v < end) {
		form |= *v == '"' ? FORM_STRING : *v == '<' ? FORM_CELLS : FORM_OTHER;
		pieces++;
		v = skip_piece(v, end);
		while (v < end && (*v == ',' || *v == ' '))
			v++;
	}
	return pieces > 1 ? form | FORM_MANY : form;
}

/* "lbl: name = value;" or "name;" (content without the annotation) under node `path`. */
static void
property(const char *path, const char *s, const char *end, int line)
{
	const char *name, *value;
	size_t len;

	for (;;) { /* labels are tokens ending in ':' */
		len = strcspn(s, " ;");
		if (len && s[len - 1] == ':' && s[len] == ' ')
			s += len + 1;
		else
			break;
	}
	name = s;
	if (!strncmp(s + len, " = ", 3)) {
		value = s + len + 3;
		add(path, name, len, line, value_form(value, end));
	} else {
		add(path, name, len, line, FORM_EMPTY);
	}
}

#define STACK_MAX 64

/* The walk's open nodes: path is "" for "/", else "/a/b"; saved[i] is its length before node i. */
static char path_buf[4096];
static size_t saved[STACK_MAX];
static unsigned depth;

static const char *
cur_path(void)
{
	return path_buf[0] ? path_buf : "/";
}

/* "lbl: name {" (without the annotation) opens a node. */
static void
open_node(const char *s, const char *end, int line)
{
	const char *name = end - 2;
	size_t len = strlen(path_buf);

	while (name > s && name[-1] != ' ')
		name--;
	if (depth < STACK_MAX)
		saved[depth] = len;
	depth++;
	if (!(end - 2 - name == 1 && *name == '/'))
		snprintf(path_buf + len, sizeof(path_buf) - len, "/%.*s", (int) (end - 2 - name),
			 name);
	add(cur_path(), NULL, 0, line, 0);
}

static void
close_node(void)
{
	if (depth && --depth < STACK_MAX)
		path_buf[saved[depth]] = 0;
}

/* One output line: tabs, content, then the annotation comment (some lines have none). */
static void
one_line(const char *s, const char *end, const char *path)
{
	const char *ann = NULL;
	int line = 0;

	while (s < end && (*s == '\t' || *s == ' '))
		s++;
	for (const char *p = s; p + 4 <= end; p++)
		if (!strncmp(p, " /* ", 4))
			ann = p;
	if (ann) {
		line = annotation_line(ann + 4, path);
		end = ann;
	}
	if (end - s >= 2 && end[-1] == '{' && end[-2] == ' ')
		open_node(s, end, line);
	else if (end - s == 2 && !strncmp(s, "};", 2))
		close_node();
	else if (ann && end > s && end[-1] == ';' && *s != '/')
		property(cur_path(), s, end - 1, line);
}

void
lines_read(const char *dts, const char *path)
{
	for (unsigned i = 0; i < nmap; i++) {
		free(map[i].path);
		free(map[i].prop);
	}
	nmap = 0;
	depth = 0;
	path_buf[0] = 0;
	while (*dts) {
		size_t len = strcspn(dts, "\n");
		one_line(dts, dts + len, path);
		dts += len + (dts[len] == '\n');
	}
}

static struct entry *
find(const char *path, const char *prop)
{
	for (unsigned i = 0; i < nmap; i++) {
		if (strcmp(map[i].path, path))
			continue;
		if (prop ? map[i].prop && !strcmp(map[i].prop, prop) : !map[i].prop)
			return &map[i];
	}
	return NULL;
}

int
lines_prop_last(const char *path, const char *prop)
{
	int line = 0;

	for (unsigned i = 0; i < nmap; i++)
		if (!strcmp(map[i].path, path) && map[i].prop && !strcmp(map[i].prop, prop))
			line = map[i].line;
	return line;
}

int
lines_node(const char *path)
{
	struct entry *e = find(path, NULL);

	return e ? e->line : 0;
}

int
lines_prop(const char *path, const char *prop, unsigned *form)
{
	struct entry *e = find(path, prop);

	*form = e ? e->form : FORM_UNKNOWN;
	return e ? e->line : 0;
}
