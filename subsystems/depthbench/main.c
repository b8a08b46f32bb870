/*
 * depthbench - benchmarks that must cost the same at any depth (the HiRES paper's Fig. 4),
 * run by the innermost subsystem of a depth-sweep image (MANIFEST: depth-d0 .. depth-d16).
 * Every level is this program; only the innermost has the task bench_depth and the child
 * component "sink" that pages are aliased into.  Prints, for its depth D:
 *   bench alias depth=D ...       alias one page of ours into the child (the aliaser's call)
 *   bench alias_zero depth=D ...  the same, zeroing the page first
 *   bench remove depth=D ...      remove that alias
 * in instructions under QEMU -icount shift=0.
 */
#include "rm/alias.h"
#include "rm/pages.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>

#define N    2000
#define SPOT HR_VA_FREE

static uint64_t t_alias[N], t_zero[N], t_remove[N];

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
	return x < y ? -1 : x > y;
}

static void
print(const char *name, uint64_t *s)
{
	qsort(s, N, sizeof(s[0]), cmp);
	printf("bench %s depth=%u median=%lu max=%lu unit=instr\n", name, hr_bootinfo()->depth,
	       (unsigned long) s[N / 2], (unsigned long) s[N - 1]);
}

/* One alias (zeroing first if zero) and its removal, timed separately. */
static void
alias_remove(long sink, uint64_t page, int zero, uint64_t *alias, uint64_t *remove)
{
	uint64_t t0 = hr_tsc(), t1, t2;

	alias_pages(sink, page, SPOT, 1, HR_MEM_READ | HR_MEM_WRITE, zero);
	t1 = hr_tsc();
	hr_mem_remove(sink, SPOT);
	t2 = hr_tsc();
	*alias = t1 - t0;
	*remove = t2 - t1;
}

static void
bench_depth(void *arg)
{
	long sink = subsys_child_slot("sink");
	uint64_t page = pages_alloc(1), unused;

	(void) arg;
	if (sink < 0 || !page) {
		printf("bench alias error=no sink or no page\n");
		exit(1);
	}
	hr_mem_bound(sink, hr_mem_info(sink, HR_MI_BOUND, 0) + 1);
	/* once untimed: the first alias also builds the sink's page tables */
	alias_remove(sink, page, 0, &unused, &unused);
	for (int i = 0; i < N; i++)
		alias_remove(sink, page, 0, &t_alias[i], &t_remove[i]);
	for (int i = 0; i < N; i++)
		alias_remove(sink, page, 1, &t_zero[i], &unused);
	print("alias", t_alias);
	print("alias_zero", t_zero);
	print("remove", t_remove);
	exit(0); /* the whole chain winds down from here */
}
HR_TASK(bench_depth);

int
hr_main(void)
{
	subsys_main();
}
