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

/* The requester: packets per work run; RTO doublings; copies of a PSN stuck by timeouts. */
#define MRC_REQ_BUDGET		64
#define MRC_REQ_MAX_BACKOFF	7
#define MRC_REQ_MAX_SPARES	3
/* READ_REQs a pass sends for responses lost (mrc_req_read_losses()) */
#define MRC_REQ_READ_AGAIN	16
/*
 * Requests for READ responses again count together against an EV when
 * this close (MRC_EV_RESPONSE_STRIKES): a dead EV's next response, one in
 * nr_ev of the spray, is asked for again within it (256 EVs at the VM's
 * 10 MB/s of 4 KiB responses: some 100 ms apart, so 50 ms, the window
 * before, never saw a dead EV twice once a chunk's overtaken responses got
 * a whole reordering window each and the spurious requests that used to
 * fill it were gone, mrc_read_track.c); the few dozen misjudged
 * reorderings a healthy fabric shows in a second seldom fall twice on one
 * EV in it, and a false suspect costs a probe.
 */
#define MRC_RESP_STRIKE_WINDOW_NS	(500ULL * 1000 * 1000)

/*
 * The responder, per QP: READ jobs queued (the READ requests a peer may
 * have outstanding), repeated ones queued ahead of them, SRQ WQEs held at a
 * time, atomic results kept for duplicates, READ response packets per work
 * run and, of those, sent straight from the softirq.
 */
#define MRC_RESP_READS		MRC_READ_REQS_QUEUED
#define MRC_RESP_AGAIN		64
#define MRC_RESP_SRQ_WQES	256
#define MRC_RESP_ATOMICS	128
#define MRC_RESP_BUDGET		32
#define MRC_RESP_INLINE_PKTS	4

/*
 * How often a path set with suspect or ASSUMED_BAD EVs looks at its probes,
 * and the probes and state changes one tick may produce (the next goes on).
 */
#define MRC_PATH_TICK_JIFFIES	max_t(unsigned long, 1, msecs_to_jiffies(2))
#define MRC_PATH_TICK_BATCH	32

/*
 * Copies of each probe reply, and the EV index distance between them: it
 * lands them on different paths of a hash.
 */
#define MRC_PROBE_REPLY_COPIES	3
#define MRC_PROBE_REPLY_SPREAD	85

/* mrcctl's one-shot probe: EVs in one request (the spec's limit), its default timeout. */
#define MRC_NL_PROBE_EVS	64
#define MRC_NL_PROBE_TIMEOUT_MS	1000

/* IEEE OUI is unassigned for a software device; 0 like other soft RDMA */
#define MRC_VENDOR_ID		0

#endif /* MRC_PARAM_H */
