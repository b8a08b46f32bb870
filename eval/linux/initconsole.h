/*
 * initconsole.h - for the static programs that run as /init of the Linux guests
 * (lbench.c, lirq.c): the console is not open yet, and /dev is empty until devtmpfs is
 * mounted.
 */
#ifndef EVAL_LINUX_INITCONSOLE_H
#define EVAL_LINUX_INITCONSOLE_H

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

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
