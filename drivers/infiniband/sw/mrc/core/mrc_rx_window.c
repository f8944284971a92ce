// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The receiver's PSN window (the OCP MRC "MPR").
 *
 * Invariants, relied on by the inline queries in the header:
 *  - the bit of cum (offset 0) is always clear: once cum arrives the window
 *    slides past it and every PSN after it that had already arrived;
 *  - nr_ooo is the number of set bits;
 *  - cum <= max_next <= cum + window, in serial order.
 */
#include "mrc_rx_window.h"
#include "mrc_psn.h"

/**
 * mrc_rx_window_init() - start an empty window.
 * @rx: the window
 * @window: PSNs tracked past cum, a multiple of MRC_WINDOW_ALIGN in
 *          [MRC_WINDOW_MIN, MRC_WINDOW_MAX]
 * @storage: MRC_WINDOW_WORDS(@window) words owned by @rx until it is dropped
 * @nwords: words available at @storage
 * @initial_psn: the first PSN the peer will send
 *
 * Return: 0, or -MRC_EINVAL for a bad size or too little storage.
 */
int mrc_rx_window_init(struct mrc_rx_window *rx, uint32_t window, uint64_t *storage,
		       uint32_t nwords, uint32_t initial_psn)
{
	int err;

	if (!rx || window < MRC_WINDOW_MIN || window > MRC_WINDOW_MAX ||
	    window % MRC_WINDOW_ALIGN != 0)
		return -MRC_EINVAL;
	err = mrc_ring_bitmap_init(&rx->map, storage, nwords, window);
	if (err)
		return err;
	rx->cum = initial_psn;
	rx->max_next = initial_psn;
	rx->nr_ooo = 0;
	return 0;
}

/**
 * mrc_rx_window_accept() - record the arrival of a data packet.
 * @rx: the window
 * @psn: the packet's PSN, straight from the wire
 * @advance: if not NULL, set to how far cum moved forward: the PSNs
 *           [old cum, old cum + *advance) have just become complete
 *
 * A PSN before cum, including wire garbage 2^31 or more ahead of it, counts
 * as a duplicate: either way there is nothing to place.
 *
 * Return: what the caller must do with the packet.
 */
enum mrc_rx_result mrc_rx_window_accept(struct mrc_rx_window *rx, uint32_t psn,
					uint32_t *advance)
{
	uint32_t off = psn - rx->cum;
	uint32_t run;

	if (advance)
		*advance = 0;
	if (mrc_psn_before(psn, rx->cum))
		return MRC_RX_DUPLICATE;
	if (off >= rx->map.nbits)
		return MRC_RX_BEYOND_WINDOW;
	if (mrc_ring_bitmap_test_and_set(&rx->map, off))
		return MRC_RX_DUPLICATE;

	if (off != 0) {
		rx->nr_ooo++;
		rx->max_next = mrc_psn_max(rx->max_next, psn + 1U);
		return MRC_RX_NEW;
	}

	/* cum itself arrived: slide past it and the run that followed it. */
	run = mrc_ring_bitmap_pop_ones(&rx->map);
	rx->nr_ooo -= run - 1U;
	rx->cum += run;
	rx->max_next = mrc_psn_max(rx->max_next, rx->cum);
	if (advance)
		*advance = run;
	return MRC_RX_NEW;
}

/* True when @psn has arrived; PSNs past the window have not. */
bool mrc_rx_window_test(const struct mrc_rx_window *rx, uint32_t psn)
{
	uint32_t off = psn - rx->cum;

	if (mrc_psn_before(psn, rx->cum))
		return true;
	return off < rx->map.nbits && mrc_ring_bitmap_test(&rx->map, off);
}

/**
 * mrc_rx_window_sack_from() - summarise arrivals for an ACK.
 * @rx: the window
 * @base: first PSN the bitmap describes, in [cum, cum + window)
 * @sack: filled with cum, @base and the arrival bits of the MRC_SACK_BITS
 *        PSNs from @base (PSNs past the window read as not arrived)
 *
 * Describing a region other than the one right after cum lets a receiver
 * with a window wider than MRC_SACK_BITS report holes far ahead of cum.
 *
 * Return: 0, or -MRC_EINVAL when @base is outside the window.
 */
int mrc_rx_window_sack_from(const struct mrc_rx_window *rx, uint32_t base,
			    struct mrc_sack *sack)
{
	uint32_t off = base - rx->cum;
	uint32_t i;

	if (off >= rx->map.nbits)
		return -MRC_EINVAL;

	sack->cum_psn = rx->cum;
	sack->sack_base = base;
	for (i = 0; i < MRC_SACK_WORDS; i++, off += 64U)
		sack->bitmap[i] = off < rx->map.nbits ? mrc_ring_bitmap_get64(&rx->map, off) : 0;
	return 0;
}

/* The usual summary: the MRC_SACK_BITS PSNs starting at cum. */
void mrc_rx_window_sack(const struct mrc_rx_window *rx, struct mrc_sack *sack)
{
	/* Cannot fail: offset 0 is always inside the window. */
	mrc_rx_window_sack_from(rx, rx->cum, sack);
}

/*
 * The summary an ACK answering the packet with @psn carries, @prev_cum being
 * cum when the previous ACK left: the usual one, unless cum has not moved
 * since and @psn lies MRC_SACK_BITS or more past it -- then the
 * MRC_SACK_BITS PSNs that end with @psn. A window is wider than one
 * summary; when its first PSNs wait for resends (a path died under a full
 * window), only later ones keep arriving, and a sender told of cum's
 * neighbourhood alone would see neither them nor the holes among them until
 * cum moved: it would wait for its retransmit timeout. While cum moves, the
 * usual summary is the news: a far region then shows holes that are merely
 * late (paths whose queues differ), and resending them would be spurious.
 * The sender keeps what each summary told it, so regions need not be
 * described together.
 */
void mrc_rx_window_sack_for(const struct mrc_rx_window *rx, uint32_t psn, uint32_t prev_cum,
			    struct mrc_sack *sack)
{
	uint32_t base = rx->cum;

	if (prev_cum == rx->cum && mrc_psn_after(psn, rx->cum) &&
	    psn - rx->cum >= MRC_SACK_BITS && psn - rx->cum < rx->map.nbits)
		base = psn - (MRC_SACK_BITS - 1U);
	/* Cannot fail: base lies within the window. */
	mrc_rx_window_sack_from(rx, base, sack);
}

/* For traces and counters: a printable name for each result. */
const char *mrc_rx_result_name(enum mrc_rx_result result)
{
	switch (result) {
	case MRC_RX_NEW:
		return "new";
	case MRC_RX_DUPLICATE:
		return "duplicate";
	case MRC_RX_BEYOND_WINDOW:
		return "beyond_window";
	}
	return "unknown";
}
