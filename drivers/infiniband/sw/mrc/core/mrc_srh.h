/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The way back along a segment routing header (RFC 8754).
 *
 * An SRV6 EV names its transit nodes, and a Clos fabric's node SIDs (End)
 * are reachable from either side of the node: the answers to a request
 * that came over segments S1 ... Sn (in travel order) go back over Sn ... S1,
 * so an EV is one path both ways. An ACK lost on the way back then counts
 * against the EV whose path lost it, and a probe tests the round trip the
 * QP's ACKs take. Documentation/multipath.rst, "Answers".
 */
#ifndef MRC_SRH_H
#define MRC_SRH_H

#include "mrc_core_compat.h"
#include "mrc_profile.h"

#define MRC_SRH_TYPE		4U	/* routing type of an SRH */
#define MRC_SRH_FIXED_BYTES	8U	/* before the segment list */

int mrc_srh_reverse(const uint8_t *rh, size_t len, struct mrc_ev_srv6 *back);

#endif /* MRC_SRH_H */
