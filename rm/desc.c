/*
 * desc.c - reading and cutting boot descriptors (desc.h) with libfdt.  The property set
 * is the one images/ writes (docs/MANIFEST.md, "Boot descriptor").
 */
#include "desc.h"
#include "runtime.h"
#include "policies/admit.h"

#include <libfdt.h>
#include <limits.h>
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

static int
bad(const char **why, const char *msg)
{
	*why = msg;
	return HR_EINVAL;
}

/* n bytes of s, none a control character (NUL included). */
static int
printable(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if ((unsigned char) s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* The manifest's names: [a-z0-9][a-z0-9-]*, 1 to DESC_NAME_MAX characters. */
static int
name_ok(const char *s, int n)
{
	if (n < 1 || n > DESC_NAME_MAX || s[0] == '-')
		return 0;
	for (int i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

/*
 * Property prop as one printable string of at most max characters, NUL-terminated inside the
 * property: 1 with *out set, 0 if absent, -1 if it is anything else.
 */
static int
str(const void *fdt, int node, const char *prop, int max, const char **out)
{
	int len;
	const char *s = fdt_getprop(fdt, node, prop, &len);

	if (!s)
		return 0;
	if (len < 1 || len - 1 > max || s[len - 1] || !printable(s, len - 1))
		return -1;
	*out = s;
	return 1;
}

/* The n 32-bit cells of prop into out: 1, 0 if absent (out untouched), -1 if of another size. */
static int
cells(const void *fdt, int node, const char *prop, uint32_t *out, int n)
{
	int len;
	const fdt32_t *c = fdt_getprop(fdt, node, prop, &len);

	if (!c)
		return 0;
	if (len != 4 * n)
		return -1;
	for (int i = 0; i < n; i++)
		out[i] = fdt32_to_cpu(c[i]);
	return 1;
}

static int
read_kind(const void *fdt, int node, struct desc_node *d, const char **why)
{
	const char *type = 0;

	if (str(fdt, node, "type", 16, &type) <= 0)
		return bad(why, "node has no 'type' string");
	if (!strcmp(type, "subsystem"))
		d->type = DESC_SUBSYSTEM;
	else if (!strcmp(type, "task"))
		d->type = DESC_TASK;
	else if (!strcmp(type, "component"))
		d->type = DESC_COMPONENT;
	else
		return bad(why, "'type' is not subsystem, task or component");
	return 0;
}

/* The top node: hz and image, if there (a child's own descriptor has neither). */
static int
read_top(const void *fdt, const char **why)
{
	uint32_t hz = HR_HZ_DEFAULT;
	const char *image = 0;

	if (cells(fdt, 0, "hz", &hz, 1) < 0 || hz < HR_HZ_MIN || hz > HR_HZ_MAX)
		return bad(why, "'hz' is not one cell of 10 to 10000");
	if (str(fdt, 0, "image", DESC_NAME_MAX, &image) < 0 ||
	    (image && !name_ok(image, (int) strlen(image))))
		return bad(why, "'image' is not a name");
	return 0;
}

/* Name, type, args, cpu and priority: what every kind of node has. */
static int
read_common(const void *fdt, int node, struct desc_node *d, const char **why)
{
	uint32_t cpu[3] = { 0, 0, 0 };
	int len, err;

	if (!(d->name = fdt_get_name(fdt, node, &len)))
		return bad(why, "no node at this offset");
	if (node == 0 && (err = read_top(fdt, why)))
		return err;
	if (node != 0 && !name_ok(d->name, len))
		return bad(why, "node name is not [a-z0-9][a-z0-9-]* of at most 31 characters");
	if ((err = read_kind(fdt, node, d, why)))
		return err;
	d->args = "";
	if (str(fdt, node, "args", DESC_ARGS_MAX, &d->args) < 0)
		return bad(why, "'args' is not a printable string of at most 255 characters");
	if (cells(fdt, node, "cpu", cpu, 3) < 0 || cpu[0] > RES_DEFERRABLE)
		return bad(why, "'cpu' is not <kind budget period> with kind 0 to 3");
	if (cpu[0] != RES_NONE && (!cpu[1] || cpu[1] > cpu[2]))
		return bad(why, "'cpu' budget is not between 1 and its period");
	d->cpu_kind = cpu[0], d->budget = cpu[1], d->period = cpu[2];
	d->server = RES_SERVER_DEFAULT;
	if (cells(fdt, node, "server", &d->server, 1) < 0 || d->server > RES_SERVER_SPORADIC)
		return bad(why, "'server' is not one cell of 0 to 2");
	if (cells(fdt, node, "priority", &d->priority, 1) < 0 || d->priority > DESC_PRIORITY_MAX)
		return bad(why, "'priority' is not one cell of 0 to 255");
	return 0;
}

static int
read_task(const void *fdt, int node, struct desc_node *d, const char **why)
{
	if (str(fdt, node, "entry", INT_MAX, &d->entry) <= 0 || !*d->entry)
		return bad(why, "task 'entry' is not a non-empty printable string");
	if (cells(fdt, node, "arg", &d->arg, 1) < 0)
		return bad(why, "'arg' is not one cell");
	return 0;
}

/* Each entry of the string list: a program name, as 'program' is. */
static int
read_modules(const void *fdt, int node, struct desc_node *d, const char **why)
{
	d->modules = fdt_getprop(fdt, node, "modules", &d->modules_len);
	if (!d->modules) {
		d->modules = "", d->modules_len = 0;
		return 0;
	}
	if (d->modules_len && d->modules[d->modules_len - 1])
		return bad(why, "'modules' is not NUL-terminated");
	for (int off = 0; off < d->modules_len; off += (int) strlen(d->modules + off) + 1) {
		int n = (int) strlen(d->modules + off);
		if (n < 1 || n > DESC_NAME_MAX || !printable(d->modules + off, n))
			return bad(why, "'modules' holds a name that is not a program's");
	}
	return 0;
}

/* restart = <policy max backoff>; absent: never (descriptors from before restarts). */
static int
read_restart(const void *fdt, int node, struct desc_node *d, const char **why)
{
	uint32_t r[3] = { DESC_RESTART_NEVER, 0, 0 };

	if (cells(fdt, node, "restart", r, 3) < 0 || r[0] > DESC_RESTART_ON_FAULT)
		return bad(why, "'restart' is not <policy max backoff> with policy 0 or 1");
	if (r[0] == DESC_RESTART_ON_FAULT && (r[1] < 1 || r[1] > DESC_RESTARTS_MAX))
		return bad(why, "'restart' max is not 1 to 100");
	if (r[2] > DESC_BACKOFF_MAX)
		return bad(why, "'restart' backoff is above 100000 ticks");
	d->restart_policy = r[0], d->restart_max = r[1], d->restart_backoff = r[2];
	return 0;
}

/* Up to max cells of prop into out: how many, 0 if absent, -1 if not whole cells or too
 * many. */
static int
cell_list(const void *fdt, int node, const char *prop, uint32_t *out, int max)
{
	int len;
	const fdt32_t *c = fdt_getprop(fdt, node, prop, &len);

	if (!c)
		return 0;
	if (len % 4 || len / 4 > max)
		return -1;
	for (int i = 0; i < len / 4; i++)
		out[i] = fdt32_to_cpu(c[i]);
	return len / 4;
}

/* net-cards, net-kbps, net-ports and net-ranges (hrimage checked the tree's rules; this
 * checks each value is one a kernel call can take). */
static int
read_net(const void *fdt, int node, struct desc_node *d, const char **why)
{
	uint32_t ports[DESC_NET_PORTS_MAX], ranges[2 * DESC_NET_RANGES_MAX];
	int np = cell_list(fdt, node, "net-ports", ports, DESC_NET_PORTS_MAX);
	int nr = cell_list(fdt, node, "net-ranges", ranges, 2 * DESC_NET_RANGES_MAX);

	if (cells(fdt, node, "net-cards", &d->net_cards, 1) < 0 || d->net_cards > 2)
		return bad(why, "'net-cards' is not one cell of 0 to 2");
	if (cells(fdt, node, "net-kbps", &d->net_kbps, 1) < 0 || d->net_kbps > 1000000)
		return bad(why, "'net-kbps' is not one cell of at most 1000000");
	if (np < 0 || nr < 0 || nr % 2)
		return bad(why, "'net-ports' or 'net-ranges' is not a list of ports");
	for (int i = 0; i < np + nr / 2; i++) {
		uint32_t lo = i < np ? ports[i] : ranges[2 * (i - np)];
		uint32_t hi = i < np ? ports[i] : ranges[2 * (i - np) + 1];
		if (lo < 1 || lo > hi || hi > 65535)
			return bad(why, "a port of 'net-ports' or 'net-ranges' is not 1 to 65535");
		d->net_span[d->net_nspans][0] = lo;
		d->net_span[d->net_nspans++][1] = hi;
	}
	return 0;
}

static int
read_subsystem(const void *fdt, int node, struct desc_node *d, const char **why)
{
	int err;

	if (str(fdt, node, "policy", 8, &d->policy) <= 0 || !admit_policy_known(d->policy))
		return bad(why, "'policy' is not fprr, ds or edf");
	d->memory_kind = RES_HARD;
	if (cells(fdt, node, "memory-kind", &d->memory_kind, 1) < 0 ||
	    (d->memory_kind != RES_HARD && d->memory_kind != RES_SOFT))
		return bad(why, "'memory-kind' is not 1 (hard) or 2 (soft)");
	if ((err = read_modules(fdt, node, d, why)) || (err = read_net(fdt, node, d, why)))
		return err;
	return read_restart(fdt, node, d, why);
}

int
desc_read(const void *fdt, int node, struct desc_node *d, const char **why)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->offset = node;
	if ((err = read_common(fdt, node, d, why)))
		return err;
	if (d->type == DESC_TASK)
		return read_task(fdt, node, d, why);
	if (str(fdt, node, "program", DESC_NAME_MAX, &d->program) <= 0 || !*d->program)
		return bad(why, "'program' is not a printable name of 1 to 31 characters");
	if (cells(fdt, node, "memory-pages", &d->memory_pages, 1) <= 0)
		return bad(why, "'memory-pages' is not one cell");
	if (d->type == DESC_COMPONENT)
		return 0;
	return read_subsystem(fdt, node, d, why);
}

const char *
desc_args(void)
{
	const char *why, *a;
	const void *fdt = desc_self(&why);

	if (!fdt || str(fdt, 0, "args", DESC_ARGS_MAX, &a) <= 0)
		return "";
	return a;
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

unsigned
desc_builds(const void *fdt, int parent)
{
	unsigned n = 0;

	for (int k = desc_child(fdt, parent); k >= 0; k = desc_sibling(fdt, k)) {
		const char *type = 0;
		n += str(fdt, k, "type", 16, &type) > 0 && strcmp(type, "task");
	}
	return n;
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
