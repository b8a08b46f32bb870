/*
 * treeline.h - the line each node of a booted tree reports, as both sides write it: the
 * runtime when a subsystem starts or a parent builds a component (rm/subsys.c), and the
 * image builder for the tree it expects (images/out.c, build/images/NAME/tree.txt), so
 * the image tests can check that the tree that booted is the tree in the manifest, and
 * that each line came from the component it should have (the kernel's tag).
 * Pure: only snprintf.
 */
#ifndef RM_TREELINE_H
#define RM_TREELINE_H

#include <stddef.h>
#include <stdint.h>

/* "whole CPU" (root), "best effort", or "<kind> <budget>/<period>". */
const char *treeline_cpu(int root, uint32_t kind, uint32_t budget, uint32_t period, char *buf,
			 size_t len);

/*
 * "subsystem depth=D parent=P policy=X cpu=C memory=NKiB" (parent "-" for none), which the
 * subsystem writes itself, so the kernel's tag in front of it names the subsystem.
 */
int treeline_subsystem(char *buf, size_t len, unsigned depth, const char *parent,
		       const char *policy, const char *cpu, uint64_t kib);

/* "component NAME memory=NKiB", which the component's parent writes (the tag is its own). */
int treeline_component(char *buf, size_t len, const char *name, uint64_t kib);

/*
 * The tag the kernel puts before each line a component writes (kernel/console.c): "[root] "
 * for the root, else "[a/b/c] ", the names from the root's child down; path[0] is the root,
 * path[n-1] the writer.
 */
int treeline_tag(char *buf, size_t len, const char *const *path, unsigned n);

#endif
