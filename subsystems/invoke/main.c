/*
 * invoke - thread-migration invocation tests.  One program, four roles chosen by args:
 *   b, c     passive servers for the nested chain client -> b -> c -> b -> client
 *   faulty   a server whose operations divide by zero or write through a wild pointer
 *   client   runs the cases and prints one "test ..." line each
 */
#include "rm/export.h"
#include "rm/parent.h"
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/desc.h"

#include <stdio.h>
#include <string.h>

enum { OP_NEST = 1, OP_INNER = 2, OP_ECHO = 3, OP_DIV0 = 4, OP_WILD = 5 };
/* client -> c (TWICE) -> b (BACK) -> c (AGAIN) -> b (ECHO): c's second call into b while its
 * first is still there; b lets one caller hold one of its stacks at a time */
enum { OP_TWICE = 6, OP_BACK = 7, OP_AGAIN = 8 };
enum { OP_FS = 9 }; /* b: the FS base it runs with, read through musl's self pointer */

static long peer; /* capability to the next server of the chain */

/* b: the chain's first hop.  Its answer encodes who called whom. */
static long
b_nest(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge;
	long r = hr_invoke(peer, OP_NEST, 0, 0, 0);
	return r < 0 ? r : r * 1000 + caller;
}

/* b: the innermost hop, reached from c. */
static long
b_inner(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge;
	return caller;
}

/* c: calls back into b. */
static long
c_nest(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge;
	long r = hr_invoke(peer, OP_INNER, 0, 0, 0);
	return r < 0 ? r : r * 1000 + caller;
}

/* c: the first of its two calls into b, and the second, made while the first is in b. */
static long
c_twice(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	return hr_invoke(peer, OP_BACK, 0, 0, 0);
}

static long
c_again(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	return hr_invoke(peer, OP_ECHO, 5, 0, 0);
}

/* b: back into c, which calls b again. */
static long
b_back(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	return hr_invoke(peer, OP_AGAIN, 0, 0, 0);
}

static long
echo(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	return a1;
}

static long
div0(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	volatile long zero = a1 - a1;
	(void) a2, (void) a3, (void) badge, (void) caller;
	// cppcheck-suppress zerodiv ; the point of this operation is to fault
	return a1 / zero;
}

static long
wild(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	(void) a2, (void) a3, (void) badge, (void) caller;
	*(volatile long *) (0xdead0000ul + (unsigned long) a1) = 1;
	return 0;
}

static long
fs_base(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	long p;

	(void) a1, (void) a2, (void) a3, (void) badge, (void) caller;
	__asm__ volatile("mov %%fs:0, %0" : "=r"(p));
	return p;
}

static int
serve(const char *role)
{
	/* b: one stack at a time for each caller (comp_entry's per_caller) */
	if (!strcmp(role, "b"))
		hr_export_stacks(4, 1);
	/* echo first (peers wait for it), the chain once our own peer is connected */
	hr_export(OP_ECHO, echo);
	if (!strcmp(role, "b")) {
		peer = pi_connect_serving("inv-c", OP_ECHO);
		hr_export(OP_INNER, b_inner);
		hr_export(OP_NEST, b_nest);
		hr_export(OP_BACK, b_back);
		hr_export(OP_FS, fs_base);
	} else if (!strcmp(role, "c")) {
		peer = pi_connect_serving("inv-b", OP_ECHO);
		hr_export(OP_NEST, c_nest);
		hr_export(OP_TWICE, c_twice);
		hr_export(OP_AGAIN, c_again);
	} else if (!strcmp(role, "faulty")) {
		hr_export(OP_DIV0, div0);
		hr_export(OP_WILD, wild);
	}
	hr_serve();
}

static void
test_nested(long b)
{
	long me = hr_bootinfo()->comp_id, r = HR_ENOSYS;

	/* the servers export the chain once they are connected to each other */
	for (int i = 0; i < 1000 && r == HR_ENOSYS; i++)
		if ((r = hr_invoke(b, OP_NEST, 0, 0, 0)) == HR_ENOSYS)
			pi_yield();
	long at_b = r % 1000, at_c = r / 1000 % 1000, at_inner = r / 1000000;

	hr_report("invoke_nested_a_b_c_b_a", r > 0, "chain returned %ld (%s)", r, hr_strerror(r));
	hr_report("invoke_callee_learns_caller",
		  r > 0 && at_b == me && at_c != me && at_inner != me && at_c != at_inner && at_c &&
			  at_inner,
		  "b saw %ld, c saw %ld, b (inner) saw %ld; we are %ld", at_b, at_c, at_inner, me);
}

static void
test_bad_caps(long b)
{
	hr_report_eq("invoke_rejects_self_slot", hr_invoke(0, OP_ECHO, 1, 0, 0), HR_ECAP);
	hr_report_eq("invoke_rejects_empty_slot", hr_invoke(60, OP_ECHO, 1, 0, 0), HR_ECAP);
	hr_report_eq("invoke_rejects_slot_out_of_range", hr_invoke(100000, OP_ECHO, 1, 0, 0),
		     HR_ECAP);
	hr_report_eq("invoke_rejects_negative_slot", hr_invoke(-1, OP_ECHO, 1, 0, 0), HR_ECAP);
	hr_report_eq("invoke_unknown_operation_is_refused_by_callee", hr_invoke(b, 99, 0, 0, 0),
		     HR_ENOSYS);
	hr_report_eq("invoke_still_works_after_bad_caps", hr_invoke(b, OP_ECHO, 1234, 0, 0), 1234);
}

/* A caller beyond its share of b's stacks is refused, and only it: the same call from a
 * caller holding none (we, the client) goes through, before and after. */
static void
test_stack_share(long b)
{
	long c = pi_connect_serving("inv-c", OP_ECHO);

	hr_report_eq("invoke_caller_beyond_its_stack_share_refused",
		     c < 0 ? c : hr_invoke(c, OP_TWICE, 0, 0, 0), HR_EBUSY);
	hr_report_eq("invoke_other_callers_keep_their_stack_share", hr_invoke(b, OP_ECHO, 9, 0, 0),
		     9);
	hr_report_eq("invoke_nested_chain_within_shares_still_works",
		     hr_invoke(b, OP_NEST, 0, 0, 0) > 0, 1);
}

static void
test_fault(const char *server, int op, const char *name, long b)
{
	char n[64];
	long f = pi_connect_serving(server, OP_ECHO), r, again;

	r = f < 0 ? f : hr_invoke(f, op, 8, 0, 0);
	hr_report(name, r == HR_EFAULTED, "got %ld (%s)", r, hr_strerror(r));
	again = hr_invoke(f, OP_ECHO, 5, 0, 0);
	snprintf(n, sizeof(n), "%s_stays_faulted", name);
	/* the callee is marked faulted; once its parent has reclaimed it the cap is stale */
	hr_report(n, again == HR_EFAULTED || again == HR_ECAP, "got %ld (%s)", again,
		  hr_strerror(again));
	snprintf(n, sizeof(n), "%s_caller_continues", name);
	hr_report_eq(n, hr_invoke(b, OP_ECHO, 77, 0, 0), 77);
}

/*
 * The kernel skips writing an FS base equal to the one it wrote last (hw_set_fs), but a
 * caller can make the register differ from that by loading a selector into %fs.  Here the
 * caller takes b's FS base as its own, then breaks the register that way, and invokes
 * b: b must still run with its own FS base, not with what the caller left.  Between the
 * two arch_prctl calls nothing may touch our TLS (the raw system call, no errno).
 */
static void
test_fs_isolated(long b)
{
	long theirs = hr_invoke(b, OP_FS, 0, 0, 0), ours, r;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(ours));
	hr_sys6(158, 0x1002, theirs, 0, 0, 0, 0);		   /* arch_prctl(ARCH_SET_FS) */
	__asm__ volatile("mov %0, %%fs" : : "r"(0x1b) : "memory"); /* base 0 now */
	r = hr_invoke(b, OP_FS, 0, 0, 0);
	hr_sys6(158, 0x1002, ours, 0, 0, 0, 0);
	hr_report("invoke_callee_fs_base_not_the_callers", theirs > 0 && r == theirs,
		  "b runs with FS base %lx (%s), %lx before", (unsigned long) r,
		  r < 0 ? hr_strerror(r) : "its self pointer", (unsigned long) theirs);
}

static int
client(void)
{
	long b = pi_connect_serving("inv-b", OP_ECHO);

	if (!hr_report("invoke_connect_to_sibling", b >= 0, "%s", hr_strerror(b)))
		return 1;
	test_nested(b);
	test_bad_caps(b);
	test_stack_share(b);
	test_fault("faulty1", OP_DIV0, "fault_division_by_zero_in_callee", b);
	test_fault("faulty2", OP_WILD, "fault_wild_pointer_in_callee", b);
	test_fs_isolated(b); /* last: if it fails, b has faulted */
	return 0;
}

int
hr_main(void)
{
	const char *role = desc_args();

	if (!strcmp(role, "client"))
		return client();
	return serve(role);
}
