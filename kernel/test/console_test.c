/*
 * console_test.c - the console's tags and bounds (kernel/console.c), over a fake UART that
 * can stall: a write never waits on it, a full ring takes nothing, kernel messages keep
 * their room.
 */
#include "check.h"
#include "console.h"
#include "comp.h"
#include "ucopy.h"

#include <stdio.h>
#include <string.h>

/* ---- what console.c needs from the rest of the kernel ---------------------------------- */

int kdebug;
struct comp *root_comp;

static char sent[65536];
static unsigned nsent;
static int stalled;	     /* the UART takes nothing */
static unsigned stall_polls; /* times it was asked while stalled */

unsigned
hw_console_room(void)
{
	if (!stalled)
		return 16;
	/* a console that waited for a stalled UART would spin here forever: give way after
	 * a while, and let stall_polls tell the test */
	if (++stall_polls > 100000)
		stalled = 0;
	return 0;
}

void
hw_console_tx(char c)
{
	if (nsent < sizeof(sent) - 1)
		sent[nsent++] = c;
}

long
ucopy_from(struct comp *c, void *dst, uint64_t ua, uint64_t n)
{
	(void) c;
	memcpy(dst, (const void *) (uintptr_t) ua, n);
	return 0;
}

struct comp *
comp_from_cap(struct comp *self, uint64_t slot)
{
	(void) self, (void) slot;
	return NULL;
}

void
kprintf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		console_kputc(*p);
}

/* ---- helpers ----------------------------------------------------------------------------- */

static struct comp root, a, b;

/* Everything queued so far goes out; the fake UART is emptied. */
static void
reset(void)
{
	stalled = 0;
	console_sync();
	nsent = 0;
	memset(sent, 0, sizeof(sent));
	stall_polls = 0;
	root = (struct comp){ 0 };
	a = (struct comp){ .parent = &root, .name = "a" };
	b = (struct comp){ .parent = &a, .name = "b" };
	root_comp = &root;
}

static long
write_str(struct comp *c, const char *s)
{
	return console_write(c, (uint64_t) (uintptr_t) s, strlen(s));
}

/* 41 bytes; LINES of them are five times the ring */
#define LINE  "0123456789012345678901234567890123456789\n"
#define LINES 1000

/* ---- tests ------------------------------------------------------------------------------- */

TEST(line_goes_out_whole_behind_the_writers_path)
{
	reset();
	CHECK_EQ(write_str(&b, "hel"), 3);
	CHECK_EQ(nsent, 0); /* an unfinished line waits */
	CHECK_EQ(write_str(&b, "lo\n"), 3);
	CHECK(!strcmp(sent, "[a/b] hello\r\n"));
}

TEST(roots_form_feed_clears_a_terminal_and_is_dropped_elsewhere)
{
	reset();
	console_set_terminal(1);
	write_str(&root, "\fframe\n");
	CHECK(!strcmp(sent, "\x1b[H\x1b[J[root] frame\r\n"));
	reset();
	console_set_terminal(0);
	write_str(&root, "\fframe\n");
	CHECK(!strcmp(sent, "[root] frame\r\n"));
}

TEST(anyone_elses_form_feed_is_a_question_mark)
{
	reset();
	console_set_terminal(1);
	write_str(&b, "\fno\n");
	write_str(&root, "x\fy\n"); /* not at the start of a line */
	CHECK(!strcmp(sent, "[a/b] ?no\r\n[root] x?y\r\n"));
	console_set_terminal(0);
}

TEST(root_is_tagged_root_and_unnamed_component_by_id)
{
	struct comp anon = { .parent = &root, .id = 42 };

	reset();
	anon.parent = &root;
	write_str(&root, "r\n");
	write_str(&anon, "x\n");
	CHECK(!strcmp(sent, "[root] r\r\n[#42] x\r\n"));
}

TEST(carriage_return_dropped_and_escape_shown_as_question_mark)
{
	reset();
	write_str(&a, "\r[root] x\x1b[2K\x1b[1G[root] y\t\n");
	CHECK(!strcmp(sent, "[a] [root] x?[2K?[1G[root] y\t\r\n"));
}

TEST(one_write_takes_at_most_a_chunk)
{
	static char big[4 * CONSOLE_CHUNK];

	reset();
	memset(big, 'x', sizeof(big));
	CHECK_EQ(console_write(&a, (uint64_t) (uintptr_t) big, sizeof(big)), CONSOLE_CHUNK);
}

TEST(over_long_line_goes_out_in_tagged_pieces)
{
	static char big[300];

	reset();
	memset(big, 'x', sizeof(big));
	CHECK_EQ(console_write(&a, (uint64_t) (uintptr_t) big, sizeof(big)), sizeof(big));
	CHECK(!strncmp(sent, "[a] xxx", 7));
	CHECK_EQ(strlen(sent), 4 + sizeof(a.con_buf) + 2); /* one full piece so far */
}

TEST(stalled_uart_never_makes_a_write_wait)
{
	long total = 0, n = 0;

	reset();
	stalled = 1;
	/* lines until the ring is full: each write returns at once, the last ones short */
	for (int i = 0; i < LINES && (n = write_str(&a, LINE)) == 41; i++)
		total += n;
	CHECK(n >= 0 && n < 41);
	CHECK(total > 4000); /* the ring held some KiB */
	CHECK_EQ(nsent, 0);
	CHECK(stall_polls < 1000); /* a couple of polls a write, never a wait */
	/* the UART comes back: writing again drains the ring and is taken */
	stalled = 0;
	CHECK_EQ(write_str(&a, "more\n"), 5);
	CHECK(nsent > 4000);
}

TEST(kernel_message_never_waits_behind_a_components_flood)
{
	reset();
	stalled = 1;
	for (int i = 0; i < LINES && write_str(&a, LINE) == 41; i++)
		;
	stall_polls = 0;
	for (int i = 0; i < 900; i++)
		console_kputc('k');
	CHECK_EQ(stall_polls, 0);
	stalled = 0;
}

TEST(kernel_message_waits_for_the_uart_only_when_its_own_room_is_gone)
{
	reset();
	stalled = 1;
	for (int i = 0; i < 9000; i++)
		console_kputc('k');
	CHECK(stall_polls > 0); /* the ring is 8 KiB: the kernel's own overflow waits */
	stalled = 0;
}

TEST(unfinished_line_of_an_ending_component_goes_out)
{
	reset();
	write_str(&a, "bye");
	console_end(&a);
	CHECK(!strcmp(sent, "[a] bye\r\n"));
	CHECK_EQ(a.con_len, 0);
}
