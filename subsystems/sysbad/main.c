/*
 * sysbad - every system call with malformed arguments gets its documented error, and
 * the kernel keeps working.  Runs as a subsystem so that scheduler calls pass the
 * privilege check and reach argument validation.  One "test ..." line per case.
 */
#include "rm/report.h"
#include "rm/runtime.h"

#include <stdio.h>

#define SELF  HR_CAP_SELF
#define KADDR 0xffffffff80100000l
#define R     HR_MEM_READ

struct kase {
	const char *name;
	long nr, a0, a1, a2, a3, a4;
	long want;
};

enum { L_WRITE = 1, L_MMAP = 9, L_WRITEV = 20, L_ARCH_PRCTL = 158, L_CLOCK = 228 };
enum { EBADF = 9, ENOMEM = 12, EFAULT = 14, EINVAL = 22, ENOSYS = 38 };

static char buf[64] = "sysbad";
static long iov[2] = { (long) buf, 3 };

#define S(n) HR_SYS_##n

/* clang-format off: a table, aligned by hand */
static const struct kase cases[] = {
	{ "sys_unknown_hr_number", HR_SYS_END + 10, 0, 0, 0, 0, 0, HR_ENOSYS },
	{ "sys_huge_number", 0x7fffffffffffl, 0, 0, 0, 0, 0, HR_ENOSYS },
	{ "sys_negative_number", -5, 0, 0, 0, 0, 0, HR_ENOSYS },
	{ "sys_unknown_linux_number", 999, 0, 0, 0, 0, 0, -ENOSYS },
	{ "thd_switch_unknown_thread", S(thd_switch), 9999, 0, 0, 0, 0, HR_ENOENT },
	{ "thd_switch_thread_zero", S(thd_switch), 0, 0, 0, 0, 0, HR_ENOENT },
	{ "thd_switch_foreign_thread", S(thd_switch), 1, 0, 0, 0, 0, HR_EPERM },
	{ "thd_switch_unknown_flags", S(thd_switch), -1, 0x100, 0, 0, 0, HR_EINVAL },
	{ "thd_switch_exclusive_flags", S(thd_switch), -1, HR_SW_BLOCK | HR_SW_EXIT, 0, 0, 0,
	  HR_EINVAL },
	{ "thd_switch_flag_past_timer", S(thd_switch), -1, HR_SW_TIMER << 1, 0, 0, 0, HR_EINVAL },
	{ "thd_switch_self_block_timer", S(thd_switch), -1, HR_SW_BLOCK | HR_SW_TIMER, 1, 0, 0,
	  HR_EINVAL },
	{ "thd_switch_unknown_thread_timer", S(thd_switch), 9999, HR_SW_TIMER, 1, 0, 0, HR_ENOENT },
	{ "thd_create_ip_in_kernel", S(thd_create), SELF, KADDR, 0x1000000, 0, 0, HR_EINVAL },
	{ "thd_create_sp_past_user_half", S(thd_create), SELF, 0x401000, -16, 0, 0, HR_EINVAL },
	{ "thd_create_bad_slot", S(thd_create), 99, 0x401000, 0x1000000, 0, 0, HR_ECAP },
	{ "thd_wakeup_unknown_thread", S(thd_wakeup), 9999, 0, 0, 0, 0, HR_ENOENT },
	{ "thd_wakeup_thread_not_blocked", S(thd_wakeup), -1, 0, 0, 0, 0, HR_ESTATE },
	{ "comp_create_slot_zero", S(comp_create), 0, 0, 0, 0, 0, HR_EINVAL },
	{ "comp_create_slot_out_of_range", S(comp_create), 5000, 0, 0, 0, 0, HR_EINVAL },
	{ "comp_create_occupied_slot", S(comp_create), 1, 0, 0, 0, 0, HR_EEXIST },
	{ "comp_create_huge_quota", S(comp_create), 70, 1l << 40, 0, 0, 0, HR_ENOMEM },
	{ "comp_kill_invoke_cap", S(comp_kill), 1, 0, 0, 0, 0, HR_ECAP },
	{ "comp_kill_empty_slot", S(comp_kill), 77, 0, 0, 0, 0, HR_ECAP },
	{ "comp_state_empty_slot", S(comp_state), 77, 0, 0, 0, 0, HR_ECAP },
	{ "cap_invoke_bad_slots", S(cap_invoke), 99, 5, 0, 0, 0, HR_ECAP },
	{ "cap_invoke_into_occupied_slot", S(cap_invoke), SELF, 1, SELF, 0, 0, HR_EEXIST },
	{ "cap_invoke_into_slot_zero", S(cap_invoke), SELF, 0, SELF, 0, 0, HR_EINVAL },
	{ "cap_delete_slot_zero", S(cap_delete), SELF, 0, 0, 0, 0, HR_EINVAL },
	{ "cap_delete_empty_slot", S(cap_delete), SELF, 50, 0, 0, 0, HR_ECAP },
	{ "cap_delete_out_of_range", S(cap_delete), SELF, 1l << 33, 0, 0, 0, HR_EINVAL },
	{ "mem_alias_unaligned_source", S(mem_alias), 0x400001, 70, 0x50000000, R, 0, HR_EINVAL },
	{ "mem_alias_kernel_source", S(mem_alias), KADDR, 70, 0x50000000, R, 0, HR_EINVAL },
	{ "mem_alias_no_permissions", S(mem_alias), HR_VA_MEM, 70, 0x50000000, 0, 0, HR_EINVAL },
	{ "mem_alias_unknown_permission_bits", S(mem_alias), HR_VA_MEM, 70, 0x50000000, R | 0x80, 0,
	  HR_EINVAL },
	{ "mem_alias_into_scheduler_region", S(mem_alias), HR_VA_MEM, 70, HR_VA_SCHED, R, 0,
	  HR_EINVAL },
	{ "mem_alias_no_such_child", S(mem_alias), HR_VA_MEM, 70, 0x50000000, R, 0, HR_ECAP },
	{ "mem_alias_into_ourselves", S(mem_alias), HR_VA_MEM, SELF, 0x50000000, R, 0, HR_ECAP },
	{ "mem_remove_unmapped", S(mem_remove), SELF, 0x7000000000, 0, 0, 0, HR_ENOENT },
	{ "mem_remove_scheduler_region", S(mem_remove), SELF, HR_VA_SCHED, 0, 0, 0, HR_ENOENT },
	{ "mem_remove_no_such_child", S(mem_remove), 77, 0x400000, 0, 0, 0, HR_ECAP },
	{ "mem_bound_invoke_cap", S(mem_bound), 1, 10, 0, 0, 0, HR_ECAP },
	{ "mem_info_unknown_query", S(mem_info), SELF, 99, 0, 0, 0, HR_EINVAL },
	{ "comp_entry_zero_stacks", S(comp_entry), 0x401000, HR_VA_FREE, 0, 8192, 0, HR_EINVAL },
	{ "comp_entry_too_many_stacks", S(comp_entry), 0x401000, HR_VA_FREE, 65, 8192, 0,
	  HR_EINVAL },
	{ "comp_entry_pool_overflows", S(comp_entry), 0x401000, 0x7ffffffff000, 64, 1l << 40, 0,
	  HR_EINVAL },
	{ "comp_entry_entry_in_kernel", S(comp_entry), KADDR, HR_VA_FREE, 4, 8192, 0, HR_EINVAL },
	{ "comp_entry_tcb_past_stride", S(comp_entry), 0x401000, HR_VA_FREE, 4, 8192, 8192,
	  HR_EINVAL },
	{ "event_wait_not_event_thread", S(event_wait), 0, 0, 0, 0, 0, HR_EPERM },
	{ "sched_event_unknown_thread", S(sched_event), 9999, 0, 0, 0, 0, HR_EPERM },
	{ "sched_promote_empty_slot", S(sched_promote), 77, 1, 0, 0, 0, HR_ECAP },
	{ "sched_grant_no_child", S(sched_grant), 9999, 77, 0, 0, 0, HR_ECAP },
	{ "sched_revoke_unknown_thread", S(sched_revoke), 9999, 0, 0, 0, 0, HR_EPERM },
	{ "sched_pevt_no_child", S(sched_pevt), 77, 1, 0, 0, 0, HR_ECAP },
	{ "sched_hold_unknown_thread", S(sched_hold), 9999, 1, 0, 0, 0, HR_EINVAL },
	{ "sched_hold_own_thread", S(sched_hold), -1, 1, 0, 0, 0, HR_EINVAL },
	{ "sched_hold_bad_value", S(sched_hold), -1, 7, 0, 0, 0, HR_EINVAL },
	{ "poweroff_not_root", S(poweroff), 0, 0, 0, 0, 0, HR_EPERM },
	{ "ret_without_invocation", S(ret), 5, 0, 0, 0, 0, HR_ESTATE },
	{ "linux_write_unmapped_buffer", L_WRITE, 1, 0x10, 10, 0, 0, -EFAULT },
	{ "linux_write_kernel_buffer", L_WRITE, 1, KADDR, 16, 0, 0, -EFAULT },
	{ "linux_write_wrapping_length", L_WRITE, 1, 0x400000, -1, 0, 0, -EFAULT },
	{ "linux_write_bad_fd", L_WRITE, 7, (long) buf, 3, 0, 0, -EBADF },
	{ "linux_writev_unmapped_iov", L_WRITEV, 1, 0x10, 2, 0, 0, -EFAULT },
	{ "linux_writev_too_many", L_WRITEV, 1, (long) iov, 1000, 0, 0, -EINVAL },
	{ "linux_clock_gettime_unmapped", L_CLOCK, 0, 0x10, 0, 0, 0, -EFAULT },
	{ "linux_arch_prctl_unknown_code", L_ARCH_PRCTL, 0x9999, 0, 0, 0, 0, -EINVAL },
	{ "linux_arch_prctl_fs_in_kernel", L_ARCH_PRCTL, 0x1002, KADDR, 0, 0, 0, -EINVAL },
	{ "linux_arch_prctl_get_into_readonly", L_ARCH_PRCTL, 0x1003, HR_VA_BOOTINFO, 0, 0, 0,
	  -EFAULT },
	{ "linux_mmap_refused", L_MMAP, 0, 4096, 3, 0x22, -1, -ENOMEM },
};
/* clang-format on */

/* -1 in a thread argument means "our own thread". */
static long
self_or(long v)
{
	return v == -1 ? hr_thd_self() : v;
}

int
hr_main(void)
{
	int bad = 0;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kase *k = &cases[i];
		long a0 = k->nr == S(thd_switch) || k->nr == S(thd_wakeup) || k->nr == S(sched_hold)
				  ? self_or(k->a0)
				  : k->a0;
		long got = hr_sys(k->nr, a0, k->a1, k->a2, k->a3, k->a4);
		bad += !hr_report_eq(k->name, got, k->want);
	}
	/* the one call with a sixth argument: a per-caller share above the pool */
	bad += !hr_report_eq("comp_entry_share_above_pool",
			     hr_sys6(S(comp_entry), 0x401000, HR_VA_FREE, 4, 8192, 0, 5),
			     HR_EINVAL);
	hr_report("kernel_works_after_bad_calls",
		  hr_sys(L_WRITE, 1, (long) "", 0, 0, 0) == 0 && hr_thd_self() > 0,
		  "a plain call failed");
	return bad ? 1 : 0;
}
