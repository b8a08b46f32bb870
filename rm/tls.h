/*
 * tls.h - per-thread TLS and musl thread control blocks for threads musl did not create.
 *
 * musl finds errno, the locale and the stack canary through FS (its struct pthread).
 * Every thread we start, and every invocation stack a migrating thread lands on, needs
 * its own copy: the program's TLS image followed by a TCB cloned from the initial
 * thread's.  This is the one place that knows musl 1.2.3's x86-64 TCB layout.
 */
#ifndef RM_TLS_H
#define RM_TLS_H

/* Offset of the thread id in musl 1.2.3's x86-64 TCB (entry.S writes it too). */
#define TCB_TID 48

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <stddef.h>

void tls_init(void);
/* Bytes a TLS area needs (TLS block + TCB), and where in it the TCB goes. */
size_t tls_area_size(void);
size_t tls_tcb_offset(void);
/* Initialise the area at mem (tls_area_size bytes, 64-byte aligned) for thread tid;
 * returns the FS base to use. */
uint64_t tls_setup(void *mem, uint32_t tid);
/* Record the calling thread's id in its TCB (threads learn their id once running). */
void tls_set_tid(uint32_t tid);

/* The calling thread's id, from its TCB: no system call. */
static inline uint32_t
tls_tid(void)
{
	uint32_t tid;
	__asm__ volatile("movl %%fs:%c1, %0" : "=r"(tid) : "i"(TCB_TID));
	return tid;
}
#endif

#endif
