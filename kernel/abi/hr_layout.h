/*
 * hr_layout.h - fixed parts of every component's virtual address space.
 *
 * The kernel maps the scheduler region; the parent (the kernel for the root) maps the boot
 * information page, the program image, the initial stack, the module window and the memory
 * window.  Everything else in the user half is the component's to use.
 */
#ifndef HR_LAYOUT_H
#define HR_LAYOUT_H

#define HR_PAGE_SIZE  4096ull
#define HR_PAGE_SHIFT 12

/* Mapping nodes the kernel keeps per page of usable RAM (about 4% of it).  A page
 * delegated through d levels is mapped d times, and every bound promises its nodes when it
 * is set (mem_bound), so the memory bounds of all components together may add up to at
 * most this many times the RAM; the image builder checks it (images/memory.c). */
#define HR_MAP_NODES_PER_PAGE 4ull

/* Program images (static, non-PIE ELF) must lie entirely inside this range. */
#define HR_VA_IMAGE_MIN 0x0000000000400000ull
#define HR_VA_IMAGE_MAX 0x0000000040000000ull

/* Initial thread stack: the pages just below HR_VA_STACK_TOP. */
#define HR_VA_STACK_TOP 0x0000000080000000ull
#define HR_STACK_PAGES	16ull

/* Boot information page (struct hr_bootinfo, read-only to the component). */
#define HR_VA_BOOTINFO 0x0000000100000000ull
/* Scheduler-kernel shared region, mapped by the kernel when a component is promoted. */
#define HR_VA_SCHED 0x0000000100100000ull
/* The kernel's clock page (struct hr_kinfo), read-only in every component. */
#define HR_VA_KINFO 0x0000000100300000ull
/* Page a parent shares with a child subsystem (rm/parent.h: struct hr_pcb). */
#define HR_VA_PCB 0x0000000100200000ull
/* Network rings (abi/hr_net.h), mapped by the kernel when the subsystem opens a card. */
#define HR_VA_NET 0x0000000100400000ull
/* Boot descriptor (devicetree blob of this subsystem's subtree), read-only. */
#define HR_VA_DESC	  0x0000000100800000ull
#define HR_DESC_MAX_PAGES 64ull
/* Program modules this subsystem may need to construct its children, read-only. */
#define HR_VA_MODULES 0x0000000200000000ull
/* The memory window: the pages delegated to this subsystem, contiguous from here. */
#define HR_VA_MEM 0x0000001000000000ull
/* First address the component manages by itself (aliases it receives at run time). */
#define HR_VA_FREE 0x0000004000000000ull
/* End of the user half (exclusive). */
#define HR_VA_USER_END 0x0000800000000000ull

#endif
