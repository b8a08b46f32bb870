/*
 * cap.h - capability tables.  Every component has HR_CAP_MAX slots; slot 0 is never used
 * (HR_CAP_SELF names the caller instead).  A capability is a typed reference to a
 * component: COMP gives authority over a child, INVOKE lets threads migrate into the
 * target's entry with a badge the target chose to hand out.
 */
#ifndef CAP_H
#define CAP_H

#include <stdint.h>

enum cap_type {
	CAP_NONE = 0,
	CAP_COMP = 1,	/* authority over a child component */
	CAP_INVOKE = 2, /* thread-migration invocation into a component */
};

struct cap {
	uint8_t type; /* enum cap_type */
	uint8_t resv;
	uint16_t comp;	/* id of the component referred to */
	uint32_t gen;	/* that component's generation when the cap was made */
	uint64_t badge; /* INVOKE: value the callee receives */
};

struct cap_table {
	struct cap slot[128];
};

/* The capability in slot of the given type, or NULL if out of range, empty or mistyped. */
const struct cap *cap_lookup(const struct cap_table *t, uint64_t slot, enum cap_type type);
/* 0, or HR_EINVAL (slot out of range or 0) / HR_EEXIST (occupied). Checks only. */
long cap_free_slot(const struct cap_table *t, uint64_t slot);
/* Put c in slot, which cap_free_slot said is free: slot 0 stays empty for ever (the
 * invocation fast path, arch/x86_64/fastpath.S, finds no capability there by its type). */
void cap_put(struct cap_table *t, uint64_t slot, struct cap c);
/* 0, or HR_EINVAL / HR_ECAP (empty). */
long cap_delete(struct cap_table *t, uint64_t slot);

#endif
