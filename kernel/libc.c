/*
 * libc.c - the handful of Linux system calls musl issues on its own, answered trivially.
 *
 * Components are static musl programs; musl reaches the kernel with Linux numbers for
 * output, TLS set-up and exit.  Those are served here and nothing more: memory comes from
 * the subsystem's own allocator (rm/heap.c replaces malloc), so brk and mmap fail, and
 * every other Linux call gets -ENOSYS.  Errors here are Linux errno values because musl
 * interprets them.
 */
#include "comp.h"
#include "thd.h"
#include "syscall.h"
#include "ucopy.h"
#include "console.h"
#include "boot.h"

/* clang-format off: a table, aligned by hand */
enum {
	L_WRITE = 1,
	L_MMAP = 9,
	L_MUNMAP = 11,
	L_BRK = 12,
	L_SIGACTION = 13,
	L_SIGPROCMASK = 14,
	L_IOCTL = 16,
	L_WRITEV = 20,
	L_YIELD = 24,
	L_MADVISE = 28,
	L_GETPID = 39,
	L_EXIT = 60,
	L_ARCH_PRCTL = 158,
	L_GETTID = 186,
	L_SET_TID_ADDRESS = 218,
	L_CLOCK_GETTIME = 228,
	L_EXIT_GROUP = 231,
};
enum { EBADF = 9, ENOMEM = 12, EFAULT = 14, EINVAL = 22, ENOTTY = 25, ENOSYS = 38 };
/* clang-format on */

static uint64_t tsc_hz = 1000000000;

void
libc_clock(uint64_t hz)
{
	if (hz)
		tsc_hz = hz;
}

/* Console output, bounded per call (console.c): a short count tells the caller to go on. */
static long
out(struct comp *c, uint64_t fd, uint64_t buf, uint64_t len)
{
	long n;

	if (fd != 1 && fd != 2)
		return -EBADF;
	n = console_write(c, buf, len);
	return n < 0 ? -EFAULT : n;
}

static long
outv(struct comp *c, uint64_t fd, uint64_t iov, uint64_t cnt)
{
	long total = 0;

	if (cnt > 64)
		return -EINVAL;
	/* the bound is the call's, not each vector's: 64 of 511 bytes would be 32 KiB */
	for (uint64_t i = 0; i < cnt && total < CONSOLE_CHUNK; i++) {
		uint64_t v[2];
		long n;
		if (ucopy_from(c, v, iov + 16 * i, sizeof(v)))
			return total ? total : -EFAULT; /* what was written stays said */
		if (v[0] >= HR_VA_USER_END || v[1] > HR_VA_USER_END - v[0])
			return total ? total : -EFAULT; /* all of it, not just what we take */
		if ((n = out(c, fd, v[0], MIN(v[1], CONSOLE_CHUNK - (uint64_t) total))) < 0)
			return total ? total : n;
		total += n;
		if ((uint64_t) n < v[1])
			break; /* the bound of one call was reached, or the console is full */
	}
	return total;
}

static long
arch_prctl(struct thd *t, uint64_t code, uint64_t addr)
{
	if (code == 0x1002) { /* ARCH_SET_FS */
		if (addr >= HR_VA_USER_END)
			return -EINVAL;
		t->fs = addr;
		hw_set_fs(addr);
		return 0;
	}
	if (code == 0x1003) /* ARCH_GET_FS */
		return ucopy_to(t->comp, addr, &t->fs, sizeof(t->fs)) ? -EFAULT : 0;
	return -EINVAL;
}

static long
clock_gettime(struct thd *t, uint64_t ts)
{
	uint64_t tsc = hw_tsc();
	uint64_t v[2] = { tsc / tsc_hz, (tsc % tsc_hz) * 1000000000ull / tsc_hz };

	return ucopy_to(t->comp, ts, v, sizeof(v)) ? -EFAULT : 0;
}

/* Component exit: inside an invocation it ends the callee, which the caller sees as a fault. */
static void
exit_group(struct thd *t, long status)
{
	struct comp *c = t->comp;

	comp_end(c, COMP_EXITED, t, (uint64_t) status, 0, 0);
	if (t != cur)
		return; /* the responsible scheduler's event thread preempted us */
	if (thd_prepare(t) == 0) {
		thd_move(t);
		return;
	}
	struct comp *owner = t->chain[t->depth];
	thd_stop();
	thd_free(t);
	thd_reschedule(owner);
}

long
libc_syscall(struct thd *t)
{
	struct regs *r = &t->regs;

	switch (r->rax) {
	case L_WRITE:
		return out(t->comp, r->rdi, r->rsi, r->rdx);
	case L_WRITEV:
		return outv(t->comp, r->rdi, r->rsi, r->rdx);
	case L_IOCTL:
		return -ENOTTY;
	case L_ARCH_PRCTL:
		return arch_prctl(t, r->rdi, r->rsi);
	case L_SET_TID_ADDRESS:
	case L_GETTID:
		return t->id;
	case L_GETPID:
		return t->comp->id;
	case L_CLOCK_GETTIME:
		return clock_gettime(t, r->rsi);
	case L_SIGACTION:
	case L_SIGPROCMASK:
	case L_YIELD:
	case L_MADVISE:
		return 0;
	case L_BRK:
	case L_MMAP:
		return -ENOMEM;
	case L_MUNMAP:
		return -EINVAL;
	case L_EXIT:
		thd_exit(t, (long) r->rdi);
	case L_EXIT_GROUP:
		exit_group(t, (long) r->rdi);
		return HR_EFAULTED;
	default:
		return -ENOSYS;
	}
}
