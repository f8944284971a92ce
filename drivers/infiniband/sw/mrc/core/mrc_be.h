/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Big-endian (network byte order) loads and stores, one byte at a time.
 *
 * The wire codec reads and writes headers through these alone.  Working on
 * bytes makes them independent of host byte order and of alignment: a
 * header field may sit at any offset in a packet buffer.
 */
#ifndef MRC_BE_H
#define MRC_BE_H

#include "mrc_core_compat.h"

static inline uint16_t mrc_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t mrc_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t mrc_get_be64(const uint8_t *p)
{
	return (uint64_t)mrc_get_be32(p) << 32 | mrc_get_be32(p + 4);
}

static inline void mrc_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void mrc_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void mrc_put_be64(uint8_t *p, uint64_t v)
{
	mrc_put_be32(p, (uint32_t)(v >> 32));
	mrc_put_be32(p + 4, (uint32_t)v);
}

#endif /* MRC_BE_H */
