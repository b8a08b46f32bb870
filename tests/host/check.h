/*
 * check.h - the host unit-test harness.  A test file defines TEST(name) { ... } blocks
 * using CHECK/CHECK_EQ; check.c runs them all, prints one line per test and closes with
 * "N passed, N failed".  Tests build with ASan and UBSan (see the top Makefile).
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

struct check_test {
	const char *name;
	void (*fn)(void);
	struct check_test *next;
};

void check_register(struct check_test *t);
void check_fail(const char *file, int line, const char *what);
extern int check_failed_now;

#define TEST(name)                                                      \
	static void name(void);                                         \
	static struct check_test check_##name = { #name, name, 0 };     \
	__attribute__((constructor)) static void check_reg_##name(void) \
	{                                                               \
		check_register(&check_##name);                          \
	}                                                               \
	static void name(void)

#define CHECK(cond)                                            \
	do {                                                   \
		if (!(cond))                                   \
			check_fail(__FILE__, __LINE__, #cond); \
	} while (0)

#define CHECK_EQ(a, b)                                                                            \
	do {                                                                                      \
		long long check_a = (long long) (a), check_b = (long long) (b);                   \
		if (check_a != check_b) {                                                         \
			char check_msg[256];                                                      \
			snprintf(check_msg, sizeof(check_msg), "%s == %s (%lld vs %lld)", #a, #b, \
				 check_a, check_b);                                               \
			check_fail(__FILE__, __LINE__, check_msg);                                \
		}                                                                                 \
	} while (0)

#endif
