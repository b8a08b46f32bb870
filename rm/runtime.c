/*
 * runtime.c - main() of every component (runtime.h): boot information, memory, TLS, then
 * the program's hr_main().
 */
#include "runtime.h"
#include "pages.h"
#include "tls.h"

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

void
hr_lock_take(struct hr_lock *l)
{
	while (__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

void
hr_lock_give(struct hr_lock *l)
{
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

_Noreturn void
hr_serve(void)
{
	hr_thread_exit(0);
}

int
main(void)
{
	const struct hr_bootinfo *bi = hr_bootinfo();

	if (bi->magic != HR_BOOTINFO_MAGIC)
		hr_die("no boot information");
	pages_init(bi->mem_base, bi->mem_pages);
	tls_init();
	return hr_main();
}
