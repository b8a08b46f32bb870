/*
 * desc.c - reading and cutting boot descriptors (desc.h) with libfdt.  The property set
 * is the one images/ writes (docs/MANIFEST.md, "Boot descriptor").
 */
#include "desc.h"
#include "runtime.h"

#include <libfdt.h>
#include <string.h>

const void *
desc_self(const char **why)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	if (!bi->desc_base || !bi->desc_size) {
		*why = "no boot descriptor";
		return 0;
	}
	if (desc_check((const void *) bi->desc_base, bi->desc_size, why))
		return 0;
	return (const void *) bi->desc_base;
}

const char *
desc_args(void)
{
	const char *why, *a;
	const void *fdt = desc_self(&why);
	int len;

	if (!fdt || !(a = fdt_getprop(fdt, 0, "args", &len)) || len <= 0 || a[len - 1])
		return "";
	return a;
}

int
desc_check(const void *fdt, uint64_t size, const char **why)
{
	int err;

	if (size < sizeof(struct fdt_header) || size > (1u << 24)) {
		*why = "descriptor size out of range";
		return HR_EINVAL;
	}
	if ((err = fdt_check_full(fdt, size))) {
		*why = fdt_strerror(err);
		return HR_EINVAL;
	}
	return 0;
}

uint64_t
desc_size(const void *fdt)
{
	return fdt_totalsize(fdt);
}

static const char *
str(const void *fdt, int node, const char *prop)
{
	int len;
	const char *s = fdt_getprop(fdt, node, prop, &len);

	if (!s || len <= 0 || s[len - 1])
		return 0;
	return s;
}

/* The n 32-bit cells of prop into out; 0 if absent or of another size. */
static int
cells(const void *fdt, int node, const char *prop, uint32_t *out, int n)
{
	int len;
	const fdt32_t *c = fdt_getprop(fdt, node, prop, &len);

	if (!c || len != 4 * n)
		return 0;
	for (int i = 0; i < n; i++)
		out[i] = fdt32_to_cpu(c[i]);
	return 1;
}

static int
read_kind(const void *fdt, int node, struct desc_node *d, const char **why)
{
	const char *type = str(fdt, node, "type");

	if (!type) {
		*why = "node has no type";
		return HR_EINVAL;
	}
	if (!strcmp(type, "subsystem"))
		d->type = DESC_SUBSYSTEM;
	else if (!strcmp(type, "task"))
		d->type = DESC_TASK;
	else if (!strcmp(type, "component"))
		d->type = DESC_COMPONENT;
	else {
		*why = "unknown node type";
		return HR_EINVAL;
	}
	return 0;
}

/* restart = <policy max backoff>; absent (or malformed): never. */
static void
read_restart(const void *fdt, int node, struct desc_node *d)
{
	uint32_t r[3] = { 0, 0, 0 };

	if (!cells(fdt, node, "restart", r, 3) || r[0] > 1)
		r[0] = r[1] = r[2] = 0;
	d->restart_policy = r[0], d->restart_max = r[1], d->restart_backoff = r[2];
}

static int
require(const void *p, const char *msg, const char **why)
{
	if (!p)
		*why = msg;
	return p ? 0 : HR_EINVAL;
}

int
desc_read(const void *fdt, int node, struct desc_node *d, const char **why)
{
	uint32_t cpu[3] = { 0, 0, 0 };
	int err;

	memset(d, 0, sizeof(*d));
	d->offset = node;
	d->name = fdt_get_name(fdt, node, 0);
	if ((err = read_kind(fdt, node, d, why)))
		return err;
	d->args = str(fdt, node, "args") ? str(fdt, node, "args") : "";
	cells(fdt, node, "cpu", cpu, 3);
	d->cpu_kind = cpu[0], d->budget = cpu[1], d->period = cpu[2];
	cells(fdt, node, "priority", &d->priority, 1);
	if (d->type == DESC_TASK) {
		d->entry = str(fdt, node, "entry");
		cells(fdt, node, "arg", &d->arg, 1);
		return require(d->entry, "task without entry", why);
	}
	d->program = str(fdt, node, "program");
	if ((err = require(d->program, "node without program", why)))
		return err;
	if (!cells(fdt, node, "memory-pages", &d->memory_pages, 1))
		return require(0, "node without memory-pages", why);
	read_restart(fdt, node, d);
	if (d->type == DESC_COMPONENT)
		return 0;
	d->policy = str(fdt, node, "policy");
	cells(fdt, node, "memory-kind", &d->memory_kind, 1);
	d->modules = fdt_getprop(fdt, node, "modules", &d->modules_len);
	if (!d->modules || d->modules_len < 0 || (d->modules_len && d->modules[d->modules_len - 1]))
		d->modules = "", d->modules_len = 0;
	return require(d->policy, "subsystem without policy", why);
}

int
desc_child(const void *fdt, int parent)
{
	return fdt_first_subnode(fdt, parent);
}

int
desc_sibling(const void *fdt, int node)
{
	return fdt_next_subnode(fdt, node);
}

static int
copy_node(const void *fdt, int node, void *buf)
{
	int err, prop, child;

	fdt_for_each_property_offset(prop, fdt, node)
	{
		const char *name;
		int len;
		const void *val = fdt_getprop_by_offset(fdt, prop, &name, &len);
		if (!val || (err = fdt_property(buf, name, val, len)))
			return -1;
	}
	fdt_for_each_subnode(child, fdt, node)
	{
		if (fdt_begin_node(buf, fdt_get_name(fdt, child, 0)) ||
		    copy_node(fdt, child, buf) || fdt_end_node(buf))
			return -1;
	}
	return 0;
}

long
desc_extract(const void *fdt, int node, void *buf, uint64_t len)
{
	if (len > (1u << 24) || fdt_create(buf, (int) len) || fdt_finish_reservemap(buf) ||
	    fdt_begin_node(buf, "") || copy_node(fdt, node, buf) || fdt_end_node(buf) ||
	    fdt_finish(buf))
		return HR_ENOMEM;
	return fdt_totalsize(buf);
}
