/*
 * threads - threads of one subsystem each have their own stack, TLS and errno, and the
 * timer preempts them: two CPU-bound workers of equal priority run for 30 ticks each and
 * must interleave.  And thd_switch keeps a thread's registers as a C call does, whether
 * it switches (fast, with flags or without) or fails (switch.S).  Tasks: tls_worker (arg
 * = worker number 1 or 2), switch_regs_task.
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

/* switch.S */
long switch_regs(long thd, long flags, uint64_t *changed);
void switch_other(void *arg);
uint64_t switch_main, switch_other_changed;
int switch_stop;

/* one switch_regs case: it returns want, and changes nothing it must keep */
static void
switch_case(const char *name, long thd, long flags, long want)
{
	uint64_t changed = ~0ull;
	long r = switch_regs(thd, flags, &changed);

	hr_report(name, r == want && changed == 0, "returned %ld (want %ld), changed %#lx", r, want,
		  (unsigned long) changed);
}

static void
switch_regs_task(void *arg)
{
	long other;

	(void) arg;
	switch_main = (uint64_t) hr_thd_self();
	other = hr_thread_create(switch_other, 0);
	if (other < 0) {
		hr_report("thd_switch_keeps_what_a_c_call_keeps", 0, "thread_create: %s",
			  hr_strerror(other));
		return;
	}
	for (int i = 0; i < 3; i++) /* a few rounds: the first runs other's start */
		switch_case("thd_switch_keeps_what_a_c_call_keeps", other, 0, 0);
	switch_case("thd_switch_with_block_keeps_what_a_c_call_keeps", other, HR_SW_BLOCK, 0);
	switch_case("thd_switch_to_itself_keeps_what_a_c_call_keeps", (long) switch_main, 0, 0);
	switch_case("thd_switch_to_itself_with_block_keeps_what_a_c_call_keeps", (long) switch_main,
		    HR_SW_BLOCK, HR_EINVAL);
	switch_case("thd_switch_to_no_thread_keeps_what_a_c_call_keeps", HR_THD_MAX + 5, 0,
		    HR_ENOENT);
	switch_case("thd_switch_with_bad_flags_keeps_what_a_c_call_keeps", other, 0x80, HR_EINVAL);
	hr_report("thd_switch_keeps_the_other_threads_registers", switch_other_changed == 0,
		  "changed %#lx", (unsigned long) switch_other_changed);
	switch_stop = 1;
	hr_thd_switch((uint64_t) other, 0, 0); /* it returns, and its thread ends */
}
HR_TASK(switch_regs_task);

int
hr_main(void)
{
	subsys_main();
}
