/*
 * dtc.h - compiling the manifest with dtc (Debian's device-tree-compiler).  dtc is the
 * parser: it gives the blob the builder walks with libfdt, and an annotated source whose
 * comments carry the line of every node and property (lines.c reads those).
 */
#ifndef IMAGES_DTC_H
#define IMAGES_DTC_H

#include <stddef.h>

struct dtc_out {
	char *dtb; /* the flattened tree */
	size_t dtb_len;
	char *dts; /* `dtc -O dts -T -T`: the source with line annotations, NUL-terminated */
};

/*
 * Compile the manifest at `path` and learn its lines (lines_read).  Returns 0 and fills
 * out, or -1 after recording dtc's first complaint with diag_error() in the builder's terms
 * (syntax error, duplicate name).  Exits through diag_fatal() if dtc cannot be run at all.
 */
int dtc_compile(const char *path, struct dtc_out *out);

#endif
