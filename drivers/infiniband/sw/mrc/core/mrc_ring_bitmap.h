/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A bitmap over a sliding window of PSNs.
 *
 * Both PSN windows (receiver and sender) keep one bit per PSN in
 * [base, base + nbits), where base moves forward as PSNs complete.  Bits are
 * addressed by their offset from base; bit offset 0 lives at word position
 * @head, and sliding the window forward moves @head instead of shifting
 * memory.
 *
 * The ring is indexed by offset from a moving head rather than by
 * "psn % nbits" because nbits need only be a multiple of 64: when it is not
 * a power of two, psn % nbits is not continuous across the 2^32 PSN wrap.
 *
 * All operations work a 64-bit word at a time.  Offsets passed in must be
 * below nbits; the callers (mrc_rx_window, mrc_tx_window) check wire input
 * before it gets here.
 */
#ifndef MRC_RING_BITMAP_H
#define MRC_RING_BITMAP_H

#include "mrc_core_compat.h"

struct mrc_ring_bitmap {
	uint64_t *words;	/* caller storage, nbits / 64 words */
	uint32_t nbits;		/* a non-zero multiple of 64 */
	uint32_t head;		/* bit position of offset 0 in words[] */
};

int mrc_ring_bitmap_init(struct mrc_ring_bitmap *rb, uint64_t *storage, uint32_t nwords,
			 uint32_t nbits);
bool mrc_ring_bitmap_test(const struct mrc_ring_bitmap *rb, uint32_t off);
bool mrc_ring_bitmap_test_and_set(struct mrc_ring_bitmap *rb, uint32_t off);
uint64_t mrc_ring_bitmap_get64(const struct mrc_ring_bitmap *rb, uint32_t off);
uint64_t mrc_ring_bitmap_or64(struct mrc_ring_bitmap *rb, uint32_t off, uint64_t bits);
uint32_t mrc_ring_bitmap_advance(struct mrc_ring_bitmap *rb, uint32_t n);
uint32_t mrc_ring_bitmap_pop_ones(struct mrc_ring_bitmap *rb);
uint32_t mrc_ring_bitmap_find_zero(const struct mrc_ring_bitmap *rb, uint32_t from,
				   uint32_t limit);

#endif /* MRC_RING_BITMAP_H */
