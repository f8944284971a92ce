/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_stats.h - device counters, shown by `rdma statistic show`.
 */
#ifndef MRC_STATS_H
#define MRC_STATS_H

#include <linux/percpu.h>
#include <rdma/ib_verbs.h>

enum mrc_counter {
	MRC_CNT_TX_PACKETS,
	MRC_CNT_TX_BYTES,
	MRC_CNT_RX_PACKETS,
	MRC_CNT_RX_BYTES,
	MRC_CNT_RETRANSMITS,
	MRC_CNT_TIMEOUTS,
	MRC_CNT_RNR_RETRIES,
	MRC_CNT_DUPLICATES,
	MRC_CNT_OUT_OF_ORDER,
	MRC_CNT_ACKS_SENT,
	MRC_CNT_ACKS_RECEIVED,
	MRC_CNT_NAKS_SENT,
	MRC_CNT_NAKS_RECEIVED,
	MRC_CNT_DROP_TRUNCATED,
	MRC_CNT_DROP_BAD_HEADER,
	MRC_CNT_DROP_UNKNOWN_QP,
	MRC_CNT_DROP_QP_STATE,
	MRC_CNT_DROP_OUT_OF_WINDOW,
	MRC_CNT_DROP_BAD_ACK,
	MRC_CNT_DROP_NO_ROUTE,
	MRC_CNT_DROP_NOMEM,
	MRC_CNT_DROP_READ_QUEUE_FULL,
	MRC_CNT_REMOTE_ACCESS_ERRORS,
	MRC_CNT_QP_ERRORS,
	MRC_CNT_EV_SUSPECTED,
	MRC_CNT_EV_MARKED_BAD,
	MRC_CNT_EV_RECOVERED,
	MRC_CNT_PROBES_SENT,
	MRC_CNT_PROBES_ANSWERED,
	MRC_CNT_PROBE_REPLIES,
	MRC_CNT_CE_RECEIVED,
	MRC_CNT_DROP_BAD_NAK,
	MRC_CNT_DROP_BAD_READ,
	MRC_CNT_BAD_RING_INDEX,
	MRC_CNT_PROBES_REFUSED,
	MRC_CNT_REPLY_SRH_REFUSED,
	MRC_CNT_RD_ATOMIC_REFUSED,
	MRC_CNT_SPURIOUS_RESENDS,
	MRC_CNT_TAIL_PROBES,
	MRC_CNT_RETURN_RESENDS,
	MRC_CNT_DROP_BAD_QKEY,
	MRC_CNT_DROP_NO_RECV_WQE,
	MRC_CNT_READ_RESPONSES_LOST,
	MRC_CNT_READ_RESPONSES_RESENT,
	MRC_NR_COUNTERS
};

struct mrc_stats {
	u64 v[MRC_NR_COUNTERS];
};

struct mrc_dev;

int mrc_stats_init(struct mrc_dev *mdev);
void mrc_stats_free(struct mrc_dev *mdev);
void mrc_stats_add(struct mrc_dev *mdev, enum mrc_counter c, u64 n);

static inline void mrc_stats_inc(struct mrc_dev *mdev, enum mrc_counter c)
{
	mrc_stats_add(mdev, c, 1);
}

struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num);
int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index);

#endif /* MRC_STATS_H */
