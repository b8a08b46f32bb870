/*
 * prog.c - the catalog of built programs (prog.h).  ELF files are read and checked only
 * when the manifest uses them, with the same elf_parse() the kernel and rm/ctor.c use.
 */
#include "prog.h"
#include "diag.h"
#include "kernel/abi/hr_layout.h"
#include "lib/elf.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG_MAX 256

static struct prog progs[PROG_MAX];
static unsigned nprogs;
static const char *prog_dir;
static char names[PROG_MAX * 16];

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct prog *) a)->name, ((const struct prog *) b)->name);
}

void
prog_scan(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		diag_fatal("cannot read the programs directory '%s': %s", dir, strerror(errno));
	prog_dir = dir;
	while ((e = readdir(d)) && nprogs < PROG_MAX) {
		size_t len = strlen(e->d_name);
		if (len <= 4 || len - 4 >= sizeof(progs[0].name) ||
		    strcmp(e->d_name + len - 4, ".elf"))
			continue;
		snprintf(progs[nprogs++].name, sizeof(progs[0].name), "%.*s", (int) (len - 4),
			 e->d_name);
	}
	closedir(d);
	qsort(progs, nprogs, sizeof(progs[0]), by_name);
	for (unsigned i = 0; i < nprogs; i++) {
		size_t used = strlen(names);
		snprintf(names + used, sizeof(names) - used, "%s%s", i ? " " : "", progs[i].name);
	}
}

const char *
prog_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s.elf", prog_dir, name);
	return path;
}

static uint64_t
span_pages(const struct elf_image *img)
{
	uint64_t pages = 0;

	for (unsigned s = 0; s < img->nseg; s++) {
		uint64_t lo = img->seg[s].vaddr / HR_PAGE_SIZE;
		uint64_t hi =
			(img->seg[s].vaddr + img->seg[s].memsz + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;
		pages += hi - lo;
	}
	return pages;
}

static void
parse(struct prog *p)
{
	FILE *f = fopen(prog_path(p->name), "rb");
	struct elf_image img;
	char *buf = NULL;
	long len;

	p->parsed = 1;
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t) len + 1)) || fread(buf, 1, (size_t) len, f) != (size_t) len) {
		p->why = "cannot be read";
	} else if (!elf_parse(buf, (uint64_t) len, &img, &p->why)) {
		p->file_size = (uint64_t) len;
		p->image_pages = span_pages(&img);
	}
	free(buf);
	if (f)
		fclose(f);
}

const struct prog *
prog_find(const char *name)
{
	for (unsigned i = 0; i < nprogs; i++) {
		if (strcmp(progs[i].name, name))
			continue;
		if (!progs[i].parsed)
			parse(&progs[i]);
		return &progs[i];
	}
	return NULL;
}

const char *
prog_names(void)
{
	return names;
}
