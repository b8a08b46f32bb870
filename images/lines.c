/*
 * lines.c - the manifest's line map (lines.h).  dtc prints one node opening, one node
 * closing or one property per line, each followed by its source annotation; this walks
 * those lines with a stack of open nodes.  Values are only classified, never decoded:
 * libfdt reads the blob.  Lookups go through a hash index: the reader asks about every
 * node and property, and a manifest may have tens of thousands.
 */
#include "lines.h"
#include "alloc.h"
#include "manifest.h"
#include "source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	char *path;
	char *prop; /* NULL: the node itself */
	int line;
	unsigned form;
	unsigned last; /* the first entry of a key: the index of its last duplicate */
};

static struct entry *map;
static unsigned nmap, cap;
static unsigned *slots; /* the index: entry + 1 of the first entry of each key, 0 if empty */
static size_t nslots;	/* a power of two, at least twice nmap */

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

/*
 * "FILE:12:3-12:20" (possibly followed by more ranges) -> 12 if FILE is the manifest; for a
 * file it includes, the line of the directive that brought it in; 0 for what dtc made up
 * itself ("<no-file>:<no-line>", e.g. a phandle).
 */
static int
annotation_line(const char *ann, const char *path)
{
	size_t plen = strlen(path);
	char other[PATH_LEN_MAX];

	if (!strncmp(ann, path, plen) && ann[plen] == ':')
		return atoi(ann + plen + 1);
	if (*ann == '<')
		return 0;
	snprintf(other, sizeof(other), "%.*s", (int) strcspn(ann, ":"), ann);
	return source_include_line(other);
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

/*
 * The walk's open nodes, "/" included: the first STACK_MAX are recorded, which is every
 * node the reader may look up (NEST_MAX levels below "/", and the first one too deep, to
 * report it).  path_buf is "" for "/", else "/a/b"; saved[i] is its length before node i.
 */
#define STACK_MAX (NEST_MAX + 2)

static char path_buf[PATH_LEN_MAX];
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
	int name_len;

	while (name > s && name[-1] != ' ')
		name--;
	name_len = (int) (end - 2 - name);
	if (depth++ >= STACK_MAX)
		return;
	saved[depth - 1] = len;
	/* cut as node_path() cuts, so that the reader finds a name too long to be valid */
	if (!(name_len == 1 && *name == '/'))
		snprintf(path_buf + len, sizeof(path_buf) - len, "/%.*s",
			 name_len < PATH_NAME_MAX ? name_len : PATH_NAME_MAX, name);
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
	else if (ann && end > s && end[-1] == ';' && *s != '/' && depth <= STACK_MAX)
		property(cur_path(), s, end - 1, line);
}

static uint64_t
hash(const char *path, const char *prop)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (const char *p = path; *p; p++)
		h = (h ^ (unsigned char) *p) * 1099511628211ull;
	/* 0xfe and 0xff are in no path: "a" + node and "a" + property "" differ */
	h = (h ^ (prop ? 0xffu : 0xfeu)) * 1099511628211ull;
	for (const char *p = prop ? prop : ""; *p; p++)
		h = (h ^ (unsigned char) *p) * 1099511628211ull;
	return h;
}

static int
same_key(const struct entry *e, const char *path, const char *prop)
{
	return !strcmp(e->path, path) && (prop ? e->prop && !strcmp(e->prop, prop) : !e->prop);
}

/* The slot of key (path, prop): the one holding its first entry, or the empty one it would take. */
static size_t
slot_of(const char *path, const char *prop)
{
	size_t i = (size_t) hash(path, prop) & (nslots - 1);

	while (slots[i] && !same_key(&map[slots[i] - 1], path, prop))
		i = (i + 1) & (nslots - 1);
	return i;
}

static void
build_index(void)
{
	free(slots);
	for (nslots = 16; nslots < 2 * (size_t) nmap; nslots *= 2)
		;
	slots = alloc_zero(nslots, sizeof(*slots));
	for (unsigned e = 0; e < nmap; e++) {
		size_t i = slot_of(map[e].path, map[e].prop);
		if (!slots[i])
			slots[i] = e + 1;
		map[slots[i] - 1].last = e;
	}
}

static struct entry *
find(const char *path, const char *prop)
{
	size_t i = slot_of(path, prop);

	return slots[i] ? &map[slots[i] - 1] : NULL;
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
	build_index();
}

int
lines_prop_last(const char *path, const char *prop)
{
	struct entry *e = find(path, prop);

	return e ? map[e->last].line : 0;
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
