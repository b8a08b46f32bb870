/*
 * benchline.h - the one format every benchmark figure is printed in, which eval/ and
 * `make bench` read: "bench NAME [key=value ...] median=M max=X unit=instr".
 */
#ifndef RM_BENCHLINE_H
#define RM_BENCHLINE_H

#include <stddef.h>
#include <stdint.h>

/* Sort samples[0..n) (instructions) and print their median and maximum; keys ("depth=3",
 * or "" for none) go between the name and the figures. */
void bench_line(const char *name, const char *keys, uint64_t *samples, size_t n);

#endif
