/*
 * http.h - HTTP/1.0 and 1.1 requests and response heads, pure (no lwIP, no kernel): the part
 * of the web server that reads what an untrusted client sends, host-tested
 * (subsystems/web/test/http_test.c).
 *
 * We serve GET and HEAD of pages built into the program.  A request head is at most
 * HTTP_HEAD_MAX bytes, lines end in CRLF, and a request has no body.  Anything else gets a
 * status from this closed set and the connection is closed after the answer.
 */
#ifndef WEB_HTTP_H
#define WEB_HTTP_H

#include <stddef.h>

#define HTTP_HEAD_MAX 2048 /* a request head, request line and headers, with its blank line */
#define HTTP_PATH_MAX 128  /* the path of a request, with its NUL */

enum http_status {
	HTTP_OK = 200,
	HTTP_BAD_REQUEST = 400,
	HTTP_NOT_FOUND = 404,
	HTTP_URI_TOO_LONG = 414,
	HTTP_HEAD_TOO_LARGE = 431,
	HTTP_NOT_IMPLEMENTED = 501, /* a well-formed method other than GET and HEAD */
	HTTP_VERSION = 505,	    /* HTTP/2 and later, or HTTP/0.9 */
};

struct http_req {
	char path[HTTP_PATH_MAX];
	int head;	/* HEAD: the answer has no body */
	int keep_alive; /* the client keeps the connection: HTTP/1.1 unless "Connection:
			 * close", HTTP/1.0 only with "Connection: keep-alive" */
	int minor;	/* HTTP/1.minor */
};

#define HTTP_MORE 0 /* http_parse: the head is not complete yet */

/*
 * Read the request head at the start of buf[0..len).  Returns HTTP_MORE while the head may
 * still be completed (no blank line yet, len < HTTP_HEAD_MAX, and what came so far can
 * begin a request: a token, then a space, and no control bytes); the length of the head,
 * blank line included, when it is complete and well-formed (*r filled in); or minus an
 * enum http_status when it is not (the caller answers that and closes).
 */
long http_parse(const char *buf, size_t len, struct http_req *r);

/* The reason phrase of a status ("Not Found"); "Error" for a code not in the set. */
const char *http_reason(int status);

/*
 * A response head into buf[0..cap): status line, Content-Type, Content-Length of the body,
 * Connection (keep-alive or close), blank line.  HTTP/1.1 for a 1.1 request, else 1.0.
 * Returns its length, or 0 if cap is too small.
 */
size_t http_head(char *buf, size_t cap, int status, int minor, const char *type, size_t body_len,
		 int keep_alive);

#endif
