// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The sender's scoreboard of PSNs in flight.
 *
 * Invariants:
 *  - una <= sack_next <= nxt <= una + window, in serial order;
 *  - the bit of una (offset 0) is always clear: a SACKed una is treated as
 *    cumulatively acknowledged at once (MRC never reneges on a SACK: the
 *    payload was placed in memory when it arrived);
 *  - nr_sacked is the number of set bits, all of them below sack_next.
 */
#include "mrc_tx_window.h"
#include "mrc_psn.h"

/**
 * mrc_tx_window_init() - start an empty scoreboard.
 * @tx: the scoreboard
 * @window: most PSNs in flight, a multiple of MRC_WINDOW_ALIGN in
 *          [MRC_WINDOW_MIN, MRC_WINDOW_MAX]; no larger than the peer's
 *          receive window, or packets past it will be dropped
 * @storage: MRC_WINDOW_WORDS(@window) words owned by @tx until it is dropped
 * @nwords: words available at @storage
 * @initial_psn: the PSN of the first packet
 *
 * Return: 0, or -MRC_EINVAL for a bad size or too little storage.
 */
int mrc_tx_window_init(struct mrc_tx_window *tx, uint32_t window, uint64_t *storage,
		       uint32_t nwords, uint32_t initial_psn)
{
	int err;

	if (!tx || window < MRC_WINDOW_MIN || window > MRC_WINDOW_MAX ||
	    window % MRC_WINDOW_ALIGN != 0)
		return -MRC_EINVAL;
	err = mrc_ring_bitmap_init(&tx->sacked, storage, nwords, window);
	if (err)
		return err;
	tx->una = initial_psn;
	tx->nxt = initial_psn;
	tx->sack_next = initial_psn;
	tx->nr_sacked = 0;
	return 0;
}

/**
 * mrc_tx_window_alloc() - take the PSN for a new packet.
 * @tx: the scoreboard
 * @psn: set to the new packet's PSN
 *
 * Return: 0, or -MRC_ENOSPC when the window is full until an ACK arrives.
 */
int mrc_tx_window_alloc(struct mrc_tx_window *tx, uint32_t *psn)
{
	if (tx->nxt - tx->una >= tx->sacked.nbits)
		return -MRC_ENOSPC;
	*psn = tx->nxt++;
	return 0;
}

/*
 * Check an ACK against what was sent: cum_psn at most nxt, sack_base not
 * before cum_psn, and SACK bits only for PSNs in (cum_psn, nxt): cum_psn
 * itself is by definition not received.  Holds for stale ACKs too.
 */
static bool mrc_tx_ack_valid(const struct mrc_tx_window *tx, const struct mrc_sack *ack)
{
	uint32_t i;

	if (mrc_psn_after(ack->cum_psn, tx->nxt) ||
	    mrc_psn_before(ack->sack_base, ack->cum_psn))
		return false;

	for (i = 0; i < MRC_SACK_WORDS; i++) {
		uint32_t first = ack->sack_base + 64U * i;
		int32_t sent = mrc_psn_diff(tx->nxt, first);	/* PSNs of this word sent */
		uint64_t allowed = 0;

		if (sent > 0)
			allowed = sent >= 64 ? ~0ULL : (1ULL << sent) - 1U;
		if (first == ack->cum_psn)
			allowed &= ~1ULL;
		if (ack->bitmap[i] & ~allowed)
			return false;
	}
	return true;
}

/*
 * Mark the SACKed PSNs of @ack; bits for PSNs before una (possible in a
 * stale ACK) are old news and dropped.  Validated: no bit at or past nxt.
 */
static void mrc_tx_apply_sack(struct mrc_tx_window *tx, const struct mrc_sack *ack,
			      struct mrc_tx_ack_result *result)
{
	uint32_t i;

	for (i = 0; i < MRC_SACK_WORDS; i++) {
		uint32_t first = ack->sack_base + 64U * i;
		int32_t off = mrc_psn_diff(first, tx->una);
		uint64_t bits = ack->bitmap[i];
		uint32_t fresh;

		if (off < 0) {
			bits = off <= -64 ? 0 : bits >> -off;
			off = 0;
		}
		if (!bits)
			continue;
		fresh = mrc_popcount64(mrc_ring_bitmap_or64(&tx->sacked, (uint32_t)off, bits));
		tx->nr_sacked += fresh;
		result->newly_acked += fresh;
		tx->sack_next = mrc_psn_max(tx->sack_next,
					    tx->una + (uint32_t)off + mrc_fls64(bits));
	}
}

/**
 * mrc_tx_window_ack() - apply an ACK's cumulative PSN and SACK bitmap.
 * @tx: the scoreboard
 * @ack: the ACK's summary, straight from the wire
 * @result: set to what changed
 *
 * ACKs travel sprayed over many paths too, so they overtake each other.  An
 * ACK whose cum_psn is before una is stale: its cumulative part is old news,
 * but its SACK bits are still true (a receiver never forgets a PSN) and may
 * be news, e.g. for a region past the newest ACK's bitmap, so they are
 * applied.  A duplicate ACK simply changes nothing.
 *
 * Return: 0, or -MRC_EPROTO when the ACK acknowledges PSNs never sent or is
 * malformed; nothing is changed then and the caller should count it.
 */
int mrc_tx_window_ack(struct mrc_tx_window *tx, const struct mrc_sack *ack,
		      struct mrc_tx_ack_result *result)
{
	uint32_t advance, freed_sacked;

	memset(result, 0, sizeof(*result));
	if (!mrc_tx_ack_valid(tx, ack))
		return -MRC_EPROTO;

	if (mrc_psn_before(ack->cum_psn, tx->una)) {
		result->stale = true;
	} else {
		/* Cumulative part: PSNs not already SACKed are news. */
		advance = ack->cum_psn - tx->una;
		freed_sacked = mrc_ring_bitmap_advance(&tx->sacked, advance);
		tx->nr_sacked -= freed_sacked;
		tx->una = ack->cum_psn;
		tx->sack_next = mrc_psn_max(tx->sack_next, tx->una);
		result->una_advance = advance;
		result->newly_acked = advance - freed_sacked;
	}

	mrc_tx_apply_sack(tx, ack, result);

	/*
	 * una itself can be SACKed only if an earlier ACK SACKed the PSN this
	 * one calls cum_psn, which a correct receiver never does; sliding past
	 * it keeps the invariant without trusting the peer.
	 */
	advance = mrc_ring_bitmap_pop_ones(&tx->sacked);
	tx->nr_sacked -= advance;
	tx->una += advance;
	result->una_advance += advance;
	return 0;
}

/* True when @psn was sent and has been acknowledged, cumulatively or by SACK. */
bool mrc_tx_window_is_acked(const struct mrc_tx_window *tx, uint32_t psn)
{
	uint32_t off = psn - tx->una;

	if (mrc_psn_before(psn, tx->una))
		return true;
	return off < tx->nxt - tx->una && mrc_ring_bitmap_test(&tx->sacked, off);
}

/* First unacknowledged PSN at or after @from (una if before it) and below @end. */
static bool mrc_tx_next_unacked_below(const struct mrc_tx_window *tx, uint32_t from,
				      uint32_t end, uint32_t *psn)
{
	uint32_t limit = end - tx->una;
	uint32_t off = mrc_psn_before(from, tx->una) ? 0 : from - tx->una;

	if (off >= limit)
		return false;
	off = mrc_ring_bitmap_find_zero(&tx->sacked, off, limit);
	if (off == limit)
		return false;
	*psn = tx->una + off;
	return true;
}

/**
 * mrc_tx_window_next_hole() - find a PSN worth resending selectively.
 * @tx: the scoreboard
 * @from: first PSN to consider; una or before means from the start
 * @psn: set to the hole found
 *
 * A hole is a PSN not acknowledged although a later one has been SACKed:
 * lost, or still overtaken on a slower path.  Telling the two apart takes
 * time, which is the caller's business.
 *
 * Return: true when a hole at or after @from was found.
 */
bool mrc_tx_window_next_hole(const struct mrc_tx_window *tx, uint32_t from, uint32_t *psn)
{
	return mrc_tx_next_unacked_below(tx, from, tx->sack_next, psn);
}

/**
 * mrc_tx_window_next_unacked() - find a PSN still waiting for an ACK.
 * @tx: the scoreboard
 * @from: first PSN to consider; una or before means from the start
 * @psn: set to the PSN found
 *
 * Unlike holes, this includes the tail sent after the highest SACKed PSN;
 * it is what a retransmission timeout walks.
 *
 * Return: true when an unacknowledged PSN at or after @from was found.
 */
bool mrc_tx_window_next_unacked(const struct mrc_tx_window *tx, uint32_t from,
				uint32_t *psn)
{
	return mrc_tx_next_unacked_below(tx, from, tx->nxt, psn);
}
