/*
 * syscall.c - decode the system call number and hand the calling thread to its handler.
 *
 * The table comes from abi/hr_syscall.h.  Each handler checks all its arguments before it
 * changes anything and returns the value for the caller's rax; handlers that switch
 * threads have already saved the caller's frame, so writing rax into it stays correct.
 */
#include "comp.h"
#include "thd.h"
#include "sched.h"
#include "alias.h"
#include "syscall.h"
#include "console.h"

typedef long (*handler_fn)(struct thd *);

static const handler_fn handlers[] = {
#define HR_SYS_HANDLER(num, name, nargs, stub) [(num) -HR_SYS_BASE] = sys_##name,
	HR_SYSCALLS(HR_SYS_HANDLER)
#undef HR_SYS_HANDLER
};

const char *const syscall_names[] = {
#define HR_SYS_NAME(num, name, nargs, stub) [(num) -HR_SYS_BASE] = #name,
	HR_SYSCALLS(HR_SYS_NAME)
#undef HR_SYS_NAME
};

long
sys_poweroff(struct thd *t)
{
	if (t->comp != root_comp)
		return refuse(HR_EPERM, "only the root powers off");
	console_end(t->comp);
	kprintf("[k] power off (status %ld)\n", (long) t->regs.rdi);
	console_sync();
	hw_poweroff((int) (t->regs.rdi & 0x7f));
}

void
syscall_dispatch(struct regs *r)
{
	struct thd *t = cur;
	uint64_t nr = r->rax;
	long v;

	assert(hw_kernel_flags_clean());
	if (kdebug > 1)
		kprintf("[k] thread %u syscall %lx\n", t->id, nr);
	if (nr >= HR_SYS_BASE && nr < HR_SYS_END)
		v = handlers[nr - HR_SYS_BASE](t);
	else if (nr < HR_SYS_BASE)
		v = libc_syscall(t);
	else
		v = HR_ENOSYS;
	t->regs.rax = (uint64_t) v;
}
