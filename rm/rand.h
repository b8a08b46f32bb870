/*
 * rand.h - the pseudo-random numbers test programs fire at the kernel and their parents
 * (xorshift64): the same sequence on every run, so a failure found once is found again.
 */
#ifndef RM_RAND_H
#define RM_RAND_H

#include <stdint.h>

/* The next number from *state (never 0 if it did not start at 0). */
static inline uint64_t
hr_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

#endif
