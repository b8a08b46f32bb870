/*
 * threads - threads of one subsystem each have their own stack, TLS and errno, and the
 * timer preempts them: two CPU-bound workers of equal priority run for 30 ticks each and
 * must interleave.  Tasks: tls_worker (arg = worker number 1 or 2).
 */
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <errno.h>
#include <stdio.h>

static __thread long tls_value = 5;
static volatile uint64_t first[3], last[3];
static int done;

static void
tls_worker(void *arg)
{
	long id = (long) arg;
	uint64_t end = hr_tsc() + 30 * hr_tick_tsc();
	int tls_ok = tls_value == 5, errno_ok = 1;
	char name[48];

	if (id < 1 || id > 2) {
		hr_report("tls_worker_argument", 0, "worker number %ld is not 1 or 2", id);
		return;
	}
	tls_value = id * 111;
	errno = (int) id * 7;
	first[id] = hr_tsc();
	while (hr_tsc() < end) {
		tls_ok &= tls_value == id * 111;
		errno_ok &= errno == (int) id * 7;
		last[id] = hr_tsc();
	}
	snprintf(name, sizeof(name), "tls_is_per_thread_%ld", id);
	hr_report(name, tls_ok, "worker %ld saw another thread's TLS", id);
	snprintf(name, sizeof(name), "errno_is_per_thread_%ld", id);
	hr_report(name, errno_ok, "worker %ld saw errno %d", id, errno);
	if (__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST) == 2)
		hr_report("timer_preempts_user_threads", first[1] < last[2] && first[2] < last[1],
			  "workers ran one after the other: [%lu,%lu] and [%lu,%lu]",
			  (unsigned long) first[1], (unsigned long) last[1],
			  (unsigned long) first[2], (unsigned long) last[2]);
}
HR_TASK(tls_worker);

int
hr_main(void)
{
	subsys_main();
}
