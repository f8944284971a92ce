/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The selective acknowledgment summary an ACK carries.
 *
 * The receiver window (mrc_rx_window) produces it, the sender scoreboard
 * (mrc_tx_window) consumes it.  This is the host-order form; the wire codec
 * puts each field in network byte order:
 *
 *	offset  size  field
 *	     0     4  cum_psn    every PSN before it has been received
 *	     4     4  sack_base  PSN described by bit 0 of bitmap[0]
 *	     8    32  bitmap[4]  bit i of word j set: PSN sack_base + 64 * j + i
 *	                         has been received (each word a big-endian u64)
 *
 * sack_base is normally cum_psn (so bit 0 is always clear); a receiver with
 * holes further than 256 PSNs past cum_psn may instead describe a later
 * region by moving sack_base forward.  sack_base is never before cum_psn.
 */
#ifndef MRC_SACK_H
#define MRC_SACK_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"
#include "mrc_psn.h"

struct mrc_sack {
	uint32_t cum_psn;
	uint32_t sack_base;
	uint64_t bitmap[MRC_SACK_WORDS];
};

/* True when the summary says @psn has arrived (cumulatively or selectively). */
static inline bool mrc_sack_test(const struct mrc_sack *sack, uint32_t psn)
{
	uint32_t off = psn - sack->sack_base;

	if (mrc_psn_before(psn, sack->cum_psn))
		return true;
	if (off >= MRC_SACK_BITS)
		return false;
	return (sack->bitmap[off / 64U] >> (off % 64U)) & 1U;
}

#endif /* MRC_SACK_H */
