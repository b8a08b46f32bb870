/*
 * subsys.h - a subsystem as the manifest describes it.  subsys_main() reads this
 * subsystem's descriptor, reports where it stands, builds every child (subsystems,
 * components) with the generic constructor and every task, then runs the scheduler.
 * Programs name the functions their tasks run with HR_TASK.
 */
#ifndef RM_SUBSYS_H
#define RM_SUBSYS_H

#include <stddef.h>
#include <stdint.h>

struct hr_task {
	const char *name;
	void (*fn)(void *arg);
};

/* Offer fn as the task entry called "fn" in the manifest. */
#define HR_TASK(fn)                              \
	static const struct hr_task hr_task_##fn \
		__attribute__((section("hr_tasks"), used, aligned(8))) = { #fn, fn }

_Noreturn void subsys_main(void);
/* Report "[name] finished (N failures)", counting more_failures too, and end the
 * subsystem (its exit status: 0 if there were none). */
_Noreturn void subsys_exit(int more_failures);

/* The scheduler entity (sched.h) of our child or task called name, or HR_ENOENT. */
long subsys_entity(const char *name);
/* Change the CPU reservation of our child called name (delegate_cpu_rebind). */
long subsys_rebind_cpu(const char *name, uint32_t budget, uint32_t period, char *why, size_t len);

/* Our COMP capability slot for the child called name (tests alias into it directly), or
 * HR_ENOENT. */
long subsys_child_slot(const char *name);

/*
 * A program may define this to hear how each of its children ended (the subsystem has
 * already reported it): faulted (1) or exited with status.  Test programs use it.
 */
void hr_child_ended(const char *name, int faulted, long status);
/* ... and to hear that a faulted child was built again (its n-th restart), on our event
 * thread right after the rebuild, before it runs. */
void hr_child_restarted(const char *name, unsigned n);

/* An invocation capability in our own table to our component child called name (slot),
 * or an HR_E* code.  Threads of ours may then call into it. */
long subsys_cap_to(const char *name);

/* Services for parent.c: the entity of child component comp (-1 if none), and a
 * capability in caller's table to its sibling called name (slot, or HR_E*). */
long subsys_entity_of(uint32_t comp);
long subsys_connect(uint32_t caller, const char *name);

#endif
