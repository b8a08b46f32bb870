/*
 * prop.h - reading one node's properties with their types checked.  A blob stores bytes
 * only; the form each value was written in comes from the line map (lines.h), so
 * `hz = "abc"` is a type error even though it is four bytes long.  Every problem is
 * recorded with diag_error() at the property's line.
 */
#ifndef IMAGES_PROP_H
#define IMAGES_PROP_H

#include <stdint.h>

struct prop_ctx {
	const void *fdt;
	int off;	  /* the node in fdt */
	const char *path; /* its full path, the key of the line map */
	const char *what; /* how messages name it: "subsystem 'web'" */
	int line;	  /* its own line, used for properties the map does not know */
};

/* Line of property `name` of the node (the node's line if it has no such property). */
int prop_line(const struct prop_ctx *c, const char *name);

/* 1 if the node has property `name`. */
int prop_has(const struct prop_ctx *c, const char *name);

/* Each getter returns 1 with *out set, 0 if the property is absent, -1 if it is malformed. */
int prop_flag(const struct prop_ctx *c, const char *name);
int prop_string(const struct prop_ctx *c, const char *name, const char **out);
int prop_u32(const struct prop_ctx *c, const char *name, uint32_t *out);
/* min..max cells into out[]; *n is how many.  usage names them in the message: "<LO HI>". */
int prop_cells(const struct prop_ctx *c, const char *name, uint32_t *out, unsigned min,
	       unsigned max, unsigned *n, const char *usage);

/* Report every property of the node whose name is not in the NULL-terminated `known`. */
void prop_unknown(const struct prop_ctx *c, const char *const known[]);

/* Report `value` of property `name` unless lo <= value <= hi. Returns 0 if in range, else -1. */
int prop_range(const struct prop_ctx *c, const char *name, uint32_t value, uint32_t lo,
	       uint32_t hi);

#endif
