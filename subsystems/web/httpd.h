/*
 * httpd.h - the web server on lwIP's raw TCP API: HTTP/1.0 and 1.1 with keep-alive, answers
 * from a route function (pages.c), at most HTTPD_CONNS connections at once.
 *
 * A client is untrusted: its request head is parsed by http.c within HTTP_HEAD_MAX bytes,
 * a malformed one is answered (400 and kin) and the connection closed; a connection that
 * sends nothing for HTTPD_IDLE_S is closed, and so is the quietest such connection when all
 * HTTPD_CONNS are taken and another arrives (only if every one is busy answering is the new
 * one refused, with a reset).  Half-open connections (a SYN flood) are bounded by lwIP's
 * listen backlog, and a SYN that finds it full pushes the oldest out (httpd_syn: lwIP has
 * no SYN cookies, and would otherwise drop every SYN, a real client's too, until the
 * flood's time out after 20 s).  Nothing a client sends makes the server allocate more
 * than one answer per connection.
 */
#ifndef WEB_HTTPD_H
#define WEB_HTTPD_H

#include <stddef.h>
#include <stdint.h>

#include "http.h"

#define HTTPD_CONNS   32 /* connections served at once */
#define HTTPD_IDLE_S  4	 /* seconds a connection may wait without a whole request */
#define HTTPD_BACKLOG 32 /* connections half open (SYN received) at once */

/* An answer: a body of len bytes of a type, with a status.  owned: a malloc'd body the
 * server frees once it is sent (NULL for a body that lives for ever). */
struct httpd_answer {
	int status;
	const char *type;
	const char *body;
	size_t len;
	char *owned;
};
typedef void (*httpd_route)(const struct http_req *r, struct httpd_answer *a);

struct httpd_stats {
	uint64_t accepted;    /* connections */
	uint64_t refused;     /* beyond HTTPD_CONNS, reset */
	uint64_t closed;      /* connections that ended, for whatever reason */
	uint64_t idle;	      /* of them, closed while quiet: after HTTPD_IDLE_S, or for another */
	uint64_t syn_dropped; /* half-open connections pushed out by a newer SYN */
	uint64_t requests;    /* answered */
	uint64_t errors;      /* of them, with a 4xx or 5xx status */
	uint64_t bytes_out;   /* response bytes handed to lwIP */
	uint32_t open;	      /* connections now */
	uint32_t last_ms;     /* sys_now() when one last opened or ended */
};

/* Listen on port (lwIP must be up): 0, or -1 (printed). */
int httpd_start(uint16_t port, httpd_route route);
const struct httpd_stats *httpd_stats(void);
/* Connections we closed that lwIP still carries because the client has not closed its
 * side yet: what we sent last (our FIN) may still wait in our transmit ring or for a
 * retransmission, which only a server that keeps running sends. */
unsigned httpd_lingering(void);
/* A SYN for port arrives (before lwIP sees it: ringif.h): make room in the backlog. */
void httpd_syn(uint16_t port);

#endif
