/*
 * blob.h - the boot descriptor: the compact devicetree blob an image carries as its
 * `descriptor` module.  Its root node is the image's root subsystem; rm/ hands each child
 * its subtree.  Property by property it is listed in docs/MANIFEST.md.
 */
#ifndef IMAGES_BLOB_H
#define IMAGES_BLOB_H

#include "manifest.h"

#include <stddef.h>

/*
 * The descriptor of `img` (a malloc'd blob of *size bytes).  Its size depends only on the
 * tree's shape, names and strings, never on the numbers in it, so memory.c may size it
 * before the outer sweep copies' memory is known.
 */
void *blob_build(const struct image *img, size_t *size);

#endif
