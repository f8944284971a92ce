/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A windowed minimum of round-trip samples: the least sample of the current
 * epoch and of the one before it, so a route that got longer is learnt
 * within two epochs while one quiet epoch does not forget the base. Shared
 * by the congestion window (its base RTT) and loss detection (its minimum
 * RTT). Times are nanoseconds of the caller's clock.
 */
#ifndef MRC_RTT_MIN_H
#define MRC_RTT_MIN_H

#include "mrc_core_compat.h"

/* The minimum before any sample. */
#define MRC_RTT_MIN_NONE	0xffffffffU

struct mrc_rtt_min {
	uint32_t epoch_min_ns;
	uint32_t prev_min_ns;
	uint64_t epoch_start_ns;
};

static inline void mrc_rtt_min_init(struct mrc_rtt_min *m, uint64_t now_ns)
{
	m->epoch_min_ns = MRC_RTT_MIN_NONE;
	m->prev_min_ns = MRC_RTT_MIN_NONE;
	m->epoch_start_ns = now_ns;
}

static inline void mrc_rtt_min_sample(struct mrc_rtt_min *m, uint32_t rtt_ns, uint64_t now_ns,
				      uint64_t epoch_ns)
{
	if (now_ns - m->epoch_start_ns >= epoch_ns) {
		m->prev_min_ns = m->epoch_min_ns;
		m->epoch_min_ns = MRC_RTT_MIN_NONE;
		m->epoch_start_ns = now_ns;
	}
	if (rtt_ns < m->epoch_min_ns)
		m->epoch_min_ns = rtt_ns;
}

/* The least sample of the two epochs, MRC_RTT_MIN_NONE before any. */
static inline uint32_t mrc_rtt_min_get(const struct mrc_rtt_min *m)
{
	return m->epoch_min_ns < m->prev_min_ns ? m->epoch_min_ns : m->prev_min_ns;
}

#endif /* MRC_RTT_MIN_H */
