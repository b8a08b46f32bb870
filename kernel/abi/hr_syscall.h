/*
 * hr_syscall.h - the one table of HiRES system calls.
 *
 * Each row is X(number, name, nargs, stub).  The kernel's dispatcher, its debug names, the
 * user stubs in rm/sys.h and docs/ABI.md all follow this table; adding a call touches this
 * row, one decode/perform pair in the kernel, one section of docs/ABI.md and one test.
 * stub is C for a generated inline stub, ASM for one written in rm/entry.S.
 *
 * Numbers start at HR_SYS_BASE so they never collide with the handful of Linux calls musl
 * issues (kernel/libc.c answers those).  Arguments travel in rdi, rsi, rdx, r10, r8, r9;
 * the result comes back in rax.
 */
#ifndef HR_SYSCALL_H
#define HR_SYSCALL_H

#define HR_SYS_BASE 0x400

/* clang-format off: a table, aligned by hand */
#define HR_SYSCALLS(X)                                                                           \
	X(0x400, invoke, 5, ASM)      /* cap, a0, a1, a2, a3 -> callee's return value      */    \
	X(0x401, ret, 1, ASM)	      /* value: return from the current invocation         */    \
	X(0x402, comp_entry, 6, C)    /* entry, stack base, count, stride, tcb, per-caller  */   \
	X(0x403, comp_create, 3, C)   /* cap slot, thread quota, component quota -> comp id */   \
	X(0x404, comp_kill, 1, C)     /* cap slot of a child component                      */   \
	X(0x405, comp_state, 1, C)    /* cap slot -> HR_CS_* state, exit code in bits 8..   */   \
	X(0x406, cap_invoke, 4, C)    /* dst comp slot, dst cap, target comp slot, badge    */   \
	X(0x407, cap_delete, 2, C)    /* comp slot (or SELF), cap slot                      */   \
	X(0x408, thd_create, 5, C)    /* comp slot, ip, sp, arg, fs base -> thread id       */   \
	X(0x409, thd_switch, 2, C)    /* thread id, HR_SW_* flags                           */   \
	X(0x40a, thd_wakeup, 1, C)    /* thread id: clear a block set by us or a descendant */   \
	X(0x40b, thd_self, 0, C)      /* -> current thread id                               */   \
	X(0x40c, event_wait, 0, C)    /* park the event thread until an event arrives       */   \
	X(0x40d, sched_event, 1, C)   /* thread id: make it this scheduler's event thread   */   \
	X(0x40e, sched_promote, 2, C) /* comp slot, thread id of its c^s                  */     \
	X(0x40f, sched_grant, 2, C)   /* thread id, comp slot of a child scheduler          */   \
	X(0x410, sched_revoke, 1, C)  /* thread id: take it back from our children          */   \
	X(0x411, sched_pevt, 2, C)    /* comp slot of a child scheduler, 0 or 1             */   \
	X(0x412, mem_alias, 4, C)     /* src va, dst comp slot, dst va, HR_MEM_* flags      */   \
	X(0x413, mem_remove, 2, C)    /* comp slot (or SELF), va                            */   \
	X(0x414, mem_bound, 2, C)     /* comp slot of a child, pages                        */   \
	X(0x415, mem_info, 3, C)      /* comp slot (or SELF), HR_MI_*, arg -> value         */   \
	X(0x416, poweroff, 1, C)      /* exit code (root only)                              */   \
	X(0x417, timer_next, 1, C)    /* TSC at which this scheduler must run again (0: none) */ \
	X(0x418, sched_demote, 1, C)  /* comp slot of a child scheduler: demote its subtree   */ \
	X(0x419, comp_name, 3, C)     /* comp slot of a child, name, length: tags its output */  \
	X(0x41a, mem_protect, 3, C)   /* comp slot (or SELF), va, HR_MEM_* within its rights  */
/* clang-format on */

#ifndef __ASSEMBLER__
enum hr_sysno {
#define HR_SYSNO_ENUM(num, name, nargs, stub) HR_SYS_##name = (num),
	HR_SYSCALLS(HR_SYSNO_ENUM)
#undef HR_SYSNO_ENUM
		HR_SYS_END
};
#endif

/* The numbers assembly stubs use (rm/entry.S); checked against the table in rm/export.c. */
#define HR_SYSNO_INVOKE 0x400
#define HR_SYSNO_RET	0x401

/* Pseudo capability slot meaning "the calling component" where a component slot is asked. */
#define HR_CAP_SELF 0
/* Capability table size of every component. */
#define HR_CAP_MAX 128

/* thd_switch flags */
#define HR_SW_BLOCK  0x1u /* block the outgoing thread at the caller's level            */
#define HR_SW_EVWAIT 0x2u /* outgoing event thread waits for its next event             */
#define HR_SW_PEVT   0x4u /* the target is a child's c^s: set that child's pevt         */
#define HR_SW_EXIT   0x8u /* the outgoing thread is finished: free it                   */
#define HR_SW_ALL    (HR_SW_BLOCK | HR_SW_EVWAIT | HR_SW_PEVT | HR_SW_EXIT)

/* mem_alias flags */
#define HR_MEM_READ  0x1u
#define HR_MEM_WRITE 0x2u
#define HR_MEM_EXEC  0x4u
#define HR_MEM_ALL   (HR_MEM_READ | HR_MEM_WRITE | HR_MEM_EXEC)

/* comp_state results (low 8 bits) */
#define HR_CS_LIVE    1
#define HR_CS_FAULTED 2
#define HR_CS_EXITED  3

/* mem_info queries */
#define HR_MI_BOUND    1 /* pages that may be aliased into the component              */
#define HR_MI_USED     2 /* pages aliased into it now                                  */
#define HR_MI_GIVEN    3 /* pages of its bound it has passed on to its children       */
#define HR_MI_FREEPOOL 4 /* kernel mapping nodes still free (system-wide)            */
#define HR_MI_PERMS    5 /* rights (HR_MEM_*) of its mapping at address arg, or HR_ENOENT */
#define HR_MI_PTABLES  6 /* page-table pairs its address space holds (charged to it)   */
#define HR_MI_MAPPED   7 /* what its mapping at arg allows now (W^X, mem_protect)       */

#endif
