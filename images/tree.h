/*
 * tree.h - walking and copying a subsystem tree (struct node, manifest.h).
 */
#ifndef IMAGES_TREE_H
#define IMAGES_TREE_H

#include "manifest.h"

#define TREE_MODULES_MAX 256 /* no more than the programs prog.c can know */

/* A deep copy of n and its subtree, hung under `parent`. */
struct node *tree_clone(const struct node *n, struct node *parent);

/* Set every node's depth from its parent's: subsystems one deeper, tasks and components level. */
void tree_depths(struct node *n);

/*
 * The distinct programs used strictly below subsystem s (subsystems and components at any
 * depth), in manifest order, into out[0..max).  Returns how many there are (may exceed max).
 */
unsigned tree_modules(const struct node *s, const char **out, unsigned max);

#endif
