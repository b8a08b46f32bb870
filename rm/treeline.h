/*
 * treeline.h - the line each node of a booted tree reports, as both sides write it: the
 * runtime when a subsystem starts or a parent builds a component (rm/subsys.c), and the
 * image builder for the tree it expects (images/out.c, build/images/NAME/tree.txt), so
 * the image tests can check that the tree that booted is the tree in the manifest.
 * Pure: only snprintf.
 */
#ifndef RM_TREELINE_H
#define RM_TREELINE_H

#include <stddef.h>
#include <stdint.h>

/* "whole CPU" (root), "best effort", or "<kind> <budget>/<period>". */
const char *treeline_cpu(int root, uint32_t kind, uint32_t budget, uint32_t period, char *buf,
			 size_t len);

/* "[name] subsystem depth=D parent=P policy=X cpu=C memory=NKiB" (parent "-" for none). */
int treeline_subsystem(char *buf, size_t len, const char *name, unsigned depth, const char *parent,
		       const char *policy, const char *cpu, uint64_t kib);

/* "[name] component parent=P memory=NKiB" */
int treeline_component(char *buf, size_t len, const char *name, const char *parent, uint64_t kib);

#endif
