/*
 * runtime.h - the component runtime: what every program gets before its hr_main runs.
 *
 * rm/runtime.c defines main(): it checks the boot information, sets up the page
 * allocator and heap over the memory window, captures the TLS template, then calls the
 * program's hr_main().  Returning from hr_main ends the component with that status.
 */
#ifndef RM_RUNTIME_H
#define RM_RUNTIME_H

#include <stdint.h>
#include <stddef.h>
#include "sys.h"

/* Every program defines this. */
int hr_main(void);

/* The initial thread of a passive component retires here; the component stays alive to
 * serve invocations.  Never returns. */
_Noreturn void hr_serve(void);

/* Print and end the component with status 1 (for broken invariants of user code). */
_Noreturn void hr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Lock for data shared between the threads of one component.  Never disables interrupts.
 * TODO(#5): contention spins until the holder is scheduled again; the scheduler framework
 * replaces this with blocking and priority inheritance.
 */
struct hr_lock {
	volatile int held;
};
void hr_lock_take(struct hr_lock *l);
void hr_lock_give(struct hr_lock *l);

/* A new thread of this component runs fn(arg) on its own stack and TLS; returns its id.
 * Only a scheduler component creates threads (others ask their scheduler). */
long hr_thread_create(void (*fn)(void *), void *arg);
/* Finish the calling thread (the component stays). */
_Noreturn void hr_thread_exit(long status);

const char *hr_strerror(long err);

#endif
