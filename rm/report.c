/* report.c - test verdict lines (report.h). */
#include "report.h"
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>

int
hr_report(const char *name, int ok, const char *fmt, ...)
{
	char why[200] = "";
	va_list ap;

	if (!ok && fmt) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (ok)
		printf("test %s: ok\n", name);
	else
		printf("test %s: FAIL %s\n", name, why);
	return ok;
}

int
hr_report_eq(const char *name, long got, long want)
{
	return hr_report(name, got == want, "got %ld (%s), want %ld (%s)", got, hr_strerror(got),
			 want, hr_strerror(want));
}
