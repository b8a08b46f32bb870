/* check.c - runs the TEST()s registered by one host test binary (check.h). */
#include "check.h"

#include <string.h>

static struct check_test *head, **tail = &head;
int check_failed_now;

void
check_register(struct check_test *t)
{
	*tail = t;
	tail = &t->next;
}

void
check_fail(const char *file, int line, const char *what)
{
	printf("    %s:%d: check failed: %s\n", file, line, what);
	check_failed_now = 1;
}

int
main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (struct check_test *t = head; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		check_failed_now = 0;
		t->fn();
		printf("%s %s\n", check_failed_now ? "FAIL" : "ok  ", t->name);
		if (check_failed_now)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
