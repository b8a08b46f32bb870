/*
 * storm - 100,000 system calls (or as many as its args say) with random numbers and random
 * arguments, then proof that the kernel and the other components still work.  Runs as a
 * subsystem so that scheduler-only calls reach their argument checks too.  Its seed is
 * mixed with its component id, so several storms in one image (image soak) differ.
 *
 * Arguments mix small integers, special values (0, -1, page-aligned user addresses,
 * kernel addresses) and raw random words.  A few calls would end or break the storm
 * itself rather than test the kernel, so their arguments are steered: exit, exit_group
 * and our own FS base are never touched, we never make ourselves an event thread and wait
 * for events nobody sends, output never goes to the console nor the clock into our own
 * memory, threads are
 * never created at random addresses, our own mappings and capabilities are never removed
 * nor protected,
 * our invocation entry is never replaced and our parent's services are not invoked (the
 * parent-hammering test is separate).  Everything else gets whatever the generator says.
 */
#include "rm/desc.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/rand.h"

#include <stdio.h>
#include <stdlib.h>

#define CALLS 100000

static uint64_t seed = 0x9e3779b97f4a7c15ull;

static long
arg(void)
{
	static const long special[] = { 0,
					1,
					-1,
					2,
					64,
					127,
					128,
					255,
					0x400000,
					0x401000,
					HR_VA_BOOTINFO,
					HR_VA_SCHED,
					HR_VA_MEM,
					HR_VA_STACK_TOP - 4096,
					HR_VA_USER_END,
					HR_VA_USER_END - 4096,
					(long) 0xffffffff80100000,
					(long) 0xffff800000000000,
					0x7fffffffffffffff };
	switch (hr_rand(&seed) % 4) {
	case 0:
		return (long) (hr_rand(&seed) % 300);
	case 1:
		return special[hr_rand(&seed) % (sizeof(special) / sizeof(special[0]))];
	case 2:
		return (long) (HR_VA_MEM + (hr_rand(&seed) % 64) * 4096 +
			       (hr_rand(&seed) % 2) * (hr_rand(&seed) % 4096));
	default:
		return (long) hr_rand(&seed);
	}
}

static long
number(void)
{
	switch (hr_rand(&seed) % 4) {
	case 0:
	case 1:
		return HR_SYS_BASE + (long) (hr_rand(&seed) % (HR_SYS_END - HR_SYS_BASE + 4));
	case 2:
		return (long) (hr_rand(&seed) % 400);
	default:
		return (long) hr_rand(&seed);
	}
}

/* Steer the arguments of the calls that would end or break the storm itself. */
static int
steer(long nr, long a[5])
{
	switch (nr) {
	case 60:
	case 231:
	case 158: /* exit, exit_group, arch_prctl */
	case HR_SYS_comp_entry:
	case HR_SYS_sched_event: /* waiting for events nobody sends */
	case HR_SYS_event_wait:
		return 0;
	case 1:
	case 20: /* write, writev: never to the console */
		a[0] = 3 + (a[0] & 0xff);
		return 1;
	case HR_SYS_thd_create:
		return 0;
	case HR_SYS_invoke:
		if (a[0] == 1)
			a[0] = 2;
		return 1;
	case 228: /* clock_gettime writes through a[1]: not into our own memory */
		if ((uint64_t) a[1] - HR_VA_MEM < (1ull << 30) ||
		    (uint64_t) a[1] - (HR_VA_STACK_TOP - HR_STACK_PAGES * 4096) <
			    HR_STACK_PAGES * 4096)
			a[1] = HR_VA_BOOTINFO;
		return 1;
	case HR_SYS_mem_remove:
	case HR_SYS_mem_protect:
	case HR_SYS_cap_delete:
		if (a[0] == HR_CAP_SELF)
			a[0] = 3;
		return 1;
	default:
		return 1;
	}
}

int
hr_main(void)
{
	long errors = 0, ok = 0, other = 0, calls = atol(desc_args());
	long tid = hr_thd_self(), used = hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0);

	if (calls <= 0)
		calls = CALLS;
	seed ^= (uint64_t) hr_bootinfo()->comp_id * 0x9e3779b97f4a7c15ull;
	for (long i = 0; i < calls; i++) {
		long nr = number(), a[5] = { arg(), arg(), arg(), arg(), arg() }, r;
		if (!steer(nr, a)) {
			i--;
			continue;
		}
		r = hr_sys(nr, a[0], a[1], a[2], a[3], a[4]);
		if (HR_IS_ERR(r))
			errors++;
		else if (r >= 0)
			ok++;
		else
			other++; /* Linux errno values from the musl-compatibility calls */
	}
	printf("%ld calls: %ld refused with HR codes, %ld Linux errors, %ld accepted\n", calls,
	       errors, other, ok);
	/* the kernel still answers, and nothing of ours was mapped or unmapped behind our back */
	hr_report("syscall_storm_kernel_survives",
		  hr_thd_self() == tid && hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0) == used,
		  "thread %ld (was %ld), %ld pages mapped (were %ld)", hr_thd_self(), tid,
		  hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0), used);
	if (*desc_args())
		return 0; /* image soak: the root checks the others (its real-time tasks) */
	long b = pi_connect("inv-b");
	hr_report("syscall_storm_other_components_still_work",
		  b >= 0 && hr_invoke(b, 3, 99, 0, 0) == 99, "connect %ld", b);
	return 0;
}
