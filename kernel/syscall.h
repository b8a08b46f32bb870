/*
 * syscall.h - the system call handlers and the dispatcher.  One handler per row of
 * abi/hr_syscall.h, its prototype generated from that row: sys_<name>(t, args...) takes
 * the calling thread and the row's typed arguments, decoded from the saved registers by
 * syscall_dispatch (syscall.c), and returns the value for the caller's rax.  Each handler
 * is defined in the file of its object (sys_sched_grant in schedtree.c, and so on).
 */
#ifndef SYSCALL_H
#define SYSCALL_H

#include "kernel.h"

struct thd;

#define HR_SYS_PROTO(num, name, stub, ...) \
	long sys_##name(struct thd *t HR_ARGS_EACH(HR_SYS_PARAM, ##__VA_ARGS__));
#define HR_SYS_PARAM(i, arg) , HR_ARG_DECL arg
HR_SYSCALLS(HR_SYS_PROTO)
#undef HR_SYS_PARAM
#undef HR_SYS_PROTO

long libc_syscall(struct thd *t); /* the Linux numbers musl uses (libc.c) */
void syscall_dispatch(struct regs *r);

#endif
