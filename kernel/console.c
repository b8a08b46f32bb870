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
 * writer's loop (musl's, rm/stdio.c's) writes the rest, so the kernel never runs long on
 * behalf of one writer: between calls it can be preempted, and everything it spends here
 * is charged to it, at its own priority, like any other work it does.  Nor does it wait on
 * the UART (115200 baud: a 512-byte write would take 44 ms): finished lines go into one
 * ring, which the UART is fed from whenever it takes bytes without waiting (at each write,
 * each tick and each kernel message).  A line that finds no room in the ring is not taken:
 * the write returns short, and the writer, retrying, drains the ring at its own priority.
 * Kernel messages wait for room (they are few, and a panic must get out); the last
 * KERNEL_ROOM bytes are theirs alone, so components' output never makes them wait.
 */
#include "console.h"
#include "syscall.h"
#include "comp.h"
#include "thd.h"
#include "ucopy.h"

#define CONSOLE_RING 8192
#define KERNEL_ROOM  1024 /* of the ring, only for kernel messages: no flood makes them wait */

/* bytes [tail, head) wait for the UART; the indices only grow */
static char ring[CONSOLE_RING];
static uint32_t head, tail;
static int terminal; /* console_set_terminal */

static uint32_t
room(void)
{
	return CONSOLE_RING - (head - tail);
}

static void
ring_put(char ch)
{
	ring[head++ % CONSOLE_RING] = ch;
}

void
console_drain(void)
{
	unsigned n;

	while (tail != head && (n = hw_console_room()))
		while (n-- && tail != head)
			hw_console_tx(ring[tail++ % CONSOLE_RING]);
}

void
console_sync(void)
{
	while (tail != head)
		console_drain();
}

void
console_kputc(char ch)
{
	while (room() < 2)
		console_drain();
	if (ch == '\n')
		ring_put('\r');
	ring_put(ch);
}

static void
puts_raw(const char *s, unsigned n)
{
	for (unsigned i = 0; i < n && s[i]; i++)
		ring_put(s[i]);
}

static unsigned
digits(uint32_t v)
{
	unsigned n = 1;

	while (v >= 10)
		v /= 10, n++;
	return n;
}

/* The path of c below the root: "root" for the root itself, else "a/b/c"; with put, into
 * the ring.  Its length either way. */
static unsigned
path(const struct comp *c, int top, int put)
{
	unsigned n = 0, len;

	if (c == root_comp) {
		if (top && put)
			puts_raw("root", 4);
		return top ? 4 : 0;
	}
	if (c->parent && c->parent != root_comp) {
		n = path(c->parent, 0, put) + 1;
		if (put)
			ring_put('/');
	}
	if (!c->name[0]) {
		if (put)
			kprintf("#%u", c->id);
		return n + 1 + digits(c->id);
	}
	for (len = 0; len < sizeof(c->name) && c->name[len]; len++)
		;
	if (put)
		puts_raw(c->name, len);
	return n + len;
}

/* Send c's buffered line out, tagged, as one line, if the ring has room for all of it:
 * whether it had. */
static int
flush(struct comp *c)
{
	if (path(c, 1, 0) + 3 + c->con_len + 2 + KERNEL_ROOM > room())
		return 0;
	ring_put('[');
	path(c, 1, 1);
	ring_put(']');
	ring_put(' ');
	for (unsigned i = 0; i < c->con_len; i++)
		ring_put(c->con_buf[i]);
	ring_put('\r');
	ring_put('\n');
	c->con_len = 0;
	return 1;
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

void
console_set_terminal(int on)
{
	terminal = on;
}

/* The root's form feed at the start of a line, on a terminal: home, erase to the end of
 * the screen (cosmetic: skipped when the ring has no room for it). */
static void
new_page(void)
{
	static const char clear[] = "\x1b[H\x1b[J";

	if (!terminal || sizeof(clear) - 1 + KERNEL_ROOM > room())
		return;
	for (unsigned i = 0; i < sizeof(clear) - 1; i++)
		ring_put(clear[i]);
}

/* Take bytes of s into c's line while the ring has room for each line they finish: how
 * many were taken. */
static uint64_t
put(struct comp *c, const char *s, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\r')
			continue;
		if (s[i] == '\f' && c == root_comp && c->con_len == 0) {
			new_page();
			continue;
		}
		/* an over-long line goes out in tagged pieces */
		if ((s[i] == '\n' || c->con_len == sizeof(c->con_buf)) && !flush(c))
			break;
		if (s[i] != '\n')
			c->con_buf[c->con_len++] = printable(s[i]);
	}
	return i;
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
	console_drain();
	n = put(c, tmp, n);
	console_drain();
	return (long) n;
}

void
console_end(struct comp *c)
{
	/* an unfinished line that finds the ring full is dropped: waiting for the UART here
	 * would stall everyone */
	if (c->con_len && !flush(c))
		c->con_len = 0;
	console_drain();
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
sys_comp_name(struct thd *t, uint64_t slot, uint64_t ptr, uint64_t len)
{
	struct comp *s = t->comp, *c = comp_from_cap(s, slot);
	char name[HR_NAME_MAX] = { 0 };

	if (!c || c->parent != s)
		return refuse(HR_ECAP, "slot %lu names no child", slot);
	if (len == 0 || len >= HR_NAME_MAX)
		return refuse(HR_EINVAL, "name length %lu", len);
	if (ucopy_from(s, name, ptr, len))
		return refuse(HR_EFAULT, "name at %lx", ptr);
	if (!name_ok(name, len))
		return refuse(HR_EINVAL, "name '%s' is not [a-z0-9][a-z0-9-]*", name);
	/* a child of the root is tagged with its bare name: not the root's nor the kernel's */
	if (s == root_comp && (!memcmp(name, "root", 5) || !memcmp(name, "k", 2)))
		return refuse(HR_EINVAL, "the root's child '%s' would be tagged as it", name);
	console_end(c); /* what it said so far was said under its old name */
	memcpy(c->name, name, sizeof(c->name));
	return 0;
}
