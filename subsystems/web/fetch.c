/* fetch.c - one test connection (fetch.h). */
#include "fetch.h"
#include "ringif.h"

#include "lwip/tcp.h"
#include "rm/runtime.h"

#include <string.h>

static struct fetch *cur;
static uint64_t until;
static int ended;

static err_t
on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	(void) arg;
	if (!p || err != ERR_OK) {
		if (p)
			pbuf_free(p);
		cur->closed = 1;
		ended = 1;
		return ERR_OK;
	}
	if (cur->len < FETCH_MAX) {
		size_t n = FETCH_MAX - cur->len;
		cur->len += pbuf_copy_partial(p, cur->got + cur->len,
					      (u16_t) (n < p->tot_len ? n : p->tot_len), 0);
		cur->got[cur->len < FETCH_MAX ? cur->len : FETCH_MAX] = 0;
	}
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	return ERR_OK;
}

static void
on_err(void *arg, err_t err)
{
	(void) arg;
	(void) err;
	cur->reset = 1;
	ended = 2; /* lwIP freed the pcb */
}

static int
over(void)
{
	return ended || hr_tsc() >= until;
}

void
fetch(struct netif *nif, uint16_t lport, uint32_t ip, uint16_t port, const void *req, size_t n,
      unsigned wait_ms, struct fetch *f)
{
	struct tcp_pcb *pcb = tcp_new();
	ip4_addr_t to = { lwip_htonl(ip) };

	memset(f, 0, sizeof(*f));
	cur = f;
	ended = 0;
	until = hr_tsc() + hr_bootinfo()->tsc_hz / 1000 * wait_ms;
	if (!pcb || tcp_bind(pcb, IP_ADDR_ANY, lport) != ERR_OK) {
		f->reset = 1;
		if (pcb)
			tcp_abort(pcb);
		return;
	}
	tcp_recv(pcb, on_recv);
	tcp_err(pcb, on_err);
	if (tcp_connect(pcb, &to, port, 0) != ERR_OK) {
		f->reset = 1;
		tcp_abort(pcb);
		return;
	}
	/* queued now, sent once the connection is up */
	if (n && tcp_write(pcb, req, (u16_t) n, TCP_WRITE_FLAG_COPY) != ERR_OK)
		f->reset = 1;
	ringif_run(nif, over);
	if (ended != 2) {
		tcp_err(pcb, 0);
		tcp_recv(pcb, 0);
		if (tcp_close(pcb) != ERR_OK)
			tcp_abort(pcb);
	}
}
