/*
 * alloc.h - memory for the builder's data.  The builder keeps what it reads until it exits,
 * so nothing is freed but scratch buffers; running out of memory ends the run.
 */
#ifndef IMAGES_ALLOC_H
#define IMAGES_ALLOC_H

#include <stddef.h>

/* Zeroed memory for n objects of `size` bytes; exits through diag_fatal() if there is none. */
void *alloc_zero(size_t n, size_t size);

/* realloc() that exits through diag_fatal() instead of failing. */
void *alloc_resize(void *p, size_t size);

/* A NUL-terminated copy of s[0..len). */
char *alloc_string(const char *s, size_t len);

#endif
