/*
 * console.h - components' console output (console.c): each line tagged with the writer's
 * path in the tree, each write bounded.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include "kernel.h"

struct comp;
struct thd;

/* Take up to a bounded number of bytes of c's output at user address buf: how many were
 * taken (a short count: the caller writes the rest), or HR_EFAULT (nothing taken). */
long console_write(struct comp *c, uint64_t buf, uint64_t len);
/* c ends or is renamed: send out its unfinished line. */
void console_end(struct comp *c);

long sys_comp_name(struct thd *t);

#endif
