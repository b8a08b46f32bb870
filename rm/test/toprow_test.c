/* toprow_test.c - hrtop's rows, the wire a child reports on, shares and lines (rm/toprow.c). */
#include "check.h"
#include "rm/toprow.h"

#include <string.h>

static struct toprow
mk(const char *name, unsigned depth, uint64_t consumed, uint64_t at)
{
	struct toprow r = { .depth = (uint8_t) depth,
			    .kind = TOPROW_TASK,
			    .consumed = consumed,
			    .at = at,
			    .mem_used = TOPROW_NONE,
			    .mem_bound = TOPROW_NONE };

	strncpy(r.name, name, sizeof(r.name) - 1);
	return r;
}

TEST(wire_round_trip_marks_rows_claims_one_level_down)
{
	struct toprow_wire w = { 0 };
	struct toprow in[2] = { mk("inner", 1, 10, 100), mk("spin", 2, 7, 100) }, out[4];

	in[0].kind = TOPROW_SUBSYSTEM;
	toprow_wire_put(&w, in, 2);
	CHECK_EQ(w.seq & 1, 0);
	CHECK_EQ(toprow_wire_get(&w, out, 4, 1), 2);
	CHECK_EQ(out[0].depth, 2);
	CHECK_EQ(out[1].depth, 3);
	CHECK(out[1].flags & TOPROW_CLAIM);
	CHECK(!strcmp(out[1].name, "spin"));
	CHECK_EQ(out[1].consumed, 7);
}

TEST(wire_being_written_reads_as_nothing)
{
	struct toprow_wire w = { 0 };
	struct toprow in = mk("a", 1, 0, 0), out[1];

	toprow_wire_put(&w, &in, 1);
	w.seq |= 1;
	CHECK_EQ(toprow_wire_get(&w, out, 1, 1), 0);
}

TEST(wire_unterminated_and_unprintable_names_are_cut_and_masked)
{
	struct toprow_wire w = { 0 };
	struct toprow in = mk("x", 1, 0, 0), out[1];

	memset(in.name, 'A', sizeof(in.name));
	in.name[3] = '\033';
	memset(in.policy, 'p', sizeof(in.policy));
	toprow_wire_put(&w, &in, 1);
	CHECK_EQ(toprow_wire_get(&w, out, 1, 1), 1);
	CHECK_EQ(strlen(out[0].name), sizeof(out[0].name) - 1);
	CHECK_EQ(out[0].name[3], '?');
	CHECK_EQ(strlen(out[0].policy), sizeof(out[0].policy) - 1);
}

TEST(wire_row_breaking_the_tree_order_ends_the_list)
{
	struct toprow_wire w = { 0 };
	struct toprow in[3] = { mk("a", 1, 0, 0), mk("b", 3, 0, 0), mk("c", 1, 0, 0) }, out[3];

	toprow_wire_put(&w, in, 3);
	CHECK_EQ(toprow_wire_get(&w, out, 3, 1), 1);
	in[0].depth = 0;
	toprow_wire_put(&w, in, 1);
	CHECK_EQ(toprow_wire_get(&w, out, 3, 1), 0);
}

TEST(wire_bad_reservation_or_kind_ends_the_list)
{
	struct toprow_wire w = { 0 };
	struct toprow in[3] = { mk("a", 1, 0, 0), mk("b", 1, 0, 0), mk("c", 1, 0, 0) }, out[3];

	in[1].res = 1;
	in[1].budget = 11;
	in[1].period = 10;
	toprow_wire_put(&w, in, 3);
	CHECK_EQ(toprow_wire_get(&w, out, 3, 1), 1);
	in[1].res = 0;
	in[1].kind = 9;
	toprow_wire_put(&w, in, 3);
	CHECK_EQ(toprow_wire_get(&w, out, 3, 1), 1);
}

TEST(wire_count_beyond_its_rows_is_clamped)
{
	static struct toprow_wire w;
	struct toprow in = mk("a", 1, 0, 0), out[TOPROW_WIRE + 4];

	for (unsigned i = 0; i < TOPROW_WIRE; i++)
		w.row[i] = in;
	w.n = 1000000;
	CHECK_EQ(toprow_wire_get(&w, out, TOPROW_WIRE + 4, 1), TOPROW_WIRE);
	CHECK_EQ(toprow_wire_get(&w, out, 3, 1), 3);
}

TEST(wire_depth_is_capped)
{
	struct toprow_wire w = { 0 };
	struct toprow in = mk("a", 1, 0, 0), out[1];

	toprow_wire_put(&w, &in, 1);
	CHECK_EQ(toprow_wire_get(&w, out, 1, 100), 1);
	CHECK_EQ(out[0].depth, TOPROW_DEPTH);
}

TEST(share_is_consumed_over_time_between_samples_of_the_same_row)
{
	struct toprow a[3] = { mk("be", 1, 0, 1000), mk("spin", 2, 100, 1000), mk("x", 1, 0, 0) };
	struct toprow b[3] = { mk("be", 1, 0, 2000), mk("spin", 2, 300, 2000), mk("x", 1, 0, 0) };
	double s = toprow_share(b, 1, a, 3);

	CHECK(s > 19.99 && s < 20.01);
	CHECK_EQ(toprow_share(b, 2, a, 3), -1); /* no time passed */
}

TEST(share_matches_by_parent_name_too)
{
	struct toprow a[2] = { mk("p", 1, 0, 0), mk("spin", 2, 0, 0) };
	struct toprow b[2] = { mk("q", 1, 0, 100), mk("spin", 2, 50, 100) };

	CHECK_EQ(toprow_share(b, 1, a, 2), -1);
}

TEST(share_counting_again_after_a_restart_is_unknown)
{
	struct toprow a = mk("c", 1, 500, 0), b = mk("c", 1, 100, 100);

	CHECK_EQ(toprow_share(&b, 0, &a, 1), -1);
}

TEST(pct_is_clamped_to_100)
{
	CHECK_EQ(toprow_pct(300, 100), 100);
	CHECK_EQ(toprow_pct(1, 0), 0);
}

TEST(line_shows_reservation_share_memory_and_source)
{
	struct toprow r = mk("batch", 1, 500, 0);
	char line[200];

	r.kind = TOPROW_SUBSYSTEM;
	strcpy(r.policy, "fprr");
	r.res = 3;
	r.budget = 3;
	r.period = 10;
	r.mem_used = 12;
	r.mem_bound = 256;
	toprow_line(line, sizeof(line), &r, 30.04, 1000, -1);
	CHECK(!strncmp(line, "  batch ", 8));
	CHECK(strstr(line, " fprr "));
	CHECK(strstr(line, "deferrable 3/10"));
	CHECK(strstr(line, " 30.0 "));
	CHECK(strstr(line, " 50.0 "));
	CHECK(strstr(line, "12/256"));
	CHECK(strstr(line, " seen"));
	r.flags = TOPROW_CLAIM;
	toprow_line(line, sizeof(line), &r, -1, 1000, 7);
	CHECK(strstr(line, " claim"));
	CHECK(strstr(line, "     7 ") || strstr(line, " 7 "));
}

TEST(reservation_words)
{
	struct toprow r = mk("t", 1, 0, 0);
	char buf[40];

	CHECK(!strcmp(toprow_res(&r, buf, sizeof(buf)), "best effort"));
	r.res = 1;
	r.budget = r.period = 1;
	CHECK(!strcmp(toprow_res(&r, buf, sizeof(buf)), "whole CPU"));
	r.res = 2;
	r.budget = 0;
	r.period = 10;
	CHECK(!strcmp(toprow_res(&r, buf, sizeof(buf)), "soft 0/10"));
}
