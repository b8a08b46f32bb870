/*
 * parent.c - the parent interface (parent.h): the client calls children make, and the
 * server side every subsystem exports.  Handlers run on the child's migrated thread and
 * leave scheduling decisions to our event thread (sched_request).
 */
#include "parent.h"
#include "caps.h"
#include "child.h"
#include "ctor.h"
#include "delegate.h"
#include "events.h"
#include "export.h"
#include "pages.h"
#include "runtime.h"
#include "sched.h"
#include "subsys.h"

#include <string.h>

void
pi_pack(const char *name, long w[3])
{
	char buf[24] = { 0 };
	size_t n = strnlen(name, sizeof(buf));

	memcpy(buf, name, n);
	memcpy(w, buf, sizeof(buf));
}

void
pi_unpack(const long w[3], char out[25])
{
	memcpy(out, w, 24);
	out[24] = 0;
}

long
pi_connect(const char *name)
{
	long w[3];

	pi_pack(name, w);
	return hr_invoke(HR_CAP_PARENT, PI_CONNECT, w[0], w[1], w[2]);
}

long
pi_yield(void)
{
	return hr_invoke(HR_CAP_PARENT, PI_YIELD, 0, 0, 0);
}

long
pi_sleep(uint64_t tsc)
{
	return hr_invoke(HR_CAP_PARENT, PI_SLEEP, (long) tsc, 0, 0);
}

static long
op_connect(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	long w[3] = { a1, a2, a3 };
	char name[25];

	(void) badge;
	pi_unpack(w, name);
	return subsys_connect(caller, name);
}

/* The entity of the calling child, if the calling thread is the one that entity
 * dispatches (a component's first thread, a subsystem's c^s); else HR_EPERM. */
static long
caller_entity(uint32_t caller)
{
	long id = subsys_entity_of(caller);
	struct sched_ent *e = sched_ent(id);

	return e && e->tid == (uint32_t) hr_thd_self() ? id : HR_EPERM;
}

static long
op_yield(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	long id = caller_entity(caller);

	(void) a1, (void) a2, (void) a3, (void) badge;
	if (id < 0)
		return id;
	sched_request(id, REQ_YIELD, 0);
	return 0;
}

/* A component's first thread sleeps in our scheduler; any other thread of a child
 * subsystem sleeps here, its scheduler told through the event protocol (events.c). */
static long
op_sleep(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	struct child *c = child_by_comp(caller);
	long id = caller_entity(caller);

	(void) a2, (void) a3, (void) badge;
	if (!c)
		return HR_EPERM;
	if (id >= 0 && c->type == DESC_COMPONENT) {
		sched_request(id, REQ_SLEEP, (uint64_t) a1);
		return 0;
	}
	if (c->type == DESC_SUBSYSTEM)
		return events_sleep(c, (uint64_t) a1);
	return HR_EPERM;
}

static long
op_events(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	struct child *c = child_by_comp(caller);

	(void) a1, (void) a2, (void) a3, (void) badge;
	return c ? events_pop(c) : HR_EPERM;
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

long
hr_res_get(long id)
{
	return hr_invoke(HR_CAP_PARENT, PI_RES_GET, id, 0, 0);
}

long
hr_res_wait(long id, uint64_t *seen)
{
	volatile struct hr_pcb *pcb = (struct hr_pcb *) HR_VA_PCB;

	if (!hr_bootinfo()->depth)
		return HR_ESTATE; /* the root has no parent to wait for */
	while (pcb->revision == *seen)
		sched_sleep(hr_tsc() + hr_tick_tsc());
	*seen = pcb->revision;
	return hr_res_get(id);
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
	long va = hr_invoke(HR_CAP_PARENT, PI_MEM_GROW, (long) n, 0, 0);

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
		if (hr_invoke(HR_CAP_PARENT, PI_MEM_RETURN, (long) va, (long) got, 0)) {
			pages_free(va, got);
			break;
		}
		back += (long) got;
	}
	return back;
}

long
hr_mem_share(const char *name, uint64_t n)
{
	long w[3];

	pi_pack(name, w);
	return hr_invoke(HR_CAP_PARENT, PI_MEM_SHARE, w[0], w[1], (long) n);
}

/* ---- server side: every handler first finds which child of ours is calling ---------- */

#define CHILD_OR_FAIL(c, caller)                 \
	struct child *c = child_by_comp(caller); \
	if (!c)                                  \
	return HR_EPERM

static long
op_res_create(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) a3, (void) badge;
	if (a1 < 0 || a1 > 255 || a2 < 0 || a2 > 255)
		return HR_EINVAL;
	return delegate_res_create(c, (uint32_t) a1, (uint32_t) a2);
}

static long
op_res_delete(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) a2, (void) a3, (void) badge;
	return delegate_res_delete(c, a1);
}

static long
op_res_bind(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) badge;
	return delegate_res_bind(c, a1, (uint64_t) a2, (uint64_t) a3);
}

static long
op_res_get(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) a2, (void) a3, (void) badge;
	return delegate_res_get(c, a1);
}

static long
op_mem_grow(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) a2, (void) a3, (void) badge;
	return delegate_mem_grow(c, (uint64_t) a1);
}

static long
op_mem_return(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	CHILD_OR_FAIL(c, caller);
	(void) a3, (void) badge;
	return delegate_mem_return(c, (uint64_t) a1, (uint64_t) a2);
}

static long
op_mem_share(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	long w[3] = { a1, a2, 0 };
	char name[25];
	CHILD_OR_FAIL(c, caller);
	(void) badge;
	pi_unpack(w, name);
	return delegate_mem_share(c, name, (uint64_t) a3);
}

/*
 * Our invocation stacks (the rule in rm/ctor.h): each child may hold its share at once,
 * its sleepers and a call more, and the kernel refuses it one beyond (HR_EBUSY, to it
 * alone), so the stacks a child's calls need are never all held by others.
 */
long
parent_serve(unsigned children)
{
	long r;

	if ((r = hr_export_stacks(ctor_stacks(children), ctor_stacks_each(children))) ||
	    (r = hr_export(PI_CONNECT, op_connect)) || (r = hr_export(PI_YIELD, op_yield)) ||
	    (r = hr_export(PI_SLEEP, op_sleep)) || (r = hr_export(PI_RES_CREATE, op_res_create)) ||
	    (r = hr_export(PI_RES_DELETE, op_res_delete)) ||
	    (r = hr_export(PI_RES_BIND, op_res_bind)) || (r = hr_export(PI_RES_GET, op_res_get)) ||
	    (r = hr_export(PI_MEM_GROW, op_mem_grow)) ||
	    (r = hr_export(PI_MEM_RETURN, op_mem_return)) ||
	    (r = hr_export(PI_MEM_SHARE, op_mem_share)) || (r = hr_export(PI_EVENTS, op_events)))
		return r;
	return 0;
}
