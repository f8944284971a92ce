/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The sender's scoreboard of PSNs in flight.
 *
 * The sender gives consecutive PSNs to the packets it sends and keeps every
 * PSN in [una, nxt) until the receiver acknowledges it, cumulatively or by
 * SACK.  ACKs are wire input: one that claims PSNs never sent is rejected
 * whole without changing any state; one that is stale (overtaken by a later
 * ACK) has only its SACK bits applied.
 *
 * Loss recovery is selective only.  The scoreboard says which PSNs are
 * holes (unacknowledged below the highest SACKed PSN) and which are merely
 * unacknowledged; when to resend them, and on which path, is the caller's
 * decision.  There is no go-back-N.
 *
 * The caller owns the storage and the locking; nothing here allocates.
 */
#ifndef MRC_TX_WINDOW_H
#define MRC_TX_WINDOW_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"
#include "mrc_ring_bitmap.h"
#include "mrc_sack.h"

struct mrc_tx_window {
	struct mrc_ring_bitmap sacked;	/* offset i: PSN una + i SACKed */
	uint32_t una;			/* oldest PSN not acknowledged */
	uint32_t nxt;			/* PSN the next new packet gets */
	uint32_t sack_next;		/* one past the highest SACKed PSN, >= una */
	uint32_t nr_sacked;		/* set bits in @sacked */
};

/* What one ACK changed; all zero when it was rejected. */
struct mrc_tx_ack_result {
	uint32_t una_advance;	/* PSNs [old una, old una + this) are done */
	uint32_t newly_acked;	/* in-flight PSNs this ACK acknowledged (for CC) */
	bool stale;		/* cum_psn before una: only SACK bits applied */
};

int mrc_tx_window_init(struct mrc_tx_window *tx, uint32_t window, uint64_t *storage,
		       uint32_t nwords, uint32_t initial_psn);
int mrc_tx_window_alloc(struct mrc_tx_window *tx, uint32_t *psn);
int mrc_tx_window_ack(struct mrc_tx_window *tx, const struct mrc_sack *ack,
		      struct mrc_tx_ack_result *result);
bool mrc_tx_window_is_acked(const struct mrc_tx_window *tx, uint32_t psn);
bool mrc_tx_window_next_hole(const struct mrc_tx_window *tx, uint32_t from, uint32_t *psn);
bool mrc_tx_window_next_unacked(const struct mrc_tx_window *tx, uint32_t from,
				uint32_t *psn);

/*
 * Visit every hole in PSN order.  Holes are only read, so the body may
 * resend them but must not apply ACKs.
 */
#define mrc_tx_window_for_each_hole(tx, psn)					\
	for (bool mrc_more_ = mrc_tx_window_next_hole(tx, (tx)->una, &(psn));	\
	     mrc_more_; mrc_more_ = mrc_tx_window_next_hole(tx, (psn) + 1U, &(psn)))

static inline uint32_t mrc_tx_window_una(const struct mrc_tx_window *tx)
{
	return tx->una;
}

static inline uint32_t mrc_tx_window_nxt(const struct mrc_tx_window *tx)
{
	return tx->nxt;
}

static inline uint32_t mrc_tx_window_size(const struct mrc_tx_window *tx)
{
	return tx->sacked.nbits;
}

/* PSNs sent and not yet cumulatively acknowledged, SACKed ones included. */
static inline uint32_t mrc_tx_window_outstanding(const struct mrc_tx_window *tx)
{
	return tx->nxt - tx->una;
}

/* New PSNs mrc_tx_window_alloc() can still hand out. */
static inline uint32_t mrc_tx_window_space(const struct mrc_tx_window *tx)
{
	return tx->sacked.nbits - (tx->nxt - tx->una);
}

/* Unacknowledged PSNs below the highest SACKed one. */
static inline uint32_t mrc_tx_window_holes(const struct mrc_tx_window *tx)
{
	return tx->sack_next - tx->una - tx->nr_sacked;
}

#endif /* MRC_TX_WINDOW_H */
