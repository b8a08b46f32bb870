/*
 * client.h - the load client of the web experiment, on lwIP's raw TCP API: keeps `clients`
 * connections to a server at once, each one request (GET path, HTTP/1.0) and its answer,
 * until `total` connections have ended; measures each from its SYN to the server's FIN
 * with the caller's clock.  The same code drives the HiRES server (main.c) and the Linux
 * guest's servers (eval/linux), so the two are measured alike.
 *
 * Local ports come from [port_lo, port_hi] in turn: a subsystem may only send from ports
 * it owns, and a port is reused only after the whole range has been, long after the
 * server's end of its last connection has left TIME_WAIT... or been recycled.
 */
#ifndef WEB_CLIENT_H
#define WEB_CLIENT_H

#include <stdint.h>

#define CLIENT_MAX 64 /* connections at once */

struct client_cfg {
	uint32_t server_ip; /* host order */
	uint16_t server_port;
	uint16_t port_lo, port_hi; /* our local ports */
	const char *path;
	unsigned clients, total;
	uint64_t (*now)(void); /* the clock latencies are measured in */
};

struct client_result {
	unsigned done, failed; /* connections answered with 200 in full; others */
	uint64_t start, end;   /* first SYN, last connection's end */
	uint64_t *lat;	       /* done latencies (malloc'd, sorted by client_finish) */
	uint64_t bytes;	       /* received */
};

/* Start (lwIP must be up): 0, or -1 if out of memory. */
int client_start(const struct client_cfg *cfg);
/* Have total connections ended? */
int client_finished(void);
/* Sort the latencies; the results. */
const struct client_result *client_finish(void);
/* The p-th percentile (0..100) of the sorted latencies, 0 if none. */
uint64_t client_percentile(const struct client_result *r, unsigned p);
/* Their mean, 0 if none. */
uint64_t client_mean(const struct client_result *r);

#endif
