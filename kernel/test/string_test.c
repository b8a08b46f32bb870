/* string_test.c - the bodies of the kernel's memcpy and memset (arch/x86_64/hw.h: hw_copy,
 * hw_fill) write exactly n bytes, whole words and the tail, at any alignment, and nothing
 * around them. */
#include "check.h"
#include "arch/x86_64/hw.h"

#include <string.h>

static uint8_t src[96], dst[96], want[96];

static void
fresh(void)
{
	for (unsigned i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t) (i * 7 + 1), dst[i] = want[i] = 0xee;
}

static void
copy_each(unsigned doff, unsigned soff, unsigned n)
{
	fresh();
	for (unsigned i = 0; i < n; i++)
		want[doff + i] = src[soff + i];
	hw_copy(dst + doff, src + soff, n);
	CHECK(memcmp(dst, want, sizeof(dst)) == 0);
}

static void
fill_each(unsigned doff, uint8_t c, unsigned n)
{
	fresh();
	for (unsigned i = 0; i < n; i++)
		want[doff + i] = c;
	hw_fill(dst + doff, c, n);
	CHECK(memcmp(dst, want, sizeof(dst)) == 0);
}

TEST(a_copy_of_every_length_up_to_64_at_every_alignment_writes_those_bytes_and_no_others)
{
	for (unsigned doff = 0; doff < 8; doff++)
		for (unsigned soff = 0; soff < 8; soff++)
			for (unsigned n = 0; n <= 64; n++)
				copy_each(doff + 8, soff, n);
}

TEST(a_frame_sized_copy_is_whole)
{
	copy_each(0, 0, 60);
	copy_each(3, 5, 81);
}

TEST(a_fill_of_every_length_up_to_64_at_every_alignment_writes_those_bytes_and_no_others)
{
	for (unsigned doff = 0; doff < 8; doff++)
		for (unsigned n = 0; n <= 64; n++) {
			fill_each(doff + 8, 0, n);
			fill_each(doff + 8, 0x5a, n);
			fill_each(doff + 8, 0xff, n);
		}
}
