/* http.c - request heads and response heads (http.h). */
#include "http.h"

#include <stdio.h>
#include <string.h>

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Does s[0..n) equal word, ignoring case? */
static int
same(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n && word[i]; i++)
		if (lower((unsigned char) s[i]) != lower((unsigned char) word[i]))
			return 0;
	return i == n && !word[i];
}

/* The end of the head (index after its blank line), or 0 if there is none yet. */
static size_t
head_end(const char *buf, size_t len)
{
	for (size_t i = 3; i < len; i++)
		if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' &&
		    buf[i - 3] == '\r')
			return i + 1;
	return 0;
}

/* A token of a method or header name: letters, digits and the few marks RFC 9110 allows. */
static int
tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The request line "METHOD SP PATH SP HTTP/1.x" in line[0..n): 0 or minus a status. */
static long
request_line(const char *line, size_t n, struct http_req *r)
{
	size_t m = 0, p, plen;

	while (m < n && tchar((unsigned char) line[m]))
		m++;
	if (m == 0 || m >= n || line[m] != ' ')
		return -HTTP_BAD_REQUEST;
	p = m + 1;
	for (plen = 0; p + plen < n && line[p + plen] != ' '; plen++)
		if ((unsigned char) line[p + plen] <= ' ' || (unsigned char) line[p + plen] >= 127)
			return -HTTP_BAD_REQUEST;
	if (plen == 0 || line[p] != '/' || p + plen >= n)
		return -HTTP_BAD_REQUEST;
	const char *v = line + p + plen + 1;
	size_t vlen = n - (p + plen + 1);
	if (vlen != 8 || memcmp(v, "HTTP/", 5) || v[6] != '.' || v[5] < '0' || v[5] > '9' ||
	    v[7] < '0' || v[7] > '9')
		return -HTTP_BAD_REQUEST;
	if (v[5] != '1')
		return -HTTP_VERSION;
	if (plen >= HTTP_PATH_MAX)
		return -HTTP_URI_TOO_LONG;
	if (!(m == 3 && !memcmp(line, "GET", 3)) && !(m == 4 && !memcmp(line, "HEAD", 4)))
		return -HTTP_NOT_IMPLEMENTED;
	memcpy(r->path, line + p, plen);
	r->path[plen] = 0;
	r->head = m == 4;
	r->minor = v[7] - '0';
	r->keep_alive = r->minor >= 1;
	return 0;
}

/* One header line "Name: value" in line[0..n): 0 or minus a status. */
static long
header_line(const char *line, size_t n, struct http_req *r)
{
	size_t k = 0, v;

	while (k < n && tchar((unsigned char) line[k]))
		k++;
	if (k == 0 || k >= n || line[k] != ':')
		return -HTTP_BAD_REQUEST;
	for (size_t i = k + 1; i < n; i++)
		if (((unsigned char) line[i] < ' ' && line[i] != '\t') || line[i] == 127)
			return -HTTP_BAD_REQUEST;
	for (v = k + 1; v < n && (line[v] == ' ' || line[v] == '\t'); v++)
		;
	size_t e = n;
	while (e > v && (line[e - 1] == ' ' || line[e - 1] == '\t'))
		e--;
	if (same(line, k, "connection")) {
		if (same(line + v, e - v, "close"))
			r->keep_alive = 0;
		else if (same(line + v, e - v, "keep-alive"))
			r->keep_alive = 1;
	} else if (same(line, k, "transfer-encoding")) {
		return -HTTP_BAD_REQUEST; /* a body: we take none */
	} else if (same(line, k, "content-length")) {
		if (!same(line + v, e - v, "0"))
			return -HTTP_BAD_REQUEST;
	}
	return 0;
}

/* Can buf[0..len), a head not yet complete, still begin a request?  A method is a token
 * and a head is text: a client that sends anything else is answered at once rather than
 * when it stops sending. */
static int
may_begin(const char *buf, size_t len)
{
	size_t m = 0;

	while (m < len && tchar((unsigned char) buf[m]))
		m++;
	if (m < len && (m == 0 || buf[m] != ' '))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char) buf[i] < ' ' && buf[i] != '\r' && buf[i] != '\n' &&
		     buf[i] != '\t') ||
		    (unsigned char) buf[i] >= 127)
			return 0;
	return 1;
}

long
http_parse(const char *buf, size_t len, struct http_req *r)
{
	size_t end = head_end(buf, len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX);
	size_t at = 0;

	if (!end && !may_begin(buf, len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX))
		return -HTTP_BAD_REQUEST;
	if (!end)
		return len >= HTTP_HEAD_MAX ? -HTTP_HEAD_TOO_LARGE : HTTP_MORE;
	memset(r, 0, sizeof(*r));
	for (int first = 1; at < end - 2; first = 0) {
		const char *nl = memchr(buf + at, '\n', end - at);
		size_t n = (size_t) (nl - (buf + at)); /* there is one: end follows a CRLF */
		if (n == 0 || buf[at + n - 1] != '\r')
			return -HTTP_BAD_REQUEST; /* a bare LF */
		long e = first ? request_line(buf + at, n - 1, r) : header_line(buf + at, n - 1, r);
		if (e)
			return e;
		at += n + 1;
	}
	return at == end - 2 ? (long) end : -HTTP_BAD_REQUEST;
}

const char *
http_reason(int status)
{
	switch (status) {
	case HTTP_OK:
		return "OK";
	case HTTP_BAD_REQUEST:
		return "Bad Request";
	case HTTP_NOT_FOUND:
		return "Not Found";
	case HTTP_URI_TOO_LONG:
		return "URI Too Long";
	case HTTP_HEAD_TOO_LARGE:
		return "Request Header Fields Too Large";
	case HTTP_NOT_IMPLEMENTED:
		return "Not Implemented";
	case HTTP_VERSION:
		return "HTTP Version Not Supported";
	default:
		return "Error";
	}
}

size_t
http_head(char *buf, size_t cap, int status, int minor, const char *type, size_t body_len,
	  int keep_alive)
{
	int n = snprintf(buf, cap,
			 "HTTP/1.%d %d %s\r\nServer: hires-web\r\nContent-Type: %s\r\n"
			 "Content-Length: %zu\r\nConnection: %s\r\n\r\n",
			 minor >= 1 ? 1 : 0, status, http_reason(status), type, body_len,
			 keep_alive ? "keep-alive" : "close");
	return n > 0 && (size_t) n < cap ? (size_t) n : 0;
}
