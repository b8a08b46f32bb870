/*
 * desc_test.c - the descriptor reader (rm/desc.c) against a valid descriptor, as images/
 * writes it, and against one bad value at a time: each must be refused with a reason that
 * names the property.  Blobs are built with libfdt's sequential-write API.
 */
#include "check.h"
#include "rm/desc.h"
#include "kernel/abi/hr_errno.h"

#include <libfdt.h>
#include <string.h>

/* The one change a test makes to the valid descriptor: len < 0 removes the property. */
struct change {
	const char *node; /* "/", "kid", "t" or "c" */
	const char *prop;
	const void *val;
	int len;
};

#define U32(v)	       (const fdt32_t[]){ cpu_to_fdt32(v) }, 4
#define CELLS(a, b, c) (const fdt32_t[]){ cpu_to_fdt32(a), cpu_to_fdt32(b), cpu_to_fdt32(c) }, 12
#define STR(s)	       s, (int) sizeof(s)     /* with its NUL */
#define RAW(s)	       s, (int) sizeof(s) - 1 /* without */
#define GONE	       NULL, -1

static uint8_t blob[16384];
static const struct change *change;
static int changed;

static void
prop(const char *node, const char *name, const void *val, int len)
{
	if (change && !strcmp(change->node, node) && !strcmp(change->prop, name)) {
		changed = 1;
		if (change->len < 0)
			return;
		val = change->val, len = change->len;
	}
	CHECK_EQ(fdt_property(blob, name, val, len), 0);
}

static void
prop_str(const char *node, const char *name, const char *s)
{
	prop(node, name, s, (int) strlen(s) + 1);
}

static void
prop_u32(const char *node, const char *name, uint32_t v)
{
	prop(node, name, U32(v));
}

static void
prop_cells(const char *node, const char *name, uint32_t a, uint32_t b, uint32_t c)
{
	prop(node, name, CELLS(a, b, c));
}

/* A property the valid descriptor lacks is added at the end of its node. */
static void
end_node(const char *node)
{
	if (change && !changed && !strcmp(change->node, node) && change->len >= 0)
		CHECK_EQ(fdt_property(blob, change->prop, change->val, change->len), 0);
	CHECK_EQ(fdt_end_node(blob), 0);
}

static void
subsystem(const char *node, const char *program, uint32_t pages)
{
	prop_str(node, "type", "subsystem");
	prop_str(node, "program", program);
	prop_str(node, "policy", "edf");
	prop_cells(node, "cpu", 1, 5, 10);
	prop_u32(node, "priority", 20);
	prop_u32(node, "memory-pages", pages);
	prop_u32(node, "memory-kind", 2);
	prop_str(node, "args", "--port 80");
}

/* / (the root, image demo) > kid (a subsystem that restarts) > t (a task), c (a component) */
static void
build(const struct change *c, const char *kid_name)
{
	change = c;
	changed = 0;
	CHECK_EQ(fdt_create(blob, sizeof(blob)), 0);
	CHECK_EQ(fdt_finish_reservemap(blob), 0);
	CHECK_EQ(fdt_begin_node(blob, ""), 0);
	prop_u32("/", "hires-descriptor", 1);
	prop_str("/", "image", "demo");
	prop_u32("/", "hz", 1000);
	subsystem("/", "root", 60000);
	prop("/", "modules", "hello\0spin", 11);
	CHECK_EQ(fdt_begin_node(blob, kid_name), 0);
	subsystem("kid", "hello", 512);
	prop("kid", "modules", "spin", 5);
	prop_cells("kid", "restart", 1, 3, 10);
	prop_u32("kid", "server", 2);
	CHECK_EQ(fdt_begin_node(blob, "t"), 0);
	prop_str("t", "type", "task");
	prop_str("t", "entry", "spin");
	prop_cells("t", "cpu", 0, 0, 0);
	prop_u32("t", "server", 1);
	prop_u32("t", "priority", 128);
	prop_u32("t", "arg", 7);
	end_node("t");
	CHECK_EQ(fdt_begin_node(blob, "c"), 0);
	prop_str("c", "type", "component");
	prop_str("c", "program", "spin");
	prop_u32("c", "memory-pages", 100);
	prop_u32("c", "priority", 5);
	end_node("c");
	end_node("kid");
	end_node("/");
	CHECK_EQ(fdt_finish(blob), 0);
	CHECK_EQ(desc_check(blob, fdt_totalsize(blob), &(const char *){ 0 }), 0);
}

static int
offset_of(const char *node, const char *kid_name)
{
	char path[80];

	if (!strcmp(node, "/"))
		return 0;
	snprintf(path, sizeof(path), "/%s%s%s", kid_name, strcmp(node, "kid") ? "/" : "",
		 strcmp(node, "kid") ? node : "");
	return fdt_path_offset(blob, path);
}

static void
check_refused(const struct change *c, const char *kid_name, const char *why_has)
{
	struct desc_node d;
	const char *why = "";

	build(c, kid_name);
	CHECK_EQ(desc_read(blob, offset_of(c->node, kid_name), &d, &why), HR_EINVAL);
	if (!strstr(why, why_has))
		check_fail(__FILE__, __LINE__, why);
}

/* Changing c->prop of c->node as given is refused, with a reason naming the property. */
#define REFUSES(node, name, ...)                                 \
	do {                                                     \
		struct change ch_ = { node, name, __VA_ARGS__ }; \
		char want_[40];                                  \
		snprintf(want_, sizeof(want_), "'%s'", name);    \
		check_refused(&ch_, "kid", want_);               \
	} while (0)

TEST(valid_descriptor_reads_every_field)
{
	struct desc_node d;
	const char *why = 0;

	build(NULL, "kid");
	CHECK_EQ(desc_read(blob, 0, &d, &why), 0);
	CHECK(d.type == DESC_SUBSYSTEM && !strcmp(d.program, "root") && !strcmp(d.policy, "edf"));
	CHECK(d.cpu_kind == 1 && d.budget == 5 && d.period == 10 && d.priority == 20);
	CHECK(d.memory_pages == 60000 && d.memory_kind == 2 && !strcmp(d.args, "--port 80"));
	CHECK(d.modules_len == 11 && !strcmp(d.modules + 6, "spin"));
	CHECK(d.restart_policy == DESC_RESTART_NEVER && !d.restart_max && !d.restart_backoff);
	CHECK_EQ(desc_read(blob, offset_of("kid", "kid"), &d, &why), 0);
	CHECK(!strcmp(d.name, "kid") && d.restart_policy == DESC_RESTART_ON_FAULT);
	CHECK(d.restart_max == 3 && d.restart_backoff == 10);
	CHECK_EQ(desc_read(blob, offset_of("t", "kid"), &d, &why), 0);
	CHECK(d.type == DESC_TASK && !strcmp(d.entry, "spin") && d.arg == 7 && !d.cpu_kind);
	CHECK_EQ(desc_read(blob, offset_of("c", "kid"), &d, &why), 0);
	CHECK(d.type == DESC_COMPONENT && !strcmp(d.program, "spin") && d.memory_pages == 100);
}

TEST(descriptor_without_restart_reads_as_never)
{
	struct change c = { "kid", "restart", GONE };
	struct desc_node d;
	const char *why = 0;

	build(&c, "kid");
	CHECK_EQ(desc_read(blob, offset_of("kid", "kid"), &d, &why), 0);
	CHECK(d.restart_policy == DESC_RESTART_NEVER && !d.restart_max && !d.restart_backoff);
}

TEST(restart_never_with_zeros_is_read)
{
	struct change c = { "kid", "restart", CELLS(0, 0, 0) };
	struct desc_node d;
	const char *why = 0;

	build(&c, "kid");
	CHECK_EQ(desc_read(blob, offset_of("kid", "kid"), &d, &why), 0);
	CHECK_EQ(d.restart_policy, DESC_RESTART_NEVER);
}

TEST(descriptor_without_memory_kind_reads_as_hard)
{
	struct change c = { "kid", "memory-kind", GONE };
	struct desc_node d;
	const char *why = 0;

	build(&c, "kid");
	CHECK_EQ(desc_read(blob, offset_of("kid", "kid"), &d, &why), 0);
	CHECK_EQ(d.memory_kind, 1);
}

TEST(refuses_hz_out_of_range)
{
	REFUSES("/", "hz", U32(0));
	REFUSES("/", "hz", U32(9));
	REFUSES("/", "hz", U32(10001));
	REFUSES("/", "hz", U32(0xffffffff));
	REFUSES("/", "hz", CELLS(1000, 0, 0));
}

TEST(refuses_priority_out_of_range)
{
	REFUSES("kid", "priority", U32(0xffffffff));
	REFUSES("kid", "priority", U32(256));
	REFUSES("t", "priority", U32(256));
	REFUSES("c", "priority", U32(1000));
	REFUSES("kid", "priority", RAW("\0\0"));
}

TEST(refuses_unknown_server)
{
	REFUSES("kid", "server", U32(3));
	REFUSES("t", "server", U32(0xffffffff));
	REFUSES("kid", "server", RAW("\0\0"));
}

TEST(server_is_read_and_absent_reads_as_the_policys_own)
{
	struct desc_node d;
	const char *why = 0;

	build(NULL, "kid");
	CHECK_EQ(desc_read(blob, offset_of("kid", "kid"), &d, &why), 0);
	CHECK_EQ(d.server, 2); /* RES_SERVER_SPORADIC */
	CHECK_EQ(desc_read(blob, offset_of("t", "kid"), &d, &why), 0);
	CHECK_EQ(d.server, 1);
	CHECK_EQ(desc_read(blob, 0, &d, &why), 0);
	CHECK_EQ(d.server, 0); /* RES_SERVER_DEFAULT */
}

TEST(refuses_unknown_cpu_kind)
{
	REFUSES("kid", "cpu", CELLS(4, 5, 10));
	REFUSES("t", "cpu", CELLS(0xffffffff, 1, 10));
	REFUSES("kid", "cpu", U32(1));
}

TEST(refuses_budget_outside_1_to_period)
{
	REFUSES("kid", "cpu", CELLS(1, 0, 10));
	REFUSES("kid", "cpu", CELLS(3, 11, 10));
	REFUSES("t", "cpu", CELLS(2, 1, 0));
}

TEST(refuses_unknown_memory_kind)
{
	REFUSES("kid", "memory-kind", U32(0));
	REFUSES("kid", "memory-kind", U32(3));
	REFUSES("/", "memory-kind", U32(0xffffffff));
}

TEST(refuses_unknown_or_missing_policy)
{
	REFUSES("kid", "policy", STR("rr"));
	REFUSES("kid", "policy", GONE);
	REFUSES("kid", "policy", RAW("edf"));
}

TEST(refuses_unknown_or_missing_type)
{
	REFUSES("kid", "type", STR("driver"));
	REFUSES("t", "type", GONE);
}

TEST(refuses_bad_node_names)
{
	static const char *const names[] = { "Kid", "k_d", "-kid",
					     "a-node-name-of-32-characters-xyz" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct change none = { "kid", "no-such-property", GONE };
		check_refused(&none, names[i], "node name");
	}
}

TEST(refuses_strings_not_terminated_inside_the_property)
{
	REFUSES("kid", "program", RAW("hello"));
	REFUSES("c", "program", STR("sp\0in"));
	REFUSES("t", "entry", RAW("spin"));
	REFUSES("kid", "args", RAW("--port"));
	REFUSES("/", "image", RAW("demo"));
	REFUSES("kid", "modules", RAW("spin"));
}

TEST(refuses_strings_with_control_characters)
{
	REFUSES("kid", "program", STR("hel\nlo"));
	REFUSES("t", "entry", STR("sp\tin"));
	REFUSES("kid", "args", STR("--port\n80"));
	REFUSES("kid", "modules", STR("sp\x1bin"));
}

TEST(refuses_missing_or_empty_names)
{
	REFUSES("kid", "program", STR(""));
	REFUSES("c", "program", GONE);
	REFUSES("t", "entry", STR(""));
	REFUSES("t", "entry", GONE);
	REFUSES("kid", "program", STR("a-program-name-of-32-characters-x"));
	REFUSES("/", "image", STR("Demo"));
	REFUSES("kid", "modules", RAW("spin\0\0"));
}

TEST(refuses_args_longer_than_255)
{
	static char args[257];

	memset(args, 'a', 256);
	REFUSES("kid", "args", args, 257);
}

TEST(refuses_missing_memory_pages_and_bad_arg)
{
	REFUSES("kid", "memory-pages", GONE);
	REFUSES("c", "memory-pages", CELLS(1, 2, 3));
	REFUSES("t", "arg", RAW("\0\0\0\0\0"));
}

TEST(refuses_bad_restart)
{
	REFUSES("kid", "restart", CELLS(2, 3, 10));
	REFUSES("kid", "restart", CELLS(1, 0, 10));
	REFUSES("kid", "restart", CELLS(1, 101, 10));
	REFUSES("kid", "restart", CELLS(1, 3, 100001));
	REFUSES("kid", "restart", CELLS(0, 0, 0xffffffff));
	REFUSES("kid", "restart", U32(1));
}
