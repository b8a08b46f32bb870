/*
 * fastpath.h - short paths for the three hottest system calls (fastpath.c), entered from
 * the system-call entry (kernel/arch/x86_64/entry.S) before the full dispatch.
 *
 * Each returns whether it did the call; if not, nothing changed and the entry runs the
 * full path (syscall_dispatch) on the same registers.  invoke and ret are entered
 * without saving the thread's registers (the thread keeps running, in another
 * component); thd_switch after saving them, as every call that switches threads.
 */
#ifndef KERNEL_FASTPATH_H
#define KERNEL_FASTPATH_H

#include "kernel.h"

/* Done: caller >= 0; the callee gets the caller's a0..a3, then badge and caller, and starts
 * at cur's frame rip/rsp with rax from it.  caller < 0: the full path. */
struct fast_call {
	int64_t caller;
	uint64_t badge;
};
struct fast_call fastpath_invoke(uint64_t slot, uint64_t rip, uint64_t rsp);

/* Done: rip != 0, where the caller resumes with stack rsp.  rip == 0: the full path. */
struct fast_ret {
	uint64_t rip, rsp;
};
struct fast_ret fastpath_ret(void);

/* 1: cur is now tid (its frame is the one to restore); 0: the full path. */
long fastpath_switch(uint64_t tid, uint64_t flags, uint64_t tsc);

#endif
