/*
 * status.h - the web server's live pages, /status (HTML) and /status.json, written from
 * hrtop's rows of our subtree (rm/toprow.h) and our network and HTTP counters.  Pure: the
 * rows come from the caller (pages.c gathers them), so the writers are host-tested
 * (subsystems/web/test/status_test.c) and the JSON is checked to parse.
 *
 * A subsystem sees its own subtree and nothing else: its parent and siblings are not its
 * business (docs/NETWORK.md, "The web server").  Serve from the root to show the whole tree.
 */
#ifndef WEB_STATUS_H
#define WEB_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "rm/toprow.h"

/* What the serving subsystem's network did (the kernel's counters, hr_net.h), and its HTTP
 * server's (httpd.h). */
struct status_net {
	uint64_t rx_frames, rx_bytes, rx_full, tx_frames, tx_bytes, tx_refused, tx_limited;
	uint64_t kbps;
	uint64_t http_conns, http_requests, http_errors, http_open;
};

/* One row's frames, as the kernel counted them (rows[0], ourselves, and our own child
 * subsystems, whose counters we may read; known 0 for the rest: their own view). */
struct status_frames {
	int known;
	uint64_t rx_frames, rx_bytes, tx_frames, tx_bytes;
};

struct status_view {
	const struct toprow *rows; /* rows[0]: the serving subsystem, then its subtree */
	unsigned n;
	const struct toprow *prev; /* the previous sample, for the share over the interval */
	unsigned nprev;
	uint64_t uptime, tsc_hz; /* TSC since boot, TSC per second */
	const struct status_net *net;
	const struct status_frames *frames; /* frames[i] for rows[i] (NULL: none known) */
};

/* The page into buf[0..cap): its length, or 0 if it does not fit. */
size_t status_json(char *buf, size_t cap, const struct status_view *v);
size_t status_html(char *buf, size_t cap, const struct status_view *v);

#endif
