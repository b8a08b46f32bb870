/*
 * fastpath.c - the fast paths' view of the C structures, checked.  invoke, ret and
 * thd_switch have their common case in assembly (arch/x86_64/fastpath.S, seL4's fastpath:
 * kernel/fastpath.h), which reads the structures through fastpath.h's offsets and tests
 * fastpath.h's values; each is checked here against C at compile time, so that a field
 * that moves breaks the build, by name, instead of a fast path.
 */
#include "fastpath.h"
#include "arch/x86_64/asm.h"
#include "comp.h"
#include "thd.h"
#include "schedtree.h"
#include "trace.h"

_Static_assert(HR_SYS_invoke == HR_SYSNO_INVOKE && HR_SYS_ret == HR_SYSNO_RET &&
		       HR_SYS_thd_switch == HR_SYSNO_THD_SWITCH,
	       "entry.S tests these numbers");

/* each field at its offset, with the size fastpath.S reads it by (an array: all of it) */
#define FP_AT(type, field, off, size)                                        \
	_Static_assert(offsetof(struct type, field) == (off) &&              \
			       sizeof(((struct type *) 0)->field) == (size), \
		       #type "." #field ": fastpath.h")
FP_AT(thd, fs, T_FS, 8);
FP_AT(thd, id, T_ID, 2);
FP_AT(thd, depth, T_DEPTH, 1);
FP_AT(thd, inv_top, T_INV_TOP, 2);
FP_AT(thd, comp, T_COMP, 8);
FP_AT(thd, comp_gen, T_COMP_GEN, 4);
FP_AT(thd, chain, T_CHAIN, 8 * (HR_DEPTH_MAX + 1));
FP_AT(thd, inv, T_INV, IV_SIZE *FP_INV_MAX);
FP_AT(inv_frame, comp, IV_COMP, 8);
FP_AT(inv_frame, gen, IV_GEN, 4);
FP_AT(inv_frame, stk, IV_STK, 4);
FP_AT(inv_frame, rip, IV_RIP, 8);
FP_AT(inv_frame, rsp, IV_RSP, 8);
FP_AT(inv_frame, fs, IV_FS, 8);
FP_AT(comp, id, C_ID, 2);
FP_AT(comp, state, C_STATE, 1);
FP_AT(comp, is_sched, C_IS_SCHED, 1);
FP_AT(comp, gen, C_GEN, 4);
FP_AT(comp, pgtbl, C_PGTBL, 8);
FP_AT(comp, sub, C_SUB, 8);
FP_AT(comp, caps, C_CAPS, CP_SIZE *HR_CAP_MAX);
FP_AT(comp, entry, C_ENTRY, 8);
FP_AT(comp, stk_sp0, C_STK_SP0, 8);
FP_AT(comp, stk_stride, C_STK_STRIDE, 8);
FP_AT(comp, stk_fs0, C_STK_FS0, 8);
FP_AT(comp, stk_free, C_STK_FREE, 8);
FP_AT(comp, stk_quota, C_STK_QUOTA, 1);
FP_AT(comp, stk_held, C_STK_HELD, HR_COMP_MAX);
FP_AT(comp, depth, C_DEPTH, 1);
FP_AT(cap, type, CP_TYPE, 1);
FP_AT(cap, comp, CP_COMP, 2);
FP_AT(cap, gen, CP_GEN, 4);
FP_AT(cap, badge, CP_BADGE, 8);
_Static_assert(sizeof(struct inv_frame) == IV_SIZE && sizeof(struct comp) == C_SIZE &&
		       sizeof(struct cap) == CP_SIZE,
	       "fastpath.S indexes inv[], comps[] and caps.slot[] by these sizes: fastpath.h");
_Static_assert(FP_INV_MAX == THD_INV_MAX && FP_CAP_INVOKE == CAP_INVOKE &&
		       HR_CS_LIVE == COMP_LIVE && COMP_STACKS_MAX <= 64 &&
		       HR_VA_USER_END == 1ull << FP_USER_END_BIT,
	       "fastpath.S: the values it tests (a stack is a bit of one word)");
_Static_assert(IV_SIZE *FP_INV_MAX <= UINT16_MAX, "a full inv[] in bytes fits thd.inv_top");

/* ... and the fast switch (fastpath.S) */
FP_AT(thd, regs, 0, R_SIZE);
FP_AT(thd, state, T_STATE, 1);
FP_AT(thd, blocker, T_BLOCKER, 1);
FP_AT(thd, home, T_HOME, 8);
FP_AT(thd, preempted, T_PREEMPTED, 8);
FP_AT(comp, pevt, C_PEVT, 1);
FP_AT(comp, evt_pending, C_EVT_PENDING, 1);
FP_AT(comp, region, C_REGION, 8);
FP_AT(comp, cs, C_CS, 8);
FP_AT(comp, up_slot, C_UP_SLOT, 8);
FP_AT(comp, evt, C_EVT, 8);
FP_AT(hr_sched_region, slot, RG_SLOT, 32 * HR_THD_MAX);
FP_AT(hr_slot, state, SL_STATE, 4);
FP_AT(hr_slot, consumed, SL_CONSUMED, 8);
FP_AT(hr_slot, blocker, SL_BLOCKER, 4);
FP_AT(hr_slot, flags, SL_FLAGS, 4);
FP_AT(schedtree_acct, since, A_SINCE, 8 * (HR_DEPTH_MAX + 1));
FP_AT(schedtree_acct, open_mask, A_OPEN_MASK, 4);
FP_AT(schedtree_acct, stolen, A_STOLEN, 8);
FP_AT(schedtree_acct, nowed, A_NOWED, 4);
FP_AT(schedtree_acct, woke_mask, A_WOKE_MASK, 4);
FP_AT(schedtree_acct, through, A_THROUGH, 4);
FP_AT(schedtree_acct, through_path, A_THRU_PATH, 16);
#undef FP_AT
_Static_assert(sizeof(struct thd) == T_SIZE && sizeof(struct hr_slot) == 32 &&
		       sizeof(hw_ts_set) == 4 && sizeof(cur->depth) == 1,
	       "fastpath.S: thds[] by T_SIZE, a slot by shl 5, the flags it compares");
_Static_assert(FP_THD_MAX == HR_THD_MAX && FP_SW_BLOCK == HR_SW_BLOCK &&
		       FP_SW_EVWAIT == HR_SW_EVWAIT && FP_SW_TIMER == HR_SW_TIMER &&
		       FP_TS_READY == HR_TS_READY && FP_TS_BLOCKED == HR_TS_BLOCKED &&
		       FP_TS_EVWAIT == HR_TS_EVWAIT && FP_SLOT_OWNED == HR_SLOT_OWNED &&
		       FP_SLOT_CS == HR_SLOT_CS && FP_SLOT_EVT == HR_SLOT_EVT,
	       "fastpath.S: the values it tests");
/* one 16-bit compare tests is_sched == 1 and pevt == 0 (both are only ever 0 or 1) */
_Static_assert(C_PEVT == C_IS_SCHED + 1, "fastpath.S: is_sched and pevt are neighbours");
/* one 16-bit compare tests state == LIVE and behind == 0 where a thread enters a component
 * (behind is a bit a record, 0 when none marked it) */
_Static_assert(offsetof(struct comp, behind) == C_STATE + 1,
	       "fastpath.S: state and behind are neighbours");

uint64_t fast_switch_max = FP_THD_MAX - 1;
/* "how <= EVWAIT" is "BLOCK, EVWAIT or neither", as the other flags it keeps are higher */
_Static_assert(HR_SW_BLOCK == 1 && HR_SW_EVWAIT == 2 && HR_SW_TIMER > HR_SW_EVWAIT,
	       "fastpath.S: one comparison tests the flags");
