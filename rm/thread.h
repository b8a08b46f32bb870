/* thread.h - bookkeeping of threads this component started (thread.c). */
#ifndef RM_THREAD_H
#define RM_THREAD_H

#include <stdint.h>

/* Give back the stack and TLS of an exited thread. */
void thread_reap(uint32_t tid);

#endif
