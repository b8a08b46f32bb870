/*
 * syscall.h - handlers with no object header of their own, and the dispatcher.  Every
 * handler takes the calling thread (its saved registers hold the arguments) and returns
 * the value for its rax.
 */
#ifndef SYSCALL_H
#define SYSCALL_H

#include "kernel.h"

struct thd;

long sys_invoke(struct thd *t);
long sys_ret(struct thd *t);
long sys_poweroff(struct thd *t);
long libc_syscall(struct thd *t); /* the Linux numbers musl uses (libc.c) */
void syscall_dispatch(struct regs *r);

#endif
