/*
 * syscall.c - decode the system call number and arguments and hand the calling thread to
 * its handler.
 *
 * The table comes from abi/hr_syscall.h: one case per row, each argument taken from the
 * frame by hw_frame_arg (the arch layer knows which register holds it) and converted to
 * the row's type.  Each handler checks all its arguments before it changes anything and
 * returns the value for the caller's rax; handlers that switch threads have already saved
 * the caller's frame, so writing rax into it stays correct.
 */
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "alias.h"
#include "syscall.h"
#include "console.h"
#include "trace.h"

const char *const syscall_names[] = {
#define HR_SYS_NAME(num, name, stub, ...) [(num) -HR_SYS_BASE] = #name,
	HR_SYSCALLS(HR_SYS_NAME)
#undef HR_SYS_NAME
};

long
sys_poweroff(struct thd *t, long code)
{
	if (t->comp != root_comp)
		return refuse(HR_EPERM, "only the root powers off");
	console_end(t->comp);
	kprintf("[k] power off (status %ld)\n", code);
	trace_end();
	console_sync();
	hw_poweroff((int) (code & 0x7f));
}

/* Decode call nr's arguments from the frame, by the table's types, and run its handler. */
static long
syscall_call(struct thd *t, const struct regs *r, enum hr_sysno nr)
{
#define HR_SYS_ARG(i, arg) , (HR_ARG_TYPE arg) hw_frame_arg(r, i)
#define HR_SYS_CASE(num, name, stub, ...) \
	case HR_SYS_##name:               \
		return sys_##name(t HR_ARGS_EACH(HR_SYS_ARG, ##__VA_ARGS__));
	switch (nr) {
		HR_SYSCALLS(HR_SYS_CASE)
	case HR_SYS_END:
		break;
	}
#undef HR_SYS_CASE
#undef HR_SYS_ARG
	return HR_ENOSYS;
}

void
syscall_dispatch(struct regs *r)
{
	struct thd *t = cur;
	uint64_t nr = r->rax;
	long v;

	assert(hw_kernel_flags_clean());
	if (__builtin_expect(t->comp->behind, 0))
		schedtree_behind_bug(t);
	if (kdebug > 1)
		kprintf("[k] thread %u syscall %lx\n", t->id, nr);
	if (nr >= HR_SYS_BASE && nr < HR_SYS_END)
		v = syscall_call(t, r, (enum hr_sysno) nr);
	else if (nr < HR_SYS_BASE)
		v = libc_syscall(t);
	else
		v = HR_ENOSYS;
	t->regs.rax = (uint64_t) v;
}
