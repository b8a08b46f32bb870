/*
 * dtc.c - running dtc on the manifest and turning its complaints into the builder's
 * `FILE:LINE: error:` form (dtc.h).  dtc writes to temporary files, so a large manifest
 * cannot fill a pipe while we wait.
 */
#include "dtc.h"
#include "diag.h"
#include "lines.h"
#include "source.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *
slurp(FILE *f, size_t *len)
{
	long n;
	char *buf;

	fflush(f);
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		diag_fatal("cannot read dtc's output: %s", strerror(errno));
	if (!(buf = malloc((size_t) n + 1)) || fread(buf, 1, (size_t) n, f) != (size_t) n)
		diag_fatal("cannot read dtc's output");
	buf[n] = 0;
	*len = (size_t) n;
	return buf;
}

/* Run dtc with `argv`; its stdout and stderr end up in *out and *err.  Returns its status. */
static int
run(char *const argv[], char **out, size_t *out_len, char **err)
{
	FILE *fo = tmpfile(), *fe = tmpfile();
	size_t err_len;
	int status;
	pid_t pid;

	if (!fo || !fe || (pid = fork()) < 0)
		diag_fatal("cannot run dtc: %s", strerror(errno));
	if (pid == 0) {
		dup2(fileno(fo), 1);
		dup2(fileno(fe), 2);
		execvp(argv[0], argv);
		fprintf(stderr, "FATAL ERROR: cannot run dtc (install device-tree-compiler): %s\n",
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		diag_fatal("cannot wait for dtc: %s", strerror(errno));
	*out = slurp(fo, out_len);
	*err = slurp(fe, &err_len);
	fclose(fo);
	fclose(fe);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* "Duplicate node name" -> "duplicate node name": the builder's messages are lower case. */
static void
report(int line, const char *msg)
{
	diag_error(line, "%c%s", tolower((unsigned char) msg[0]), msg + 1);
}

/* dtc's checks: "PATH: Duplicate node name" or "PATH:PROP: Duplicate property name". */
static void
report_check(int line, const char *check, char *what)
{
	char *colon = strstr(what, ": "), *slash, *sep;

	if (!colon)
		return report(line, what);
	*colon = 0;
	if (!strcmp(check, "duplicate_node_names") && (slash = strrchr(what, '/'))) {
		*slash = 0;
		return diag_error(line, "duplicate name '%s' under '%s'", slash + 1,
				  slash == what ? "/" : what);
	}
	if (!strcmp(check, "duplicate_property_names") && (sep = strchr(what, ':'))) {
		*sep = 0;
		/* dtc points at the first of the two; the second is the one to remove */
		if (lines_prop_last(what, sep + 1))
			line = lines_prop_last(what, sep + 1);
		return diag_error(line, "duplicate property '%s' in '%s'", sep + 1, what);
	}
	report(line, colon + 2);
}

/*
 * "OTHER:L.C-C MESSAGE": dtc located the problem in a file the manifest includes; report it
 * at the manifest's directive for that file.
 */
static void
report_other(char *where, const char *msg)
{
	char *colon = where + strcspn(where, ":");
	long line = strtol(colon + 1, NULL, 10);

	*colon = 0;
	diag_error(source_include_line(where), "in included file '%s', line %ld: %c%s", where, line,
		   tolower((unsigned char) msg[0]), msg + 1);
}

/* "FILE:L.C-C..." where FILE is anything up to a colon followed by a digit. */
static int
is_located(const char *p)
{
	const char *c = strchr(p, ':');

	return c && c > p && c[1] >= '0' && c[1] <= '9' && !memchr(p, ' ', (size_t) (c - p));
}

/*
 * An unlocated "FATAL ERROR: MESSAGE".  One that names a file ("Couldn't open "X": ...")
 * is about an /include/ or /incbin/ of the manifest: it goes to that directive's line.
 */
static void
report_fatal(const char *msg)
{
	const char *q = strchr(msg, '"'), *e = q ? strchr(q + 1, '"') : NULL;
	char name[256];

	snprintf(name, sizeof(name), "%.*s", e ? (int) (e - q - 1) : 0, e ? q + 1 : "");
	report(source_include_line(e ? name : NULL), msg);
}

/*
 * One line of dtc's stderr.  Located forms: "Error: FILE:L.C-C MESSAGE", "Lexical error:
 * FILE:L.C-C MESSAGE" and "FILE:L.C-C: ERROR (check): WHAT"; unlocated: "FATAL ERROR:
 * MESSAGE", which counts only if nothing located came before it.
 */
static void
translate(const char *path, char *l)
{
	static const char *const prefixes[] = { "Error: ", "Lexical error: ", NULL };
	size_t plen = strlen(path);
	char *p = l, *q, *check;
	long line;

	for (unsigned i = 0; prefixes[i]; i++)
		if (!strncmp(p, prefixes[i], strlen(prefixes[i])))
			p += strlen(prefixes[i]);
	if (!strncmp(p, path, plen) && p[plen] == ':') {
		line = strtol(p + plen + 1, &q, 10);
		q += strcspn(q, " ");
		if (!*q || !q[1])
			return;
		if (strncmp(q, " ERROR (", 8))
			return report((int) line, q + 1);
		check = q + 8;
		if (!(q = strstr(check, "): ")))
			return report((int) line, check);
		*q = 0;
		return report_check((int) line, check, q + 3);
	}
	if (is_located(p) && (q = strchr(p, ' ')) && q[1]) {
		*q = 0;
		check = strncmp(q + 1, "ERROR (", 7) ? NULL : strstr(q + 1, "): ");
		return report_other(p, check ? check + 3 : q + 1);
	}
	if (!strncmp(l, "FATAL ERROR: ", 13) && !diag_count())
		report_fatal(l + 13);
}

/* Lines too long for the buffer are cut: their start says where and what. */
static void
translate_all(const char *path, const char *err)
{
	char line[1024];

	while (*err) {
		size_t len = strcspn(err, "\n");
		if (len) {
			snprintf(line, sizeof(line), "%.*s", (int) len, err);
			translate(path, line);
		}
		err += len + (err[len] == '\n');
	}
	/* a problem found before dtc ran (source.h) explains its failure */
	if (!diag_count())
		diag_error(source_include_line(NULL), "dtc cannot compile the manifest");
}

int
dtc_compile(const char *path, struct dtc_out *out)
{
	char *dts_argv[] = { "dtc", "-q", "-I", "dts", "-O", "dts", "-T", "-T", (char *) path, 0 };
	char *forced_argv[] = { "dtc", "-f", "-q", "-I",	  "dts", "-O",
				"dts", "-T", "-T", (char *) path, 0 };
	char *dtb_argv[] = { "dtc", "-q", "-I", "dts", "-O", "dtb", (char *) path, 0 };
	size_t len;
	char *err, *ignored;

	if (run(dts_argv, &out->dts, &len, &err)) {
		/* what dtc can parse despite failed checks still gives lines for its complaints */
		free(out->dts);
		run(forced_argv, &out->dts, &len, &ignored);
		lines_read(out->dts, path);
		translate_all(path, err);
		return -1;
	}
	free(err);
	lines_read(out->dts, path);
	if (run(dtb_argv, &out->dtb, &out->dtb_len, &err)) {
		translate_all(path, err);
		return -1;
	}
	free(err);
	return 0;
}
