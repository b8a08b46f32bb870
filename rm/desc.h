/*
 * desc.h - the boot descriptor: the devicetree blob (built from MANIFEST by images/) that
 * describes this subsystem and everything below it.  The root finds it among its modules;
 * every other subsystem at HR_VA_DESC, copied there by its parent with desc_extract().
 * A blob from a parent is checked whole (fdt_check_full) before anything reads it.
 */
#ifndef RM_DESC_H
#define RM_DESC_H

#include <stdint.h>

enum desc_type { DESC_SUBSYSTEM = 1, DESC_TASK = 2, DESC_COMPONENT = 3 };

/* restart = <policy max backoff> of a subsystem: what its parent does when it faults */
enum desc_restart { DESC_RESTART_NEVER = 0, DESC_RESTART_ON_FAULT = 1 };

/*
 * The limits of the values a descriptor holds.  images/ refuses a MANIFEST beyond them and
 * desc_read() a descriptor, so what the builder accepts is what the runtime reads.
 */
#define DESC_NAME_MAX	    31 /* node, image and program names, without the NUL */
#define DESC_ARGS_MAX	    255
#define DESC_PRIORITY_MAX   255
#define DESC_RESTARTS_MAX   100	   /* restart-max: restarts before a subsystem stays down */
#define DESC_BACKOFF_MAX    100000 /* restart-backoff: ticks from the fault to the rebuild */
#define DESC_CHILDREN_MAX   32	   /* child subsystems and components of one subsystem */
#define DESC_TASKS_MAX	    32	   /* tasks of one subsystem */
#define DESC_RESTARTS_DFLT  3	   /* the manifest's defaults for restart = "on-fault" */
#define DESC_BACKOFF_DFLT   10
#define DESC_NET_PORTS_MAX  16 /* net-ports: single ports */
#define DESC_NET_RANGES_MAX 8  /* net-ranges: lo hi pairs */
#define DESC_NET_SPANS_MAX  (DESC_NET_PORTS_MAX + DESC_NET_RANGES_MAX)

struct desc_node {
	int offset; /* node offset in the blob */
	const char *name;
	enum desc_type type;
	const char *program;		   /* subsystem, component */
	const char *policy;		   /* subsystem */
	const char *entry;		   /* task */
	const char *args;		   /* "" if none */
	uint32_t cpu_kind, budget, period; /* enum res_kind; ticks */
	uint32_t server;		   /* enum res_server; 0: the parent policy's own */
	uint32_t priority;
	uint32_t memory_pages; /* subsystem, component */
	uint32_t memory_kind;
	uint32_t arg;	     /* task */
	const char *modules; /* subsystem: NUL-separated program names needed below it */
	int modules_len;
	/* subsystem: enum desc_restart, restarts allowed, ticks before each; 0 0 0 for never */
	uint32_t restart_policy, restart_max, restart_backoff;
	/* subsystem: network cards (the image's root only), bandwidth in kbit/s, and the
	 * ports as inclusive spans lo..hi (a single port is lo == hi) */
	uint32_t net_cards, net_kbps;
	uint32_t net_nspans;
	uint32_t net_span[DESC_NET_SPANS_MAX][2];
};

/* Our own descriptor, checked; NULL with *why set if missing or corrupt. */
const void *desc_self(const char **why);
/* The args string of our own descriptor node ("" if none). */
const char *desc_args(void);
/* Check a blob of size bytes. 0 or HR_EINVAL with *why. */
int desc_check(const void *fdt, uint64_t size, const char **why);
/* Total size of a checked blob. */
uint64_t desc_size(const void *fdt);
/*
 * Decode the node at offset and check every value against the limits above and
 * docs/MANIFEST.md's (names, strings NUL-terminated and printable, cpu kind and budget,
 * priority, memory kind, policy, restart; hz and image on the top node).  0, or HR_EINVAL
 * with *why naming the bad property.  Absent optional values read as their defaults.
 */
int desc_read(const void *fdt, int offset, struct desc_node *out, const char **why);
/* Offsets of a node's children: first, then next; negative when there are no more. */
int desc_child(const void *fdt, int parent);
int desc_sibling(const void *fdt, int node);
/* How many of a node's children are built (subsystems, components: not tasks, which are
 * its own threads): the callers of its services, for its invocation stacks (rm/ctor.h). */
unsigned desc_builds(const void *fdt, int parent);
/* Copy the subtree at node into buf as a blob of its own; its size, or HR_ENOMEM. */
long desc_extract(const void *fdt, int node, void *buf, uint64_t len);

#endif
