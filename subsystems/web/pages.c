/* pages.c - the static pages (pages.h). */
#include "pages.h"

#include <string.h>

static const char index_html[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	"<title>HiRES</title></head><body>\n"
	"<h1>HiRES: hierarchical resource management</h1>\n"
	"<p>This page comes from a web server on lwIP in a subsystem of the HiRES "
	"distribution.  The subsystem has its own scheduler, memory and reservation manager, "
	"and the network ports and bandwidth its parent bound to it: the kernel delivers it "
	"only the frames for its ports and lets it send only from them, within its bandwidth, "
	"however deep in the tree it runs.</p>\n"
	"<p><a href=\"/status\">/status</a> shows its subtree live: each subsystem's "
	"reservation, CPU share, deadline misses and memory, and this server's packets; "
	"<a href=\"/status.json\">/status.json</a> is the same as JSON.</p>\n"
	"</body></html>\n";

static const char not_found[] = "no such page\n";

int
pages_static(const char *path, struct httpd_answer *a)
{
	if (strcmp(path, "/") && strcmp(path, "/index.html"))
		return 0;
	*a = (struct httpd_answer){ HTTP_OK, "text/html; charset=utf-8", index_html,
				    sizeof(index_html) - 1, 0 };
	return 1;
}

void
pages_not_found(struct httpd_answer *a)
{
	*a = (struct httpd_answer){ HTTP_NOT_FOUND, "text/plain", not_found, sizeof(not_found) - 1,
				    0 };
}
