/*
 * guest.h - what the static programs that run as /init of the Linux guests (lbench.c,
 * lirq.c) share; their figures are printed by rm/benchline.c, linked in, so that both
 * sides of a comparison are one format.
 */
#ifndef EVAL_LINUX_GUEST_H
#define EVAL_LINUX_GUEST_H

#include <stdint.h>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The TSC: under -icount shift=0, instructions. */
static inline uint64_t
tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t) hi << 32) | lo;
}

/* As /init the console is not open yet, and /dev is empty until devtmpfs is mounted. */
static inline void
console_open(void)
{
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, 0);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
}

#endif
