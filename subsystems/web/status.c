/* status.c - /status and /status.json from hrtop's rows (status.h). */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A bounded buffer that remembers whether anything did not fit. */
struct out {
	char *p;
	size_t len, cap;
	int full;
};

__attribute__((format(printf, 2, 3))) static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= o->cap - o->len)
		o->full = 1;
	else
		o->len += (size_t) n;
}

/* s with the characters special to JSON (json) or HTML escaped.  Names are printable
 * ASCII (toprow_wire_get replaces the rest), but a child chooses its own. */
static void
put_text(struct out *o, const char *s, int json)
{
	for (; *s; s++) {
		if (json && (*s == '"' || *s == '\\'))
			put(o, "\\%c", *s);
		else if (json && (unsigned char) *s < ' ')
			put(o, "\\u%04x", (unsigned char) *s);
		else if (!json && *s == '<')
			put(o, "&lt;");
		else if (!json && *s == '>')
			put(o, "&gt;");
		else if (!json && *s == '&')
			put(o, "&amp;");
		else if (!json && *s == '"')
			put(o, "&quot;");
		else
			put(o, "%c", *s);
	}
}

static const char *
kind_name(const struct toprow *r)
{
	return r->kind == TOPROW_SUBSYSTEM ? "subsystem"
	       : r->kind == TOPROW_TASK	   ? "task"
					   : "component";
}

static size_t
done(struct out *o)
{
	return o->full ? 0 : o->len;
}

static void
json_row(struct out *o, const struct status_view *v, unsigned i)
{
	const struct toprow *r = &v->rows[i];
	double now = toprow_share(v->rows, i, v->prev, v->nprev);
	char res[32];

	put(o, "%s{\"name\":\"", i ? "," : "");
	put_text(o, r->name, 1);
	put(o, "\",\"depth\":%u,\"kind\":\"%s\",\"policy\":\"", r->depth, kind_name(r));
	put_text(o, r->policy, 1);
	put(o, "\",\"reservation\":\"%s\",\"budget\":%u,\"period\":%u,",
	    toprow_res(r, res, sizeof(res)), (unsigned) r->budget, (unsigned) r->period);
	if (now < 0)
		put(o, "\"cpu_pct\":null,");
	else
		put(o, "\"cpu_pct\":%.1f,", now);
	put(o, "\"cpu_boot_pct\":%.1f,\"misses\":%u,", toprow_pct(r->consumed, v->uptime),
	    (unsigned) r->misses);
	if (r->mem_used == TOPROW_NONE)
		put(o, "\"mem_pages\":null,\"mem_bound\":null,");
	else
		put(o, "\"mem_pages\":%u,\"mem_bound\":%u,", (unsigned) r->mem_used,
		    (unsigned) r->mem_bound);
	if (v->frames && v->frames[i].known)
		put(o,
		    "\"frames_in\":%llu,\"bytes_in\":%llu,\"frames_out\":%llu,\"bytes_out\":%llu,",
		    (unsigned long long) v->frames[i].rx_frames,
		    (unsigned long long) v->frames[i].rx_bytes,
		    (unsigned long long) v->frames[i].tx_frames,
		    (unsigned long long) v->frames[i].tx_bytes);
	else
		put(o,
		    "\"frames_in\":null,\"bytes_in\":null,\"frames_out\":null,\"bytes_out\":null,");
	put(o, "\"source\":\"%s\"}", r->flags & TOPROW_CLAIM ? "claim" : "seen");
}

size_t
status_json(char *buf, size_t cap, const struct status_view *v)
{
	struct out o = { buf, 0, cap, 0 };
	const struct status_net *n = v->net;

	put(&o, "{\"uptime_s\":%.3f,\"tree\":[", v->tsc_hz ? (double) v->uptime / v->tsc_hz : 0);
	for (unsigned i = 0; i < v->n; i++)
		json_row(&o, v, i);
	put(&o,
	    "],\"network\":{\"rx_frames\":%llu,\"rx_bytes\":%llu,\"rx_full\":%llu,"
	    "\"tx_frames\":%llu,\"tx_bytes\":%llu,\"tx_refused\":%llu,\"tx_limited\":%llu,"
	    "\"kbps\":%llu},",
	    (unsigned long long) n->rx_frames, (unsigned long long) n->rx_bytes,
	    (unsigned long long) n->rx_full, (unsigned long long) n->tx_frames,
	    (unsigned long long) n->tx_bytes, (unsigned long long) n->tx_refused,
	    (unsigned long long) n->tx_limited, (unsigned long long) n->kbps);
	put(&o,
	    "\"http\":{\"connections\":%llu,\"requests\":%llu,\"errors\":%llu,\"open\":%llu}}\n",
	    (unsigned long long) n->http_conns, (unsigned long long) n->http_requests,
	    (unsigned long long) n->http_errors, (unsigned long long) n->http_open);
	if (o.len && !o.full)
		buf[o.len] = 0;
	return done(&o);
}

static void
html_row(struct out *o, const struct status_view *v, unsigned i)
{
	const struct toprow *r = &v->rows[i];
	double now = toprow_share(v->rows, i, v->prev, v->nprev);
	char res[32];

	put(o, "<tr><td style=\"padding-left:%uem\">", 1 + 2 * (unsigned) r->depth);
	put_text(o, r->name, 0);
	put(o, "</td><td>%s</td><td>", kind_name(r));
	put_text(o, r->policy, 0);
	put(o, "</td><td>%s</td>", toprow_res(r, res, sizeof(res)));
	if (now < 0)
		put(o, "<td>-</td>");
	else
		put(o, "<td>%.1f</td>", now);
	put(o, "<td>%.1f</td><td>%u</td>", toprow_pct(r->consumed, v->uptime),
	    (unsigned) r->misses);
	if (r->mem_used == TOPROW_NONE)
		put(o, "<td>-</td>");
	else
		put(o, "<td>%u/%u</td>", (unsigned) r->mem_used, (unsigned) r->mem_bound);
	if (v->frames && v->frames[i].known)
		put(o, "<td>%llu / %llu</td><td>%llu / %llu</td>",
		    (unsigned long long) v->frames[i].rx_frames,
		    (unsigned long long) v->frames[i].rx_bytes,
		    (unsigned long long) v->frames[i].tx_frames,
		    (unsigned long long) v->frames[i].tx_bytes);
	else
		put(o, "<td>-</td><td>-</td>");
	put(o, "<td>%s</td></tr>\n", r->flags & TOPROW_CLAIM ? "claim" : "seen");
}

size_t
status_html(char *buf, size_t cap, const struct status_view *v)
{
	struct out o = { buf, 0, cap, 0 };
	const struct status_net *n = v->net;

	put(&o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta http-equiv=\"refresh\" content=\"2\"><title>HiRES: ");
	put_text(&o, v->n ? v->rows[0].name : "", 0);
	put(&o, "</title></head><body>\n<h1>Subtree of ");
	put_text(&o, v->n ? v->rows[0].name : "", 0);
	put(&o,
	    " at %.1f s</h1>\n<table>\n<tr><th>name</th><th>what</th><th>policy</th>"
	    "<th>reservation</th><th>CPU%%</th><th>boot%%</th><th>misses</th>"
	    "<th>memory (pages)</th><th>source</th></tr>\n",
	    v->tsc_hz ? (double) v->uptime / v->tsc_hz : 0);
	for (unsigned i = 0; i < v->n; i++)
		html_row(&o, v, i);
	put(&o,
	    "</table>\n<p>Network: %llu frames (%llu bytes) in, %llu dropped on a full ring; "
	    "%llu frames (%llu bytes) out, %llu refused, %llu held at the %llu kbit/s limit.</p>\n",
	    (unsigned long long) n->rx_frames, (unsigned long long) n->rx_bytes,
	    (unsigned long long) n->rx_full, (unsigned long long) n->tx_frames,
	    (unsigned long long) n->tx_bytes, (unsigned long long) n->tx_refused,
	    (unsigned long long) n->tx_limited, (unsigned long long) n->kbps);
	put(&o,
	    "<p>HTTP: %llu connections, %llu requests, %llu errors, %llu open.  "
	    "CPU%% is the share of the whole CPU since the last look, boot%% since boot; "
	    "seen = measured here, claim = reported by a child.  "
	    "<a href=\"/status.json\">JSON</a></p>\n</body></html>\n",
	    (unsigned long long) n->http_conns, (unsigned long long) n->http_requests,
	    (unsigned long long) n->http_errors, (unsigned long long) n->http_open);
	return done(&o);
}
