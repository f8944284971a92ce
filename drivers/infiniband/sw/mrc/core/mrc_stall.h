/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How long a requester's oldest unacknowledged PSN stood still: the stall
 * an application sees, as a fact of the transport rather than a sampler's
 * guess. The clock starts when a PSN becomes the oldest outstanding one
 * (it is sent with nothing else out, or the one before it is acknowledged)
 * and stops when it is acknowledged; the longest such wait is kept. Times
 * are nanoseconds of the caller's clock; the caller owns the locking.
 */
#ifndef MRC_STALL_H
#define MRC_STALL_H

#include "mrc_core_compat.h"

struct mrc_stall {
	uint64_t since_ns;	/* the oldest outstanding PSN became so */
	uint64_t max_ns;	/* the longest wait so far */
};

/* A new PSN goes out at @now_ns; @idle: nothing was outstanding before it. */
static inline void mrc_stall_sent(struct mrc_stall *s, bool idle, uint64_t now_ns)
{
	if (idle)
		s->since_ns = now_ns;
}

/* The oldest outstanding PSN was acknowledged at @now_ns (una moved). */
static inline void mrc_stall_una_moved(struct mrc_stall *s, uint64_t now_ns)
{
	if (now_ns > s->since_ns && now_ns - s->since_ns > s->max_ns)
		s->max_ns = now_ns - s->since_ns;
	s->since_ns = now_ns;
}

#endif /* MRC_STALL_H */
