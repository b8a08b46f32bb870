/*
 * manifest.h - the manifest as the builder sees it: a list of images, each a tree of
 * subsystem, task and component nodes (docs/MANIFEST.md describes the format).
 * manifest.c reads the images and node.c the nodes from dtc's blob, checking everything a
 * node can tell about itself; sweep.c, memory.c, admission.c and network.c check what needs
 * the whole tree.
 */
#ifndef IMAGES_MANIFEST_H
#define IMAGES_MANIFEST_H

#include <stdint.h>

#include "rm/desc.h" /* the limits the runtime reads the descriptor with */

#define NAME_LEN_MAX DESC_NAME_MAX /* node, image and program names, without the NUL */
#define ARGS_LEN_MAX DESC_ARGS_MAX
#define PORTS_MAX    16 /* net-ports: single ports */
#define RANGES_MAX   8	/* net-ranges: LO HI pairs */
#define CARDS_MAX    2	/* net-cards: e1000 cards an image may have */
#define PORT_MAX     65535

enum node_kind { NODE_SUBSYS, NODE_TASK, NODE_COMP };

struct cpu_res {
	uint32_t kind;	 /* enum res_kind (policies/admit.h); RES_NONE: best effort */
	uint32_t budget; /* ticks */
	uint32_t period; /* ticks */
	uint32_t server; /* enum res_server (policies/admit.h); 0: the parent policy's own */
};

/*
 * One node.  Strings point into the dtc blob, which lives as long as the process.
 * Lines are manifest lines for error reports; generated sweep copies keep the template's.
 */
struct node {
	char name[NAME_LEN_MAX + 1];
	enum node_kind kind;
	int line, line_cpu, line_mem; /* of the node, its cpu and memory-kib properties */
	int line_server;	      /* of its server property; 0 if it has none */
	const char *program;	      /* subsystem and component: program; task: entry name */
	const char *policy;	      /* subsystem: "fprr", "ds" or "edf" */
	const char *args;	      /* NULL if absent */
	struct cpu_res cpu;
	uint32_t priority, arg, mem_kind, net_kbps;
	uint32_t ports[PORTS_MAX];
	uint32_t ranges[2 * RANGES_MAX]; /* inclusive LO HI pairs */
	unsigned nports, nranges;	 /* nranges counts pairs */
	int line_ports, line_ranges;	 /* of net-ports and net-ranges; 0 if absent */
	int line_kbps, line_net;	 /* of net-kbps; of its first net-ports/-ranges/-kbps */
	uint32_t net_cards;		 /* the root only: the image's e1000 cards */
	int has_kbps, repeat;
	int outer; /* task inside a sweep's repeat node: goes to the levels outside the innermost */
	uint32_t restart, restart_max, restart_backoff; /* enum desc_restart; 0 0 0: never */
	int line_restart;   /* of its first restart property; 0 if it has none */
	uint32_t mem_kib;   /* declared; 0 if absent (only the root may leave it out) */
	int mem_grow;	    /* outer sweep copy: memory-kib is a minimum, memory.c raises it */
	uint64_t mem_pages; /* the reservation in pages, set by memory.c */
	unsigned depth;	    /* scheduler depth; the root is 0 */
	unsigned level;	    /* nesting below "/": the root is 2, its children 3 */
	struct node *parent, *kids, *next; /* kids in manifest order, linked by next */
};

struct image {
	char name[NAME_LEN_MAX + 1];
	const char *file; /* the manifest file it is defined in (errors, generated comments) */
	int line, line_default, line_sweep;
	int is_default, sweep;
	int generated; /* by a depth sweep: its lines are the template's */
	uint32_t hz, memory_mib, timeout_s, sweep_lo, sweep_hi;
	uint32_t trace;	    /* 1: the kernel records a scheduling trace (docs/TRACE.md) */
	uint32_t host_port; /* make run forwards 127.0.0.1:host_port to the guest's port 80 */
	int line_host_port;
	const char *description;
	struct node *root;
	int bad;	    /* reading it found an error: later checks skip it */
	struct image *next; /* in manifest order */
};

/*
 * Read every image of the dtc blob `fdt`, compiled from `file` (its nodes through
 * node_read()), and check the file-wide rules: at least one image; in the main manifest
 * (`main`) exactly one default, in any other (a test image's file) none.  Problems go to
 * diag_error(); an image with any is marked bad.  Returns the images in manifest order.
 */
struct image *manifest_read(const void *fdt, const char *file, int main);

/*
 * Read the node at offset `off` (full path `path`) and its subtree, checking every
 * property; `parent` is NULL for an image's root.  Problems go to diag_error().
 */
struct node *node_read(const void *fdt, int off, const char *path, struct node *parent);

/*
 * Nodes nest at most NEST_MAX levels below "/" (an image is level 1, its root level 2):
 * many more than HR_DEPTH_MAX needs, and it bounds recursion and paths.  A path keeps at
 * most PATH_NAME_MAX characters of each name, so that a name too long for the rules (and
 * reported) is still a key of the line map (lines.h), which cuts names the same way.
 */
#define NEST_MAX      64
#define PATH_NAME_MAX (NAME_LEN_MAX + 1)
#define PATH_LEN_MAX  4096
_Static_assert((NEST_MAX + 1) * (PATH_NAME_MAX + 1) < PATH_LEN_MAX, "paths fit");

/* parent + "/" + name cut to PATH_NAME_MAX into out[PATH_LEN_MAX] (parent "" for an image). */
void node_path(char *out, const char *parent, const char *name);

/* Report `name` (at `line`) unless it is [a-z0-9][a-z0-9-]* of at most NAME_LEN_MAX characters. */
void node_name_check(const char *name, int line);

/* "subsystem", "task" or "component". */
const char *node_kind_name(enum node_kind k);

#endif
