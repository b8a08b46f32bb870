/* http_test.c - what the web server makes of the bytes a client sends (subsystems/web/http.c). */
#include "check.h"
#include "subsystems/web/http.h"

#include <string.h>

static long
parse(const char *s, struct http_req *r)
{
	return http_parse(s, strlen(s), r);
}

TEST(get_1_1_keeps_the_connection_and_1_0_closes_it)
{
	struct http_req r;
	const char *a = "GET /status HTTP/1.1\r\nHost: x\r\n\r\n";

	CHECK_EQ(parse(a, &r), (long) strlen(a));
	CHECK(!strcmp(r.path, "/status"));
	CHECK_EQ(r.keep_alive, 1);
	CHECK_EQ(r.head, 0);
	CHECK_EQ(parse("GET / HTTP/1.0\r\n\r\n", &r), 18);
	CHECK_EQ(r.keep_alive, 0);
	CHECK_EQ(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r) > 0, 1);
	CHECK_EQ(r.keep_alive, 1);
	CHECK_EQ(parse("HEAD / HTTP/1.1\r\nconnection:  close \r\n\r\n", &r) > 0, 1);
	CHECK_EQ(r.keep_alive, 0);
	CHECK_EQ(r.head, 1);
}

TEST(an_incomplete_head_asks_for_more_until_it_is_too_large)
{
	struct http_req r;
	char big[HTTP_HEAD_MAX + 10];

	CHECK_EQ(parse("GET / HTTP/1.1\r\nHost: x\r\n", &r), HTTP_MORE);
	CHECK_EQ(parse("", &r), HTTP_MORE);
	CHECK_EQ(parse("GE", &r), HTTP_MORE);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	CHECK_EQ(parse(big, &r), -HTTP_HEAD_TOO_LARGE);
}

TEST(a_second_request_after_the_first_is_left_for_later)
{
	struct http_req r;
	const char *two = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n";

	CHECK_EQ(parse(two, &r), 19);
	CHECK(!strcmp(r.path, "/a"));
	CHECK_EQ(http_parse(two + 19, strlen(two + 19), &r), 19);
	CHECK(!strcmp(r.path, "/b"));
}

TEST(malformed_requests_get_400_and_their_kin_their_own_status)
{
	struct http_req r;
	static const char *bad[] = {
		"\r\n\r\n",
		"GET\r\n\r\n",
		"GET /\r\n\r\n",
		"GET  / HTTP/1.1\r\n\r\n",
		"GET x HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1 \r\n\r\n",
		"GET / HTTP/x.1\r\n\r\n",
		"GET / HTTP/1.1\n\r\n\r\n",
		"GET / HTTP/1.1\r\nno colon\r\n\r\n",
		"GET / HTTP/1.1\r\n: empty name\r\n\r\n",
		"GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n",
		"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET /\x01 HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1\r\nX: a\x01"
		"b\r\n\r\n",
		"\x80\xff / HTTP/1.1\r\n\r\n",
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(parse(bad[i], &r), -HTTP_BAD_REQUEST);
	CHECK_EQ(parse("POST / HTTP/1.1\r\n\r\n", &r), -HTTP_NOT_IMPLEMENTED);
	CHECK_EQ(parse("GET / HTTP/2.0\r\n\r\n", &r), -HTTP_VERSION);
	CHECK_EQ(parse("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &r) > 0, 1);
}

TEST(what_cannot_begin_a_request_is_400_before_it_ends)
{
	struct http_req r;

	CHECK_EQ(parse("GET / HT\x01", &r), -HTTP_BAD_REQUEST);
	CHECK_EQ(parse("\x16\x03\x01", &r), -HTTP_BAD_REQUEST); /* TLS to a plain port */
	CHECK_EQ(parse(" GET", &r), -HTTP_BAD_REQUEST);
	CHECK_EQ(parse("GET(", &r), -HTTP_BAD_REQUEST);
	CHECK_EQ(parse("GET /caf\xc3\xa9", &r), -HTTP_BAD_REQUEST);
}

TEST(a_path_that_does_not_fit_is_414)
{
	struct http_req r;
	char req[HTTP_PATH_MAX + 64];

	strcpy(req, "GET /");
	memset(req + 5, 'p', HTTP_PATH_MAX);
	strcpy(req + 5 + HTTP_PATH_MAX, " HTTP/1.1\r\n\r\n");
	CHECK_EQ(parse(req, &r), -HTTP_URI_TOO_LONG);
	req[5 + HTTP_PATH_MAX - 2] = 0;
	strcat(req, " HTTP/1.1\r\n\r\n");
	CHECK_EQ(parse(req, &r) > 0, 1);
	CHECK_EQ(strlen(r.path), HTTP_PATH_MAX - 1);
}

TEST(response_heads_say_length_and_connection)
{
	char buf[256];
	size_t n = http_head(buf, sizeof(buf), 404, 1, "text/plain", 12, 1);

	CHECK_EQ(n, strlen(buf));
	CHECK(!strncmp(buf, "HTTP/1.1 404 Not Found\r\n", 24));
	CHECK(strstr(buf, "Content-Length: 12\r\n") != 0);
	CHECK(strstr(buf, "Connection: keep-alive\r\n\r\n") != 0);
	CHECK_EQ(http_head(buf, 10, 200, 0, "text/plain", 1, 0), 0);
	http_head(buf, sizeof(buf), 200, 0, "text/html", 1, 0);
	CHECK(!strncmp(buf, "HTTP/1.0 200 OK\r\n", 17));
}

/* Every prefix of every byte string either asks for more or gives an answer, and never
 * reads beyond what it was given (ASan would say). */
TEST(no_input_crashes_the_parser)
{
	struct http_req r;
	unsigned seed = 1;
	char buf[300];

	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t) (round % 300);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = "GET /HTP1.\r\n: aK"[(seed >> 16) % 16];
		}
		long v = http_parse(buf, n, &r);
		CHECK(v == HTTP_MORE || v < 0 || (v > 0 && (size_t) v <= n));
	}
}
