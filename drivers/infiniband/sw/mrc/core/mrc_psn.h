/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Serial number arithmetic over the 32-bit PSN space.
 *
 * PSNs wrap at 2^32, so "before" and "after" are defined RFC 1982 style: a
 * is before b when the forward distance from a to b is less than 2^31.  Two
 * PSNs exactly 2^31 apart are both "before" each other; the core never
 * compares PSNs further apart than a window (MRC_WINDOW_MAX), so this
 * ambiguity is unreachable for valid state and harmless for wire garbage.
 */
#ifndef MRC_PSN_H
#define MRC_PSN_H

#include "mrc_core_compat.h"

/*
 * Signed distance from b to a: positive when a is after b.  The conversion
 * to int32_t relies on two's complement, as the kernel does everywhere.
 */
static inline int32_t mrc_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

static inline bool mrc_psn_before(uint32_t a, uint32_t b)
{
	return mrc_psn_diff(a, b) < 0;
}

static inline bool mrc_psn_after(uint32_t a, uint32_t b)
{
	return mrc_psn_diff(a, b) > 0;
}

static inline uint32_t mrc_psn_add(uint32_t psn, uint32_t n)
{
	return psn + n;
}

/* The later of two PSNs, in serial order. */
static inline uint32_t mrc_psn_max(uint32_t a, uint32_t b)
{
	return mrc_psn_after(a, b) ? a : b;
}

/* True when psn lies in [base, base + len), wrapping at 2^32. */
static inline bool mrc_psn_in_range(uint32_t psn, uint32_t base, uint32_t len)
{
	return psn - base < len;
}

#endif /* MRC_PSN_H */
