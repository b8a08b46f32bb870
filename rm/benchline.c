/* benchline.c - benchmark figures as console lines (benchline.h). */
#include "benchline.h"
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
	return x < y ? -1 : x > y;
}

void
bench_line(const char *name, const char *keys, uint64_t *samples, size_t n)
{
	if (!n)
		return;
	qsort(samples, n, sizeof(samples[0]), cmp);
	/* p99: the smallest sample that at least 99% of the samples do not exceed */
	printf("bench %s%s%s median=%lu p99=%lu max=%lu unit=instr\n", name, *keys ? " " : "", keys,
	       (unsigned long) samples[n / 2], (unsigned long) samples[(n * 99 + 99) / 100 - 1],
	       (unsigned long) samples[n - 1]);
}

uint64_t
bench_between_ticks(unsigned n)
{
	const volatile struct hr_kinfo *k = (const volatile struct hr_kinfo *) HR_VA_KINFO;
	uint64_t at = k->tick_at, step = hr_tick_tsc() / n, since = hr_tsc() - at;

	return at + (since / step + 1) * step + step / 2;
}
