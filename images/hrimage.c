/*
 * hrimage.c - the image builder: MANIFEST in (and the test images' own files after it), per
 * image a boot descriptor, a GRUB menu and an environment file out (images/mkiso.sh makes
 * the ISO).  Everything is checked before anything is written; the first problem in file
 * order is reported as `FILE:LINE: error: ...`.  Usage: hrimage --help.
 */
#include "diag.h"
#include "dtc.h"
#include "image.h"
#include "manifest.h"
#include "out.h"
#include "prog.h"
#include "source.h"
#include "sweep.h"
#include "table.h"

#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANIFESTS_MAX 256

struct opts {
	const char *manifest[MANIFESTS_MAX]; /* the first names the default image */
	unsigned nmanifest;
	const char *programs, *out, *image;
	int list, dflt, check, trace;
};

static const char usage[] =
	"usage: hrimage MANIFEST [TEST.dts...] --programs DIR (--check | --list | --default |\n"
	"       --out DIR [--image NAME] [--trace])\n"
	"  MANIFEST        the distribution's images, one of them the default; each TEST.dts\n"
	"                  after it holds more images (a test's, beside its .expect)\n"
	"  --programs DIR  where the built programs are (NAME.elf)\n"
	"  --check         validate only\n"
	"  --list          print the name of every image that can be built (sweeps expanded)\n"
	"  --default       print the name of the default image\n"
	"  --out DIR       write DIR/NAME/{descriptor.dtb,grub.cfg,image.env} for every image,\n"
	"                  or only NAME with --image, and print a table of each\n"
	"  --trace         write them as if each image said trace = <1> (make trace)\n";

static const char *
value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		diag_fatal("%s needs a value\n%s", argv[*i], usage);
	return argv[++*i];
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(argv[i], "--programs")) {
			o->programs = value(argc, argv, &i);
		} else if (!strcmp(argv[i], "--out")) {
			o->out = value(argc, argv, &i);
		} else if (!strcmp(argv[i], "--image")) {
			o->image = value(argc, argv, &i);
		} else if (!strcmp(argv[i], "--trace")) {
			o->trace = 1;
		} else if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--default") ||
			   !strcmp(argv[i], "--check")) {
			*(argv[i][2] == 'l'   ? &o->list
			  : argv[i][2] == 'd' ? &o->dflt
					      : &o->check) = 1;
		} else if (argv[i][0] == '-' || o->nmanifest == MANIFESTS_MAX) {
			diag_fatal("unexpected argument '%s'\n%s", argv[i], usage);
		} else {
			o->manifest[o->nmanifest++] = argv[i];
		}
	}
	if (!o->nmanifest || !o->programs || o->list + o->dflt + o->check + !!o->out != 1 ||
	    (o->image && !o->out))
		diag_fatal("missing or conflicting arguments\n%s", usage);
}

/* An image of this file named like one of an earlier file's. */
static void
check_unique(const struct image *mine, const struct image *before)
{
	for (const struct image *i = mine; i; i = i->next)
		for (const struct image *j = before; j; j = j->next)
			if (!strcmp(i->name, j->name))
				diag_error(i->line, "image name '%s' is used in %s already",
					   i->name, j->file);
}

/* Read, expand and check one manifest file; exit 1 after reporting its first problem.
 * Lines are the file's own (lines.c keeps one file's map at a time), so a file is done
 * before the next is read. */
static struct image *
load_one(const char *file, int main, const struct image *before)
{
	struct dtc_out dtc;
	struct image *list;

	diag_file(file);
	if (!source_read(file) && !dtc_compile(file, &dtc) && fdt_check_header(dtc.dtb))
		diag_error(0, "dtc produced a malformed blob");
	if (diag_report())
		exit(1);
	list = sweep_images(manifest_read(dtc.dtb, file, main));
	for (struct image *i = list; i; i = i->next)
		image_check(i);
	check_unique(list, before);
	if (diag_report())
		exit(1);
	return list;
}

/* Every image of every file, in order. */
static struct image *
load(const struct opts *o)
{
	struct image *list = NULL, **tail = &list;

	prog_scan(o->programs);
	for (unsigned f = 0; f < o->nmanifest; f++) {
		*tail = load_one(o->manifest[f], f == 0, list);
		while (*tail)
			tail = &(*tail)->next;
	}
	return list;
}

static void
names(const struct image *list, char *buf, size_t len)
{
	buf[0] = 0;
	for (const struct image *i = list; i; i = i->next) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", used ? " " : "", i->name);
	}
}

static void
build(const struct opts *o, const struct image *list)
{
	const struct image *i;
	char all[4096];

	for (i = list; o->image && i && strcmp(i->name, o->image); i = i->next)
		;
	if (o->image && !i) {
		names(list, all, sizeof(all));
		diag_file(o->manifest[0]);
		diag_error(0, "unknown image '%s' (images: %s)", o->image, all);
		diag_report();
		exit(1);
	}
	for (i = list; i; i = i->next) {
		if (o->image && strcmp(i->name, o->image))
			continue;
		out_image(i, o->out, i->file);
		table_print(i, stdout);
	}
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct image *list;

	parse_args(argc, argv, &o);
	list = load(&o);
	if (o.list)
		for (struct image *i = list; i; i = i->next)
			printf("%s\n", i->name);
	if (o.dflt)
		for (struct image *i = list; i; i = i->next)
			if (i->is_default)
				printf("%s\n", i->name);
	for (struct image *i = list; o.trace && i; i = i->next)
		i->trace = 1;
	if (o.out)
		build(&o, list);
	return 0;
}
