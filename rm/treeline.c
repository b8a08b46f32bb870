/* treeline.c - the report lines of a booted tree (treeline.h). */
#include "treeline.h"

#include <stdio.h>

const char *
treeline_cpu(int root, uint32_t kind, uint32_t budget, uint32_t period, char *buf, size_t len)
{
	static const char *const kinds[] = { "best effort", "hard", "soft", "deferrable" };

	if (root)
		snprintf(buf, len, "whole CPU");
	else if (kind == 0 || kind > 3)
		snprintf(buf, len, "best effort");
	else
		snprintf(buf, len, "%s %u/%u", kinds[kind], budget, period);
	return buf;
}

int
treeline_subsystem(char *buf, size_t len, const char *name, unsigned depth, const char *parent,
		   const char *policy, const char *cpu, uint64_t kib)
{
	return snprintf(
		buf, len, "[%s] subsystem depth=%u parent=%s policy=%s cpu=%s memory=%lluKiB", name,
		depth, parent && parent[0] ? parent : "-", policy, cpu, (unsigned long long) kib);
}

int
treeline_component(char *buf, size_t len, const char *name, const char *parent, uint64_t kib)
{
	return snprintf(buf, len, "[%s] component parent=%s memory=%lluKiB", name,
			parent && parent[0] ? parent : "-", (unsigned long long) kib);
}
