/*
 * pi.h - the parent interface as a table: one row per operation a child invokes on its
 * parent (hr_invoke(HR_CAP_PARENT, op, a1, a2, a3)).  Everything else comes from it: the
 * PI_* numbers (parent.h), the client stubs pi_<name>() (parent.c), the server's decoding,
 * dispatch to pi_op_<name>() and registration (parent.c), and the section docs/PARENT.md
 * must have for each row (tests/run.sh, tier docs).
 */
#ifndef RM_PI_H
#define RM_PI_H

#include <stdint.h>

/*
 * X(number, NAME, name, nargs, (kind, arg, ...), "meaning").  Numbers are 1 .. and dense, in
 * order (parent.c checks): operations from PI_PROGRAM up are the programs' own.  Each
 * argument is a kind and a name; its kind says the client's type, how many of the three
 * registers a1..a3 it takes and how the server decodes it (below).  Rows are ABI: a child
 * built against an older table calls by number, so a row is never renumbered.
 */
#define PI_OPS(X)                                                                                 \
	X(1, CONNECT, connect, 1, (name24, name),                                                 \
	  "an INVOKE capability to the sibling component called name: its slot")                  \
	X(2, YIELD, yield, 0, (), "a component's first thread lets others at its priority run")   \
	X(3, SLEEP, sleep, 1, (u64, tsc), "sleep in the parent until the TSC reaches tsc")        \
	X(4, RES_CREATE, res_create, 2, (u32, kind, u32, family),                                 \
	  "a new reservation of ours of kind (RES_HARD..) and family (RES_CPU..): its id")        \
	X(5, RES_DELETE, res_delete, 1, (long, id), "delete reservation id: what was bound goes") \
	X(6, RES_BIND, res_bind, 3, (long, id, u64, x, u64, y),                                   \
	  "bind reservation id to x y: pages | budget period | port kbps")                        \
	X(7, RES_GET, res_get, 1, (long, id), "what reservation id holds: pages | budget | kbps") \
	X(8, MEM_GROW, mem_grow, 1, (u64, pages),                                                 \
	  "pages more of our memory reservation, on top of our window: their address")            \
	X(9, MEM_RETURN, mem_return, 2, (u64, va, u64, pages),                                    \
	  "give back pages of our window at va")                                                  \
	X(10, MEM_SHARE, mem_share, 2, (name16, name, u64, pages),                                \
	  "pages fresh pages shared with the sibling called name, at one address in both")        \
	X(11, EVENTS, events, 0, (), "our scheduler's next event: (type << 32) | tid, or 0")

/*
 * Argument kinds: PI_CT_k is the type the client passes and the handler receives, PI_NREG_k
 * the registers it takes, PI_ST_k what the server decodes into and PI_SARG_k(v) how that is
 * handed to the handler (parent.c has pi_put_k and pi_get_k: a register out of the type's
 * range is HR_EINVAL, before the handler runs).
 */
struct pi_name {
	char s[25]; /* up to 24 bytes and a 0 */
};
#define PI_CT_long	  long
#define PI_CT_u64	  uint64_t
#define PI_CT_u32	  uint32_t
#define PI_CT_name24	  const char * /* 24 bytes in three registers */
#define PI_CT_name16	  const char * /* 16 bytes in two: leaves a register */
#define PI_NREG_long	  1
#define PI_NREG_u64	  1
#define PI_NREG_u32	  1
#define PI_NREG_name24	  3
#define PI_NREG_name16	  2
#define PI_ST_long	  long
#define PI_ST_u64	  uint64_t
#define PI_ST_u32	  uint32_t
#define PI_ST_name24	  struct pi_name
#define PI_ST_name16	  struct pi_name
#define PI_SARG_long(v)	  (v)
#define PI_SARG_u64(v)	  (v)
#define PI_SARG_u32(v)	  (v)
#define PI_SARG_name24(v) ((v).s)
#define PI_SARG_name16(v) ((v).s)

/* A row's arguments as parameters: PI_PARAMS_n (the client's), PI_HPARAMS_n (after the
 * handler's struct child *). */
#define PI_PARAMS_0()			    void
#define PI_PARAMS_1(k1, n1)		    PI_CT_##k1 n1
#define PI_PARAMS_2(k1, n1, k2, n2)	    PI_CT_##k1 n1, PI_CT_##k2 n2
#define PI_PARAMS_3(k1, n1, k2, n2, k3, n3) PI_CT_##k1 n1, PI_CT_##k2 n2, PI_CT_##k3 n3
#define PI_HPARAMS_0()
#define PI_HPARAMS_1(...) , PI_PARAMS_1(__VA_ARGS__)
#define PI_HPARAMS_2(...) , PI_PARAMS_2(__VA_ARGS__)
#define PI_HPARAMS_3(...) , PI_PARAMS_3(__VA_ARGS__)
/* The registers a row's arguments take: at most the three an invocation carries. */
#define PI_NREGS_0()			   0
#define PI_NREGS_1(k1, n1)		   PI_NREG_##k1
#define PI_NREGS_2(k1, n1, k2, n2)	   (PI_NREG_##k1 + PI_NREG_##k2)
#define PI_NREGS_3(k1, n1, k2, n2, k3, n3) (PI_NREG_##k1 + PI_NREG_##k2 + PI_NREG_##k3)

#define PI_CHECK_REGS(num, NAME, name, nargs, args, doc) \
	_Static_assert(PI_NREGS_##nargs args <= 3, #name ": at most three registers");
PI_OPS(PI_CHECK_REGS)
#undef PI_CHECK_REGS

#endif
