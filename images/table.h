/*
 * table.h - the summary a successful build prints: one row per node of an image with its
 * depth, policy, CPU reservation and memory.
 */
#ifndef IMAGES_TABLE_H
#define IMAGES_TABLE_H

#include "manifest.h"

#include <stdio.h>

/* Print img's table to f (memory.c must have sized the image). */
void table_print(const struct image *img, FILE *f);

#endif
