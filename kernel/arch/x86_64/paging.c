/*
 * paging.c - x86-64 4-level page tables.
 *
 * The kernel half (entries 256..511 of every top-level table) is shared: a direct map of
 * RAM at HW_KDIRECT with 2 MiB pages, never executable, and the kernel image at -2 GiB with
 * 4 KiB pages, its text read-execute, its rodata read-only, its data and bss read-write
 * and not executable, but for the guard page below the kernel stack; nothing else is
 * mapped there (pt_kernel_init checks W^X).  User halves
 * are built from pairs of frames (pt_alloc): the table itself and, 4 KiB above it, a
 * shadow page with one word of kernel metadata per entry (alias.c keeps mapping nodes
 * there), so finding the metadata of a mapping costs nothing beyond the walk.  Above the
 * leaves the shadow word of an entry counts the present entries of the table it points
 * to, so a table that empties is freed at once, in O(levels), and a component that maps
 * and removes far apart holds no more tables than it has mappings.
 *
 * The TLB (pt_tlb_init): the kernel half is global (PTE_G, CR4.PGE), so no component switch
 * drops its entries, and it never changes after boot without a global flush (flush_all).
 * Where the CPU has PCIDs each user half has its own (pcid_alloc), CR3 is loaded without
 * flushing (cr3_keep), and an entry changed in a table that is not current is flushed by
 * INVPCID, or else its PCID is flushed when that table is next loaded.  Without PCIDs
 * every CR3 load flushes the user half and nothing need be tracked.
 */
#include "asm.h"
#include "cpu.h"
#include "hw.h"
#include "../../abi/hr_syscall.h"
#include "../../abi/hr_sched.h"

#define PTE_P	 0x1ull
#define PTE_W	 0x2ull
#define PTE_U	 0x4ull
#define PTE_PWT	 0x8ull
#define PTE_PCD	 0x10ull
#define PTE_PS	 0x80ull
#define PTE_G	 0x100ull
#define PTE_NX	 (1ull << 63)
#define PTE_ADDR 0x000ffffffffff000ull
#define MAX_GIB	 16

static uint64_t kernel_pml4[512] __attribute__((aligned(4096)));
static uint64_t direct_pdpt[512] __attribute__((aligned(4096)));
static uint64_t image_pdpt[512] __attribute__((aligned(4096)));
static uint64_t direct_pd[MAX_GIB][512] __attribute__((aligned(4096)));

extern char kernel_text[], kernel_rodata[], kernel_data[], kernel_end[], kstack_guard[];

#define IMAGE_PTS 8 /* the kernel image may span 16 MiB at -2 GiB */

/* Only the kernel image at -2 GiB, each section with its own rights (W^X): a user page
 * below 1 GiB is not executable through it.  The page directory's entry, or 0 if the
 * image does not fit. */
static uint64_t
image_map(void)
{
	static uint64_t pd[512] __attribute__((aligned(4096)));
	static uint64_t pt[IMAGE_PTS][512] __attribute__((aligned(4096)));
	uint64_t text = (uint64_t) kernel_text, rodata = (uint64_t) kernel_rodata;
	uint64_t data = (uint64_t) kernel_data, end = (uint64_t) kernel_end;

	if (end - KERNEL_VMA > IMAGE_PTS * (1ull << 21))
		return 0;
	for (uint64_t va = text; va < end; va += 4096) {
		uint64_t off = va - KERNEL_VMA, e = off | PTE_P | PTE_G;
		if (va >= rodata)
			e |= PTE_NX;
		if (va >= data)
			e |= PTE_W;
		if (va == (uint64_t) kstack_guard)
			e = 0; /* below the kernel stack: an overflow faults (entry.S) */
		pt[off >> 21][(off >> 12) & 511] = e;
	}
	for (unsigned i = 0; i < IMAGE_PTS; i++)
		pd[i] = hw_virt_to_phys(pt[i]) | PTE_P | PTE_W;
	return hw_virt_to_phys(pd) | PTE_P | PTE_W;
}

/* A leaf entry of the table at level `level` (4: the top), from entry `from` on, that is
 * both writable and executable, or 0. */
static uint64_t
wx_find(const uint64_t *t, int level, unsigned from)
{
	for (unsigned i = from; i < 512; i++) {
		uint64_t e = t[i], bad;
		if (!(e & PTE_P))
			continue;
		if (level == 1 || (e & PTE_PS)) {
			if ((e & PTE_W) && !(e & PTE_NX))
				return e;
			continue;
		}
		if ((bad = wx_find(hw_phys_to_virt(e & PTE_ADDR), level - 1, 0)))
			return bad;
	}
	return 0;
}

const char *
pt_kernel_init(uint64_t max_pa)
{
	uint64_t gibs = (max_pa + (1ull << 30) - 1) >> 30;

	if (gibs > MAX_GIB)
		gibs = MAX_GIB;
	for (uint64_t g = 0; g < gibs; g++) {
		for (uint64_t i = 0; i < 512; i++)
			direct_pd[g][i] =
				((g << 30) | (i << 21)) | PTE_P | PTE_W | PTE_PS | PTE_G | PTE_NX;
		direct_pdpt[g] = hw_virt_to_phys(direct_pd[g]) | PTE_P | PTE_W;
	}
	if (!(image_pdpt[510] = image_map()))
		return "the kernel image does not fit its page tables (IMAGE_PTS)";
	kernel_pml4[256] = hw_virt_to_phys(direct_pdpt) | PTE_P | PTE_W;
	kernel_pml4[511] = hw_virt_to_phys(image_pdpt) | PTE_P | PTE_W;
	write_cr3(hw_virt_to_phys(kernel_pml4));
	if (wx_find(kernel_pml4, 4, 256))
		return "a kernel page is writable and executable";
	return 0;
}

/* ---- the TLB: global kernel pages, PCIDs -------------------------------------------- */

#define CR4_PGE	    (1ull << 7)
#define CR4_PCIDE   (1ull << 17)
#define CR3_NOFLUSH (1ull << 63)
#define PCIDS	    HW_PCIDS /* 1..4095 tag components' tables; 0 is kernel_pml4's */
_Static_assert(HR_COMP_MAX < PCIDS, "every component's table has a PCID of its own");

static int pge_on, pcid_on, invpcid_on;
/* CR3_NOFLUSH with PCIDs; without them the bit is reserved */
uint64_t hw_cr3_noflush;
/* Per PCID (hw_set_space): CR3_NOFLUSH while its TLB entries may be kept at its next load,
 * 0 when they must go (a new holder, or a change INVPCID could not flush); always 0
 * without PCIDs. */
uint64_t hw_cr3_keep[HW_PCIDS];
static uint64_t pcid_used[PCIDS / 64];
static unsigned pcid_next = 1; /* allocation goes round: reuse as late as possible */

static int
bit_get(const uint64_t *m, unsigned i)
{
	return (int) ((m[i / 64] >> (i % 64)) & 1);
}

static void
bit_put(uint64_t *m, unsigned i, int v)
{
	m[i / 64] = (m[i / 64] & ~(1ull << (i % 64))) | ((uint64_t) !!v << (i % 64));
}

/* Every TLB entry of every PCID, global ones included: toggling CR4.PGE does that. */
static void
flush_all(void)
{
	uint64_t cr4 = read_cr4();

	if (!pge_on) {
		write_cr3(read_cr3()); /* no PGE: no PCIDs either (pt_tlb_init), so this is all */
		return;
	}
	write_cr4(cr4 & ~CR4_PGE);
	write_cr4(cr4);
}

/* A free PCID, or 0 without PCIDs (or, never with HR_COMP_MAX below PCIDS, none free).
 * Its first load flushes whatever an earlier holder left. */
static unsigned
pcid_alloc(void)
{
	for (unsigned n = 1; pcid_on && n < PCIDS; n++) {
		unsigned p = pcid_next;
		pcid_next = p + 1 < PCIDS ? p + 1 : 1;
		if (!bit_get(pcid_used, p)) {
			bit_put(pcid_used, p, 1);
			hw_cr3_keep[p] = 0;
			return p;
		}
	}
	return 0;
}

static struct hw_tlb tlb;

void
pt_tlb_init(void)
{
	uint32_t r1[4], r7[4];

	cpuid(1, 0, r1);
	cpuid(7, 0, r7);
	tlb.has_pcid = (r1[2] >> 17) & 1;
	tlb.has_invpcid = (r7[1] >> 10) & 1;
	pge_on = tlb.pge = (r1[3] >> 13) & 1;
	if (pge_on)
		write_cr4(read_cr4() | CR4_PGE);
	/* PCIDs only with PGE: flush_all relies on it.  CR3 holds kernel_pml4, PCID 0, as
	 * setting PCIDE requires. */
	pcid_on = tlb.pcid = tlb.has_pcid && pge_on;
	if (pcid_on) {
		write_cr4(read_cr4() | CR4_PCIDE);
		hw_cr3_noflush = CR3_NOFLUSH;
		invpcid_on = tlb.invpcid = tlb.has_invpcid;
	}
}

struct hw_tlb
hw_tlb_info(void)
{
	return tlb;
}

/* The 2 MiB around pa goes into the direct map where RAM does not already cover it. */
void *
pt_kernel_mmio(uint64_t pa)
{
	static uint64_t mmio_pd[512] __attribute__((aligned(4096)));
	uint64_t g = pa >> 30, i = (pa >> 21) & 511;

	if (!(direct_pdpt[g] & PTE_P))
		direct_pdpt[g] = hw_virt_to_phys(mmio_pd) | PTE_P | PTE_W;
	if ((direct_pdpt[g] & PTE_ADDR) == hw_virt_to_phys(mmio_pd))
		mmio_pd[i] = (pa & ~((1ull << 21) - 1)) | PTE_P | PTE_W | PTE_PS | PTE_G | PTE_PCD |
			     PTE_PWT | PTE_NX;
	flush_all(); /* the kernel half changed: global entries too */
	return hw_phys_to_virt(pa);
}

uint64_t
pt_new(void)
{
	uint64_t pa = pt_alloc();
	uint64_t *t;

	if (!pa)
		return 0;
	t = hw_phys_to_virt(pa);
	for (int i = 256; i < 512; i++)
		t[i] = kernel_pml4[i];
	return pa | pcid_alloc();
}

static unsigned
free_level(uint64_t pa, int level)
{
	uint64_t *t = hw_phys_to_virt(pa);
	int n = level == PT_LEVELS ? 256 : 512;
	unsigned freed = 1;

	if (level > 1) {
		for (int i = 0; i < n; i++)
			if (t[i] & PTE_P)
				freed += free_level(t[i] & PTE_ADDR, level - 1);
	}
	pt_release(pa);
	return freed;
}

unsigned
pt_free(uint64_t pgtbl)
{
	unsigned p = (unsigned) (pgtbl & PCID_MASK);

	if (read_cr3() == pgtbl)
		write_cr3(hw_virt_to_phys(kernel_pml4) | hw_cr3_noflush);
	bit_put(pcid_used, p, 0); /* its entries stay until its next holder loads it */
	return free_level(pgtbl & PTE_ADDR, PT_LEVELS);
}

static unsigned
index_at(uint64_t va, int level)
{
	return (unsigned) (va >> (12 + 9 * (level - 1))) & 511;
}

/* The top-level table of pgtbl (without its PCID). */
static uint64_t *
top_of(uint64_t pgtbl)
{
	return hw_phys_to_virt(pgtbl & ~(uint64_t) PCID_MASK);
}

unsigned
pt_missing(uint64_t pgtbl, uint64_t va)
{
	uint64_t *t = top_of(pgtbl);

	for (int level = PT_LEVELS; level > 1; level--) {
		uint64_t e = t[index_at(va, level)];
		if (!(e & PTE_P))
			return (unsigned) level - 1;
		t = hw_phys_to_virt(e & PTE_ADDR);
	}
	return 0;
}

/*
 * The entries on the way to va from top-level table t: path[L] is the entry of the level-L table
 * (path[1] the leaf).  Returns the lowest level reached (1 when every table is there).
 */
static int
walk(uint64_t *t, uint64_t va, uint64_t *path[PT_LEVELS + 1])
{
	for (int level = PT_LEVELS; level >= 1; level--) {
		path[level] = &t[index_at(va, level)];
		if (level == 1 || !(*path[level] & PTE_P))
			return level;
		t = hw_phys_to_virt(*path[level] & PTE_ADDR);
	}
	return 1;
}

uint64_t *
pt_entry(uint64_t pgtbl, uint64_t va, struct pt_budget *b)
{
	uint64_t *path[PT_LEVELS + 1];
	int level;

	if (va >= 0x0000800000000000ull)
		return 0;
	while ((level = walk(top_of(pgtbl), va, path)) > 1) {
		uint64_t pa;
		if (!b || b->made >= b->left || !(pa = pt_alloc()))
			return 0;
		b->made++;
		*path[level] = pa | PTE_P | PTE_W | PTE_U;
		if (level < PT_LEVELS)
			(*pt_shadow(path[level + 1]))++; /* one more present entry in that table */
	}
	return path[1];
}

void
pt_map(uint64_t pgtbl, uint64_t va, uint64_t *e, uint64_t pte)
{
	uint64_t *path[PT_LEVELS + 1];

	if (!(*e & PTE_P) && (pte & PTE_P) && walk(top_of(pgtbl), va, path) == 1)
		(*pt_shadow(path[2]))++;
	*e = pte;
}

unsigned
pt_unmap(uint64_t pgtbl, uint64_t va)
{
	uint64_t *path[PT_LEVELS + 1];
	unsigned freed = 0;

	if (walk(top_of(pgtbl), va, path) != 1 || !(*path[1] & PTE_P))
		return 0;
	*path[1] = 0;
	*pt_shadow(path[1]) = 0;
	pt_flush(pgtbl, va);
	/* the tables that emptied go, bottom up; the top level stays with the component.  The
	 * count of the level-l table is the shadow word of the entry pointing to it. */
	for (int l = 1; l < PT_LEVELS; l++) {
		if (--*pt_shadow(path[l + 1]))
			break;
		pt_release(*path[l + 1] & PTE_ADDR);
		*path[l + 1] = 0;
		freed++;
	}
	return freed;
}

uint64_t *
pt_shadow(uint64_t *e)
{
	return e + 512;
}

/*
 * W^X: a page is writable or executable, never both: rights that include both map as
 * writable data (the holder may still pass on execution to a child, where the page is
 * then mapped read-execute).  No rights at all is a guard page: present, so its mapping
 * node stays findable, but out of user mode's reach.
 */
uint64_t
pt_make(uint64_t pa, unsigned perms)
{
	uint64_t e = (pa & PTE_ADDR) | PTE_P | PTE_NX;

	if (perms & HR_MEM_READ)
		e |= PTE_U;
	if (perms & HR_MEM_WRITE)
		e |= PTE_W;
	else if (perms & HR_MEM_EXEC)
		e &= ~PTE_NX;
	return e;
}

uint64_t
pt_pa(uint64_t e)
{
	return e & PTE_ADDR;
}

unsigned
pt_perms(uint64_t e)
{
	unsigned p = HR_MEM_READ;

	if (!(e & PTE_U))
		return 0; /* a guard page */
	if (e & PTE_W)
		p |= HR_MEM_WRITE;
	if (!(e & PTE_NX))
		p |= HR_MEM_EXEC;
	return p;
}

/* The entries of va in pgtbl's PCID, and the paging-structure caches of that PCID, so this
 * also covers tables pt_unmap frees.  Another component's table is not current: its PCID's
 * entries are used only once it is loaded again, so flushing them then is soon enough. */
void
pt_flush(uint64_t pgtbl, uint64_t va)
{
	unsigned p = (unsigned) (pgtbl & PCID_MASK);

	if (read_cr3() == pgtbl)
		invlpg(va);
	else if (p && invpcid_on)
		invpcid(INVPCID_ADDR, p, va);
	else
		hw_cr3_keep[p] = 0; /* without PCIDs (p 0) a load flushes anyway */
}
