/*
 * admission.h - CPU admission over a whole image: each subsystem's scheduler must be able to
 * serve the guaranteed (hard and deferrable) reservations of its child subsystems and
 * tasks out of its own supply.  The test itself is policies/admit.c, the one rm/res.c
 * runs at run time.
 */
#ifndef IMAGES_ADMISSION_H
#define IMAGES_ADMISSION_H

#include "manifest.h"

#include <stddef.h>

/*
 * Check every subsystem of img, in manifest order, with diag_error() at the cpu line of
 * the first child that cannot be admitted.  Supplies: the root has the whole CPU; a
 * subsystem with a hard or deferrable reservation has that; any other has none.
 */
void admission_check(const struct image *img);

/* "best effort", "hard 4/8", "soft 1/10", "deferrable 2/5" into buf. */
const char *admission_describe(const struct cpu_res *r, char *buf, size_t len);

#endif
