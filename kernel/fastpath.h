/*
 * fastpath.h - short paths for the three hottest system calls, entered from the system-call
 * entry (kernel/arch/x86_64/entry.S) before the full dispatch, in assembly
 * (kernel/arch/x86_64/fastpath.S, on the layout below, which fastpath.c checks).
 *
 * Each either does the call or leaves everything as it was, and the entry runs the full
 * path (syscall_dispatch) on the same registers.  invoke and ret are done without saving
 * the thread's registers (the thread keeps running, in another component); thd_switch
 * after saving those the call keeps (docs/ABI.md: what a C call keeps).
 */
#ifndef KERNEL_FASTPATH_H
#define KERNEL_FASTPATH_H

/*
 * What fastpath.S reads of the C structures: offsets into struct thd (T_), struct inv_frame
 * (IV_), struct comp (C_) and struct cap (CP_), and the values it tests.  fastpath.c checks
 * each against the C layout at compile time, so a field that moves breaks the build there,
 * by name, instead of the fast path.
 */
#define T_FS	   688
#define T_ID	   696
#define T_DEPTH	   705
#define T_INV_TOP  708
#define T_COMP	   712
#define T_COMP_GEN 720
#define T_CHAIN	   744
#define T_INV	   880

#define IV_COMP 0
#define IV_GEN	8
#define IV_STK	12
#define IV_RIP	16
#define IV_RSP	24
#define IV_FS	32
#define IV_SIZE 40

#define C_ID	     0
#define C_IS_SCHED   2
#define C_STATE	     14
#define C_GEN	     4
#define C_PGTBL	     16
#define C_SUB	     32
#define C_CAPS	     40
#define C_ENTRY	     2384
#define C_STK_SP0    2392
#define C_STK_STRIDE 2400
#define C_STK_FS0    2408
#define C_STK_FREE   2416
#define C_STK_QUOTA  2432
#define C_STK_HELD   2433
#define C_DEPTH	     2632
#define C_SIZE	     2744

#define CP_TYPE	 0
#define CP_COMP	 2
#define CP_GEN	 4
#define CP_BADGE 8
#define CP_SIZE	 16

#define FP_INV_MAX	32 /* THD_INV_MAX */
#define FP_CAP_INVOKE	2  /* CAP_INVOKE */
#define FP_USER_END_BIT 47 /* HR_VA_USER_END is 1 << this */

/* What the fast switch reads besides: more of struct thd and struct comp, the scheduler
 * region's slots (RG_, SL_), the accounting clock (A_: struct schedtree_acct), and the
 * values it tests (abi/hr_syscall.h's carry a C suffix the assembler does not take). */
#define T_SIZE	      2192
#define T_STATE	      704
#define T_BLOCKER     706
#define T_HOME	      728
#define T_PREEMPTED   2160
#define C_PEVT	      3
#define C_EVT_PENDING 2633
#define C_REGION      2704
#define C_CS	      2712
#define C_UP_SLOT     2720
#define C_EVT	      2728
#define RG_SLOT	      8256
#define SL_STATE      4
#define SL_CONSUMED   8
#define SL_BLOCKER    16
#define SL_FLAGS      20
#define A_SINCE	      0
#define A_OPEN_MASK   136
#define A_STOLEN      144
#define A_NOWED	      152
#define A_WOKE_MASK   156
#define A_THROUGH     160
#define A_THRU_PATH   168

#define FP_THD_MAX    256  /* HR_THD_MAX */
#define FP_SW_BLOCK   0x01 /* HR_SW_* */
#define FP_SW_EVWAIT  0x02
#define FP_SW_TIMER   0x10
#define FP_TS_READY   1 /* HR_TS_* */
#define FP_TS_BLOCKED 2
#define FP_TS_EVWAIT  3
#define FP_SLOT_OWNED 0x1 /* HR_SLOT_* */
#define FP_SLOT_CS    0x2
#define FP_SLOT_EVT   0x4
#define CR0_TS	      0x8 /* CR0.TS: hw_fpu_trap */

#ifndef __ASSEMBLER__
#include <stdint.h>
/* The highest thread id the fast switch takes (fastpath.c): HR_THD_MAX - 1, and 0 while
 * tracing (kernel/trace.c), so that every switch takes the full path, which records it. */
extern uint64_t fast_switch_max;
#endif

#endif
