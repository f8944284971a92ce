/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one portability shim of the MRC protocol core.
 *
 * The core (this directory) is plain C compiled twice: into mrc.ko and into
 * the host unit tests.  It uses no kernel types and no libc beyond
 * memset/memcpy/memcmp, never allocates and never divides 64-bit values, so
 * everything it needs from its environment is listed here and nowhere else.
 */
#ifndef MRC_CORE_COMPAT_H
#define MRC_CORE_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/bitops.h>

/* Kernel helpers, so no libgcc call (__popcountdi2) sneaks into the module. */
static inline unsigned int mrc_ctz64(uint64_t x)
{
	return __ffs64(x);
}

static inline unsigned int mrc_popcount64(uint64_t x)
{
	return hweight64(x);
}

static inline unsigned int mrc_fls64(uint64_t x)
{
	return fls64(x);
}
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>

/* Number of trailing zero bits; undefined for 0, callers never pass 0. */
static inline unsigned int mrc_ctz64(uint64_t x)
{
	return (unsigned int)__builtin_ctzll(x);
}

static inline unsigned int mrc_popcount64(uint64_t x)
{
	return (unsigned int)__builtin_popcountll(x);
}

/* 1-based index of the most significant set bit, 0 for 0 (kernel fls64). */
static inline unsigned int mrc_fls64(uint64_t x)
{
	return x ? 64U - (unsigned int)__builtin_clzll(x) : 0U;
}
#endif

/*
 * Error codes returned (negated) by the core.  They are the host's or the
 * kernel's own errno values, so a core error can be passed straight up as a
 * kernel return code.
 */
#define MRC_EINVAL	EINVAL	/* bad argument from the caller (a bug) */
#define MRC_ENOSPC	ENOSPC	/* window full, try again after an ACK */
#define MRC_EPROTO	EPROTO	/* wire input that violates the protocol */
#define MRC_ENOENT	ENOENT	/* nothing to choose from */

#endif /* MRC_CORE_COMPAT_H */
