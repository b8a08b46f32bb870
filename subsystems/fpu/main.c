/*
 * fpu - the kernel switches x87/SSE state between threads (kernel/thd.c) and writes the FS
 * base only when it changes (kernel/arch/x86_64/hw.h): each worker keeps its own values in every
 * xmm register, on the x87 stack, in MXCSR and the x87 control word while timer ticks and
 * sleeps switch it out for workers of its own and of a sibling subsystem, and checks them
 * and its TLS (a __thread word and %fs:0, musl's thread pointer) round after round.
 * Tasks: fpu_worker (arg = worker number 1 or 2; image test-fpu runs two subsystems).
 */
#include "rm/report.h"
#include "rm/runtime.h"
#include "rm/sched.h"
#include "rm/subsys.h"

#include <stdio.h>
#include <string.h>

#define ROUNDS	     40
#define SPIN_TICKS   2 /* each round spins across timer ticks, so preemption lands inside it */
#define MXCSR_CLEAN  0x1f80
#define X87_CW_CLEAN 0x37f

/* Everything a round loads into the registers and reads back; offsets used by fpu_hold. */
struct fpu_regs {
	uint64_t xmm[16][2]; /*   0 */
	double x87[2];	     /* 256: x87[1] ends on top of the stack */
	uint32_t mxcsr;	     /* 272 */
	uint16_t cw;	     /* 276 */
	uint16_t pad;
} __attribute__((aligned(16)));
_Static_assert(sizeof(struct fpu_regs) == 288, "fpu_hold's offsets");

static __thread uint64_t tls_mark;
static volatile uint64_t first[3], last[3];
static int done;

/* Load *in into the registers, spin until TSC `until` without touching them, store them
 * into *out, and put MXCSR and the control word back as the C runtime expects. */
static void
fpu_hold(const struct fpu_regs *in, struct fpu_regs *out, uint64_t until)
{
	__asm__ volatile("ldmxcsr 272(%0)\n\t"
			 "fldcw 276(%0)\n\t"
			 "fldl 256(%0)\n\t"
			 "fldl 264(%0)\n\t"
#define LOAD(n) "movdqa " #n "*16(%0), %%xmm" #n "\n\t"
			 LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7) LOAD(8)
				 LOAD(9) LOAD(10) LOAD(11) LOAD(12) LOAD(13) LOAD(14) LOAD(15)
#undef LOAD
					 "1: rdtsc\n\t"
					 "shl $32, %%rdx\n\t"
					 "or %%rdx, %%rax\n\t"
					 "cmp %2, %%rax\n\t"
					 "jb 1b\n\t"
#define STORE(n) "movdqa %%xmm" #n ", " #n "*16(%1)\n\t"
			 STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6) STORE(7)
				 STORE(8) STORE(9) STORE(10) STORE(11) STORE(12) STORE(13) STORE(14)
					 STORE(15)
#undef STORE
						 "fstpl 264(%1)\n\t"
						 "fstpl 256(%1)\n\t"
						 "stmxcsr 272(%1)\n\t"
						 "fnstcw 276(%1)\n\t"
						 "ldmxcsr %3\n\t"
						 "fldcw %4"
			 :
			 : "r"(in), "r"(out), "r"(until), "m"((uint32_t){ MXCSR_CLEAN }),
			   "m"((uint16_t){ X87_CW_CLEAN })
			 : "rax", "rdx", "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
			   "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
			   "xmm13", "xmm14", "xmm15");
}

/* Values no other worker, round or register holds: seed names the worker everywhere. */
static void
fpu_fill(struct fpu_regs *r, uint64_t seed, unsigned round)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < 16; i++) {
		r->xmm[i][0] = seed * 0x9e3779b97f4a7c15ull + i;
		r->xmm[i][1] = ((uint64_t) round << 32) | (seed << 8) | i;
	}
	r->x87[0] = (double) seed * 1000.0 + round + 0.25;
	r->x87[1] = -(double) seed - round * 0.5;
	/* flush-to-zero, the rounding mode and x87 precision differ by worker */
	r->mxcsr = MXCSR_CLEAN | (seed & 1 ? 0x8000 : 0) | (seed & 2 ? 0x2000 : 0);
	r->cw = (uint16_t) (seed & 1 ? 0x27f : X87_CW_CLEAN);
}

static uint64_t
fs_self(void)
{
	uint64_t p;

	__asm__ volatile("mov %%fs:0, %0" : "=r"(p));
	return p;
}

/* Run the rounds: the round registers or TLS first went wrong in, or -1. */
static void
fpu_rounds(uint64_t seed, int *bad_regs, int *bad_tls)
{
	uint64_t self = fs_self();
	struct fpu_regs in, out;

	*bad_regs = *bad_tls = -1;
	tls_mark = seed;
	for (unsigned round = 0; round < ROUNDS; round++) {
		fpu_fill(&in, seed, round);
		memset(&out, 0, sizeof(out));
		fpu_hold(&in, &out, hr_tsc() + SPIN_TICKS * hr_tick_tsc());
		if (*bad_regs < 0 && memcmp(&in, &out, sizeof(in)))
			*bad_regs = (int) round;
		if (*bad_tls < 0 && (tls_mark != seed || fs_self() != self))
			*bad_tls = (int) round;
		if (round % 2)
			sched_sleep(hr_tsc() + hr_tick_tsc());
	}
}

static void
fpu_worker(void *arg)
{
	long id = (long) arg;
	uint64_t seed = ((uint64_t) hr_thd_self() << 2) | (uint64_t) id;
	int bad_regs, bad_tls;
	char name[48];

	if (id < 1 || id > 2) {
		hr_report("fpu_worker_argument", 0, "worker number %ld is not 1 or 2", id);
		return;
	}
	first[id] = hr_tsc();
	fpu_rounds(seed, &bad_regs, &bad_tls);
	last[id] = hr_tsc();
	snprintf(name, sizeof(name), "fpu_registers_kept_%ld", id);
	hr_report(name, bad_regs < 0, "worker %ld: x87/SSE state changed in round %d", id,
		  bad_regs);
	snprintf(name, sizeof(name), "tls_kept_%ld", id);
	hr_report(name, bad_tls < 0, "worker %ld: TLS or %%fs:0 changed in round %d", id, bad_tls);
	if (__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST) == 2)
		hr_report("fpu_workers_interleaved", first[1] < last[2] && first[2] < last[1],
			  "workers ran one after the other: [%lu,%lu] and [%lu,%lu]",
			  (unsigned long) first[1], (unsigned long) last[1],
			  (unsigned long) first[2], (unsigned long) last[2]);
}
HR_TASK(fpu_worker);

int
hr_main(void)
{
	subsys_main();
}
