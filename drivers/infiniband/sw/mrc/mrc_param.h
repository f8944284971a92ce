/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_param.h - every limit and default of an mrc device, in one place.
 */
#ifndef MRC_PARAM_H
#define MRC_PARAM_H

#include <rdma/ib_verbs.h>

/*
 * Worst-case bytes in front of the payload: IPv6 (40) + the SRH of an SRV6
 * EV (8, and 16 for each of its segments: the EV's two and the peer) + UDP
 * (8) + the MRC transport headers (budget 64). The IB MTU we advertise is
 * the largest one that fits the netdev MTU after this overhead, so a
 * full-MTU packet never needs fragmenting.
 */
#define MRC_NET_SRH_MAX		(8 + 3 * 16)
#define MRC_MAX_HDR_LEN		(40 + MRC_NET_SRH_MAX + 8 + 64)

#define MRC_PORT_GID_TBL_LEN	128
#define MRC_PORT_PKEY_TBL_LEN	1
#define MRC_PORT_MAX_MSG_SZ	0x80000000u

#define MRC_MAX_PD		(1 << 16)
#define MRC_MAX_UCONTEXT	512
#define MRC_MAX_AH		(1 << 16)

/* QPNs 0 and 1 are special in IB; keep a few more out of the way. */
#define MRC_MIN_QPN		16
#define MRC_MAX_QPN		0xffffff
#define MRC_MAX_QP		(1 << 16)
#define MRC_MAX_QP_WR		(1 << 14)
#define MRC_MAX_SGE		32
#define MRC_MAX_INLINE_DATA	512
#define MRC_MAX_RD_ATOMIC	128

#define MRC_MAX_CQ		(1 << 16)
#define MRC_MAX_CQE		((1 << 16) - 1)

#define MRC_MAX_SRQ		(1 << 12)
#define MRC_MAX_SRQ_WR		(1 << 14)

/* local ACK timeout used when a QP asks for "infinite" (0): 67 ms */
#define MRC_DEFAULT_TIMEOUT	14

/* MR key index is 24 bits (see mrc_mr.h) */
#define MRC_MAX_MR		((1 << 24) - 1)
#define MRC_MAX_MR_SIZE		(1ULL << 40)

/* IEEE OUI is unassigned for a software device; 0 like other soft RDMA */
#define MRC_VENDOR_ID		0

#endif /* MRC_PARAM_H */
