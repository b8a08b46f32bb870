/*
 * manifest.c - reading the images of a manifest (manifest.h): image properties, the one
 * root subsystem, the repeat node of a depth sweep, and the one default image.  node.c
 * reads the trees; sweep.c expands depth sweeps into the images they stand for.
 */
#include "manifest.h"
#include "alloc.h"
#include "diag.h"
#include "lines.h"
#include "prop.h"
#include "kernel/abi/hr_bootinfo.h"
#include "kernel/abi/hr_sched.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

static const char *const image_props[] = { "default",	 "description", "hz",
					   "memory-mib", "timeout-s",	"depth-sweep",
					   "trace",	 "host-port",	NULL };

static void
read_sweep(const struct prop_ctx *c, struct image *img)
{
	uint32_t v[2];
	unsigned n;

	img->line_sweep = prop_line(c, "depth-sweep");
	if (prop_cells(c, "depth-sweep", v, 2, 2, &n,
		       "must be two numbers in angle brackets, as in <0 16>") <= 0)
		return;
	img->sweep = 1;
	img->sweep_lo = v[0];
	img->sweep_hi = v[1];
	if (v[0] > v[1] || v[1] > HR_DEPTH_MAX)
		diag_error(img->line_sweep,
			   "depth-sweep <%u %u> of image '%s' must have 0 <= LO <= HI <= %d", v[0],
			   v[1], img->name, HR_DEPTH_MAX);
}

static void
read_props(const struct prop_ctx *c, struct image *img)
{
	img->hz = HR_HZ_DEFAULT;
	img->memory_mib = 256;
	img->timeout_s = 120;
	prop_unknown(c, image_props);
	img->is_default = prop_flag(c, "default") != 0; /* malformed: reported, still set */
	img->line_default = prop_line(c, "default");
	prop_string(c, "description", &img->description);
	if (prop_u32(c, "hz", &img->hz) > 0)
		prop_range(c, "hz", img->hz, HR_HZ_MIN, HR_HZ_MAX);
	if (prop_u32(c, "memory-mib", &img->memory_mib) > 0)
		prop_range(c, "memory-mib", img->memory_mib, 64, 4096);
	if (prop_u32(c, "timeout-s", &img->timeout_s) > 0)
		prop_range(c, "timeout-s", img->timeout_s, 1, 3600);
	if (prop_u32(c, "trace", &img->trace) > 0)
		prop_range(c, "trace", img->trace, 0, 1);
	img->line_host_port = prop_line(c, "host-port");
	if (prop_u32(c, "host-port", &img->host_port) > 0)
		prop_range(c, "host-port", img->host_port, 1024, 65535);
	read_sweep(c, img);
}

/* The image's only child is its root subsystem. */
static void
read_root(const void *fdt, int off, const char *path, struct image *img)
{
	char sub[PATH_LEN_MAX], cut[DIAG_SHOW_MAX + 4];
	int k;

	fdt_for_each_subnode(k, fdt, off)
	{
		node_path(sub, path, fdt_get_name(fdt, k, NULL));
		if (img->root) {
			diag_error(lines_node(sub),
				   "image '%s' has a second root '%s': an image has exactly one "
				   "root subsystem",
				   img->name, diag_cut(fdt_get_name(fdt, k, NULL), cut));
			return;
		}
		img->root = node_read(fdt, k, sub, NULL);
	}
	if (!img->root)
		diag_error(img->line, "image '%s' has no root subsystem", img->name);
	else if (img->root->kind != NODE_SUBSYS)
		diag_error(img->root->line,
			   "the root '%s' of image '%s' must be a subsystem, not a %s",
			   img->root->name, img->name, node_kind_name(img->root->kind));
	else if (img->root->cpu.kind)
		diag_error(img->root->line_cpu,
			   "the root '%s' of image '%s' has the whole CPU; it takes no cpu "
			   "reservation",
			   img->root->name, img->name);
	else if (img->root->line_restart)
		diag_error(img->root->line_restart,
			   "the root '%s' of image '%s' cannot restart: it has no parent to "
			   "rebuild it",
			   img->root->name, img->name);
}

/* Subsystems marked `repeat`, in manifest order: count them and remember the first two. */
static unsigned
find_repeats(struct node *n, struct node *found[2], unsigned count)
{
	if (n->kind == NODE_SUBSYS && n->repeat && count++ < 2)
		found[count - 1] = n;
	for (struct node *k = n->kids; k; k = k->next)
		count = find_repeats(k, found, count);
	return count;
}

/* A task marked `outer` is copied to the outer copies of a sweep's repeated subsystem
 * (sweep.c): it belongs directly inside that subsystem. */
static void
check_outer(const struct node *n)
{
	for (const struct node *k = n->kids; k; k = k->next) {
		if (k->outer && !n->repeat)
			diag_error(
				k->line,
				"task '%s' is 'outer' but its subsystem '%s' does not repeat: "
				"an outer task sits directly inside a depth sweep's 'repeat' node",
				k->name, n->name);
		check_outer(k);
	}
}

static void
check_repeat(struct image *img)
{
	struct node *r[2] = { NULL, NULL };
	unsigned n = find_repeats(img->root, r, 0);

	if (img->sweep && n == 0)
		diag_error(img->line_sweep,
			   "image '%s' has depth-sweep but no subsystem with 'repeat'", img->name);
	else if (img->sweep && n > 1)
		diag_error(r[1]->line,
			   "image '%s' repeats both '%s' and '%s': a sweep repeats exactly one "
			   "subsystem",
			   img->name, r[0]->name, r[1]->name);
	else if (n && !img->sweep)
		diag_error(r[0]->line, "'repeat' on '%s' needs depth-sweep on its image '%s'",
			   r[0]->name, img->name);
	else if (n && r[0] == img->root)
		diag_error(r[0]->line, "the root '%s' of image '%s' cannot repeat", r[0]->name,
			   img->name);
	check_outer(img->root);
	if (img->sweep && img->is_default)
		diag_error(img->line_default,
			   "image '%s' has depth-sweep: it is not built itself and cannot be the "
			   "default",
			   img->name);
}

static struct image *
read_image(const void *fdt, int off)
{
	struct image *img = alloc_zero(1, sizeof(*img));
	unsigned before = diag_count();
	char path[PATH_LEN_MAX], what[64];
	struct prop_ctx c = { fdt, off, path, what, 0 };

	node_path(path, "", fdt_get_name(fdt, off, NULL));
	snprintf(img->name, sizeof(img->name), "%.*s", NAME_LEN_MAX, fdt_get_name(fdt, off, NULL));
	snprintf(what, sizeof(what), "image '%s'", img->name);
	img->line = c.line = lines_node(path);
	node_name_check(fdt_get_name(fdt, off, NULL), img->line);
	read_props(&c, img);
	read_root(fdt, off, path, img);
	if (img->root && img->root->kind == NODE_SUBSYS)
		check_repeat(img);
	img->bad = diag_count() != before;
	return img;
}

/* Exactly one image of the main manifest is the default (check_repeat refuses a sweep as
 * the default), and none of another file's. */
static void
check_default(struct image *list, int line_top, int main)
{
	struct image *first = NULL;

	for (struct image *i = list; i; i = i->next) {
		if (!i->is_default)
			continue;
		if (!main)
			diag_error(
				i->line_default,
				"image '%s' is marked default, but only the first manifest names "
				"the default image",
				i->name);
		else if (first)
			diag_error(i->line_default,
				   "image '%s' is marked default but image '%s' already is",
				   i->name, first->name);
		else
			first = i;
	}
	if (main && list && !first)
		diag_error(line_top, "no image is marked default (add 'default;' to one image)");
}

struct image *
manifest_read(const void *fdt, const char *file, int main)
{
	static const char *const none[] = { NULL };
	struct prop_ctx top = { fdt, 0, "/", "'/' (only image nodes belong there)", 0 };
	struct image *list = NULL, **tail = &list;
	int off;

	top.line = lines_node("/");
	if (!top.line)
		top.line = 1;
	prop_unknown(&top, none);
	fdt_for_each_subnode(off, fdt, 0)
	{
		*tail = read_image(fdt, off);
		(*tail)->file = file;
		tail = &(*tail)->next;
	}
	if (!list)
		diag_error(top.line, "the manifest defines no images");
	check_default(list, top.line, main);
	return list;
}
