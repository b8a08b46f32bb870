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
 */
#include "asm.h"
#include "cpu.h"
#include "hw.h"
#include "../../abi/hr_syscall.h"

#define PTE_P	 0x1ull
#define PTE_W	 0x2ull
#define PTE_U	 0x4ull
#define PTE_PWT	 0x8ull
#define PTE_PCD	 0x10ull
#define PTE_PS	 0x80ull
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
		uint64_t off = va - KERNEL_VMA, e = off | PTE_P;
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
			direct_pd[g][i] = ((g << 30) | (i << 21)) | PTE_P | PTE_W | PTE_PS | PTE_NX;
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

/* The 2 MiB around pa goes into the direct map where RAM does not already cover it. */
void *
pt_kernel_mmio(uint64_t pa)
{
	static uint64_t mmio_pd[512] __attribute__((aligned(4096)));
	uint64_t g = pa >> 30, i = (pa >> 21) & 511;

	if (!(direct_pdpt[g] & PTE_P))
		direct_pdpt[g] = hw_virt_to_phys(mmio_pd) | PTE_P | PTE_W;
	if ((direct_pdpt[g] & PTE_ADDR) == hw_virt_to_phys(mmio_pd))
		mmio_pd[i] = (pa & ~((1ull << 21) - 1)) | PTE_P | PTE_W | PTE_PS | PTE_PCD |
			     PTE_PWT | PTE_NX;
	write_cr3(hw_virt_to_phys(kernel_pml4));
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
	return pa;
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
	if (read_cr3() == pgtbl)
		write_cr3(hw_virt_to_phys(kernel_pml4));
	return free_level(pgtbl, PT_LEVELS);
}

static unsigned
index_at(uint64_t va, int level)
{
	return (unsigned) (va >> (12 + 9 * (level - 1))) & 511;
}

unsigned
pt_missing(uint64_t pgtbl, uint64_t va)
{
	uint64_t *t = hw_phys_to_virt(pgtbl);

	for (int level = PT_LEVELS; level > 1; level--) {
		uint64_t e = t[index_at(va, level)];
		if (!(e & PTE_P))
			return (unsigned) level - 1;
		t = hw_phys_to_virt(e & PTE_ADDR);
	}
	return 0;
}

/*
 * The entries on the way to va, top level first: path[L] is the entry of the level-L table
 * (path[1] the leaf).  Returns the lowest level reached (1 when every table is there).
 */
static int
walk(uint64_t pgtbl, uint64_t va, uint64_t *path[PT_LEVELS + 1])
{
	uint64_t *t = hw_phys_to_virt(pgtbl);

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
	while ((level = walk(pgtbl, va, path)) > 1) {
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

	if (!(*e & PTE_P) && (pte & PTE_P) && walk(pgtbl, va, path) == 1)
		(*pt_shadow(path[2]))++;
	*e = pte;
}

unsigned
pt_unmap(uint64_t pgtbl, uint64_t va)
{
	uint64_t *path[PT_LEVELS + 1];
	unsigned freed = 0;

	if (walk(pgtbl, va, path) != 1 || !(*path[1] & PTE_P))
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

void
pt_flush(uint64_t pgtbl, uint64_t va)
{
	if (read_cr3() == pgtbl)
		invlpg(va);
}
