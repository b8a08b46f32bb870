/*
 * trace.h - the scheduling trace: a ring of small records (switches, event-thread
 * activations, interrupts, kernel events) drained to the trace port, the second
 * serial line, when it fills and at power-off (docs/TRACE.md).  images/trace.py turns what
 * the port received into Chrome Trace Event JSON for ui.perfetto.dev.
 *
 * Off (the default; the command line's trace=1 turns it on) tracing costs nothing: each
 * hooked call (the accounting of a switch, an activation, an interrupt, posting a kernel
 * event) goes through a pointer that names the function itself unless tracing is on, and a
 * call through a pointer costs what a direct call does.  On, the pointer names a wrapper
 * that appends a record and calls the function.
 */
#ifndef TRACE_H
#define TRACE_H

#include "kernel.h"
#include "kev.h"

struct thd;
struct comp;

/* Record types: the decoder's table (images/trace.py) must say the same. */
enum trace_type {
	TRACE_SWITCH = 1,   /* a = from thread (0: idle), b = to thread (0: idle), x = level */
	TRACE_ACTIVATE = 2, /* a = event thread, b = its scheduler, x = 1 if it took the CPU */
	TRACE_IRQ = 3,	    /* x = vector */
	TRACE_KEV = 4,	    /* a = scheduler told, b = the event's thread or component, x = type */
	TRACE_FREE = 5,	    /* a = thread freed: its id may be reused from here on */
	TRACE_DRAIN = 6,    /* b = TSC ticks the kernel just spent draining the ring */
};

/* One record: 16 bytes, sent as 32 hex digits of its little-endian bytes. */
struct trace_rec {
	uint64_t tsc;
	uint8_t type; /* enum trace_type */
	uint8_t x;
	uint16_t a;
	uint32_t b;
};
_Static_assert(sizeof(struct trace_rec) == 16, "the decoder reads 16-byte records");

extern uint8_t trace_on; /* from boot (trace=1, before any thread runs) to power-off */

/* The hooked calls: each names the function after "=", or with tracing on a wrapper that
 * records and calls it.  Callers call through these where a record is wanted. */
extern void (*trace_account)(struct thd *from, struct thd *to, int level); /* = schedtree_account */
extern void (*trace_activate)(struct comp *s); /* = schedtree_activate */
extern void (*trace_wake_up)(struct comp *s);  /* = schedtree_wake_up (traced: its twin) */
extern void (*trace_irq)(unsigned vec);	       /* = trap_irq */
extern int (*trace_kev_put)(struct kev_q *q, struct hr_sched_region *r,
			    struct hr_kevent ev); /* = kev_put */
extern int (*trace_kev_notice)(struct kev_q *q, struct hr_sched_region *r, struct kev_notice *n,
			       uint16_t type, uint16_t comp); /* = kev_notice */

/* An interrupt (trap.c): what trace_irq names when tracing is off. */
void trap_irq(unsigned vec);

/* Start tracing if on: the port's header line (the TSC rate converts ticks to time). */
void trace_init(int on, uint64_t tsc_hz);
/* t is being freed: a record, and its metadata line while its names are still known. */
void trace_thd_free(const struct thd *t);
/* Power-off or panic: drain the ring, describe every live thread, close the trace. */
void trace_end(void);

#endif
