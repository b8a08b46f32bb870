/* client.c - the web experiment's load client (client.h). */
#include "client.h"

#include "lwip/tcp.h"

#include <stdlib.h>
#include <string.h>

struct slot {
	struct tcp_pcb *pcb;
	uint64_t began;
	unsigned got; /* bytes of the answer */
	int ok;	      /* the answer began "HTTP/1.x 200" */
	char first[16];
};

static struct client_cfg cfg;
static struct client_result res;
static struct slot slots[CLIENT_MAX];
static unsigned started, ended;
static uint16_t next_port;
static char request[160];

static void open_one(struct slot *s);

/* A connection ended (ok: answered in full): record it and start the next. */
static void
end(struct slot *s, int ok)
{
	uint64_t t = cfg.now();

	s->pcb = 0;
	if (ok)
		res.lat[res.done++] = t - s->began;
	else
		res.failed++;
	res.end = t;
	ended++;
	if (started < cfg.total)
		open_one(s);
}

static void
forget(struct tcp_pcb *pcb)
{
	tcp_arg(pcb, 0);
	tcp_recv(pcb, 0);
	tcp_err(pcb, 0);
}

static err_t
on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct slot *s = arg;

	if (!s) {
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	if (p && err == ERR_OK) {
		if (s->got < sizeof(s->first) - 1) {
			unsigned n = sizeof(s->first) - 1 - s->got;
			pbuf_copy_partial(p, s->first + s->got, (u16_t) n, 0);
		}
		s->got += p->tot_len;
		res.bytes += p->tot_len;
		tcp_recved(pcb, p->tot_len);
		pbuf_free(p);
		return ERR_OK;
	}
	if (p)
		pbuf_free(p);
	/* the server closed: the answer is complete */
	int ok = !strncmp(s->first, "HTTP/1.", 7) && !strncmp(s->first + 8, " 200", 4);
	forget(pcb);
	if (tcp_close(pcb) != ERR_OK) {
		tcp_abort(pcb);
		end(s, ok);
		return ERR_ABRT;
	}
	end(s, ok);
	return ERR_OK;
}

static void
on_err(void *arg, err_t err)
{
	(void) err;
	if (arg)
		end(arg, 0); /* lwIP freed the pcb: refused, reset or timed out */
}

static err_t
on_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void) arg;
	if (err != ERR_OK)
		return err;
	tcp_write(pcb, request, (u16_t) strlen(request), 0);
	tcp_output(pcb);
	return ERR_OK;
}

static uint16_t
take_port(void)
{
	uint16_t p = next_port;

	next_port = p >= cfg.port_hi ? cfg.port_lo : (uint16_t) (p + 1);
	return p;
}

static void
open_one(struct slot *s)
{
	ip4_addr_t ip;

	memset(s, 0, sizeof(*s));
	started++;
	s->began = cfg.now();
	if (!res.start)
		res.start = s->began;
	if (!(s->pcb = tcp_new())) {
		end(s, 0);
		return;
	}
	tcp_arg(s->pcb, s);
	tcp_recv(s->pcb, on_recv);
	tcp_err(s->pcb, on_err);
	tcp_nagle_disable(s->pcb);
	ip.addr = lwip_htonl(cfg.server_ip);
	/* a port still held by an earlier connection of ours: try the next */
	for (unsigned i = 0; i <= (unsigned) (cfg.port_hi - cfg.port_lo); i++)
		if (tcp_bind(s->pcb, IP_ADDR_ANY, take_port()) == ERR_OK) {
			if (tcp_connect(s->pcb, &ip, cfg.server_port, on_connected) == ERR_OK)
				return;
			break;
		}
	struct tcp_pcb *pcb = s->pcb;
	forget(pcb);
	tcp_abort(pcb);
	end(s, 0);
}

int
client_start(const struct client_cfg *c)
{
	cfg = *c;
	if (cfg.clients > CLIENT_MAX)
		cfg.clients = CLIENT_MAX;
	memset(&res, 0, sizeof(res));
	if (!(res.lat = calloc(cfg.total ? cfg.total : 1, sizeof(uint64_t))))
		return -1;
	started = ended = 0;
	next_port = cfg.port_lo;
	strcpy(request, "GET ");
	strncat(request, cfg.path, 100);
	strcat(request, " HTTP/1.0\r\n\r\n");
	for (unsigned i = 0; i < cfg.clients && started < cfg.total; i++)
		open_one(&slots[i]);
	return 0;
}

int
client_finished(void)
{
	return ended >= cfg.total;
}

static int
cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
	return x < y ? -1 : x > y;
}

const struct client_result *
client_finish(void)
{
	qsort(res.lat, res.done, sizeof(uint64_t), cmp);
	return &res;
}

uint64_t
client_percentile(const struct client_result *r, unsigned p)
{
	if (!r->done)
		return 0;
	unsigned i = (unsigned) (((uint64_t) r->done * p + 99) / 100);
	return r->lat[i ? i - 1 : 0];
}

uint64_t
client_mean(const struct client_result *r)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < r->done; i++)
		sum += r->lat[i];
	return r->done ? sum / r->done : 0;
}
