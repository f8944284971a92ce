/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The receiver's PSN window (the OCP MRC "MPR").
 *
 * Packets are sprayed over many paths, so they arrive in any order.  The
 * window tracks the cumulative PSN @cum (every PSN before it has arrived,
 * cum itself has not) and which PSNs in [cum, cum + window) have arrived.
 * A PSN at or past cum + window cannot be tracked and must be dropped; the
 * sender never sends that far ahead of its own window, so such a PSN means
 * the two sides disagree on the window or the sender misbehaves.
 *
 * The caller owns the storage and the locking; nothing here allocates.
 */
#ifndef MRC_RX_WINDOW_H
#define MRC_RX_WINDOW_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"
#include "mrc_ring_bitmap.h"
#include "mrc_sack.h"

enum mrc_rx_result {
	MRC_RX_NEW,		/* first arrival: place the payload */
	MRC_RX_DUPLICATE,	/* already received (before cum or bit set) */
	MRC_RX_BEYOND_WINDOW,	/* psn >= cum + window: drop, count, NACK */
};

struct mrc_rx_window {
	struct mrc_ring_bitmap map;	/* offset i: PSN cum + i has arrived */
	uint32_t cum;			/* next PSN not yet received */
	uint32_t max_next;		/* one past the highest PSN received */
	uint32_t nr_ooo;		/* PSNs received after cum */
};

int mrc_rx_window_init(struct mrc_rx_window *rx, uint32_t window, uint64_t *storage,
		       uint32_t nwords, uint32_t initial_psn);
enum mrc_rx_result mrc_rx_window_accept(struct mrc_rx_window *rx, uint32_t psn,
					uint32_t *advance);
bool mrc_rx_window_test(const struct mrc_rx_window *rx, uint32_t psn);
void mrc_rx_window_sack(const struct mrc_rx_window *rx, struct mrc_sack *sack);
void mrc_rx_window_sack_for(const struct mrc_rx_window *rx, uint32_t psn, uint32_t prev_cum,
			    struct mrc_sack *sack);
int mrc_rx_window_sack_from(const struct mrc_rx_window *rx, uint32_t base,
			    struct mrc_sack *sack);
const char *mrc_rx_result_name(enum mrc_rx_result result);

/* Next PSN not yet received: every PSN before it has arrived. */
static inline uint32_t mrc_rx_window_cum(const struct mrc_rx_window *rx)
{
	return rx->cum;
}

static inline uint32_t mrc_rx_window_size(const struct mrc_rx_window *rx)
{
	return rx->map.nbits;
}

/* Highest PSN received so far; cum - 1 when nothing is out of order. */
static inline uint32_t mrc_rx_window_highest(const struct mrc_rx_window *rx)
{
	return rx->max_next - 1U;
}

/* PSNs missing below the highest one received. */
static inline uint32_t mrc_rx_window_holes(const struct mrc_rx_window *rx)
{
	return rx->max_next - rx->cum - rx->nr_ooo;
}

/* True when some PSN after cum has arrived, i.e. cum is a hole. */
static inline bool mrc_rx_window_has_ooo(const struct mrc_rx_window *rx)
{
	return rx->nr_ooo != 0;
}

#endif /* MRC_RX_WINDOW_H */
