/*
 * parent.c - the parent interface (parent.h, its table pi.h): the client calls children
 * make, and the server side every subsystem exports.  Handlers run on the child's migrated
 * thread and leave scheduling decisions to our event thread (sched_request).
 */
#include "parent.h"
#include "caps.h"
#include "child.h"
#include "ctor.h"
#include "delegate.h"
#include "events.h"
#include "export.h"
#include "pages.h"
#include "pi.h"
#include "runtime.h"
#include "sched.h"
#include "subsys.h"

#include <string.h>

/* ---- the arguments' kinds (pi.h): put by the client, got by the server ----------------- */

/* A name of up to n (16 or 24) bytes, packed into n / 8 registers from a[*i]. */
static void
put_name(long *a, unsigned *i, const char *name, size_t n)
{
	char buf[24] = { 0 };

	memcpy(buf, name, strnlen(name, n));
	memcpy(&a[*i], buf, n);
	*i += (unsigned) (n / 8);
}

static void
get_name(const long *a, unsigned *i, struct pi_name *out, size_t n)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->s, &a[*i], n);
	*i += (unsigned) (n / 8);
}

static void
pi_put_long(long *a, unsigned *i, long v)
{
	a[(*i)++] = v;
}

static void
pi_put_u64(long *a, unsigned *i, uint64_t v)
{
	a[(*i)++] = (long) v;
}

static void
pi_put_u32(long *a, unsigned *i, uint32_t v)
{
	a[(*i)++] = (long) v;
}

static void
pi_put_name24(long *a, unsigned *i, const char *v)
{
	put_name(a, i, v, 24);
}

static void
pi_put_name16(long *a, unsigned *i, const char *v)
{
	put_name(a, i, v, 16);
}

/* Decoding: 0, or HR_EINVAL for a register the type cannot hold.  Nothing else is checked
 * here: what a value means is the handler's to judge. */
static long
pi_get_long(const long *a, unsigned *i, long *v)
{
	*v = a[(*i)++];
	return 0;
}

static long
pi_get_u64(const long *a, unsigned *i, uint64_t *v)
{
	*v = (uint64_t) a[(*i)++];
	return 0;
}

static long
pi_get_u32(const long *a, unsigned *i, uint32_t *v)
{
	long x = a[(*i)++];

	*v = (uint32_t) x;
	return x < 0 || x > (long) UINT32_MAX ? HR_EINVAL : 0;
}

static long
pi_get_name24(const long *a, unsigned *i, struct pi_name *v)
{
	get_name(a, i, v, 24);
	return 0;
}

static long
pi_get_name16(const long *a, unsigned *i, struct pi_name *v)
{
	get_name(a, i, v, 16);
	return 0;
}

/* ---- client side: pi_<name>() for every row, its arguments put into a1..a3 ---------------- */

/* The one invocation of them all: hr_invoke inlined once, with the saving of the registers
 * it clobbers (sys.h), not once in every row's function */
static __attribute__((noinline)) long
pi_call(long cap, long num, long a1, long a2, long a3)
{
	return hr_invoke(cap, num, a1, a2, a3);
}

#define PI_PUT_0()
#define PI_PUT_1(k1, n1)		 pi_put_##k1(a, &i, n1);
#define PI_PUT_2(k1, n1, k2, n2)	 PI_PUT_1(k1, n1) PI_PUT_1(k2, n2)
#define PI_PUT_3(k1, n1, k2, n2, k3, n3) PI_PUT_2(k1, n1, k2, n2) PI_PUT_1(k3, n3)
#define PI_CLIENT(num, NAME, name, nargs, args, doc)                  \
	long pi_##name(PI_PARAMS_##nargs args)                        \
	{                                                             \
		long a[3] = { 0 };                                    \
		unsigned i = 0;                                       \
		PI_PUT_##nargs args(void) i;                          \
		return pi_call(HR_CAP_PARENT, num, a[0], a[1], a[2]); \
	}
PI_OPS(PI_CLIENT)
#undef PI_CLIENT

long
pi_connect_serving(const char *name, unsigned echo_op)
{
	long cap = HR_ENOENT;

	for (int i = 0; i < 1000; i++) {
		if (cap < 0)
			cap = pi_connect(name);
		if (cap >= 0 && pi_call(cap, echo_op, 7, 0, 0) == 7)
			return cap;
		pi_yield();
	}
	return cap < 0 ? cap : HR_ENOENT;
}

/* Create, bind and delete go through delegate.c: our own supply follows our CPU
 * reservation (delegate_own_bind). */
long
hr_res_create(uint32_t kind, uint32_t family)
{
	return delegate_own_create(kind, family);
}

long
hr_res_delete(long id)
{
	return delegate_own_delete(id);
}

long
hr_res_bind(long id, uint64_t x, uint64_t y)
{
	return delegate_own_bind(id, x, y);
}

struct hr_pcb *
parent_page(void)
{
	return hr_bootinfo()->depth ? (struct hr_pcb *) HR_VA_PCB : 0;
}

long
hr_res_wait(long id, uint64_t *seen)
{
	volatile struct hr_pcb *pcb = parent_page();

	if (!pcb)
		return HR_ESTATE; /* the root has no parent to wait for */
	while (pcb->revision == *seen)
		sched_sleep(hr_tsc() + hr_tick_tsc());
	*seen = pcb->revision;
	return pi_res_get(id);
}

long
hr_cpu_held(uint32_t *budget, uint32_t *period)
{
	struct admit_supply s;
	long err = delegate_cpu_held(&s);

	if (!err) {
		*budget = s.budget;
		*period = s.period;
	}
	return err;
}

long
hr_mem_grow(uint64_t n)
{
	long va = pi_mem_grow(n);

	if (va < 0)
		return va;
	pages_grow((uint64_t) va, n);
	return 0;
}

long
hr_mem_give_back(uint64_t n)
{
	uint64_t got, va;
	long back = 0;

	while ((uint64_t) back < n && (va = pages_release(n - (uint64_t) back, &got))) {
		if (pi_mem_return(va, got)) {
			pages_free(va, got);
			break;
		}
		back += (long) got;
	}
	return back;
}

/* ---- server side: decode a row's registers, then its handler performs ------------------- */

/* The entity of the calling child, if the calling thread is the one that entity
 * dispatches (a component's first thread, a subsystem's c^s); else HR_EPERM. */
static long
caller_entity(const struct child *c)
{
	struct sched_ent *e = sched_ent(c->ent);

	return e && e->tid == (uint32_t) hr_thd_self() ? c->ent : HR_EPERM;
}

/* One handler a row, run for a caller that is a child of ours (c) with its arguments
 * decoded; its result is the caller's. */
#define PI_HANDLER(num, NAME, name, nargs, args, doc) \
	static long pi_op_##name(struct child *c PI_HPARAMS_##nargs args);
PI_OPS(PI_HANDLER)
#undef PI_HANDLER

static long
pi_op_connect(struct child *c, const char *name)
{
	return subsys_connect(c->ctor.comp, name);
}

static long
pi_op_yield(struct child *c)
{
	long id = caller_entity(c);

	if (id < 0)
		return id;
	sched_request(id, REQ_YIELD, 0);
	return 0;
}

/* A component's first thread sleeps in our scheduler; any other thread of a child
 * subsystem sleeps here, its scheduler told through the event protocol (events.c). */
static long
pi_op_sleep(struct child *c, uint64_t tsc)
{
	long id = caller_entity(c);

	if (id >= 0 && c->type == DESC_COMPONENT) {
		sched_request(id, REQ_SLEEP, tsc);
		return 0;
	}
	if (c->type == DESC_SUBSYSTEM)
		return events_sleep(c, tsc);
	return HR_EPERM;
}

/* Kinds and families are small numbers (res.h); the book refuses the ones it lacks. */
static long
pi_op_res_create(struct child *c, uint32_t kind, uint32_t family)
{
	if (kind > 255 || family > 255)
		return HR_EINVAL;
	return delegate_res_create(c, kind, family);
}

static long
pi_op_res_delete(struct child *c, long id)
{
	return delegate_res_delete(c, id);
}

static long
pi_op_res_bind(struct child *c, long id, uint64_t x, uint64_t y)
{
	return delegate_res_bind(c, id, x, y);
}

static long
pi_op_res_get(struct child *c, long id)
{
	return delegate_res_get(c, id);
}

static long
pi_op_mem_grow(struct child *c, uint64_t pages)
{
	return delegate_mem_grow(c, pages);
}

static long
pi_op_mem_return(struct child *c, uint64_t va, uint64_t pages)
{
	return delegate_mem_return(c, va, pages);
}

static long
pi_op_mem_share(struct child *c, const char *name, uint64_t pages)
{
	return delegate_mem_share(c, name, pages);
}

static long
pi_op_events(struct child *c)
{
	return events_pop(c);
}

/*
 * What an invocation of each row calls (export.h): the caller must be a child of ours
 * (whatever capability it came through; the badge is not used), then every argument is
 * decoded before the handler runs.
 */
#define PI_DECL_0()
#define PI_DECL_1(k1, n1)		  PI_ST_##k1 n1;
#define PI_DECL_2(k1, n1, k2, n2)	  PI_DECL_1(k1, n1) PI_DECL_1(k2, n2)
#define PI_DECL_3(k1, n1, k2, n2, k3, n3) PI_DECL_2(k1, n1, k2, n2) PI_DECL_1(k3, n3)
#define PI_GET_0()
#define PI_GET_1(k1, n1)		 || pi_get_##k1(a, &i, &n1)
#define PI_GET_2(k1, n1, k2, n2)	 PI_GET_1(k1, n1) PI_GET_1(k2, n2)
#define PI_GET_3(k1, n1, k2, n2, k3, n3) PI_GET_2(k1, n1, k2, n2) PI_GET_1(k3, n3)
#define PI_SARGS_0()
#define PI_SARGS_1(k1, n1)		   , PI_SARG_##k1(n1)
#define PI_SARGS_2(k1, n1, k2, n2)	   PI_SARGS_1(k1, n1) PI_SARGS_1(k2, n2)
#define PI_SARGS_3(k1, n1, k2, n2, k3, n3) PI_SARGS_2(k1, n1, k2, n2) PI_SARGS_1(k3, n3)
#define PI_SERVER(num, NAME, name, nargs, args, doc)                                          \
	static long pi_srv_##name(long a1, long a2, long a3, uint64_t badge, uint32_t caller) \
	{                                                                                     \
		const long a[3] = { a1, a2, a3 };                                             \
		struct child *c = child_by_comp(caller);                                      \
		unsigned i = 0;                                                               \
		PI_DECL_##nargs args;                                                         \
                                                                                              \
		(void) a, (void) i, (void) badge;                                             \
		if (!c)                                                                       \
			return HR_EPERM;                                                      \
		if (0 PI_GET_##nargs args)                                                    \
			return HR_EINVAL;                                                     \
		return pi_op_##name(c PI_SARGS_##nargs args);                                 \
	}
PI_OPS(PI_SERVER)
#undef PI_SERVER

#define PI_ENTRY(num, NAME, name, nargs, args, doc) [num] = pi_srv_##name,
static const hr_export_fn served[PI_OP_END] = { PI_OPS(PI_ENTRY) };
#undef PI_ENTRY

/* The rows are numbered 1 .. in order: served[] refuses a repeated number (-Woverride-init)
 * and one beyond PI_OP_END, so with as many rows as PI_OP_END - 1 none is missing. */
#define PI_COUNT(num, NAME, name, nargs, args, doc) +1
_Static_assert(0 PI_OPS(PI_COUNT) == PI_OP_END - 1, "parent interface rows 1 .. in order");
#undef PI_COUNT

/*
 * Our invocation stacks (the rule in rm/ctor.h): each child may hold its share at once,
 * its sleepers and a call more, and the kernel refuses it one beyond (HR_EBUSY, to it
 * alone), so the stacks a child's calls need are never all held by others.
 */
long
parent_serve(unsigned children)
{
	long r = hr_export_stacks(ctor_stacks(children), ctor_stacks_each(children));

	for (unsigned op = 0; !r && op < PI_OP_END; op++)
		if (served[op])
			r = hr_export(op, served[op]);
	return r;
}
