/*
 * benchline.h - the one format every benchmark figure is printed in, which eval/ and
 * `make bench` read: "bench NAME [key=value ...] median=M p99=P max=X unit=instr".
 * p99 sits between median and max: median is still the first figure, and readers that
 * look max up by its key still find it.
 */
#ifndef RM_BENCHLINE_H
#define RM_BENCHLINE_H

#include <stddef.h>
#include <stdint.h>

/* Sort samples[0..n) (instructions) and print their median, 99th percentile and maximum;
 * keys ("depth=3", or "" for none) go between the name and the figures. */
void bench_line(const char *name, const char *keys, uint64_t *samples, size_t n);
/*
 * The next of n times a tick, each halfway between two of n marks a tick counted from the
 * kernel's last tick (hr_kinfo.tick_at): a benchmark's wake-up due then is over long
 * before the next tick, so no sample holds the tick's own work (100 to 200 instructions,
 * the same at any depth), only the path it measures.  Due "a 1/n tick from now" instead
 * drifts across the ticks, and which depth's samples meet one, and so which maximum holds
 * the tick, is chance.
 */
uint64_t bench_between_ticks(unsigned n);

#endif
