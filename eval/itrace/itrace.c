/*
 * itrace - where a path's instructions go, from QEMU's log of every instruction executed
 * ("-d exec,nochain" with one instruction a block: images/run.sh --exec-log).
 *
 *   itrace FROM SPAN TO ENDS NMFILE... < log
 *
 * A window opens at the first instruction in [FROM, FROM + SPAN) and closes at the ENDS-th
 * execution of TO after that (both hex addresses).  Each window's instructions are counted
 * by the symbol they fall in (from the `nm -n` listings given).  Windows of the same kind
 * (the same first symbol and the same total) are grouped; for each kind, most frequent
 * first, it prints
 *   kind COUNT windows of TOTAL instructions from SYMBOL
 *     SYMBOL COUNT          (one window's breakdown, symbols in the order first reached)
 * Under -icount every run of a path costs the same, so a kind is a path.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYMS_MAX  200000
#define KINDS_MAX 4096
#define SHOWN	  8 /* kinds printed */

struct sym {
	uint64_t addr;
	char name[64];
};

struct kind {
	int first;	/* symbol a window starts in */
	uint64_t total; /* its instructions */
	uint64_t count; /* windows of this kind */
	int *used;	/* one window's symbols, in order, -1 ended */
	uint64_t *n;	/* and its counts there */
};

static struct sym *syms;
static int nsyms;
static struct kind kinds[KINDS_MAX];
static int nkinds;

static int
by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
load_nm(const char *path)
{
	char line[512], type;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	while (nsyms < SYMS_MAX && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %63s", &syms[nsyms].addr, &type,
			   syms[nsyms].name) == 3 &&
		    (type == 't' || type == 'T'))
			nsyms++;
	fclose(f);
}

/* The symbol pc falls in, or -1. */
static int
sym_of(uint64_t pc)
{
	int lo = 0, hi = nsyms - 1, r = -1;

	while (lo <= hi) {
		int m = lo + (hi - lo) / 2;
		if (syms[m].addr <= pc)
			r = m, lo = m + 1;
		else
			hi = m - 1;
	}
	return r;
}

/* The guest pc of a log line "Trace N: HOST [CS_BASE/PC/FLAGS/...] SYMBOL", or 0. */
static uint64_t
pc_of(const char *line)
{
	const char *p = strchr(line, '[');

	if (!p || !(p = strchr(p, '/')))
		return 0;
	return strtoull(p + 1, 0, 16);
}

/* Window done: count it in its kind, keeping the first window's breakdown. */
static void
close_window(const int *used, int nused, const uint64_t *cnt, uint64_t total)
{
	int first = nused ? used[0] : -1;

	for (int k = 0; k < nkinds; k++)
		if (kinds[k].first == first && kinds[k].total == total) {
			kinds[k].count++;
			return;
		}
	if (nkinds == KINDS_MAX)
		return;
	struct kind *k = &kinds[nkinds++];
	*k = (struct kind){ first, total, 1, malloc(sizeof(int) * (nused + 1)),
			    malloc(sizeof(uint64_t) * (nused + 1)) };
	if (!k->used || !k->n) {
		perror("itrace");
		exit(2);
	}
	for (int i = 0; i < nused; i++)
		k->used[i] = used[i], k->n[i] = cnt[used[i]];
	k->used[nused] = -1;
}

static int
by_count(const void *a, const void *b)
{
	const struct kind *x = a, *y = b;
	return x->count > y->count ? -1 : x->count < y->count;
}

int
main(int argc, char **argv)
{
	char line[512];
	uint64_t from, span, to, total = 0, windows = 0, *cnt;
	int ends, hits = 0, in = 0, nused = 0, *used, other;

	if (argc < 6) {
		fprintf(stderr, "usage: itrace FROM SPAN TO ENDS NMFILE... < log\n");
		return 2;
	}
	from = strtoull(argv[1], 0, 16);
	span = strtoull(argv[2], 0, 16);
	to = strtoull(argv[3], 0, 16);
	ends = atoi(argv[4]);
	syms = malloc(sizeof(*syms) * (SYMS_MAX + 1));
	if (!syms)
		return 2;
	for (int i = 5; i < argc; i++)
		load_nm(argv[i]);
	qsort(syms, nsyms, sizeof(*syms), by_addr);
	other = nsyms; /* instructions outside every symbol */
	strcpy(syms[other].name, "?");
	cnt = calloc(nsyms + 1, sizeof(*cnt));
	used = malloc(sizeof(int) * (nsyms + 1));
	if (!cnt || !used)
		return 2;
	while (fgets(line, sizeof(line), stdin)) {
		uint64_t pc = pc_of(line);
		int s;
		if (!in && pc >= from && pc < from + span)
			in = 1, hits = 0, total = 0, nused = 0;
		if (!in)
			continue;
		total++;
		s = sym_of(pc);
		if (s < 0)
			s = other;
		if (!cnt[s]++)
			used[nused++] = s;
		if (pc == to && ++hits >= ends) {
			close_window(used, nused, cnt, total);
			for (int i = 0; i < nused; i++)
				cnt[used[i]] = 0;
			windows++;
			in = 0;
		}
	}
	qsort(kinds, nkinds, sizeof(*kinds), by_count);
	printf("itrace: %" PRIu64 " windows, %d kinds\n", windows, nkinds);
	for (int k = 0; k < nkinds && k < SHOWN; k++) {
		printf("kind %" PRIu64 " windows of %" PRIu64 " instructions from %s\n",
		       kinds[k].count, kinds[k].total,
		       kinds[k].first >= 0 ? syms[kinds[k].first].name : "?");
		for (int i = 0; kinds[k].used[i] >= 0; i++)
			printf("  %-40s %" PRIu64 "\n", syms[kinds[k].used[i]].name, kinds[k].n[i]);
	}
	return 0;
}
