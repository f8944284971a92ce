// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The way back along a segment routing header (see mrc_srh.h).
 */
#include "mrc_srh.h"

/*
 * The segments back to the sender of a packet that arrived with routing
 * header @rh (@len bytes available from it): its transit segments in the
 * opposite order, as an SRV6 EV (the sender's address becomes the last
 * segment when the answer is sent). -MRC_EINVAL when there is no way back
 * to take: not an SRH, one that does not fit in @len, segments left (not at
 * its end: the packet is not ours), no transit segment, more than an EV
 * holds, or a segment that is no routable unicast address; @back is then
 * left as it was.
 */
int mrc_srh_reverse(const uint8_t *rh, size_t len, struct mrc_ev_srv6 *back)
{
	struct mrc_ev_srv6 way = { 0 };
	uint32_t total, transit, i;

	if (len < MRC_SRH_FIXED_BYTES || rh[2] != MRC_SRH_TYPE || rh[3] != 0)
		return -MRC_EINVAL;
	total = ((uint32_t)rh[1] + 1U) * 8U;
	transit = rh[4];	/* last entry: segment 0 is ourselves */
	if (total > len || transit == 0 || transit > MRC_PROF_SRV6_SIDS ||
	    MRC_SRH_FIXED_BYTES + (transit + 1U) * MRC_PROF_SID_BYTES > total)
		return -MRC_EINVAL;

	way.nr_sids = (uint8_t)transit;
	/* segment n was visited first, segment 1 last: back, 1 comes first */
	for (i = 0; i < transit; i++) {
		const uint8_t *seg = rh + MRC_SRH_FIXED_BYTES + (i + 1U) * MRC_PROF_SID_BYTES;

		if (!mrc_prof_sid_routable(seg))
			return -MRC_EINVAL;
		memcpy(way.sid[i], seg, MRC_PROF_SID_BYTES);
	}
	*back = way;	/* untouched on failure */
	return 0;
}
