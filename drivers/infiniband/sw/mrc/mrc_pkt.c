// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_pkt.c - packet construction and SGE copies shared by the requester,
 * the responder and the completer.
 */
#include "mrc.h"
#include "mrc_net.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

/* The EV of the next response packet (under resp.lock). */
void mrc_qp_next_ev(struct mrc_qp *qp, struct mrc_ev_tx *tx)
{
	struct mrc_path_pick pick;

	mrc_path_pick(qp->path, &qp->resp.cursor, MRC_PROFILE_EV_MAX, 0, false, false, &pick);
	*tx = pick.tx;
}

struct sk_buff *mrc_pkt_alloc(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			      u32 payload_len, void **payload)
{
	return mrc_pkt_alloc_dev(mrc_qp_dev(qp), hdr, payload_len, payload);
}

struct sk_buff *mrc_pkt_alloc_dev(struct mrc_dev *mdev, const struct mrc_pkt_hdr *hdr,
				  u32 payload_len, void **payload)
{
	unsigned int hlen = mrc_wire_hdr_len(hdr->opcode);
	struct sk_buff *skb;
	int n;

	skb = mrc_net_alloc_skb(mdev, hlen + payload_len);
	if (!skb) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_NOMEM);
		return NULL;
	}
	n = mrc_wire_build(hdr, payload_len, skb_put(skb, hlen), hlen);
	if (WARN_ON_ONCE(n != hlen)) {
		kfree_skb(skb);
		return NULL;
	}
	*payload = skb_put(skb, payload_len);
	return skb;
}

int mrc_pkt_send(struct mrc_qp *qp, struct sk_buff *skb, const struct mrc_ev_tx *ev)
{
	return mrc_net_xmit(mrc_qp_dev(qp), &qp->av, ev, &qp->dst_cache, skb);
}

u64 mrc_sge_total(const struct mrc_sge *sge, u32 nsge)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < nsge; i++)
		total += sge[i].length;
	return total;
}

int mrc_sge_copy(struct mrc_qp *qp, const struct mrc_sge *sge, u32 nsge,
		 u64 offset, void *buf, u32 len, enum mrc_copy_dir dir)
{
	int access = dir == MRC_TO_MR ? IB_ACCESS_LOCAL_WRITE : 0;
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	u32 i = 0;

	/* find the SGE holding @offset */
	while (i < nsge && offset >= sge[i].length) {
		offset -= sge[i].length;
		i++;
	}
	while (len) {
		struct mrc_mr *mr;
		u32 n;

		if (i >= nsge)
			return -EINVAL;
		n = min_t(u64, len, sge[i].length - offset);
		mr = mrc_mr_get(mdev, qp->ibqp.pd, sge[i].lkey, access,
				sge[i].addr + offset, n);
		if (IS_ERR(mr))
			return PTR_ERR(mr);
		mrc_mr_copy(mr, sge[i].addr + offset, buf, n, dir);
		mrc_mr_put(mr);

		buf += n;
		len -= n;
		offset = 0;
		i++;
	}
	return 0;
}
