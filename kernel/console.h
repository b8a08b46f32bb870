/*
 * console.h - components' console output (console.c): each line tagged with the writer's
 * path in the tree, each write bounded.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include "kernel.h"

struct comp;
struct thd;

/* Bytes of one write call (write, or writev's whole vector) the kernel takes at most. */
#define CONSOLE_CHUNK 512

/* Take up to a bounded number of bytes of c's output at user address buf: how many were
 * taken (a short count: the caller writes the rest), or HR_EFAULT (nothing taken). */
long console_write(struct comp *c, uint64_t buf, uint64_t len);
/* c ends or is renamed: send out its unfinished line. */
void console_end(struct comp *c);

/*
 * Is the console a terminal someone watches (images/run.sh says so through fw_cfg)?  Then a
 * form feed the root writes at the start of a line clears the screen (home, erase below:
 * hrtop's frames redraw in place); without a terminal it is dropped, and from anyone else
 * it is a control character like the others, shown as '?'.
 */
void console_set_terminal(int on);

/* Kernel messages: queue ch ('\n' as "\r\n"), waiting for room if the ring is full. */
void console_kputc(char ch);
/* Feed the UART what it takes now without waiting (at most its FIFO). */
void console_drain(void);
/* Wait until everything queued has gone out (before power-off). */
void console_sync(void);

#endif
