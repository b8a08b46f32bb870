/* httpd.c - the web server on lwIP's raw TCP API (httpd.h). */
#include "httpd.h"

#include "lwip/priv/tcp_priv.h" /* tcp_active_pcbs, tcp_ticks: httpd_syn, httpd_lingering */
#include "lwip/sys.h"
#include "lwip/tcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLL_HALF_S 2 /* lwIP polls a connection every POLL_HALF_S * 500 ms */

/* A connection: the bytes of requests not yet answered, and the answer being sent. */
struct conn {
	struct tcp_pcb *pcb;
	char in[HTTP_HEAD_MAX];
	size_t inlen;
	char head[256]; /* the response head */
	size_t head_len, head_off;
	struct httpd_answer ans;
	size_t body_off;
	int sending, close_after;
	unsigned quiet_polls; /* polls without a byte from the client */
};

static struct conn conns[HTTPD_CONNS];
static struct httpd_stats stats;
static httpd_route route;
static struct tcp_pcb *listener;

const struct httpd_stats *
httpd_stats(void)
{
	return &stats;
}

static struct conn *
conn_new(struct tcp_pcb *pcb)
{
	for (unsigned i = 0; i < HTTPD_CONNS; i++)
		if (!conns[i].pcb) {
			memset(&conns[i], 0, sizeof(conns[i]));
			conns[i].pcb = pcb;
			stats.open++;
			stats.last_ms = sys_now();
			return &conns[i];
		}
	return 0;
}

static void
answer_done(struct conn *c)
{
	free(c->ans.owned);
	memset(&c->ans, 0, sizeof(c->ans));
	c->sending = 0;
}

/* Forget c: lwIP has freed its pcb or is about to. */
static void
conn_free(struct conn *c)
{
	answer_done(c);
	c->pcb = 0;
	stats.open--;
	stats.closed++;
	stats.last_ms = sys_now();
}

static void
detach(struct tcp_pcb *pcb)
{
	tcp_arg(pcb, 0);
	tcp_recv(pcb, 0);
	tcp_sent(pcb, 0);
	tcp_err(pcb, 0);
	tcp_poll(pcb, 0, 0);
}

/* Close c: ERR_ABRT if that meant aborting it (the caller must then return ERR_ABRT). */
static err_t
conn_close(struct conn *c)
{
	struct tcp_pcb *pcb = c->pcb;

	detach(pcb);
	conn_free(c);
	if (tcp_close(pcb) == ERR_OK)
		return ERR_OK;
	tcp_abort(pcb);
	return ERR_ABRT;
}

/* Hand lwIP as much of bytes[*off..len) as its send buffer takes. */
static int
push(struct conn *c, const char *bytes, size_t len, size_t *off)
{
	while (*off < len) {
		size_t room = tcp_sndbuf(c->pcb), n = len - *off;
		if (room == 0)
			return 0;
		if (n > room)
			n = room;
		if (n > 0xffff)
			n = 0xffff;
		if (tcp_write(c->pcb, bytes + *off, (u16_t) n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			return 0;
		*off += n;
		stats.bytes_out += n;
	}
	return 1;
}

/* Send what is left of the answer; when all of it is queued, take the next request or
 * close.  ERR_ABRT if c was aborted. */
static err_t serve(struct conn *c);

static err_t
send_more(struct conn *c)
{
	if (!push(c, c->head, c->head_len, &c->head_off) ||
	    !push(c, c->ans.body, c->ans.len, &c->body_off)) {
		tcp_output(c->pcb);
		return ERR_OK; /* the rest when lwIP says it has room (sent) */
	}
	tcp_output(c->pcb);
	answer_done(c);
	if (c->close_after)
		return conn_close(c);
	return serve(c);
}

/* Answer status with the route's body (status 200) or a short error page. */
static err_t
respond(struct conn *c, const struct http_req *r, int status)
{
	static const char *const bad = "the request was not understood\n";

	if (status == HTTP_OK) {
		route(r, &c->ans);
	} else {
		c->ans = (struct httpd_answer){ status, "text/plain", bad, strlen(bad), 0 };
		c->close_after = 1;
	}
	if (c->ans.status >= 400)
		stats.errors++;
	stats.requests++;
	c->close_after |= !r->keep_alive;
	c->head_len = http_head(c->head, sizeof(c->head), c->ans.status, r->minor, c->ans.type,
				c->ans.len, !c->close_after);
	c->head_off = c->body_off = 0;
	if (r->head)
		c->body_off = c->ans.len;
	c->sending = 1;
	return send_more(c);
}

/* Answer the oldest complete request, if any and if none is being sent. */
static err_t
serve(struct conn *c)
{
	struct http_req r;
	long n;

	if (c->sending || c->inlen == 0)
		return ERR_OK;
	n = http_parse(c->in, c->inlen, &r);
	if (n == HTTP_MORE)
		return ERR_OK;
	if (n < 0) {
		memset(&r, 0, sizeof(r)); /* HTTP/1.0, closes */
		c->inlen = 0;
		return respond(c, &r, (int) -n);
	}
	memmove(c->in, c->in + n, c->inlen - (size_t) n);
	c->inlen -= (size_t) n;
	return respond(c, &r, HTTP_OK);
}

static err_t
on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct conn *c = arg;

	if (!c) {
		if (p)
			pbuf_free(p);
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	if (!p || err != ERR_OK) {
		if (p)
			pbuf_free(p);
		return conn_close(c); /* the client closed its side */
	}
	/* keep what fits; a head that does not fit is HTTP_HEAD_TOO_LARGE (serve) */
	size_t room = sizeof(c->in) - c->inlen, n = p->tot_len < room ? p->tot_len : room;
	pbuf_copy_partial(p, c->in + c->inlen, (u16_t) n, 0);
	c->inlen += n;
	c->quiet_polls = 0;
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	return serve(c);
}

static err_t
on_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	struct conn *c = arg;

	(void) pcb;
	(void) len;
	return c && c->sending ? send_more(c) : ERR_OK;
}

static void
on_err(void *arg, err_t err)
{
	struct conn *c = arg;

	(void) err;
	if (c)
		conn_free(c); /* lwIP has freed the pcb */
}

static err_t
on_poll(void *arg, struct tcp_pcb *pcb)
{
	struct conn *c = arg;

	(void) pcb;
	if (!c)
		return ERR_OK;
	if (c->sending)
		return send_more(c);
	if (++c->quiet_polls * POLL_HALF_S >= HTTPD_IDLE_S * 2) {
		stats.idle++;
		return conn_close(c);
	}
	return ERR_OK;
}

/*
 * All connections are taken: close the one that has been quiet longest without a request
 * to answer, so that clients holding connections open without asking anything cannot keep
 * others out.  1 if one was closed.
 */
static int
evict_idle(void)
{
	struct conn *quietest = 0;

	for (unsigned i = 0; i < HTTPD_CONNS; i++) {
		struct conn *c = &conns[i];
		if (c->pcb && !c->sending && (!quietest || c->quiet_polls > quietest->quiet_polls))
			quietest = c;
	}
	if (!quietest)
		return 0;
	struct tcp_pcb *pcb = quietest->pcb;
	detach(pcb);
	conn_free(quietest);
	stats.idle++;
	tcp_abort(pcb);
	return 1;
}

static err_t
on_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct conn *c;

	(void) arg;
	if (err != ERR_OK || !pcb)
		return ERR_VAL;
	if (!(c = conn_new(pcb)) && evict_idle())
		c = conn_new(pcb);
	if (!c) {
		stats.refused++;
		tcp_abort(pcb);
		return ERR_ABRT;
	}
	stats.accepted++;
	tcp_arg(pcb, c);
	tcp_recv(pcb, on_recv);
	tcp_sent(pcb, on_sent);
	tcp_err(pcb, on_err);
	tcp_poll(pcb, on_poll, POLL_HALF_S);
	tcp_nagle_disable(pcb);
	return ERR_OK;
}

unsigned
httpd_lingering(void)
{
	unsigned n = 0;

	for (struct tcp_pcb *p = tcp_active_pcbs; p; p = p->next)
		n += listener && p->local_port == listener->local_port;
	return n;
}

void
httpd_syn(uint16_t port)
{
	struct tcp_pcb *oldest = 0;
	unsigned pending = 0;

	if (!listener || port != listener->local_port)
		return;
	for (struct tcp_pcb *p = tcp_active_pcbs; p; p = p->next)
		if (p->state == SYN_RCVD && p->local_port == port) {
			pending++;
			if (!oldest ||
			    (u32_t) (tcp_ticks - p->tmr) >= (u32_t) (tcp_ticks - oldest->tmr))
				oldest = p;
		}
	if (oldest && pending >= HTTPD_BACKLOG) {
		stats.syn_dropped++;
		tcp_abort(oldest);
	}
}

int
httpd_start(uint16_t port, httpd_route r)
{
	struct tcp_pcb *pcb = tcp_new(), *l;

	route = r;
	if (!pcb || tcp_bind(pcb, IP_ADDR_ANY, port) != ERR_OK) {
		printf("httpd: cannot bind port %u\n", port);
		return -1;
	}
	if (!(l = tcp_listen_with_backlog(pcb, HTTPD_BACKLOG))) {
		printf("httpd: cannot listen on port %u\n", port);
		return -1;
	}
	tcp_accept(l, on_accept);
	listener = l;
	return 0;
}
