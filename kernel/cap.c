/* cap.c - capability table operations; pure, tested on the host (kernel/test/cap_test.c). */
#include "cap.h"
#include "abi/hr_errno.h"
#include "abi/hr_syscall.h"

_Static_assert(sizeof(((struct cap_table *) 0)->slot) / sizeof(struct cap) == HR_CAP_MAX,
	       "cap table size is HR_CAP_MAX");

const struct cap *
cap_lookup(const struct cap_table *t, uint64_t slot, enum cap_type type)
{
	if (slot == HR_CAP_SELF || slot >= HR_CAP_MAX)
		return 0;
	if (t->slot[slot].type != type || type == CAP_NONE)
		return 0;
	return &t->slot[slot];
}

long
cap_free_slot(const struct cap_table *t, uint64_t slot)
{
	if (slot == HR_CAP_SELF || slot >= HR_CAP_MAX)
		return HR_EINVAL;
	return t->slot[slot].type == CAP_NONE ? 0 : HR_EEXIST;
}

void
cap_put(struct cap_table *t, uint64_t slot, struct cap c)
{
	t->slot[slot] = c;
}

long
cap_delete(struct cap_table *t, uint64_t slot)
{
	if (slot == HR_CAP_SELF || slot >= HR_CAP_MAX)
		return HR_EINVAL;
	if (t->slot[slot].type == CAP_NONE)
		return HR_ECAP;
	t->slot[slot] = (struct cap){ 0 };
	return 0;
}
