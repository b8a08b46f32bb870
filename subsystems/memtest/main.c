/*
 * memtest - memory delegation and reservations end to end (image test-memory).  One
 * program, roles chosen by args:
 *   top      a subsystem whose task memtop_main checks the kernel's refusals, removes an
 *            alias deep in a chain, and checks that a hammering child changed nothing
 *   chain    a level of that chain; its task relay passes the page down and reports
 *   softtop  a subsystem whose task softtop_main revokes soft memory three levels down
 *   soft     a level holding soft memory; its task soft_watch reports when it complied
 *   prober, sharer-a, sharer-b, resuser, hammer: components, see their functions
 */
#include "rm/caps.h"
#include "rm/child.h"
#include "rm/delegate.h"
#include "rm/desc.h"
#include "rm/pages.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"
#include "rm/rand.h"

#include <stdio.h>
#include <string.h>

#define SPOT  HR_VA_FREE /* where the tests alias their pages */
#define MAGIC 0xfeedfacecafeull

static long
perms(long slot, uint64_t va)
{
	return hr_mem_info(slot, HR_MI_PERMS, (long) va);
}

/* Sleep a tick at a time until cond() or ticks have passed; returns cond(). */
static int
wait_for(int (*cond)(void), int ticks, int subsystem)
{
	for (int i = 0; i < ticks && !cond(); i++) {
		uint64_t until = hr_tsc() + hr_tick_tsc();
		if (subsystem)
			sched_sleep(until);
		else
			pi_sleep(until);
	}
	return cond();
}

/* ---- top: the kernel's refusals, deep removal, the hammer ------------------------------- */

static volatile uint64_t *chain_page;
static long victim2, v2_bound, v2_used;

static void
kernel_refusals(void)
{
	long v = subsys_child_slot("victim");
	long used = hr_mem_info(v, HR_MI_USED, 0), bound = hr_mem_info(v, HR_MI_BOUND, 0);
	uint64_t page = pages_alloc(1);

	hr_mem_bound(v, used);
	hr_report_eq("alias_beyond_bound_refused",
		     hr_mem_alias((long) page, v, SPOT, HR_MEM_READ | HR_MEM_WRITE), HR_ENOMEM);
	hr_mem_bound(v, bound + 1);
	hr_report_eq("alias_of_unheld_page_refused",
		     hr_mem_alias(SPOT + 0x10000000, v, SPOT, HR_MEM_READ), HR_ENOENT);
	hr_report_eq("alias_beyond_source_rights_refused",
		     hr_mem_alias(HR_VA_BOOTINFO, v, SPOT, HR_MEM_READ | HR_MEM_WRITE), HR_EPERM);
	hr_report("alias_then_remove",
		  !hr_mem_alias((long) page, v, SPOT, HR_MEM_READ) &&
			  perms(v, SPOT) == HR_MEM_READ && !hr_mem_remove(v, SPOT) &&
			  perms(v, SPOT) == HR_ENOENT,
		  "the page did not come and go");
	hr_mem_bound(v, bound);
	pages_free(page, 1);
}

static int
leaf_ready(void)
{
	return chain_page[4] == 1;
}

static void
deep_remove(void)
{
	long d = subsys_child_slot("deep1");
	uint64_t page = pages_alloc(1);

	chain_page = (volatile uint64_t *) page;
	memset((void *) page, 0, HR_PAGE_SIZE);
	hr_mem_bound(d, hr_mem_info(d, HR_MI_BOUND, 0) + 1);
	if (!hr_report("alias_into_child_subsystem",
		       !hr_mem_alias((long) page, d, SPOT, HR_MEM_READ | HR_MEM_WRITE), "refused"))
		return;
	if (!hr_report("chain_of_aliases_reaches_depth_4", wait_for(leaf_ready, 3000, 1),
		       "levels ready: %lu %lu %lu", (unsigned long) chain_page[2],
		       (unsigned long) chain_page[3], (unsigned long) chain_page[4]))
		return;
	hr_report("deep_remove_gone_at_depth_2",
		  !hr_mem_remove(d, SPOT) && perms(d, SPOT) == HR_ENOENT, "still mapped in deep1");
}

static void
memtop_main(void *arg)
{
	(void) arg;
	victim2 = subsys_child_slot("victim2");
	v2_bound = hr_mem_info(victim2, HR_MI_BOUND, 0);
	v2_used = hr_mem_info(victim2, HR_MI_USED, 0);
	kernel_refusals();
	deep_remove();
}
HR_TASK(memtop_main);

void
hr_child_ended(const char *name, int faulted, long status)
{
	if (strcmp(name, "hammer"))
		return;
	hr_report("hammer_is_not_harmed_by_its_own_errors", !faulted && status == 0,
		  "faulted %d status %ld", faulted, status);
	hr_report("hammer_changes_nothing_for_siblings",
		  hr_mem_info(victim2, HR_MI_BOUND, 0) == v2_bound &&
			  hr_mem_info(victim2, HR_MI_USED, 0) == v2_used,
		  "victim2 bound %ld -> %ld, used %ld -> %ld", v2_bound,
		  hr_mem_info(victim2, HR_MI_BOUND, 0), v2_used,
		  hr_mem_info(victim2, HR_MI_USED, 0));
}

/* ---- chain: pass the page down, then see it vanish -------------------------------------- */

static int
spot_mapped(void)
{
	return perms(HR_CAP_SELF, SPOT) > 0;
}

static int
spot_gone(void)
{
	return perms(HR_CAP_SELF, SPOT) == HR_ENOENT;
}

/* The name of our first child subsystem, if any. */
static const char *
child_subsystem(void)
{
	const char *why;
	const void *fdt = desc_self(&why);
	static struct desc_node d;

	for (int n = desc_child(fdt, 0); n >= 0; n = desc_sibling(fdt, n))
		if (!desc_read(fdt, n, &d, &why) && d.type == DESC_SUBSYSTEM)
			return d.name;
	return 0;
}

static void
relay(void *arg)
{
	unsigned depth = hr_bootinfo()->depth;
	const char *child = child_subsystem();
	char name[64];

	(void) arg;
	if (!wait_for(spot_mapped, 3000, 1))
		return;
	if (child) {
		long s = subsys_child_slot(child);
		hr_mem_bound(s, hr_mem_info(s, HR_MI_BOUND, 0) + 1);
		hr_mem_alias(SPOT, s, SPOT, HR_MEM_READ | HR_MEM_WRITE);
	}
	((volatile uint64_t *) SPOT)[depth] = 1;
	snprintf(name, sizeof(name), "deep_remove_gone_at_depth_%u", depth);
	hr_report(name, wait_for(spot_gone, 3000, 1), "still mapped");
}
HR_TASK(relay);

/* ---- soft revocation three levels down -------------------------------------------------- */

static long softa;
static uint64_t soft_target;

static int
softa_down(void)
{
	return (uint64_t) hr_mem_info(softa, HR_MI_USED, 0) <= soft_target;
}

static void
softtop_main(void *arg)
{
	(void) arg;
	sched_sleep(hr_tsc() + 100 * hr_tick_tsc()); /* let the chain come up */
	softa = subsys_child_slot("softa");
	hr_report("soft_revocation_planned", delegate_revoke(1536) == 1536, "the book refused");
	soft_target = child_by_name("softa")->mem_target; /* what it may keep now */
	hr_report("soft_revocation_through_three_levels", wait_for(softa_down, 3000, 1),
		  "softa still holds %ld pages, target %lu", hr_mem_info(softa, HR_MI_USED, 0),
		  (unsigned long) soft_target);
}
HR_TASK(softtop_main);

static int
complied(void)
{
	return hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0) <= (long) parent_page()->mem_target;
}

/* Our manifest memory reservation is the first one our parent made for us (id 0 is not
 * ours to know); wait() on a fresh reservation of ours sees every revision all the same. */
static void
soft_watch(void *arg)
{
	uint64_t seen = 0;
	long mine = hr_res_create(RES_SOFT, RES_MEM);
	char name[64];

	(void) arg;
	hr_res_bind(mine, 1, 0);
	snprintf(name, sizeof(name), "soft_revocation_reached_%s", hr_bootinfo()->name);
	hr_report(name, hr_res_wait(mine, &seen) >= 0 && seen, "no revocation came");
	snprintf(name, sizeof(name), "soft_revocation_satisfied_at_%s", hr_bootinfo()->name);
	hr_report(name, wait_for(complied, 3000, 1), "holds %ld pages, target %lu",
		  hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0),
		  (unsigned long) parent_page()->mem_target);
	/* stay up a while, so that our parent can still see what we hold */
	sched_sleep(hr_tsc() + 200 * hr_tick_tsc());
}
HR_TASK(soft_watch);

/* ---- components -------------------------------------------------------------------------- */

static int
prober(void)
{
	long sib = pi_connect("victim");

	hr_report_eq("alias_into_parent_refused", hr_mem_alias(HR_VA_MEM, 1, SPOT, HR_MEM_READ),
		     HR_ECAP);
	hr_report_eq("alias_into_sibling_refused",
		     sib < 0 ? sib : hr_mem_alias(HR_VA_MEM, sib, SPOT, HR_MEM_READ), HR_ECAP);
	hr_report_eq("alias_into_ourselves_refused",
		     hr_mem_alias(HR_VA_MEM, HR_CAP_SELF, SPOT, HR_MEM_READ), HR_ECAP);
	hr_report_eq("remove_in_parent_refused", hr_mem_remove(1, HR_VA_MEM), HR_ECAP);
	hr_report_eq("bound_of_parent_refused", hr_mem_bound(1, 1000000), HR_ECAP);
	return 0;
}

static int
share_mapped(void)
{
	return perms(HR_CAP_SELF, SPOT) > 0 && *(volatile uint64_t *) SPOT == MAGIC;
}

static int
share_seen(void)
{
	return *(volatile uint64_t *) (SPOT + 8) == MAGIC;
}

static int
share_gone(void)
{
	return perms(HR_CAP_SELF, SPOT) == HR_ENOENT;
}

/* sharer-a shares a page with sharer-b, out of its own reservation.  The share ends when
 * either goes: b says it saw the page, a then ends, and b sees the page go. */
static int
sharer(int first)
{
	long va;

	if (!first) {
		int ok = wait_for(share_mapped, 3000, 0);
		if (ok)
			*(volatile uint64_t *) (SPOT + 8) = MAGIC;
		hr_report("sibling_share_sees_the_same_page", ok,
			  "nothing (or not the other's data) at the shared address");
		return !hr_report("share_ends_with_the_sibling_that_paid",
				  ok && wait_for(share_gone, 3000, 0),
				  "the page stayed after 'sharer-a' ended");
	}
	hr_report_eq("share_beyond_own_reservation_refused", pi_mem_share("sharer-b", 1),
		     HR_ENOMEM);
	hr_report_eq("share_room_given_back", hr_mem_give_back(1), 1);
	va = pi_mem_share("sharer-b", 1);
	if (!hr_report("share_with_sibling_granted", va == (long) SPOT, "got %ld (%s)", va,
		       hr_strerror(va)))
		return 1;
	*(volatile uint64_t *) SPOT = MAGIC;
	hr_report_eq("share_counts_against_own_reservation", pi_mem_share("sharer-b", 1),
		     HR_ENOMEM);
	hr_report_eq("share_with_unknown_sibling_refused", pi_mem_share("nobody", 1), HR_EINVAL);
	wait_for(share_seen, 3000, 0);
	return 0;
}

static int
resuser(void)
{
	long u0 = hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0), id = hr_res_create(RES_HARD, RES_MEM);
	uint64_t got;

	hr_report("reservation_created", id >= 0, "%s", hr_strerror(id));
	hr_report_eq("reservation_bound", hr_res_bind(id, 64, 0), 0);
	hr_report_eq("grow_beyond_reservations_refused", hr_mem_grow(100000), HR_ENOMEM);
	hr_report_eq("grow_within_reservation", hr_mem_grow(64), 0);
	hr_report_eq("grown_pages_are_ours", hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0), u0 + 64);
	hr_report_eq("bind_beyond_capacity_refused", hr_res_bind(id, 1ull << 30, 0), HR_ENOMEM);
	pages_release(64, &got); /* stop using them: the delete takes them away */
	hr_report_eq("reservation_deleted", hr_res_delete(id), 0);
	hr_report_eq("reservation_delete_returns_memory", hr_mem_info(HR_CAP_SELF, HR_MI_USED, 0),
		     u0);
	hr_report_eq("deleted_reservation_is_gone", pi_res_get(id), HR_ENOENT);
	return 0;
}

static uint64_t seed = 0x2545f4914f6cdd1dull;

static long
hammer_arg(void)
{
	static const long special[] = { 0, 1, -1, 64, 4096, 1l << 40, HR_VA_MEM, SPOT, -4096 };
	return hr_rand(&seed) % 2 ? (long) (hr_rand(&seed) % 200) : special[hr_rand(&seed) % 9];
}

static int
hammer(void)
{
	uint64_t top = HR_VA_MEM + hr_bootinfo()->mem_pages * HR_PAGE_SIZE;
	long errors = 0;

	pi_sleep(hr_tsc() + 30 * hr_tick_tsc()); /* let the top snapshot first */
	for (int i = 0; i < 20000; i++) {
		long op = PI_RES_CREATE + (long) (hr_rand(&seed) % (PI_OP_END - PI_RES_CREATE + 2));
		long a1 = hammer_arg(), a2 = hammer_arg(), a3 = hammer_arg();
		if (op == PI_MEM_RETURN && (uint64_t) a1 < top)
			a1 = (long) top; /* never give back pages we are using */
		errors += hr_invoke(HR_CAP_PARENT, op, a1, a2, a3) < 0;
	}
	printf("20000 requests, %ld refused\n", errors);
	hr_report("hammer_gets_errors", errors > 0, "nothing was refused");
	return 0;
}

int
hr_main(void)
{
	const char *role = desc_args();

	if (!strcmp(role, "prober"))
		return prober();
	if (!strcmp(role, "sharer-a") || !strcmp(role, "sharer-b"))
		return sharer(!strcmp(role, "sharer-a"));
	if (!strcmp(role, "resuser"))
		return resuser();
	if (!strcmp(role, "hammer"))
		return hammer();
	if (!strcmp(role, "victim"))
		hr_serve();
	subsys_main(); /* top, chain, softtop, soft */
}
