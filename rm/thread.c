/*
 * thread.c - threads a scheduler component starts in itself: a stack and a TLS area from
 * its own pages, then thd_create.  The pages go back when the scheduler learns the thread
 * exited (thread_reap).  Layout, low to high: [TLS][guard][stack]: a stack that overflows
 * faults on the guard page (mem_protect with no rights) instead of writing over its TLS
 * or anyone's memory below.
 */
#include "runtime.h"
#include "pages.h"
#include "thread.h"
#include "tls.h"

#define STACK_PAGES 4
#define GUARD_PAGES 1

struct start {
	void (*fn)(void *);
	void *arg;
};

static struct {
	uint64_t base, pages;
} mem[HR_THD_MAX];

static void thread_main(struct start *s) __attribute__((noreturn, used));

/* The guard page becomes an ordinary page of ours again. */
static void
unguard(uint64_t va)
{
	hr_mem_protect(HR_CAP_SELF, (long) va, HR_MEM_READ | HR_MEM_WRITE);
}

static void
thread_main(struct start *s)
{
	tls_set_tid((uint32_t) hr_thd_self());
	s->fn(s->arg);
	hr_thread_exit(0);
}

long
hr_thread_create(void (*fn)(void *), void *arg)
{
	uint64_t tls_pages = (tls_area_size() + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;
	uint64_t n = tls_pages + GUARD_PAGES + STACK_PAGES, base = pages_alloc(n);
	uint64_t guard = base + tls_pages * HR_PAGE_SIZE, top, fs;
	struct start *s;
	long tid;

	if (!base)
		return HR_ENOMEM;
	if ((tid = hr_mem_protect(HR_CAP_SELF, (long) guard, 0))) {
		pages_free(base, n);
		return tid;
	}
	fs = tls_setup((void *) base, 0);
	top = base + n * HR_PAGE_SIZE;
	s = (struct start *) (top - 64);
	*s = (struct start){ fn, arg };
	/* as if called: the return-address slot sits 8 below a 16-byte boundary */
	tid = hr_thd_create(HR_CAP_SELF, (long) thread_main, (long) s - 8, (long) s, (long) fs);
	if (tid < 0) {
		unguard(guard);
		pages_free(base, n);
		return tid;
	}
	mem[tid].base = base;
	mem[tid].pages = n;
	return tid;
}

void
thread_reap(uint32_t tid)
{
	uint64_t tls_pages = (tls_area_size() + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;

	if (tid >= HR_THD_MAX || !mem[tid].base)
		return;
	unguard(mem[tid].base + tls_pages * HR_PAGE_SIZE);
	pages_free(mem[tid].base, mem[tid].pages);
	mem[tid].base = 0;
}

_Noreturn void
hr_thread_exit(long status)
{
	for (;;)
		hr_sys(60 /* Linux exit: this thread only */, status, 0, 0, 0, 0);
}
