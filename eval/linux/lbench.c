/*
 * lbench - the Linux counterparts of HiRES's microbenchmarks (subsystems/bench and the
 * depth images), run as /init of an initramfs that eval/linux.sh boots in the same QEMU
 * under -icount shift=0, where the TSC counts instructions.  Prints one
 * `bench linux_NAME median=N p99=N max=N unit=instr` line per figure, then powers off.  Run on a
 * host as an ordinary program it prints the same lines (in TSC cycles) and just exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "rm/benchline.h"

#define N      2000
#define WARMUP 100 /* first iterations, not recorded: page faults, cold caches */

/* every benchmark fills samples[0..N) (and unmap_samples for munmap), then print() */
static uint64_t samples[N];
static uint64_t unmap_samples[N];
static volatile uint64_t t_start;
static int efd = -1;

static void
record(int i, uint64_t *s, uint64_t value)
{
	if (i >= WARMUP)
		s[i - WARMUP] = value;
}

static void
print(const char *name, uint64_t *s)
{
	char full[64];

	snprintf(full, sizeof(full), "linux_%s", name);
	bench_line(full, "", s, N);
}

/* SCHED_FIFO at prio: one CPU and fixed priorities make the switches deterministic */
static void
fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	if (err)
		printf("lbench: warning: SCHED_FIFO: %s\n", strerror(err));
}

/* pipe round trip: one byte to a child process and back (HiRES: invoke_rt) */
static void
bench_pipe(void)
{
	int to[2], from[2];
	char c = 0;

	if (pipe(to) || pipe(from)) {
		printf("lbench: error: pipe: %s\n", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(to[1]); /* else our own write end keeps read() from seeing the end */
		while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
			;
		_exit(0);
	}
	for (int i = 0; i < N + WARMUP; i++) {
		uint64_t t0 = tsc();
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
		record(i, samples, tsc() - t0);
	}
	close(to[1]);
	waitpid(pid, 0, 0);
	close(to[0]), close(from[0]), close(from[1]);
	print("pipe_rt", samples);
}

static void *
yielder(void *arg)
{
	(void) arg;
	for (int i = 0; i < N + WARMUP; i++) {
		record(i, samples, tsc() - t_start);
		if (i + 1 < N + WARMUP)
			sched_yield();
	}
	return 0;
}

/* one switch between two threads of equal priority through sched_yield (HiRES: thd_switch) */
static void
bench_yield(void)
{
	pthread_t t;

	/* the new thread inherits SCHED_FIFO at our priority: it waits for our first yield */
	if (pthread_create(&t, 0, yielder, 0))
		return;
	for (int i = 0; i < N + WARMUP; i++) {
		t_start = tsc();
		sched_yield();
	}
	pthread_join(t, 0);
	print("yield", samples);
}

/* mmap + first touch, then munmap, of one anonymous page (HiRES: alias, remove) */
static void
bench_map(void)
{
	for (int i = 0; i < N + WARMUP; i++) {
		uint64_t t0 = tsc();
		volatile char *p =
			mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return;
		p[0] = 1;
		uint64_t t1 = tsc();
		munmap((void *) p, 4096);
		record(i, samples, t1 - t0);
		record(i, unmap_samples, tsc() - t1);
	}
	print("mmap_touch", samples);
	print("munmap", unmap_samples);
}

static void *
waiter(void *arg)
{
	uint64_t v;

	(void) arg;
	for (int i = 0; i < N + WARMUP; i++) {
		if (read(efd, &v, sizeof(v)) != sizeof(v))
			break;
		record(i, samples, tsc() - t_start);
	}
	return 0;
}

/*
 * event wake-up: a thread signals an eventfd on which a higher-priority thread waits, which
 * preempts it at once (HiRES: event, the kernel waking a scheduler's event thread)
 */
static void
bench_event(void)
{
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = 20 };
	pthread_t t;
	uint64_t one = 1;

	efd = eventfd(0, 0);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	if (efd < 0 || pthread_create(&t, &attr, waiter, 0)) {
		printf("lbench: error: event: cannot start the waiter\n");
		return;
	}
	for (int i = 0; i < N + WARMUP; i++) {
		t_start = tsc();
		if (write(efd, &one, sizeof(one)) != sizeof(one))
			break;
	}
	pthread_join(t, 0);
	close(efd);
	print("event", samples);
}

int
main(void)
{
	int init = getpid() == 1;
	cpu_set_t cpu0;

	if (init)
		console_open();
	setvbuf(stdout, 0, _IOLBF, 0);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		printf("lbench: warning: CPU 0: %s\n", strerror(errno));
	fifo(10);
	bench_pipe();
	bench_yield();
	bench_map();
	bench_event();
	printf("lbench: done\n");
	if (init) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
