/*
 * parent.c - the parent interface (parent.h): the client calls children make, and the
 * server side every subsystem exports.  Handlers run on the child's migrated thread and
 * leave scheduling decisions to our event thread (sched_request).
 */
#include "parent.h"
#include "caps.h"
#include "export.h"
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

static long
op_sleep(long a1, long a2, long a3, uint64_t badge, uint32_t caller)
{
	long id = caller_entity(caller);

	(void) a2, (void) a3, (void) badge;
	if (id < 0)
		return id;
	sched_request(id, REQ_SLEEP, (uint64_t) a1);
	return 0;
}

long
parent_serve(unsigned children)
{
	long r;

	if ((r = hr_export_stacks(4 + (children < 60 ? children : 60))) ||
	    (r = hr_export(PI_CONNECT, op_connect)) || (r = hr_export(PI_YIELD, op_yield)) ||
	    (r = hr_export(PI_SLEEP, op_sleep)))
		return r;
	return 0;
}
