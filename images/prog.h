/*
 * prog.h - the programs an image may use: build/prog/NAME.elf, one per subsystems/NAME.
 * The builder needs each one's footprint (pages its loadable segments span, from
 * rm/elf.c's elf_parse) and its file size (it travels as a boot module).
 */
#ifndef IMAGES_PROG_H
#define IMAGES_PROG_H

#include <stdint.h>

struct prog {
	char name[64];
	uint64_t file_size;   /* bytes */
	uint64_t image_pages; /* pages spanned by the loadable segments */
	const char *why;      /* NULL if the ELF is loadable, else elf_parse's reason */
	int parsed;
};

/* Learn the programs in `dir` (every NAME.elf).  Exits through diag_fatal() if unreadable. */
void prog_scan(const char *dir);

/* The program called `name`, its ELF checked; NULL if there is none. */
const struct prog *prog_find(const char *name);

/* "chain hello root": every known program, sorted, for error messages. */
const char *prog_names(void);

/* Path of program `name`'s ELF (a static buffer). */
const char *prog_path(const char *name);

#endif
