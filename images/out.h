/*
 * out.h - the files of a built image, in OUT/NAME/: descriptor.dtb, grub.cfg (the GRUB
 * menu: kernel, root program first, other programs, descriptor) and image.env (what the
 * runner and mkiso.sh need).  images/mkiso.sh turns them into NAME.iso.
 */
#ifndef IMAGES_OUT_H
#define IMAGES_OUT_H

#include "manifest.h"

/*
 * Write img's files under dir/NAME/, leaving files whose content is unchanged untouched so
 * that make and mkiso.sh see them as up to date.  Exits through diag_fatal() on I/O errors.
 */
void out_image(const struct image *img, const char *dir, const char *manifest);

#endif
