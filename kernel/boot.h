/* boot.h - boot-time entry points main.c calls in other files. */
#ifndef BOOT_H
#define BOOT_H

#include "kernel.h"

struct thd *boot_root(const struct hw_boot *b, uint64_t tsc_hz, uint64_t timer_hz);
void schedtree_clock(uint64_t tsc_hz, uint64_t tsc_per_tick);
void libc_clock(uint64_t tsc_hz);

#endif
