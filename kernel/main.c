/*
 * main.c - boot: console, memory, descriptor tables, pools, timer, then the root component
 * takes over.  One line per step on the console.
 */
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "alias.h"
#include "frame.h"
#include "console.h"
#include "boot.h"
#include "ptq.h"
#include "net.h"
#include "trace.h"

extern char kernel_phys_start[], kernel_end[];
void kmain(uint32_t magic, uint64_t info);

/*
 * "name=value" in the kernel command line; def if absent, UINT64_MAX if the value is not
 * a decimal number that fits (it then fails every range check instead of wrapping into one).
 */
static uint64_t
opt(const char *cmdline, const char *name, uint64_t def)
{
	size_t n = strlen(name);

	for (const char *p = cmdline; p && *p; p++) {
		if ((p == cmdline || p[-1] == ' ') && !strncmp(p, name, n) && p[n] == '=') {
			uint64_t v = 0;
			for (p += n + 1; *p >= '0' && *p <= '9'; p++) {
				if (v > (UINT64_MAX - 9) / 10)
					return UINT64_MAX;
				v = v * 10 + (uint64_t) (*p - '0');
			}
			return *p && *p != ' ' ? UINT64_MAX : v;
		}
	}
	return def;
}

/* The timer rate: the command line's hz=N, the default if it is absent or out of range. */
static uint64_t
timer_hz(const char *cmdline)
{
	uint64_t hz = opt(cmdline, "hz", HR_HZ_DEFAULT);

	if (hz >= HR_HZ_MIN && hz <= HR_HZ_MAX)
		return hz;
	kprintf("[k] hz on the command line is not %d..%d; using %d\n", HR_HZ_MIN, HR_HZ_MAX,
		HR_HZ_DEFAULT);
	return HR_HZ_DEFAULT;
}

static const char *
onoff(int on, int has)
{
	return on ? "on" : has ? "off" : "off (the CPU lacks it)";
}

/* Which of the real-hardware TLB savings this CPU gets (docs/ARCHITECTURE.md). */
static void
tlb_line(void)
{
	struct hw_tlb t = hw_tlb_info();

	kprintf("[k] tlb: global kernel pages %s, PCID %s, INVPCID %s\n", onoff(t.pge, 0),
		onoff(t.pcid, t.has_pcid), onoff(t.invpcid, t.has_invpcid));
}

static unsigned
memory_init(const struct hw_boot *b, uint64_t *max_pa)
{
	struct frange ram[32], resv[20], free[FRAME_RANGES_MAX];
	unsigned nresv = 0, n;

	*max_pa = 0;
	for (unsigned i = 0; i < b->nram; i++) {
		ram[i] = (struct frange){ b->ram[i].base, b->ram[i].base + b->ram[i].len };
		*max_pa = MAX(*max_pa, ram[i].end);
	}
	resv[nresv++] = (struct frange){ 0, 0x100000 };
	resv[nresv++] = (struct frange){ (uint64_t) kernel_phys_start,
					 (uint64_t) kernel_end - 0xffffffff80000000ull };
	resv[nresv++] = (struct frange){ b->info_start, b->info_end };
	for (unsigned i = 0; i < b->nmod; i++)
		resv[nresv++] = (struct frange){ b->mod[i].start, b->mod[i].end };
	n = frame_ranges(ram, b->nram, resv, nresv, free, FRAME_RANGES_MAX);
	frame_init(free, n);
	return n;
}

void
kmain(uint32_t magic, uint64_t info)
{
	struct hw_boot b;
	uint64_t max_pa, frames, tsc_hz, hz, debug, trace;
	const char *why;
	struct thd *root;

	hw_console_init();
	console_set_terminal(hw_fwcfg_flag("opt/hires/terminal"));
	kprintf("\n[k] HiRES kernel booting\n");
	if (hw_boot_parse(magic, info, &b) || b.nmod == 0)
		panic("not started by a multiboot2 loader with at least one module");
	hz = timer_hz(b.cmdline);
	debug = opt(b.cmdline, "debug", 0);
	trace = opt(b.cmdline, "trace", 0);
	kdebug = debug > 2 ? 2 : (int) debug; /* 1: refusals, 2: every call too */
	memory_init(&b, &max_pa);
	if ((why = pt_kernel_init(max_pa)))
		panic("kernel page tables: %s", why);
	hw_cpu_init();
	tlb_line();
	frames = frame_total_user();
	alias_init(HR_MAP_NODES_PER_PAGE * frames + 1024);
	frame_pt_pool(ptq_pool_size(frames));
	kprintf("[k] memory: %lu MiB, %lu page-table pairs, %lu mapping nodes\n", max_pa >> 20,
		frame_pt_free(), alias_free_nodes());
	comp_pool_init();
	thd_pool_init();
	tsc_hz = hw_tsc_hz();
	trace_init(trace == 1, tsc_hz);
	schedtree_clock(tsc_hz, tsc_hz / hz);
	libc_clock(tsc_hz);
	root = boot_root(&b, tsc_hz, hz);
	hw_timer_init((uint32_t) hz);
	net_init(root->comp, tsc_hz); /* after the 8259s are set up: it unmasks the cards' lines */
	kprintf("[k] timer: %lu Hz, TSC %lu kHz, deadline timer %lu kHz\n", hz, tsc_hz / 1000,
		hw_deadline_init(tsc_hz) / 1000);
	thd_dispatch(root, 0);
	hw_ret_to_user();
}
