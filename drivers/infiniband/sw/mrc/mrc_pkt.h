/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_pkt.h - building MRC packets into skbs, and copying between packets
 * and the memory a work request's SGEs describe.
 */
#ifndef MRC_PKT_H
#define MRC_PKT_H

#include <linux/skbuff.h>
#include <rdma/mrc-abi.h>

#include "core/mrc_wire.h"
#include "mrc_mr.h"

struct mrc_dev;
struct mrc_qp;

struct mrc_ev_tx;

void mrc_qp_next_ev(struct mrc_qp *qp, struct mrc_ev_tx *tx);

/*
 * A new packet to the QP's peer carrying @hdr and room for @payload_len
 * bytes at *@payload. NULL when memory is short.
 */
struct sk_buff *mrc_pkt_alloc(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			      u32 payload_len, void **payload);
/* The same for a packet of the device's own (a probe), not of a QP. */
struct sk_buff *mrc_pkt_alloc_dev(struct mrc_dev *mdev, const struct mrc_pkt_hdr *hdr,
				  u32 payload_len, void **payload);
int mrc_pkt_send(struct mrc_qp *qp, struct sk_buff *skb, const struct mrc_ev_tx *ev);

/*
 * Copy @len bytes at byte @offset of the buffer described by @sge[0..@nsge)
 * to or from @buf. Returns 0, -EINVAL if the SGEs are too short, or the
 * MR lookup error (-ENOENT, -EACCES, -ERANGE).
 */
int mrc_sge_copy(struct mrc_qp *qp, const struct mrc_sge *sge, u32 nsge,
		 u64 offset, void *buf, u32 len, enum mrc_copy_dir dir);

u64 mrc_sge_total(const struct mrc_sge *sge, u32 nsge);

#endif /* MRC_PKT_H */
