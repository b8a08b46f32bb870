/*
 * pages.h - the pages built into the web server, the same on HiRES and on the Linux guest
 * of the evaluation (which serves "/" too), so both answer with the same bytes.
 */
#ifndef WEB_PAGES_H
#define WEB_PAGES_H

#include "httpd.h"

/* 1 and *a filled in if path is one of the static pages ("/", "/index.html"), else 0. */
int pages_static(const char *path, struct httpd_answer *a);
/* The 404 answer. */
void pages_not_found(struct httpd_answer *a);

#endif
