/*
 * rtmix.h - what the files of program rtmix share: main.c (image rtmix), soak.c (image
 * soak), shares.c (image test-shares), regrow.c (image test-regrow), revoke.c (image
 * test-cpu-revoke) and demo.c (images demo, test-hrtop and test-hrtop-turn).
 */
#ifndef SUBSYSTEMS_RTMIX_H
#define SUBSYSTEMS_RTMIX_H

#include <stdint.h>

/* Sleep, through our scheduler, until the TSC reaches t. */
void sleep_until(uint64_t t);

#endif
