// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A bitmap over a sliding window of PSNs.
 *
 * See mrc_ring_bitmap.h for the model.  Because nbits is a multiple of 64,
 * a word never straddles the end of the ring: a run of bits starting at
 * position s within word s / 64 continues either in the same word or at the
 * start of the next one, and the word after the last one is words[0].
 */
#include "mrc_ring_bitmap.h"

/* Mask of the low @n bits, 0 <= n <= 64, without the undefined 1 << 64. */
static uint64_t mrc_low_mask(uint32_t n)
{
	return n >= 64U ? ~0ULL : (1ULL << n) - 1U;
}

/* Bit position in words[] of offset @off. */
static uint32_t mrc_ring_pos(const struct mrc_ring_bitmap *rb, uint32_t off)
{
	uint32_t pos = rb->head + off;

	return pos >= rb->nbits ? pos - rb->nbits : pos;
}

static uint32_t mrc_ring_next_word(const struct mrc_ring_bitmap *rb, uint32_t w)
{
	return w + 1U == rb->nbits / 64U ? 0U : w + 1U;
}

/**
 * mrc_ring_bitmap_init() - attach caller storage and clear it.
 * @rb: the bitmap
 * @storage: caller storage for the bits; the bitmap owns it until dropped
 * @nwords: words available at @storage, at least nbits / 64
 * @nbits: window size in bits, a non-zero multiple of 64
 *
 * Return: 0, or -MRC_EINVAL for a bad size or too little storage.
 */
int mrc_ring_bitmap_init(struct mrc_ring_bitmap *rb, uint64_t *storage, uint32_t nwords,
			 uint32_t nbits)
{
	if (!rb || !storage || nbits == 0 || nbits % 64U != 0 || nwords < nbits / 64U)
		return -MRC_EINVAL;

	rb->words = storage;
	rb->nbits = nbits;
	rb->head = 0;
	memset(storage, 0, (size_t)(nbits / 64U) * sizeof(*storage));
	return 0;
}

bool mrc_ring_bitmap_test(const struct mrc_ring_bitmap *rb, uint32_t off)
{
	uint32_t pos = mrc_ring_pos(rb, off);

	return (rb->words[pos / 64U] >> (pos % 64U)) & 1U;
}

/* Set bit @off; returns its previous value. */
bool mrc_ring_bitmap_test_and_set(struct mrc_ring_bitmap *rb, uint32_t off)
{
	uint32_t pos = mrc_ring_pos(rb, off);
	uint64_t bit = 1ULL << (pos % 64U);
	uint64_t *word = &rb->words[pos / 64U];
	bool old = *word & bit;

	*word |= bit;
	return old;
}

/*
 * The 64 bits at offsets [off, off + 64): bit i of the result is offset
 * off + i.  Offsets at or past nbits read as 0.
 */
uint64_t mrc_ring_bitmap_get64(const struct mrc_ring_bitmap *rb, uint32_t off)
{
	uint32_t pos = mrc_ring_pos(rb, off);
	uint32_t w = pos / 64U;
	uint32_t shift = pos % 64U;
	uint64_t bits = rb->words[w] >> shift;

	if (shift)
		bits |= rb->words[mrc_ring_next_word(rb, w)] << (64U - shift);
	return bits & mrc_low_mask(rb->nbits - off);
}

/*
 * Set the bits of @bits at offsets [off, off + 64); bits that would land at
 * or past nbits are ignored.  Returns the bits that were newly set, in the
 * same alignment as @bits, so the caller can count what changed.
 */
uint64_t mrc_ring_bitmap_or64(struct mrc_ring_bitmap *rb, uint32_t off, uint64_t bits)
{
	uint32_t pos = mrc_ring_pos(rb, off);
	uint32_t w = pos / 64U;
	uint32_t shift = pos % 64U;
	uint64_t fresh, lo, hi;

	bits &= mrc_low_mask(rb->nbits - off);
	lo = bits << shift;
	fresh = (lo & ~rb->words[w]) >> shift;
	rb->words[w] |= lo;
	if (shift) {
		w = mrc_ring_next_word(rb, w);
		hi = bits >> (64U - shift);
		fresh |= (hi & ~rb->words[w]) << (64U - shift);
		rb->words[w] |= hi;
	}
	return fresh;
}

/*
 * Slide the window forward by @n <= nbits bits: offsets [0, n) leave,
 * [nbits, nbits + n) enter cleared.  Returns how many of the departing bits
 * were set.
 */
uint32_t mrc_ring_bitmap_advance(struct mrc_ring_bitmap *rb, uint32_t n)
{
	uint32_t set = 0;

	while (n) {
		uint32_t shift = rb->head % 64U;
		uint32_t take = 64U - shift < n ? 64U - shift : n;
		uint64_t mask = mrc_low_mask(take) << shift;
		uint64_t *word = &rb->words[rb->head / 64U];

		set += mrc_popcount64(*word & mask);
		*word &= ~mask;
		rb->head += take;
		if (rb->head == rb->nbits)
			rb->head = 0;
		n -= take;
	}
	return set;
}

/*
 * Slide the window past the run of set bits at offset 0, the PSNs that have
 * just become cumulative.  Returns the length of the run (0 if offset 0 is
 * clear, nbits if every bit was set).
 */
uint32_t mrc_ring_bitmap_pop_ones(struct mrc_ring_bitmap *rb)
{
	uint32_t run = 0;

	while (run < rb->nbits) {
		uint64_t zeros = ~mrc_ring_bitmap_get64(rb, run);

		if (zeros) {
			run += mrc_ctz64(zeros);
			break;
		}
		run += 64U;
	}
	/* get64 reads past nbits as zeros, so the run never exceeds nbits. */
	mrc_ring_bitmap_advance(rb, run);
	return run;
}

/*
 * First clear offset in [from, limit), limit <= nbits, or @limit when every
 * bit in the range is set.
 */
uint32_t mrc_ring_bitmap_find_zero(const struct mrc_ring_bitmap *rb, uint32_t from,
				   uint32_t limit)
{
	uint32_t off = from;

	while (off < limit) {
		uint64_t zeros = ~mrc_ring_bitmap_get64(rb, off);

		if (zeros) {
			off += mrc_ctz64(zeros);
			return off < limit ? off : limit;
		}
		off += 64U;
	}
	return limit;
}
