/*
 * hr_syscall.h - the one table of HiRES system calls.
 *
 * Each row is X(number, name, stub, (type, arg)...): the call's number, its name, how the
 * user stub is made (C: generated inline in rm/sys.h; ASM: written by hand in rm/sys.h as
 * inline assembly, the compiler checking it against this row) and its arguments in order,
 * each with its type.  From this table come the enum of numbers below, the kernel's handler
 * prototypes `long sys_<name>(struct thd *t, args...)` and its dispatcher (kernel/syscall.h,
 * kernel/syscall.c), the user stubs `long hr_<name>(args...)` (rm/sys.h) and the argument
 * line of each docs/ABI.md section (checked by tests/run.sh).
 *
 * Numbers start at HR_SYS_BASE so they never collide with the handful of Linux calls musl
 * issues (kernel/libc.c answers those).  Arguments travel in rdi, rsi, rdx, r10, r8, r9;
 * the result comes back in rax.
 */
#ifndef HR_SYSCALL_H
#define HR_SYSCALL_H

#define HR_SYS_BASE 0x400

/* clang-format off: a table, aligned by hand */
#define HR_SYSCALLS(X)                                                                             \
	/* -> the callee's return value */                                                         \
	X(0x400, invoke, ASM, (uint64_t, cap), (long, a0), (long, a1), (long, a2), (long, a3))     \
	/* return from the current invocation */                                                   \
	X(0x401, ret, ASM, (long, value))                                                          \
	/* register the stacks migrating threads run on */                                         \
	X(0x402, comp_entry, C, (uint64_t, entry), (uint64_t, base), (uint64_t, count),            \
	  (uint64_t, stride), (uint64_t, tcb), (uint64_t, per_caller))                             \
	/* -> comp id */                                                                           \
	X(0x403, comp_create, C, (uint64_t, slot), (uint64_t, thd_quota), (uint64_t, comp_quota))  \
	/* slot of a child component */                                                            \
	X(0x404, comp_kill, C, (uint64_t, slot))                                                   \
	/* -> HR_CS_* state, exit code in bits 8.. */                                              \
	X(0x405, comp_state, C, (uint64_t, slot))                                                  \
	/* component slots: dst, target */                                                         \
	X(0x406, cap_invoke, C, (uint64_t, dst), (uint64_t, dst_cap), (uint64_t, target),          \
	  (uint64_t, badge))                                                                       \
	/* comp: a slot or HR_CAP_SELF */                                                          \
	X(0x407, cap_delete, C, (uint64_t, comp), (uint64_t, slot))                                \
	/* -> thread id */                                                                         \
	X(0x408, thd_create, C, (uint64_t, comp), (uint64_t, ip), (uint64_t, sp), (uint64_t, arg), \
	  (uint64_t, fs))                                                                          \
	/* flags: HR_SW_*; tsc: the timer, with HR_SW_TIMER.  Keeps only what a C call keeps */    \
	X(0x409, thd_switch, ASM, (uint64_t, thd), (uint64_t, flags), (uint64_t, tsc))             \
	/* clear a block set by us or a descendant */                                              \
	X(0x40a, thd_wakeup, C, (uint64_t, thd))                                                   \
	/* -> current thread id */                                                                 \
	X(0x40b, thd_self, C)                                                                      \
	/* park the event thread until an event arrives */                                         \
	X(0x40c, event_wait, C)                                                                    \
	/* make thd this scheduler's event thread */                                               \
	X(0x40d, sched_event, C, (uint64_t, thd))                                                  \
	/* cs: the child's c^s */                                                                  \
	X(0x40e, sched_promote, C, (uint64_t, slot), (uint64_t, cs))                               \
	/* slot: a child scheduler */                                                              \
	X(0x40f, sched_grant, C, (uint64_t, thd), (uint64_t, slot))                                \
	/* take it back from our children */                                                       \
	X(0x410, sched_revoke, C, (uint64_t, thd))                                                 \
	/* value: 0 or 1 */                                                                        \
	X(0x411, sched_pevt, C, (uint64_t, slot), (uint64_t, value))                               \
	/* perms: HR_MEM_* */                                                                      \
	X(0x412, mem_alias, C, (uint64_t, src), (uint64_t, dst), (uint64_t, va),                   \
	  (uint64_t, perms))                                                                       \
	/* comp: a slot or HR_CAP_SELF */                                                          \
	X(0x413, mem_remove, C, (uint64_t, comp), (uint64_t, va))                                  \
	/* slot of a child */                                                                      \
	X(0x414, mem_bound, C, (uint64_t, slot), (uint64_t, pages))                                \
	/* what: HR_MI_* -> value */                                                               \
	X(0x415, mem_info, C, (uint64_t, comp), (uint64_t, what), (uint64_t, arg))                 \
	/* root only */                                                                            \
	X(0x416, poweroff, C, (long, code))                                                        \
	/* when this scheduler must run again (0: never) */                                        \
	X(0x417, timer_next, C, (uint64_t, tsc))                                                   \
	/* demote the child scheduler's subtree */                                                 \
	X(0x418, sched_demote, C, (uint64_t, slot))                                                \
	/* tags the child's output */                                                              \
	X(0x419, comp_name, C, (uint64_t, slot), (uint64_t, name), (uint64_t, len))                \
	/* perms within its rights */                                                              \
	X(0x41a, mem_protect, C, (uint64_t, comp), (uint64_t, va), (uint64_t, perms))              \
	/* map our rings for card (abi/hr_net.h) */                                                \
	X(0x41b, net_open, C, (uint64_t, card))                                                    \
	/* send what our transmit ring holds -> frames sent */                                     \
	X(0x41c, net_tx, C)                                                                        \
	/* ports lo..hi of ours to a child subsystem */                                            \
	X(0x41d, net_bind, C, (uint64_t, slot), (uint64_t, lo), (uint64_t, hi))                    \
	/* take lo..hi back from a child's subtree -> how many */                                  \
	X(0x41e, net_unbind, C, (uint64_t, slot), (uint64_t, lo), (uint64_t, hi))                  \
	/* a child's bandwidth: kbit/s and a burst in bytes (0: default) */                        \
	X(0x41f, net_rate, C, (uint64_t, slot), (uint64_t, kbps), (uint64_t, burst))               \
	/* what: HR_NI_* -> value */                                                               \
	X(0x420, net_info, C, (uint64_t, comp), (uint64_t, what), (uint64_t, arg))                 \
	/* thd: a child scheduler's c^s; value: 1 held (may not run), 0 free */                    \
	X(0x421, sched_hold, C, (uint64_t, thd), (uint64_t, value))
/* clang-format on */

/*
 * Walking a row's arguments: HR_ARGS_EACH(M, args...) is M(0, (type, name)) M(1, ...) ...,
 * HR_ARGS_PARAMS(args...) the parameter list "type name, ..." (void when there are none).
 * HR_ARG_TYPE (type, name) and HR_ARG_NAME (type, name) take a pair apart.
 */
#define HR_ARG_TYPE(type, name)		      type
#define HR_ARG_NAME(type, name)		      name
#define HR_ARG_DECL(type, name)		      type name
#define HR_ARGC(...)			      HR_ARGC_(0, ##__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define HR_ARGC_(z, a, b, c, d, e, f, n, ...) n
#define HR_ARGS_CAT(a, b)		      HR_ARGS_CAT_(a, b)
#define HR_ARGS_CAT_(a, b)		      a##b
#define HR_ARGS_EACH(M, ...)		      HR_ARGS_CAT(HR_ARGS_EACH_, HR_ARGC(__VA_ARGS__))(M, ##__VA_ARGS__)
#define HR_ARGS_EACH_0(M)
#define HR_ARGS_EACH_1(M, a)		    M(0, a)
#define HR_ARGS_EACH_2(M, a, b)		    M(0, a) M(1, b)
#define HR_ARGS_EACH_3(M, a, b, c)	    M(0, a) M(1, b) M(2, c)
#define HR_ARGS_EACH_4(M, a, b, c, d)	    M(0, a) M(1, b) M(2, c) M(3, d)
#define HR_ARGS_EACH_5(M, a, b, c, d, e)    M(0, a) M(1, b) M(2, c) M(3, d) M(4, e)
#define HR_ARGS_EACH_6(M, a, b, c, d, e, f) M(0, a) M(1, b) M(2, c) M(3, d) M(4, e) M(5, f)
#define HR_ARGS_PARAMS(...)		    HR_ARGS_CAT(HR_ARGS_PARAMS_, HR_ARGC(__VA_ARGS__))(__VA_ARGS__)
#define HR_ARGS_PARAMS_0(...)		    void
#define HR_ARGS_PARAMS_1(a)		    HR_ARG_DECL a
#define HR_ARGS_PARAMS_2(a, b)		    HR_ARG_DECL a, HR_ARG_DECL b
#define HR_ARGS_PARAMS_3(a, b, c)	    HR_ARG_DECL a, HR_ARG_DECL b, HR_ARG_DECL c
#define HR_ARGS_PARAMS_4(a, b, c, d)	    HR_ARG_DECL a, HR_ARG_DECL b, HR_ARG_DECL c, HR_ARG_DECL d
#define HR_ARGS_PARAMS_5(a, b, c, d, e) \
	HR_ARG_DECL a, HR_ARG_DECL b, HR_ARG_DECL c, HR_ARG_DECL d, HR_ARG_DECL e
#define HR_ARGS_PARAMS_6(a, b, c, d, e, f) \
	HR_ARG_DECL a, HR_ARG_DECL b, HR_ARG_DECL c, HR_ARG_DECL d, HR_ARG_DECL e, HR_ARG_DECL f

#ifndef __ASSEMBLER__
enum hr_sysno {
#define HR_SYSNO_ENUM(num, name, stub, ...) HR_SYS_##name = (num),
	HR_SYSCALLS(HR_SYSNO_ENUM)
#undef HR_SYSNO_ENUM
		HR_SYS_END
};
#endif

/* The numbers assembly uses: the stubs (rm/sys.h and rm/entry.S; checked against the table
 * in rm/export.c) and the kernel's fast paths (kernel/arch/x86_64/entry.S and fastpath.S;
 * checked in kernel/fastpath.c). */
#define HR_SYSNO_INVOKE	    0x400
#define HR_SYSNO_RET	    0x401
#define HR_SYSNO_THD_SWITCH 0x409

/* Pseudo capability slot meaning "the calling component" where a component slot is asked. */
#define HR_CAP_SELF 0
/* Capability table size of every component. */
#define HR_CAP_MAX 128

/* thd_switch flags */
#define HR_SW_BLOCK  0x01u /* block the outgoing thread at the caller's level            */
#define HR_SW_EVWAIT 0x02u /* outgoing event thread waits for its next event             */
#define HR_SW_PEVT   0x04u /* the target is a child's c^s: set that child's pevt         */
#define HR_SW_EXIT   0x08u /* the outgoing thread is finished: free it                   */
#define HR_SW_TIMER  0x10u /* first arm the caller's timer for tsc, as timer_next(tsc)  */
#define HR_SW_TURN   0x20u /* the target is a child's c^s: its scheduler takes its turn */
#define HR_SW_ALL    (HR_SW_BLOCK | HR_SW_EVWAIT | HR_SW_PEVT | HR_SW_EXIT | HR_SW_TIMER | HR_SW_TURN)

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
