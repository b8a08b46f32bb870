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
treeline_subsystem(char *buf, size_t len, unsigned depth, const char *parent, const char *policy,
		   const char *cpu, uint64_t kib)
{
	return snprintf(buf, len, "subsystem depth=%u parent=%s policy=%s cpu=%s memory=%lluKiB",
			depth, parent && parent[0] ? parent : "-", policy, cpu,
			(unsigned long long) kib);
}

int
treeline_component(char *buf, size_t len, const char *name, uint64_t kib)
{
	return snprintf(buf, len, "component %s memory=%lluKiB", name, (unsigned long long) kib);
}

int
treeline_tag(char *buf, size_t len, const char *const *path, unsigned n)
{
	int used = snprintf(buf, len, "[%s", n <= 1 ? "root" : path[1]);

	for (unsigned i = 2; i < n && used >= 0 && (size_t) used < len; i++)
		used += snprintf(buf + used, len - (size_t) used, "/%s", path[i]);
	if (used >= 0 && (size_t) used < len)
		used += snprintf(buf + used, len - (size_t) used, "] ");
	return used;
}
