/*
 * source.h - the manifest's own text, read once before dtc runs: what dtc would misreport
 * or choke on (a huge file, an empty one, a NUL byte) is refused here with a line, and the
 * lines of its /include/ and /incbin/ directives are kept, so that what dtc says about
 * another file can be reported at the manifest line that brought that file in.
 */
#ifndef IMAGES_SOURCE_H
#define IMAGES_SOURCE_H

/* dtc's time grows with the square of the input: 1 MiB takes it about a second. */
#define SOURCE_BYTES_MAX (1024 * 1024)

/*
 * Read the manifest at `path` and learn its directives.  Returns 0 if dtc may compile it,
 * or -1 after diag_error(): larger than SOURCE_BYTES_MAX (line 1), only white space (line 1),
 * a NUL byte (its line).  A \x escape without hex digits is reported at its line and 0
 * returned: dtc, which dies on it without a line, may still find an earlier problem.
 * Exits through diag_fatal() if the file cannot be read.
 */
int source_read(const char *path);

/*
 * The line of the directive that names `file` (as written, or as dtc names it: the written
 * name under the manifest's directory); failing that the first directive's line (the file
 * came in through a nested include); 0 if the manifest has no directive.  NULL: the first.
 */
int source_include_line(const char *file);

#endif
