/*
 * sweep.h - from the images a manifest declares to the images the builder builds.  An image
 * with `depth-sweep = <LO HI>` stands for LO..HI generated images in which its `repeat`
 * subsystem becomes a chain of D nested copies of itself (docs/MANIFEST.md).
 */
#ifndef IMAGES_SWEEP_H
#define IMAGES_SWEEP_H

#include "manifest.h"

/*
 * The buildable images of `declared` (manifest.c's list, bad images left out) in manifest
 * order: each plain image itself, each sweep replaced by its generated images.  Checks
 * generated names (length, clashes with other images or siblings) with diag_error() at the
 * template's lines.
 */
struct image *sweep_images(struct image *declared);

#endif
