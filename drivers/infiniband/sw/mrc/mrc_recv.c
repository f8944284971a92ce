// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_recv.c - receive dispatch: check the header, find the QP, make sure
 * the packet comes from that QP's peer, and hand it to the responder
 * (requests) or the completer (responses); datagrams go to UD QPs
 * (mrc_ud.c), from any peer. Every drop is counted by reason.
 */
#include <linux/ipv6.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include "core/mrc_wire.h"
#include "mrc.h"
#include "mrc_net.h"
#include "mrc_probe.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

/* Only the QP's connected peer may talk to it. */
static bool mrc_recv_from_peer(const struct mrc_qp *qp, const struct sk_buff *skb)
{
	const struct mrc_av *av = &qp->av;

	if (skb->protocol == htons(ETH_P_IPV6))
		return av->family == AF_INET6 &&
		       ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &av->daddr.v6);
	return av->family == AF_INET && ip_hdr(skb)->saddr == av->daddr.v4;
}

void mrc_recv(struct mrc_dev *mdev, struct sk_buff *skb)
{
	u8 buf[MRC_WIRE_HDR_MAX];
	struct mrc_pkt_hdr hdr;
	enum mrc_wire_err werr;
	u32 len = skb->len, have = min_t(u32, len, MRC_WIRE_HDR_MAX);
	const void *h;
	struct mrc_ev_tx back;
	struct mrc_qp *qp;

	mrc_stats_inc(mdev, MRC_CNT_RX_PACKETS);
	mrc_stats_add(mdev, MRC_CNT_RX_BYTES, len);

	h = skb_header_pointer(skb, 0, have, buf);
	werr = h ? mrc_wire_parse(h, have, len, &hdr) : MRC_WIRE_ERR_TRUNCATED;
	if (werr != MRC_WIRE_OK) {
		mrc_stats_inc(mdev, werr == MRC_WIRE_ERR_TRUNCATED ?
			      MRC_CNT_DROP_TRUNCATED : MRC_CNT_DROP_BAD_HEADER);
		goto drop;
	}
	if (hdr.opcode == MRC_OP_PROBE || hdr.opcode == MRC_OP_PROBE_REPLY) {
		mrc_probe_recv(mdev, skb, &hdr);	/* the device's, no QP's */
		goto drop;
	}
	/* placement copies from the payload: make it linear once */
	if (skb_linearize(skb)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_NOMEM);
		goto drop;
	}

	qp = mrc_qp_get(mdev, hdr.dest_qpn);
	if (!qp) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_UNKNOWN_QP);
		goto drop;
	}
	/* a UD QP takes datagrams from anyone; an RC QP takes its peer's requests */
	if (mrc_opcode_is_datagram(hdr.opcode) != mrc_qp_is_ud(qp)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_UNKNOWN_QP);
		goto put;
	}
	if (mrc_qp_is_ud(qp)) {
		mrc_ud_recv(qp, &hdr, skb);
		goto put;
	}
	if (!mrc_recv_from_peer(qp, skb)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_UNKNOWN_QP);
		goto put;
	}

	if (mrc_opcode_is_request(hdr.opcode)) {
		mrc_net_reply_tx(skb, (u8)mrc_plane_of_rcu(mdev, skb->dev), &back);
		mrc_resp_recv(qp, &hdr, skb, &back);
	} else {
		mrc_comp_recv(qp, &hdr, skb);
	}
put:
	mrc_qp_put(qp);
drop:
	kfree_skb(skb);
}
