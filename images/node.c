/*
 * node.c - reading one subsystem, task or component node and its subtree (manifest.h).
 * Everything a node can tell about itself is checked here: its name, its kind, the type
 * and range of each property, its program.  Rules that need the whole tree (depth,
 * memory, CPU admission, network) are in memory.c, admission.c and network.c.
 */
#include "manifest.h"
#include "alloc.h"
#include "diag.h"
#include "lines.h"
#include "prog.h"
#include "prop.h"
#include "policies/admit.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

static const char *const known_props[][20] = {
	[NODE_SUBSYS] = { "program", "policy", "cpu", "budget", "period", "priority", "memory-kib",
			  "memory-kind", "args", "net-ports", "net-ranges", "net-kbps", "net-cards",
			  "repeat", "restart", "restart-max", "restart-backoff", "server", NULL },
	[NODE_TASK] = { "task", "cpu", "budget", "period", "priority", "arg", "server", "outer",
			NULL },
	[NODE_COMP] = { "component", "memory-kib", "priority", "args", NULL },
};

/* The property that makes a node of each kind. */
static const char *const kind_prop[] = { "program", "task", "component" };

void
node_path(char *out, const char *parent, const char *name)
{
	/* cannot happen: NEST_MAX and PATH_NAME_MAX bound every path the readers build */
	if (snprintf(out, PATH_LEN_MAX, "%s/%.*s", parent, PATH_NAME_MAX, name) >= PATH_LEN_MAX)
		diag_fatal("node path of '%.40s' is too long", name);
}

void
node_name_check(const char *name, int line)
{
	size_t len = strlen(name);
	char cut[DIAG_SHOW_MAX + 4], count[48] = "";

	if (len && len <= NAME_LEN_MAX && *name != '-' &&
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == len)
		return;
	if (len > DIAG_SHOW_MAX)
		snprintf(count, sizeof(count), " (%zu characters)", len);
	diag_error(line, "bad name '%s'%s: names are [a-z0-9][a-z0-9-]*, at most %d characters",
		   diag_cut(name, cut), count, NAME_LEN_MAX);
}

const char *
node_kind_name(enum node_kind k)
{
	static const char *const names[] = { "subsystem", "task", "component" };

	return names[k];
}

/* Which of program/task/component the node has; -1 after reporting none or several. */
static int
read_kind(const struct prop_ctx *c, const char *name)
{
	int kind = -1;

	for (int k = NODE_SUBSYS; k <= NODE_COMP; k++) {
		if (!prop_has(c, kind_prop[k]))
			continue;
		if (kind >= 0) {
			diag_error(prop_line(c, kind_prop[k]),
				   "node '%s' has both '%s' and '%s': a node is one subsystem, "
				   "task or component",
				   name, kind_prop[kind], kind_prop[k]);
			return -1;
		}
		kind = k;
	}
	if (kind < 0)
		diag_error(c->line,
			   "node '%s' is not a subsystem, task or component: it needs 'program', "
			   "'task' or 'component'",
			   name);
	return kind;
}

static void
read_program(const struct prop_ctx *c, struct node *n, const char *prop)
{
	char cut[DIAG_SHOW_MAX + 4];
	const struct prog *p;

	if (prop_string(c, prop, &n->program) <= 0)
		return;
	/* boot modules are named in HR_NAME_MAX bytes, and rm/desc.c reads no longer name */
	if (strlen(n->program) > NAME_LEN_MAX)
		diag_error(prop_line(c, prop), "program name '%s' is longer than %d characters",
			   diag_cut(n->program, cut), NAME_LEN_MAX);
	else if (!(p = prog_find(n->program)))
		diag_error(prop_line(c, prop), "unknown program '%s' (programs: %s)", n->program,
			   prog_names());
	else if (p->why)
		diag_error(prop_line(c, prop), "program '%s' (%s.elf) cannot be loaded: %s",
			   n->program, n->program, p->why);
}

static uint32_t
cpu_kind(const char *s)
{
	if (!strcmp(s, "hard"))
		return RES_HARD;
	if (!strcmp(s, "soft"))
		return RES_SOFT;
	if (!strcmp(s, "deferrable"))
		return RES_DEFERRABLE;
	return RES_NONE;
}

/* cpu, budget and period come together or not at all. */
static int
cpu_complete(const struct prop_ctx *c)
{
	static const char *const parts[] = { "cpu", "budget", "period" };
	int first = -1, missing = -1;

	for (int i = 0; i < 3; i++) {
		if (prop_has(c, parts[i]))
			first = first < 0 ? i : first;
		else
			missing = missing < 0 ? i : missing;
	}
	if (first < 0 || missing < 0)
		return first >= 0;
	diag_error(prop_line(c, parts[first]),
		   "cpu reservation of %s needs cpu, budget and period together: '%s' is missing",
		   c->what, parts[missing]);
	return 0;
}

/* server = "sporadic" | "deferrable": which server enforces the cpu reservation (whether
 * the parent's policy has it is admission.c's to say, which knows the parent). */
static void
read_server(const struct prop_ctx *c, struct node *n)
{
	const char *s;

	if (!prop_has(c, "server") || prop_string(c, "server", &s) < 0)
		return;
	n->line_server = prop_line(c, "server");
	if (!strcmp(s, "sporadic"))
		n->cpu.server = RES_SERVER_SPORADIC;
	else if (!strcmp(s, "deferrable"))
		n->cpu.server = RES_SERVER_DEFERRABLE;
	else
		diag_error(n->line_server,
			   "unknown server '%s' of %s (servers: sporadic deferrable)", s, c->what);
	if (n->cpu.server && !prop_has(c, "cpu"))
		diag_error(n->line_server, "server of %s needs a cpu reservation to serve",
			   c->what);
}

static void
read_cpu(const struct prop_ctx *c, struct node *n)
{
	const char *kind;

	n->line_cpu = prop_line(c, "cpu");
	read_server(c, n);
	if (!cpu_complete(c) || prop_string(c, "cpu", &kind) < 0 ||
	    prop_u32(c, "budget", &n->cpu.budget) < 0 || prop_u32(c, "period", &n->cpu.period) < 0)
		return;
	if (!(n->cpu.kind = cpu_kind(kind)))
		diag_error(n->line_cpu, "unknown cpu kind '%s' of %s (kinds: hard soft deferrable)",
			   kind, c->what);
	else if (!n->cpu.period)
		diag_error(prop_line(c, "period"), "cpu period 0 of %s must be at least 1",
			   c->what);
	else if (!n->cpu.budget || n->cpu.budget > n->cpu.period)
		diag_error(prop_line(c, "budget"),
			   "cpu budget %u of %s must be between 1 and its period %u", n->cpu.budget,
			   c->what, n->cpu.period);
}

static void
read_priority(const struct prop_ctx *c, struct node *n)
{
	n->priority = 128;
	if (prop_u32(c, "priority", &n->priority) > 0)
		prop_range(c, "priority", n->priority, 0, DESC_PRIORITY_MAX);
}

static void
read_memory(const struct prop_ctx *c, struct node *n, int required)
{
	int got = prop_u32(c, "memory-kib", &n->mem_kib);

	n->line_mem = prop_line(c, "memory-kib");
	if (!got && required)
		diag_error(c->line, "%s needs memory-kib%s", c->what,
			   n->kind == NODE_SUBSYS ? " (only an image's root may leave it out)"
						  : "");
	else if (got > 0 && n->mem_kib % 4)
		diag_error(n->line_mem,
			   "memory-kib %u of %s must be a multiple of 4 (pages are 4 KiB)",
			   n->mem_kib, c->what);
}

static void
read_args(const struct prop_ctx *c, struct node *n)
{
	size_t len;

	if (prop_string(c, "args", &n->args) > 0 && (len = strlen(n->args)) > ARGS_LEN_MAX)
		diag_error(prop_line(c, "args"), "args of %s are %zu characters long; at most %d",
			   c->what, len, ARGS_LEN_MAX);
}

static void
read_ports(const struct prop_ctx *c, struct node *n)
{
	if (prop_cells(c, "net-ports", n->ports, 1, PORTS_MAX, &n->nports,
		       "must be 1 to 16 port numbers in angle brackets, as in <80 443>") <= 0)
		return;
	n->line_ports = prop_line(c, "net-ports");
	for (unsigned i = 0; i < n->nports; i++)
		if (n->ports[i] < 1 || n->ports[i] > PORT_MAX)
			diag_error(n->line_ports, "net-port %u of %s must be between 1 and %d",
				   n->ports[i], c->what, PORT_MAX);
}

/* net-ranges = <LO HI ...>: whole pairs, each an inclusive range of ports. */
static void
read_ranges(const struct prop_ctx *c, struct node *n)
{
	static const char usage[] = "must be 1 to 8 pairs of port numbers LO HI in angle "
				    "brackets, as in <8000 8099>";
	unsigned cells;

	if (prop_cells(c, "net-ranges", n->ranges, 2, 2 * RANGES_MAX, &cells, usage) <= 0)
		return;
	n->line_ranges = prop_line(c, "net-ranges");
	if (cells % 2) {
		diag_error(n->line_ranges, "property 'net-ranges' of %s %s", c->what, usage);
		return;
	}
	n->nranges = cells / 2;
	for (unsigned i = 0; i < cells; i += 2)
		if (n->ranges[i] < 1 || n->ranges[i] > n->ranges[i + 1] ||
		    n->ranges[i + 1] > PORT_MAX)
			diag_error(n->line_ranges,
				   "net-range <%u %u> of %s must have 1 <= LO <= HI <= %d",
				   n->ranges[i], n->ranges[i + 1], c->what, PORT_MAX);
}

/*
 * The network a subsystem holds: ports it receives on, bandwidth it may send with, and on
 * the root the cards the image has.  Whether the tree can grant them is network.c's to say.
 */
static void
read_net(const struct prop_ctx *c, struct node *n)
{
	static const char *const props[] = { "net-ports", "net-ranges", "net-kbps" };

	for (int i = 0; i < 3; i++)
		if (prop_has(c, props[i]) && (!n->line_net || prop_line(c, props[i]) < n->line_net))
			n->line_net = prop_line(c, props[i]);
	read_ports(c, n);
	read_ranges(c, n);
	n->has_kbps = prop_u32(c, "net-kbps", &n->net_kbps) > 0;
	n->line_kbps = prop_line(c, "net-kbps");
	if (prop_u32(c, "net-cards", &n->net_cards) <= 0)
		return;
	/* the cards are the image's: the root holds them and hands ports and bandwidth down */
	if (n->parent)
		diag_error(prop_line(c, "net-cards"),
			   "net-cards of %s belongs on the image's root: the cards are the whole "
			   "image's",
			   c->what);
	else
		prop_range(c, "net-cards", n->net_cards, 0, CARDS_MAX);
}

/* restart-max or restart-backoff: a number in range, and only for restart = "on-fault". */
static void
read_restart_number(const struct prop_ctx *c, const char *name, uint32_t *v, uint32_t lo,
		    uint32_t hi, int on_fault)
{
	if (prop_u32(c, name, v) <= 0 || prop_range(c, name, *v, lo, hi))
		return;
	if (!on_fault)
		diag_error(prop_line(c, name), "%s of %s needs restart = \"on-fault\"", name,
			   c->what);
}

/*
 * What the parent does when the subsystem faults (the runtime reads rm/desc.h's names).
 * The root has no parent: manifest.c refuses any restart property on it, at line_restart.
 */
static void
read_restart(const struct prop_ctx *c, struct node *n)
{
	static const char *const props[] = { "restart", "restart-max", "restart-backoff" };
	uint32_t max = DESC_RESTARTS_DFLT, backoff = DESC_BACKOFF_DFLT;
	const char *policy = "never";

	for (int i = 0; i < 3; i++)
		if (prop_has(c, props[i]) &&
		    (!n->line_restart || prop_line(c, props[i]) < n->line_restart))
			n->line_restart = prop_line(c, props[i]);
	if (!n->parent || prop_string(c, "restart", &policy) < 0)
		return;
	if (strcmp(policy, "never") && strcmp(policy, "on-fault")) {
		diag_error(prop_line(c, "restart"),
			   "unknown restart '%s' of %s (restart: never on-fault)", policy, c->what);
		return;
	}
	n->restart = strcmp(policy, "on-fault") ? DESC_RESTART_NEVER : DESC_RESTART_ON_FAULT;
	read_restart_number(c, "restart-max", &max, 1, DESC_RESTARTS_MAX, n->restart);
	read_restart_number(c, "restart-backoff", &backoff, 0, DESC_BACKOFF_MAX, n->restart);
	if (n->restart == DESC_RESTART_ON_FAULT) {
		n->restart_max = max;
		n->restart_backoff = backoff;
	}
}

static void
read_subsys(const struct prop_ctx *c, struct node *n)
{
	const char *kind = "hard";

	read_program(c, n, "program");
	n->policy = "fprr";
	if (prop_string(c, "policy", &n->policy) > 0 && !admit_policy_known(n->policy))
		diag_error(prop_line(c, "policy"),
			   "unknown policy '%s' of %s (policies: fprr ds edf)", n->policy, c->what);
	read_cpu(c, n);
	read_priority(c, n);
	read_memory(c, n, n->parent != NULL);
	n->mem_kind = 1;
	if (prop_string(c, "memory-kind", &kind) > 0 && strcmp(kind, "hard")) {
		n->mem_kind = 2;
		if (strcmp(kind, "soft"))
			diag_error(prop_line(c, "memory-kind"),
				   "unknown memory-kind '%s' of %s (kinds: hard soft)", kind,
				   c->what);
	}
	read_args(c, n);
	read_net(c, n);
	read_restart(c, n);
	n->repeat = prop_flag(c, "repeat") != 0; /* malformed: reported, still set */
}

static void
read_task(const struct prop_ctx *c, struct node *n)
{
	if (prop_string(c, "task", &n->program) > 0 && !*n->program)
		diag_error(prop_line(c, "task"), "entry name of %s is empty", c->what);
	read_cpu(c, n);
	read_priority(c, n);
	prop_u32(c, "arg", &n->arg);
	n->outer = prop_flag(c, "outer") != 0; /* malformed: reported, still set */
}

static void
read_comp(const struct prop_ctx *c, struct node *n)
{
	read_program(c, n, "component");
	read_memory(c, n, 1);
	read_priority(c, n);
	read_args(c, n);
}

/* How many of n's children so far are tasks (task) or not (!task). */
static int
count_kind(const struct node *n, int task)
{
	int c = 0;

	for (const struct node *k = n->kids; k; k = k->next)
		c += (k->kind == NODE_TASK) == task;
	return c;
}

/* The console tags a child of the root with its bare name (kernel/console.c): "root" and
 * "k" are the root's and the kernel's. */
static int
tag_free(const struct node *k, int line)
{
	const char *whose = !strcmp(k->name, "root") ? "the root itself"
			    : !strcmp(k->name, "k")  ? "the kernel"
						     : NULL;

	if (whose)
		diag_error(line, "%s '%s' of the root would be tagged [%s] on the console, like %s",
			   node_kind_name(k->kind), k->name, k->name, whose);
	return !whose;
}

/* Subsystems have children; a task or component may not.  The runtime keeps at most
 * DESC_CHILDREN_MAX children and DESC_TASKS_MAX tasks per subsystem (rm/desc.h). */
static void
read_kids(const void *fdt, int off, const char *path, struct node *n)
{
	struct node **tail = &n->kids;
	char sub[PATH_LEN_MAX], cut[DIAG_SHOW_MAX + 4];
	int k, task;

	fdt_for_each_subnode(k, fdt, off)
	{
		node_path(sub, path, fdt_get_name(fdt, k, NULL));
		diag_cut(fdt_get_name(fdt, k, NULL), cut);
		if (n->kind != NODE_SUBSYS) {
			diag_error(lines_node(sub), "%s '%s' cannot have children (found '%s')",
				   node_kind_name(n->kind), n->name, cut);
			return;
		}
		if (n->level >= NEST_MAX) {
			diag_error(lines_node(sub), "node '%s' is nested deeper than %d levels",
				   cut, NEST_MAX);
			return;
		}
		*tail = node_read(fdt, k, sub, n);
		task = (*tail)->kind == NODE_TASK;
		if (!n->parent && !task && !tag_free(*tail, lines_node(sub)))
			return;
		if (count_kind(n, task) > (task ? DESC_TASKS_MAX : DESC_CHILDREN_MAX)) {
			diag_error(lines_node(sub), "subsystem '%s' has more than %d %s", n->name,
				   task ? DESC_TASKS_MAX : DESC_CHILDREN_MAX,
				   task ? "tasks" : "child subsystems and components");
			return;
		}
		tail = &(*tail)->next;
	}
}

struct node *
node_read(const void *fdt, int off, const char *path, struct node *parent)
{
	struct node *n = alloc_zero(1, sizeof(*n));
	struct prop_ctx c = { fdt, off, path, NULL, lines_node(path) };
	char what[64];
	int kind;

	snprintf(n->name, sizeof(n->name), "%s", fdt_get_name(fdt, off, NULL));
	n->line = n->line_cpu = n->line_mem = c.line;
	n->parent = parent;
	n->level = parent ? parent->level + 1 : 2;
	node_name_check(fdt_get_name(fdt, off, NULL), c.line);
	if ((kind = read_kind(&c, n->name)) < 0)
		return n;
	n->kind = (enum node_kind) kind;
	n->depth = !parent ? 0 : parent->depth + (n->kind == NODE_SUBSYS);
	snprintf(what, sizeof(what), "%s '%s'", node_kind_name(n->kind), n->name);
	c.what = what;
	prop_unknown(&c, known_props[n->kind]);
	if (n->kind == NODE_SUBSYS)
		read_subsys(&c, n);
	else if (n->kind == NODE_TASK)
		read_task(&c, n);
	else
		read_comp(&c, n);
	read_kids(fdt, off, path, n);
	return n;
}
