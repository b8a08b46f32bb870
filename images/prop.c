/*
 * prop.c - typed property access for the manifest reader (prop.h).  The blob gives the
 * bytes, the line map the written form; both must agree with the expected type.
 */
#include "prop.h"
#include "diag.h"
#include "lines.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

int
prop_line(const struct prop_ctx *c, const char *name)
{
	unsigned form;
	int line = lines_prop(c->path, name, &form);

	return line ? line : c->line;
}

int
prop_has(const struct prop_ctx *c, const char *name)
{
	return fdt_getprop(c->fdt, c->off, name, NULL) != NULL;
}

/* The value of `name` and how it was written; NULL if absent. */
static const void *
get(const struct prop_ctx *c, const char *name, int *len, unsigned *form)
{
	const void *v = fdt_getprop(c->fdt, c->off, name, len);

	lines_prop(c->path, name, form);
	return v;
}

/* Form check that tolerates an unknown form (the map lacks the property). */
static int
form_is(unsigned form, unsigned want)
{
	return form == FORM_UNKNOWN || form == want;
}

static int
malformed(const struct prop_ctx *c, const char *name, const char *must)
{
	diag_error(prop_line(c, name), "property '%s' of %s %s", name, c->what, must);
	return -1;
}

int
prop_flag(const struct prop_ctx *c, const char *name)
{
	char must[64];
	unsigned form;
	int len;

	if (!get(c, name, &len, &form))
		return 0;
	if (len != 0 || !form_is(form, FORM_EMPTY)) {
		snprintf(must, sizeof(must), "takes no value: write '%s;'", name);
		return malformed(c, name, must);
	}
	return 1;
}

int
prop_string(const struct prop_ctx *c, const char *name, const char **out)
{
	char must[80];
	unsigned form;
	int len;
	const char *v = get(c, name, &len, &form);

	if (!v)
		return 0;
	if (len < 1 || v[len - 1] || strlen(v) + 1 != (size_t) len || !form_is(form, FORM_STRING))
		return malformed(c, name, "must be one string in double quotes");
	/* names and args end up on the console and in GRUB's menu: one line, nothing hidden */
	for (const char *p = v; *p; p++) {
		if ((unsigned char) *p < 0x20 || *p == 0x7f) {
			snprintf(must, sizeof(must),
				 "contains control character 0x%02x (strings must be printable)",
				 (unsigned char) *p);
			return malformed(c, name, must);
		}
	}
	*out = v;
	return 1;
}

int
prop_u32(const struct prop_ctx *c, const char *name, uint32_t *out)
{
	unsigned n;

	return prop_cells(c, name, out, 1, 1, &n,
			  "must be one 32-bit number in angle brackets, as in <100>");
}

int
prop_cells(const struct prop_ctx *c, const char *name, uint32_t *out, unsigned min, unsigned max,
	   unsigned *n, const char *usage)
{
	unsigned form;
	int len;
	const fdt32_t *v = get(c, name, &len, &form);

	if (!v)
		return 0;
	*n = (unsigned) len / 4;
	if (len % 4 || *n < min || *n > max ||
	    !(form_is(form, FORM_CELLS) || form == (FORM_CELLS | FORM_MANY)))
		return malformed(c, name, usage);
	for (unsigned i = 0; i < *n; i++)
		out[i] = fdt32_to_cpu(v[i]);
	return 1;
}

void
prop_unknown(const struct prop_ctx *c, const char *const known[])
{
	int p;

	fdt_for_each_property_offset(p, c->fdt, c->off)
	{
		char cut[DIAG_SHOW_MAX + 4];
		const char *name;
		unsigned i;

		fdt_getprop_by_offset(c->fdt, p, &name, NULL);
		for (i = 0; known[i] && strcmp(known[i], name); i++)
			;
		if (!known[i])
			diag_error(prop_line(c, name), "unknown property '%s' in %s",
				   diag_cut(name, cut), c->what);
	}
}

int
prop_range(const struct prop_ctx *c, const char *name, uint32_t value, uint32_t lo, uint32_t hi)
{
	if (value >= lo && value <= hi)
		return 0;
	diag_error(prop_line(c, name), "%s %u of %s must be between %u and %u", name, value,
		   c->what, lo, hi);
	return -1;
}
