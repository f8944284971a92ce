// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Cutting a message into packets (see mrc_seg.h).  MTUs are powers of two,
 * so every division here is a shift.
 */
#include "mrc_seg.h"

/* True for the IB MTUs 256, 512, 1024, 2048 and 4096. */
bool mrc_seg_mtu_valid(uint32_t mtu)
{
	return mtu >= MRC_SEG_MTU_MIN && mtu <= MRC_SEG_MTU_MAX && (mtu & (mtu - 1U)) == 0;
}

static unsigned int mrc_seg_shift(uint32_t mtu)
{
	return mrc_fls64(mtu) - 1U;
}

/**
 * mrc_seg_count() - packets (and PSNs) a message takes.
 * @len: the message's length in bytes
 * @mtu: the path MTU, mrc_seg_mtu_valid()
 *
 * Return: max(1, ceil(@len / @mtu)), or 0 for an invalid @mtu.
 */
uint32_t mrc_seg_count(uint32_t len, uint32_t mtu)
{
	uint32_t n;

	if (!mrc_seg_mtu_valid(mtu))
		return 0;
	n = len >> mrc_seg_shift(mtu);
	if (len & (mtu - 1U))
		n++;
	return n ? n : 1U;
}

/**
 * mrc_seg_get() - the bytes one packet of a message carries.
 * @len: the message's length in bytes
 * @mtu: the path MTU, mrc_seg_mtu_valid()
 * @index: the packet, below mrc_seg_count(@len, @mtu)
 * @offset: set to the offset of the packet's first byte in the message
 * @seg_len: set to the packet's payload length (0 only for @len 0)
 *
 * Return: 0, or -MRC_EINVAL for an invalid @mtu or @index.
 */
int mrc_seg_get(uint32_t len, uint32_t mtu, uint32_t index, uint32_t *offset,
		uint32_t *seg_len)
{
	uint32_t off;

	if (index >= mrc_seg_count(len, mtu))
		return -MRC_EINVAL;
	off = index << mrc_seg_shift(mtu);
	*offset = off;
	*seg_len = len - off < mtu ? len - off : mtu;
	return 0;
}
