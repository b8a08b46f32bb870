/*
 * hr_bootinfo.h - what a component finds at HR_VA_BOOTINFO when its first thread starts.
 *
 * The kernel writes the root's; every parent writes its children's (rm/ctor.c).  A child
 * must treat every field as untrusted-but-parental: it checks the magic and the ranges
 * before use, as the parent may be buggy.
 */
#ifndef HR_BOOTINFO_H
#define HR_BOOTINFO_H

#include <stdint.h>

#define HR_BOOTINFO_MAGIC 0x4869524553426f6full /* "HiRESBoo" */
#define HR_NAME_MAX	  32
#define HR_MODULES_MAX	  16

/* timer_hz: from the kernel command line (hz=N), which images/ writes from MANIFEST */
#define HR_HZ_MIN     10
#define HR_HZ_MAX     10000
#define HR_HZ_DEFAULT 1000

struct hr_module {
	char name[HR_NAME_MAX]; /* NUL-terminated */
	uint64_t base;		/* virtual address in this component (read-only) */
	uint64_t size;		/* bytes */
};
_Static_assert(sizeof(struct hr_module) == 48, "hr_module is ABI");

struct hr_bootinfo {
	uint64_t magic;
	uint32_t comp_id;    /* this component */
	uint32_t parent_id;  /* 0 for the root */
	uint32_t depth;	     /* scheduler depth of this subsystem; the root is 0 */
	uint32_t self_tid;   /* id of the thread that runs _start */
	uint32_t cap_parent; /* cap slot that invokes the parent's services (0: none) */
	uint32_t nmodules;
	char name[HR_NAME_MAX];	       /* subsystem or component name */
	char parent_name[HR_NAME_MAX]; /* "" for the root */
	uint64_t mem_base;	       /* memory window: pages that are ours to allocate */
	uint64_t mem_pages;
	uint64_t desc_base; /* boot descriptor blob (0 if none) */
	uint64_t desc_size;
	uint64_t tsc_hz;   /* TSC frequency estimated by the kernel */
	uint64_t timer_hz; /* timer ticks per second */
	uint64_t arg;	   /* parent-defined argument (tests use it) */
	uint64_t resv;
	struct hr_module modules[HR_MODULES_MAX];
};
_Static_assert(sizeof(struct hr_bootinfo) == 160 + 48 * HR_MODULES_MAX, "hr_bootinfo is ABI");

#endif
