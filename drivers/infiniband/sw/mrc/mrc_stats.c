// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_stats.c - device counters: per-CPU on the data path, summed when
 * `rdma statistic show` (or sysfs hw_counters) reads them.
 */
#include "mrc.h"
#include "mrc_stats.h"

static const struct rdma_stat_desc mrc_counter_descs[] = {
	[MRC_CNT_TX_PACKETS].name = "tx_packets",
	[MRC_CNT_TX_BYTES].name = "tx_bytes",
	[MRC_CNT_RX_PACKETS].name = "rx_packets",
	[MRC_CNT_RX_BYTES].name = "rx_bytes",
	[MRC_CNT_RETRANSMITS].name = "retransmits",
	[MRC_CNT_TIMEOUTS].name = "timeouts",
	[MRC_CNT_RNR_RETRIES].name = "rnr_retries",
	[MRC_CNT_DUPLICATES].name = "duplicates",
	[MRC_CNT_OUT_OF_ORDER].name = "out_of_order",
	[MRC_CNT_ACKS_SENT].name = "acks_sent",
	[MRC_CNT_ACKS_RECEIVED].name = "acks_received",
	[MRC_CNT_NAKS_SENT].name = "naks_sent",
	[MRC_CNT_NAKS_RECEIVED].name = "naks_received",
	[MRC_CNT_DROP_TRUNCATED].name = "drop_truncated",
	[MRC_CNT_DROP_BAD_HEADER].name = "drop_bad_header",
	[MRC_CNT_DROP_UNKNOWN_QP].name = "drop_unknown_qp",
	[MRC_CNT_DROP_QP_STATE].name = "drop_qp_state",
	[MRC_CNT_DROP_OUT_OF_WINDOW].name = "drop_out_of_window",
	[MRC_CNT_DROP_BAD_ACK].name = "drop_bad_ack",
	[MRC_CNT_DROP_NO_ROUTE].name = "drop_no_route",
	[MRC_CNT_DROP_NOMEM].name = "drop_nomem",
	[MRC_CNT_DROP_READ_QUEUE_FULL].name = "drop_read_queue_full",
	[MRC_CNT_REMOTE_ACCESS_ERRORS].name = "remote_access_errors",
	[MRC_CNT_QP_ERRORS].name = "qp_errors",
	[MRC_CNT_EV_SUSPECTED].name = "ev_suspected",
	[MRC_CNT_EV_MARKED_BAD].name = "ev_marked_bad",
	[MRC_CNT_EV_RECOVERED].name = "ev_recovered",
	[MRC_CNT_PROBES_SENT].name = "probes_sent",
	[MRC_CNT_PROBES_ANSWERED].name = "probes_answered",
	[MRC_CNT_PROBE_REPLIES].name = "probe_replies",
	[MRC_CNT_CE_RECEIVED].name = "ce_received",
	[MRC_CNT_DROP_BAD_NAK].name = "drop_bad_nak",
	[MRC_CNT_DROP_BAD_READ].name = "drop_bad_read",
	[MRC_CNT_BAD_RING_INDEX].name = "bad_ring_index",
	[MRC_CNT_PROBES_REFUSED].name = "probes_refused",
	[MRC_CNT_REPLY_SRH_REFUSED].name = "reply_srh_refused",
	[MRC_CNT_RD_ATOMIC_REFUSED].name = "rd_atomic_refused",
	[MRC_CNT_SPURIOUS_RESENDS].name = "spurious_resends",
	[MRC_CNT_TAIL_PROBES].name = "tail_probes",
	[MRC_CNT_RETURN_RESENDS].name = "return_resends",
	[MRC_CNT_DROP_BAD_QKEY].name = "drop_bad_qkey",
	[MRC_CNT_DROP_NO_RECV_WQE].name = "drop_no_recv_wqe",
	[MRC_CNT_READ_RESPONSES_LOST].name = "read_responses_lost",
	[MRC_CNT_READ_RESPONSES_RESENT].name = "read_responses_resent",
};

static_assert(ARRAY_SIZE(mrc_counter_descs) == MRC_NR_COUNTERS);

int mrc_stats_init(struct mrc_dev *mdev)
{
	mdev->stats = alloc_percpu(struct mrc_stats);
	return mdev->stats ? 0 : -ENOMEM;
}

void mrc_stats_free(struct mrc_dev *mdev)
{
	free_percpu(mdev->stats);
	mdev->stats = NULL;
}

void mrc_stats_add(struct mrc_dev *mdev, enum mrc_counter c, u64 n)
{
#ifdef MRC_RACE_WINDOWS
	/*
	 * Per-CPU memory escapes KASAN, so counting into a device that was torn
	 * down under a receiver shows nowhere: the test build looks for it.
	 */
	if (WARN_ON_ONCE(!READ_ONCE(mdev->stats)))
		return;
#endif
	this_cpu_add(mdev->stats->v[c], n);
}

struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num)
{
	return rdma_alloc_hw_stats_struct(mrc_counter_descs, MRC_NR_COUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	int cpu, i;

	for (i = 0; i < MRC_NR_COUNTERS; i++)
		stats->value[i] = 0;
	for_each_possible_cpu(cpu) {
		const struct mrc_stats *s = per_cpu_ptr(mdev->stats, cpu);

		for (i = 0; i < MRC_NR_COUNTERS; i++)
			stats->value[i] += READ_ONCE(s->v[i]);
	}
	return MRC_NR_COUNTERS;
}
