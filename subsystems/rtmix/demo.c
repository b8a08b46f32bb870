/*
 * demo.c - the tasks of the default image (MANIFEST: demo) beside rtmix's spinners: `top`
 * shows the tree with hrtop (rm/hrtop.h) for the seconds of its arg, then ends the image;
 * `mem_hog` keeps taking memory and asking for more, and is refused beyond its
 * reservation.  `top_check` (image test-hrtop) checks that what hrtop shows is plausible;
 * `top_late` (image test-hrtop-turn) that a request hrtop makes late reaches a busy subtree.
 */
#include "rtmix.h"
#include "rm/hrtop.h"
#include "rm/pages.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <string.h>

#define TOP_SECONDS_DFLT 12
#define HOG_KEEP	 8 /* pages the hog leaves its own runtime */
#define HOG_STEPS	 4 /* it takes what it has in about this many seconds */

static void
top(void *arg)
{
	struct hrtop_opts o = { .seconds = (unsigned) (uintptr_t) arg };

	if (!o.seconds)
		o.seconds = TOP_SECONDS_DFLT;
	hrtop_run(&o);
	subsys_exit(0);
}
HR_TASK(top);

/* Take up to n pages of our window, each written to: how many. */
static uint64_t
take(uint64_t n)
{
	uint64_t got = 0, va;

	while (got < n && pages_left() > HOG_KEEP && (va = pages_alloc(1))) {
		memset((void *) va, 0xa5, HR_PAGE_SIZE);
		got++;
	}
	return got;
}

/* What the hog has of its window: its reservation less what is free in it. */
static long
holding(void)
{
	return hr_mem_info(HR_CAP_SELF, HR_MI_BOUND, 0) - (long) pages_left();
}

static void
mem_hog(void *arg)
{
	uint64_t step = pages_left() / HOG_STEPS + 1;
	long bound = hr_mem_info(HR_CAP_SELF, HR_MI_BOUND, 0);

	(void) arg;
	for (;;) {
		uint64_t got = take(step);
		long r = got < step ? hr_mem_grow(step - got) : 0;
		if (r)
			printf("memory-hog: using %ld of its %ld pages; asked for %lu more: "
			       "refused "
			       "(%s), beyond its reservation\n",
			       holding(), bound, (unsigned long) (step - got),
			       r == HR_ENOMEM ? "HR_ENOMEM" : hr_strerror(r));
		else
			printf("memory-hog: using %ld of its %ld pages, taking more\n", holding(),
			       bound);
		sleep_until(hr_tsc() + hr_bootinfo()->tsc_hz);
	}
}
HR_TASK(mem_hog);

/* The first row called name, below depth `min`, or -1. */
static int
row(const struct toprow *rows, unsigned n, const char *name, unsigned min)
{
	for (unsigned i = 0; i < n; i++)
		if (rows[i].depth >= min && !strcmp(rows[i].name, name))
			return (int) i;
	return -1;
}

static int
check(const struct toprow *a, unsigned na, const struct toprow *b, unsigned nb)
{
	int rt = row(b, nb, "rt", 1), spin = row(b, nb, "spin", 2), hog = row(b, nb, "hog", 1);
	double rt_share = rt >= 0 ? toprow_share(b, (unsigned) rt, a, na) : -1;
	double spin_share = spin >= 0 ? toprow_share(b, (unsigned) spin, a, na) : -1;
	int fails = 0;

	fails += !hr_report("hrtop_hard_2_10_shows_about_20_percent",
			    rt_share >= 17 && rt_share <= 23, "row %d, %.1f%%", rt, rt_share);
	fails += !hr_report("hrtop_nested_spinner_share_is_positive_and_claimed",
			    spin >= 0 && spin_share > 0 && (b[spin].flags & TOPROW_CLAIM),
			    "row %d, %.1f%%", spin, spin_share);
	fails += !hr_report("hrtop_hog_holds_no_more_than_its_bound",
			    hog >= 0 && b[hog].mem_used > 0 && b[hog].mem_used <= b[hog].mem_bound,
			    "row %d", hog);
	return fails;
}

static void
top_check(void *arg)
{
	static struct toprow a[HRTOP_ROWS_MAX], b[HRTOP_ROWS_MAX];
	struct hrtop_opts o = { .seconds = (unsigned) (uintptr_t) arg };
	unsigned na, nb;

	hrtop_run(&o);
	na = hrtop_snapshot(a, HRTOP_ROWS_MAX);
	sleep_until(hr_tsc() + 2 * hr_bootinfo()->tsc_hz);
	nb = hrtop_snapshot(b, HRTOP_ROWS_MAX);
	subsys_exit(check(a, na, b, nb));
}
HR_TASK(top_check);

/*
 * Image test-hrtop-turn: hrtop starts a second in, when the only subtree below is busy
 * and its scheduler waits with nothing to wake it.  hrtop's request is in the page the
 * root shares with it, which the kernel cannot see: the root must switch to it with
 * HR_SW_TURN, or the kernel resumes the spinner past it and its rows never come.
 */
static void
top_late(void *arg)
{
	static struct toprow a[HRTOP_ROWS_MAX];
	struct hrtop_opts o = { .seconds = (unsigned) (uintptr_t) arg };
	unsigned na;
	int spin;

	sleep_until(hr_tsc() + hr_bootinfo()->tsc_hz);
	hrtop_run(&o);
	na = hrtop_snapshot(a, HRTOP_ROWS_MAX);
	spin = row(a, na, "spin", 2);
	subsys_exit(!hr_report("hrtop_late_request_reaches_a_busy_subtree",
			       spin >= 0 && (a[spin].flags & TOPROW_CLAIM), "row %d", spin));
}
HR_TASK(top_late);
