/*
 * bytes.h - big-endian (network order) fields in a byte buffer, as frames carry them: the
 * kernel's frame checks (kernel/packet.c), the udp and web programs' frames and their tests
 * read and write them the same way, and checksum them alike.  Header only: the callers are
 * hot paths in three layers.
 */
#ifndef LIB_BYTES_H
#define LIB_BYTES_H

#include <stdint.h>

static inline uint16_t
be16_get(const uint8_t *p)
{
	return (uint16_t) (p[0] << 8 | p[1]);
}

static inline uint32_t
be32_get(const uint8_t *p)
{
	return (uint32_t) be16_get(p) << 16 | be16_get(p + 2);
}

static inline void
be16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) (v >> 8);
	p[1] = (uint8_t) v;
}

static inline void
be32_put(uint8_t *p, uint32_t v)
{
	be16_put(p, (uint16_t) (v >> 16));
	be16_put(p + 2, (uint16_t) v);
}

/*
 * The Internet checksum (RFC 1071) of the n bytes at p (n even), added to sum (a
 * pseudo-header's words, or 0): what an IPv4 header or a TCP segment carries.
 */
static inline uint16_t
inet_sum(const uint8_t *p, unsigned n, uint32_t sum)
{
	for (unsigned i = 0; i + 1 < n; i += 2)
		sum += be16_get(p + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t) ~sum;
}

#endif
