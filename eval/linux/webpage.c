/*
 * webpage.c - writes the body of subsystems/web/pages.c's "/" to stdout, built and run on
 * the host by the top Makefile: busybox httpd in the web experiment's Linux guest serves
 * this file, so it has the same bytes as the HiRES server's page.
 */
#include "pages.h"

#include <stdio.h>

int
main(void)
{
	struct httpd_answer a;

	if (!pages_static("/", &a) || fwrite(a.body, 1, a.len, stdout) != a.len)
		return 1;
	return 0;
}
