/*
 * image.h - the checks that need a whole buildable image: depth, boot modules, descriptor
 * size, memory (memory.c) and CPU admission (admission.c).
 */
#ifndef IMAGES_IMAGE_H
#define IMAGES_IMAGE_H

#include "manifest.h"

/* Check img (not a sweep template), recording problems with diag_error(). */
void image_check(struct image *img);

/*
 * Every program the image boots into out[0..max) (max >= 1): the root's first, then the
 * others in manifest order.  Returns how many there are.
 */
unsigned image_programs(const struct image *img, const char **out, unsigned max);

#endif
