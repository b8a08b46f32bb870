/*
 * fetch.h - one connection of a test client on lwIP's raw API: send some bytes, gather the
 * answer until the server closes or a deadline passes.  For the checks of test-web
 * (main.c: probe, attack); the experiment's client is client.h.
 */
#ifndef WEB_FETCH_H
#define WEB_FETCH_H

#include <stddef.h>
#include <stdint.h>

struct netif;

#define FETCH_MAX 4096 /* bytes of an answer kept */

struct fetch {
	char got[FETCH_MAX + 1]; /* NUL-terminated */
	size_t len;		 /* bytes received (all of them; got keeps the first) */
	int closed;		 /* the server closed (FIN) */
	int reset;		 /* refused, reset or failed */
};

/* Connect from local port lport to ip:port (host order), send req[0..n), and run lwIP
 * until the server closes or wait_ms pass; then close our side.  f says what came. */
void fetch(struct netif *nif, uint16_t lport, uint32_t ip, uint16_t port, const void *req, size_t n,
	   unsigned wait_ms, struct fetch *f);

#endif
