/*
 * hrimage.c - the image builder: MANIFEST in, per image a boot descriptor, a GRUB menu
 * and an environment file out (images/mkiso.sh makes the ISO).  Everything is checked
 * before anything is written; the first problem in file order is reported as
 * `MANIFEST:LINE: error: ...`.  Usage: hrimage --help.
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

struct opts {
	const char *manifest, *programs, *out, *image;
	int list, dflt, check;
};

static const char usage[] =
	"usage: hrimage MANIFEST --programs DIR (--check | --list | --default | --out DIR [--image "
	"NAME])\n"
	"  --programs DIR  where the built programs are (NAME.elf)\n"
	"  --check         validate only\n"
	"  --list          print the name of every image that can be built (sweeps expanded)\n"
	"  --default       print the name of the default image\n"
	"  --out DIR       write DIR/NAME/{descriptor.dtb,grub.cfg,image.env} for every image,\n"
	"                  or only NAME with --image, and print a table of each\n";

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
		} else if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--default") ||
			   !strcmp(argv[i], "--check")) {
			*(argv[i][2] == 'l'   ? &o->list
			  : argv[i][2] == 'd' ? &o->dflt
					      : &o->check) = 1;
		} else if (argv[i][0] == '-' || o->manifest) {
			diag_fatal("unexpected argument '%s'\n%s", argv[i], usage);
		} else {
			o->manifest = argv[i];
		}
	}
	if (!o->manifest || !o->programs || o->list + o->dflt + o->check + !!o->out != 1 ||
	    (o->image && !o->out))
		diag_fatal("missing or conflicting arguments\n%s", usage);
}

/* Read, expand and check the whole manifest; exit 1 after reporting the first problem. */
static struct image *
load(const struct opts *o, struct image **declared)
{
	struct dtc_out dtc;
	struct image *list;

	diag_file(o->manifest);
	if (!source_read(o->manifest) && !dtc_compile(o->manifest, &dtc) &&
	    fdt_check_header(dtc.dtb))
		diag_error(0, "dtc produced a malformed blob");
	if (diag_report())
		exit(1);
	prog_scan(o->programs);
	*declared = manifest_read(dtc.dtb);
	list = sweep_images(*declared);
	for (struct image *i = list; i; i = i->next)
		image_check(i);
	if (diag_report())
		exit(1);
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
		diag_error(0, "unknown image '%s' (images: %s)", o->image, all);
		diag_report();
		exit(1);
	}
	for (i = list; i; i = i->next) {
		if (o->image && strcmp(i->name, o->image))
			continue;
		out_image(i, o->out, o->manifest);
		table_print(i, stdout);
	}
}

int
main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct image *declared, *list;

	parse_args(argc, argv, &o);
	list = load(&o, &declared);
	if (o.list)
		for (struct image *i = list; i; i = i->next)
			printf("%s\n", i->name);
	if (o.dflt)
		for (struct image *i = list; i; i = i->next)
			if (i->is_default)
				printf("%s\n", i->name);
	if (o.out)
		build(&o, list);
	return 0;
}
