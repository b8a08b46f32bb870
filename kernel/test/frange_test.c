/* frange_test.c - free-range arithmetic of boot-time memory carving (kernel/frange.c). */
#include "check.h"
#include "frame.h"

#define MB (1ull << 20)

TEST(ranges_subtract_reserved_middle)
{
	struct frange ram[] = { { 0, 64 * MB } }, resv[] = { { 1 * MB, 2 * MB } }, out[8];
	unsigned n = frame_ranges(ram, 1, resv, 1, out, 8);
	CHECK_EQ(n, 2);
	CHECK_EQ(out[0].base, 0);
	CHECK_EQ(out[0].end, 1 * MB);
	CHECK_EQ(out[1].base, 2 * MB);
	CHECK_EQ(out[1].end, 64 * MB);
}

TEST(ranges_round_inward_to_pages)
{
	struct frange ram[] = { { 100, 3 * 4096 + 5 } }, out[4];
	unsigned n = frame_ranges(ram, 1, 0, 0, out, 4);
	CHECK_EQ(n, 1);
	CHECK_EQ(out[0].base, 4096);
	CHECK_EQ(out[0].end, 3 * 4096);
}

TEST(ranges_reserved_rounds_outward)
{
	struct frange ram[] = { { 0, 16 * 4096 } }, resv[] = { { 4096 + 1, 2 * 4096 + 1 } }, out[4];
	unsigned n = frame_ranges(ram, 1, resv, 1, out, 4);
	CHECK_EQ(n, 2);
	CHECK_EQ(out[0].end, 4096);
	CHECK_EQ(out[1].base, 3 * 4096);
}

TEST(ranges_reserved_covering_everything_leaves_nothing)
{
	struct frange ram[] = { { 4096, 8 * 4096 } }, resv[] = { { 0, 100 * 4096 } }, out[4];
	CHECK_EQ(frame_ranges(ram, 1, resv, 1, out, 4), 0);
}

TEST(ranges_several_reserved_and_sorted_output)
{
	struct frange ram[] = { { 32 * MB, 64 * MB }, { 0, 16 * MB } };
	struct frange resv[] = { { 40 * MB, 41 * MB }, { 1 * MB, 2 * MB }, { 8 * MB, 9 * MB } };
	struct frange out[8];
	unsigned n = frame_ranges(ram, 2, resv, 3, out, 8);
	CHECK_EQ(n, 5);
	for (unsigned i = 1; i < n; i++)
		CHECK(out[i - 1].end <= out[i].base);
	CHECK_EQ(out[0].base, 0);
	CHECK_EQ(out[4].end, 64 * MB);
}

TEST(ranges_inverted_ram_range_ignored)
{
	struct frange ram[] = { { 64 * MB, 1 * MB } }, out[4];
	CHECK_EQ(frame_ranges(ram, 1, 0, 0, out, 4), 0);
}

TEST(ranges_output_bounded_by_max)
{
	struct frange ram[] = { { 0, 64 * MB } };
	struct frange resv[] = { { 1 * MB, 2 * MB }, { 3 * MB, 4 * MB }, { 5 * MB, 6 * MB } };
	struct frange out[2];
	CHECK_EQ(frame_ranges(ram, 1, resv, 3, out, 2), 2);
}

TEST(take_aligns_and_consumes)
{
	struct frange r[] = { { 4096, 64 * 4096 } };
	uint64_t a = frange_take(r, 1, 2 * 4096, 8192);
	CHECK_EQ(a, 8192);
	CHECK_EQ(r[0].base, 8192 + 2 * 4096);
	uint64_t b = frange_take(r, 1, 1, 4096);
	CHECK_EQ(b, 4 * 4096);
}

TEST(take_skips_too_small_ranges_and_fails_when_none_fit)
{
	struct frange r[] = { { 0, 4096 }, { 1 * MB, 2 * MB } };
	CHECK_EQ(frange_take(r, 2, 8192, 4096), 1 * MB);
	CHECK_EQ(frange_take(r, 2, 4 * MB, 4096), 0);
}
