/*
 * runtime.c - main() of every component (runtime.h): boot information, memory, TLS, then
 * the program's hr_main().
 */
#include "runtime.h"
#include "desc.h"
#include "pages.h"
#include "tls.h"
#include "lib/treeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void);

static const char *const errtext[] = {
#define HR_ERR_TEXT(name, value, text) [-(value)] = #name ": " text,
	HR_ERRORS(HR_ERR_TEXT)
#undef HR_ERR_TEXT
};

const char *
hr_strerror(long err)
{
	if (err < HR_ERRNO_MIN || err >= 0)
		return err >= 0 ? "success" : "unknown error";
	return errtext[-err];
}

_Noreturn void
hr_die(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("%s: fatal: %s\n", hr_bootinfo()->name, buf);
	exit(1);
}

int
hr_lock_try(struct hr_lock *l)
{
	uint32_t free = 0;
	return __atomic_compare_exchange_n(&l->holder, &free, tls_tid(), 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

void
hr_lock_take(struct hr_lock *l)
{
	while (!hr_lock_try(l)) {
		uint32_t holder = l->holder;
		__atomic_store_n(&l->waiter, tls_tid(), __ATOMIC_RELEASE);
		/* run the holder until it gives the lock back; if we may not, just wait */
		if (!holder || hr_thd_switch(holder, 0, 0))
			__builtin_ia32_pause();
	}
}

void
hr_lock_give(struct hr_lock *l)
{
	uint32_t waiter;

	__atomic_store_n(&l->holder, 0, __ATOMIC_RELEASE);
	waiter = __atomic_exchange_n(&l->waiter, 0, __ATOMIC_ACQ_REL);
	if (waiter && waiter != tls_tid())
		hr_thd_switch(waiter, 0, 0); /* it lent us the CPU: give it back */
}

_Noreturn void
hr_serve(void)
{
	hr_thread_exit(0);
}

/* A subsystem says where it stands in the tree (components are announced by their parent). */
static void
report_self(void)
{
	const struct hr_bootinfo *bi = hr_bootinfo();
	struct desc_node d;
	const char *why;
	const void *fdt = desc_self(&why);
	char cpu[48], line[200];

	if (!fdt || desc_read(fdt, 0, &d, &why))
		hr_die("boot descriptor: %s", why);
	if (d.type != DESC_SUBSYSTEM)
		return;
	treeline_cpu(bi->depth == 0, d.cpu_kind, d.budget, d.period, cpu, sizeof(cpu));
	treeline_subsystem(line, sizeof(line), bi->depth, bi->parent_name, d.policy, cpu,
			   (uint64_t) (d.memory_pages ? d.memory_pages : bi->mem_pages) * 4);
	printf("%s\n", line);
}

int
main(void)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	if (bi->magic != HR_BOOTINFO_MAGIC)
		hr_die("no boot information");
	pages_init(bi->mem_base, bi->mem_pages);
	tls_init();
	report_self();
	return hr_main();
}
