/*
 * console.c - what components write to the console (fd 1 and 2): attributed and bounded.
 *
 * Attribution.  Every line a component writes goes out whole, after a tag only the kernel
 * writes: the component's path in the tree of names its parents gave it ("[good/leaf] "; the
 * root is "[root]", an unnamed component "#id").  A name is set by the parent alone
 * (comp_name), so the path cannot be forged: no component can speak for another, and the
 * test runner can trust who said "test X: ok".
 *
 * Bounds.  A write takes at most CONSOLE_CHUNK bytes and returns how many it took; the
 * writer's loop (musl's, rm/console.c's) writes the rest, so the kernel never runs long on
 * behalf of one writer: between calls it can be preempted, and everything it spends here
 * is charged to it, at its own priority, like any other work it does.
 */
#include "console.h"
#include "comp.h"
#include "thd.h"
#include "ucopy.h"

#define CONSOLE_CHUNK 512

static void
puts_raw(const char *s, unsigned n)
{
	for (unsigned i = 0; i < n && s[i]; i++)
		hw_console_putc(s[i]);
}

/* The path of c below the root: "root" for the root itself, else "a/b/c". */
static void
put_path(const struct comp *c, int top)
{
	if (c == root_comp) {
		if (top)
			puts_raw("root", 4);
		return;
	}
	if (c->parent && c->parent != root_comp) {
		put_path(c->parent, 0);
		hw_console_putc('/');
	}
	if (c->name[0]) {
		puts_raw(c->name, sizeof(c->name));
	} else {
		hw_console_putc('#');
		kprintf("%u", c->id);
	}
}

/* Send c's buffered line out, tagged, as one line. */
static void
flush(struct comp *c)
{
	hw_console_putc('[');
	put_path(c, 1);
	hw_console_putc(']');
	hw_console_putc(' ');
	for (unsigned i = 0; i < c->con_len; i++)
		hw_console_putc(c->con_buf[i]);
	hw_console_putc('\n');
	c->con_len = 0;
}

/* Control characters other than tab could break the one-line-one-writer rule: a carriage
 * return, or an escape sequence that moves the cursor back over the tag and redraws the
 * line as another writer's on a terminal.  They are shown as '?'. */
static char
printable(char ch)
{
	unsigned char u = (unsigned char) ch;

	if (ch == '\t' || (u >= 0x20 && u != 0x7f))
		return ch;
	return '?';
}

static void
put(struct comp *c, const char *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (s[i] == '\n') {
			flush(c);
			continue;
		}
		if (s[i] == '\r')
			continue;
		if (c->con_len == sizeof(c->con_buf))
			flush(c); /* an over-long line goes out in tagged pieces */
		c->con_buf[c->con_len++] = printable(s[i]);
	}
}

long
console_write(struct comp *c, uint64_t buf, uint64_t len)
{
	char tmp[CONSOLE_CHUNK];
	uint64_t n = MIN(len, sizeof(tmp));

	if (buf >= HR_VA_USER_END || len > HR_VA_USER_END - buf)
		return HR_EFAULT; /* the buffer cannot be all in the user half: write nothing */
	if (n && ucopy_from(c, tmp, buf, n))
		return HR_EFAULT;
	put(c, tmp, n);
	return (long) n;
}

void
console_end(struct comp *c)
{
	if (c->con_len)
		flush(c);
}

/* A name is what MANIFEST allows (images/ checks the same): [a-z0-9][a-z0-9-]*. */
static int
name_ok(const char *s, uint64_t n)
{
	if (n == 0 || n >= HR_NAME_MAX || s[0] == '-')
		return 0;
	for (uint64_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

long
sys_comp_name(struct thd *t)
{
	struct comp *s = t->comp, *c = comp_from_cap(s, t->regs.rdi);
	uint64_t ptr = t->regs.rsi, len = t->regs.rdx;
	char name[HR_NAME_MAX] = { 0 };

	if (!c || c->parent != s)
		return refuse(HR_ECAP, "slot %lu names no child", t->regs.rdi);
	if (len == 0 || len >= HR_NAME_MAX)
		return refuse(HR_EINVAL, "name length %lu", len);
	if (ucopy_from(s, name, ptr, len))
		return refuse(HR_EFAULT, "name at %lx", ptr);
	if (!name_ok(name, len))
		return refuse(HR_EINVAL, "name '%s' is not [a-z0-9][a-z0-9-]*", name);
	console_end(c); /* what it said so far was said under its old name */
	memcpy(c->name, name, sizeof(c->name));
	return 0;
}
