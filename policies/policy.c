/*
 * policy.c - the table of shipped policies (policy.h); admit.c checks the same names.
 */
#include "policy.h"

#include <string.h>

static const struct policy *const policies[] = { &policy_fprr, &policy_ds, &policy_edf };

const struct policy *
policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (!strcmp(policies[i]->name, name))
			return policies[i];
	return NULL;
}
