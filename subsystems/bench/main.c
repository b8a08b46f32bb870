/*
 * bench - microbenchmarks of the kernel's two hottest paths, printed as
 *   bench invoke_rt median=N p99=N max=N unit=instr   (invocation A -> B -> A, empty function)
 *   bench thd_switch median=N p99=N max=N unit=instr  (one switch between two threads)
 * Under QEMU -icount shift=0 the TSC counts instructions.  Task: bench_main, with a
 * component child "echo" (program invoke, args "echo").
 */
#include "rm/benchline.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <stdlib.h>

#define N 2000

static uint64_t samples[N];
static volatile uint64_t t_start;
static volatile long main_tid;

static void
print(const char *name)
{
	bench_line(name, "", samples, N);
}

static void
bench_invoke(void)
{
	long cap = subsys_cap_to("echo");

	while (cap >= 0 && hr_invoke(cap, 3, 1, 0, 0) != 1)
		hr_thd_switch(hr_thd_self(), 0, 0); /* echo not serving yet */
	if (cap < 0) {
		printf("bench invoke_rt error=%s\n", hr_strerror(cap));
		return;
	}
	for (int i = 0; i < N; i++) {
		uint64_t t0 = hr_tsc();
		hr_invoke(cap, 3, i, 0, 0);
		samples[i] = hr_tsc() - t0;
	}
	print("invoke_rt");
}

/* The clock is read right after the switch returns, as main reads it right before:
 * nothing of the loop is counted but the two halves of hr_tsc */
static void
pong(void *arg)
{
	uint64_t now = hr_tsc(); /* the first: the thread's start, not a switch's return */

	(void) arg;
	for (int i = 0;; i = i + 1 < N ? i + 1 : 0) {
		samples[i] = now - t_start;
		hr_thd_switch(main_tid, 0, 0);
		now = hr_tsc();
	}
}

static void
bench_switch(void)
{
	long other = hr_thread_create(pong, 0);

	main_tid = hr_thd_self();
	for (int i = 0; i < N; i++) {
		t_start = hr_tsc();
		hr_thd_switch(other, 0, 0);
	}
	print("thd_switch");
}

static void
bench_main(void *arg)
{
	(void) arg;
	bench_invoke();
	bench_switch();
	exit(0);
}
HR_TASK(bench_main);

int
hr_main(void)
{
	subsys_main();
}
