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

/* TSC ticks per timer tick (from the boot information: every component has it). */
static inline uint64_t
hr_tick_tsc(void)
{
	const struct hr_bootinfo *bi = hr_bootinfo();
	return bi->timer_hz ? bi->tsc_hz / bi->timer_hz : 1000000;
}

/* Every program defines this. */
int hr_main(void);

/* The initial thread of a passive component retires here; the component stays alive to
 * serve invocations.  Never returns. */
_Noreturn void hr_serve(void);

/* Print and end the component with status 1 (for broken invariants of user code). */
_Noreturn void hr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Lock for data shared by the threads executing in one component (its own, and its
 * children's threads inside its services).  Never disables interrupts.  A thread that finds
 * the lock held hands the CPU to the holder (the HiRES paper's dependency link: priority
 * inheritance by switching to the thread we depend on), and the holder hands it back on
 * release, so even the most urgent thread (the scheduler's event thread) never waits on a
 * preempted holder.  In a component that is no scheduler the waiter can only spin.
 */
struct hr_lock {
	volatile uint32_t holder; /* thread id, 0 if free */
	volatile uint32_t waiter; /* a thread that handed us the CPU to get it */
};
void hr_lock_take(struct hr_lock *l);
/* 1 and held, or 0 if someone else holds it. */
int hr_lock_try(struct hr_lock *l);
void hr_lock_give(struct hr_lock *l);

/* A new thread of this component runs fn(arg) on its own stack and TLS; returns its id.
 * Only a scheduler component creates threads (others ask their scheduler). */
long hr_thread_create(void (*fn)(void *), void *arg);
/* Finish the calling thread (the component stays). */
_Noreturn void hr_thread_exit(long status);

const char *hr_strerror(long err);

#endif
