/* status_test.c - /status and /status.json from hrtop's rows (subsystems/web/status.c). */
#include "check.h"
#include "subsystems/web/status.h"

#include <ctype.h>
#include <string.h>

/* ---- a JSON validator, small and strict enough for what status_json writes ---- */
static const char *value(const char *s);

static const char *
ws(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

static const char *
string(const char *s)
{
	if (*s++ != '"')
		return 0;
	for (; *s && *s != '"'; s++) {
		if ((unsigned char) *s < ' ')
			return 0;
		if (*s == '\\' && !*++s)
			return 0;
	}
	return *s == '"' ? s + 1 : 0;
}

static const char *
items(const char *s, char close, int keyed)
{
	s = ws(s);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (keyed) {
			if (!(s = string(ws(s))) || *(s = ws(s)) != ':')
				return 0;
			s++;
		}
		if (!(s = value(s)))
			return 0;
		s = ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return 0;
	}
}

static const char *
value(const char *s)
{
	s = ws(s);
	if (*s == '{')
		return items(s + 1, '}', 1);
	if (*s == '[')
		return items(s + 1, ']', 0);
	if (*s == '"')
		return string(s);
	if (!strncmp(s, "null", 4))
		return s + 4;
	if (*s == '-' || isdigit((unsigned char) *s)) {
		const char *b = s;
		s += *s == '-';
		while (isdigit((unsigned char) *s) || *s == '.')
			s++;
		return s > b ? s : 0;
	}
	return 0;
}

static int
valid_json(const char *s)
{
	s = value(s);
	return s && !*ws(s);
}

static struct toprow
row(const char *name, unsigned depth, unsigned kind, uint64_t consumed)
{
	struct toprow r = { .depth = (uint8_t) depth,
			    .kind = (uint8_t) kind,
			    .consumed = consumed,
			    .at = 1000,
			    .mem_used = 10,
			    .mem_bound = 20 };

	strncpy(r.name, name, sizeof(r.name) - 1);
	if (kind == TOPROW_TASK)
		r.mem_used = r.mem_bound = TOPROW_NONE;
	return r;
}

static struct status_net net = { .rx_frames = 3, .tx_bytes = 99, .http_requests = 7 };

TEST(json_is_valid_and_says_each_row)
{
	struct toprow rows[3] = { row("web", 0, TOPROW_SUBSYSTEM, 500),
				  row("server", 1, TOPROW_TASK, 400),
				  row("we\"ird\\<b>", 1, TOPROW_SUBSYSTEM, 100) };
	struct status_frames fr[3] = { { 1, 5, 500, 6, 600 }, { 0 }, { 1, 0, 0, 0, 0 } };
	struct status_view v = { rows, 3, 0, 0, 1000, 1000, &net, fr };
	char buf[4096];

	rows[0].res = 1;
	rows[0].budget = 2;
	rows[0].period = 10;
	rows[2].flags = TOPROW_CLAIM;
	CHECK(status_json(buf, sizeof(buf), &v) > 0);
	CHECK(valid_json(buf));
	CHECK(strstr(buf, "\"name\":\"web\",\"depth\":0,\"kind\":\"subsystem\"") != 0);
	CHECK(strstr(buf, "\"reservation\":\"hard 2/10\"") != 0);
	CHECK(strstr(buf, "\"cpu_pct\":null") != 0); /* no earlier sample */
	CHECK(strstr(buf, "\"cpu_boot_pct\":50.0") != 0);
	CHECK(strstr(buf, "\"mem_pages\":null") != 0); /* the task */
	CHECK(strstr(buf, "we\\\"ird\\\\<b>") != 0);
	CHECK(strstr(buf, "\"source\":\"claim\"") != 0);
	CHECK(strstr(buf, "\"requests\":7") != 0);
	CHECK(strstr(buf, "\"frames_in\":5,\"bytes_in\":500,\"frames_out\":6,\"bytes_out\":600") !=
	      0);
	CHECK(strstr(buf, "\"frames_in\":null") != 0); /* the task */
}

TEST(the_share_over_the_interval_comes_from_the_previous_sample)
{
	struct toprow prev[1] = { row("web", 0, TOPROW_SUBSYSTEM, 100) };
	struct toprow now[1] = { row("web", 0, TOPROW_SUBSYSTEM, 300) };
	struct status_view v = { now, 1, prev, 1, 2000, 1000, &net, 0 };
	char buf[2048];

	prev[0].at = 0;
	CHECK(status_json(buf, sizeof(buf), &v) > 0);
	CHECK(strstr(buf, "\"cpu_pct\":20.0") != 0);
}

TEST(html_escapes_names_and_a_page_that_does_not_fit_is_0)
{
	struct toprow rows[1] = { row("<script>", 0, TOPROW_SUBSYSTEM, 0) };
	struct status_view v = { rows, 1, 0, 0, 1000, 1000, &net, 0 };
	char buf[4096];

	CHECK(status_html(buf, sizeof(buf), &v) > 0);
	CHECK(strstr(buf, "<script>") == 0);
	CHECK(strstr(buf, "&lt;script&gt;") != 0);
	CHECK_EQ(status_html(buf, 100, &v), 0);
	CHECK_EQ(status_json(buf, 50, &v), 0);
}

TEST(a_full_tree_fits_the_server_buffer)
{
	static struct toprow rows[64];
	struct status_view v = { rows, 64, 0, 0, 1000, 1000, &net, 0 };
	static char buf[32768];

	for (unsigned i = 0; i < 64; i++) {
		rows[i] = row("a-name-of-thirty-one-characters", i ? 1 : 0, TOPROW_SUBSYSTEM, i);
		rows[i].name[31] = 0;
	}
	CHECK(status_json(buf, sizeof(buf), &v) > 0);
	CHECK(valid_json(buf));
	CHECK(status_html(buf, sizeof(buf), &v) > 0);
}
