// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_ud.c - unreliable datagram QPs: each send WQE leaves as one packet
 * (UD_SEND or UD_SEND_IMM with a DETH) to the AH it names and completes
 * once it has left; each datagram that arrives with the QP's Q_Key takes
 * the next receive WQE and lands behind a 40-byte GRH, as on RoCEv2. No
 * window, no ACK, no resend, no EVs: a datagram goes the way the AV routes.
 *
 * Errors of a send WQE (bad opcode, size, AH or memory) complete it in
 * error and put the QP in ERR, as for RC. Errors of a receive (WQE too
 * short, bad memory) complete that WQE in error and leave the QP alone:
 * a peer must not be able to stop a UD QP that every peer may talk to.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_param.h"
#include "mrc_pkt.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"

/* What a UD receive holds before the payload, filled as RoCEv2 does. */
#define MRC_UD_GRH_LEN		40
/* A WR's Q_Key with this bit set means the QP's own (IB's rule). */
#define MRC_UD_QKEY_OWN		0x80000000U
/* Datagrams one pass sends with softirqs off; the work item sends the rest. */
#define MRC_UD_BUDGET		64

static void mrc_ud_work(struct work_struct *work);

int mrc_ud_init(struct mrc_qp *qp)
{
	u32 recv_slot = qp->srq ? qp->srq->q.slot_size : qp->rq.slot_size;

	spin_lock_init(&qp->req.lock);
	spin_lock_init(&qp->resp.lock);
	INIT_WORK(&qp->req.work, mrc_ud_work);
	qp->req.tx_cpu = raw_smp_processor_id();
	qp->ud.send_wqe = kmalloc(qp->sq.slot_size, GFP_KERNEL);
	qp->ud.recv_wqe = kmalloc(recv_slot, GFP_KERNEL);
	if (!qp->ud.send_wqe || !qp->ud.recv_wqe) {
		mrc_ud_free(qp);
		return -ENOMEM;
	}
	return 0;
}

void mrc_ud_free(struct mrc_qp *qp)
{
	kfree(qp->ud.send_wqe);
	kfree(qp->ud.recv_wqe);
	qp->ud.send_wqe = NULL;
	qp->ud.recv_wqe = NULL;
}

/* qp->dying is set: the work does not requeue. */
void mrc_ud_stop(struct mrc_qp *qp)
{
	cancel_work_sync(&qp->req.work);
}

/* The largest datagram: one packet of the port's MTU, as now. */
static u32 mrc_ud_mtu(struct mrc_qp *qp)
{
	return ib_mtu_enum_to_int(mrc_mtu_from_netdev(READ_ONCE(mrc_qp_dev(qp)->ndev->mtu)));
}

/* Check a send WQE copied from the ring; its message length in *@len. */
static u8 mrc_ud_check(struct mrc_qp *qp, const struct mrc_send_wqe *wqe, u32 *len)
{
	u32 body = qp->sq.slot_size - MRC_SEND_WQE_HDR_SIZE;
	u64 total;

	if (wqe->opcode != IB_UVERBS_WR_SEND && wqe->opcode != IB_UVERBS_WR_SEND_WITH_IMM)
		return IB_WC_LOC_QP_OP_ERR;
	if (!wqe->wr.ud.remote_qpn || wqe->wr.ud.remote_qpn > MRC_MAX_QPN)
		return IB_WC_LOC_QP_OP_ERR;
	if (wqe->send_flags & IB_SEND_INLINE) {
		if (wqe->inline_len > body)
			return IB_WC_LOC_LEN_ERR;
		total = wqe->inline_len;
	} else {
		if (wqe->num_sge > body / sizeof(struct mrc_sge))
			return IB_WC_LOC_LEN_ERR;
		total = mrc_sge_total((const void *)(wqe + 1), wqe->num_sge);
	}
	if (total > mrc_ud_mtu(qp))
		return IB_WC_LOC_LEN_ERR;
	*len = total;
	return IB_WC_SUCCESS;
}

/*
 * Spread the QP pairs over the fabric's ECMP as RoCEv2 does with its
 * source port, while each pair keeps one path (datagrams of a pair stay
 * in order where the fabric keeps a flow in order).
 */
static u16 mrc_ud_sport(u32 src_qpn, u32 dest_qpn)
{
	return 0xc000 | ((src_qpn ^ dest_qpn ^ (dest_qpn >> 14)) & 0x3fff);
}

/* Send @wqe as one datagram; the completion status. */
static u8 mrc_ud_send_one(struct mrc_qp *qp, const struct mrc_send_wqe *wqe, u32 *len)
{
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_pkt_hdr hdr = {};
	struct mrc_ev_tx tx = {};
	struct sk_buff *skb;
	struct mrc_av av;
	void *payload;
	u8 status;

	status = mrc_ud_check(qp, wqe, len);
	if (status)
		return status;
	if (mrc_ah_lookup(mdev, qp->ibqp.pd, wqe->wr.ud.ah_num, &av))
		return IB_WC_LOC_QP_OP_ERR;

	hdr.opcode = wqe->opcode == IB_UVERBS_WR_SEND ? MRC_OP_UD_SEND : MRC_OP_UD_SEND_IMM;
	if (wqe->send_flags & IB_SEND_SOLICITED)
		hdr.flags = MRC_WIRE_F_SOLICITED;
	hdr.dest_qpn = wqe->wr.ud.remote_qpn;
	hdr.psn = qp->ud.psn++;
	hdr.ud.qkey = wqe->wr.ud.remote_qkey & MRC_UD_QKEY_OWN ?
		      READ_ONCE(qp->ud.qkey) : wqe->wr.ud.remote_qkey;
	hdr.ud.src_qpn = qp->ibqp.qp_num;
	hdr.ud.imm = be32_to_cpu((__force __be32)wqe->ex);

	skb = mrc_pkt_alloc(qp, &hdr, *len, &payload);
	if (!skb)
		return IB_WC_SUCCESS;	/* a datagram lost here, counted as drop_nomem */
	if (wqe->send_flags & IB_SEND_INLINE) {
		memcpy(payload, wqe + 1, *len);
	} else if (mrc_sge_copy(qp, (const void *)(wqe + 1), wqe->num_sge, 0,
				payload, *len, MRC_FROM_MR)) {
		kfree_skb(skb);
		return IB_WC_LOC_PROT_ERR;
	}
	tx.sport = mrc_ud_sport(qp->ibqp.qp_num, hdr.dest_qpn);
	mrc_net_xmit(mdev, &av, &tx, NULL, skb);	/* a failure is a drop, counted */
	return IB_WC_SUCCESS;
}

/* The send WQE at the SQ's consumer index is done: hand its slot back. */
static void mrc_ud_complete_send(struct mrc_qp *qp, u64 wr_id, u32 send_flags,
				 u8 status, u32 len)
{
	struct mrc_cqe cqe = {
		.wr_id = wr_id,
		.status = status,
		.opcode = IB_WC_SEND,
		.byte_len = len,
		.qp_num = qp->ibqp.qp_num,
	};

	qp->ud.sq_done++;
	mrc_queue_store_cons(&qp->sq, qp->ud.sq_done);
	if ((status || qp->sq_sig_all || (send_flags & IB_SEND_SIGNALED)) &&
	    mrc_cq_post(qp->scq, &cqe, false) && !status)
		mrc_qp_error(qp);
}

/*
 * The WQEs the provider published since the last call, or -EPROTO when
 * the producer index is impossible.
 */
static int mrc_ud_sq_count(struct mrc_qp *qp, u32 *prod)
{
	*prod = mrc_queue_load_prod(&qp->sq);
	return mrc_queue_count(&qp->sq, *prod, qp->ud.sq_done);
}

/*
 * Send what the SQ holds, in order, from the caller's context (post_send
 * or the work item), MRC_UD_BUDGET datagrams a pass: a longer ring goes
 * on in the work item. Only in RTS: SQD keeps new WQEs until RTS kicks
 * the work.
 */
void mrc_ud_doorbell(struct mrc_qp *qp)
{
	struct mrc_send_wqe *wqe = qp->ud.send_wqe;
	u8 status = IB_WC_SUCCESS;
	int budget = MRC_UD_BUDGET;
	bool more;
	u32 prod, len;

	if (mrc_qp_state(qp) == IB_QPS_ERR) {
		mrc_ud_flush(qp);
		return;
	}
	spin_lock_bh(&qp->req.lock);
	if (mrc_ud_sq_count(qp, &prod) < 0) {
		spin_unlock_bh(&qp->req.lock);
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_BAD_RING_INDEX);
		mrc_qp_error(qp);	/* a provider wrote nonsense */
		return;
	}
	while (qp->ud.sq_done != prod && mrc_qp_state(qp) == IB_QPS_RTS && !status &&
	       budget-- > 0) {
		memcpy(wqe, mrc_queue_slot(&qp->sq, qp->ud.sq_done), qp->sq.slot_size);
		len = 0;
		status = mrc_ud_send_one(qp, wqe, &len);
		mrc_ud_complete_send(qp, wqe->wr_id, wqe->send_flags, status, len);
	}
	more = qp->ud.sq_done != prod;
	spin_unlock_bh(&qp->req.lock);
	if (status)
		mrc_qp_error(qp);
	else if (more && budget < 0)
		mrc_req_kick(qp);
}

/* Take the next receive WQE (RQ or SRQ) into qp->ud.recv_wqe. */
static int mrc_ud_take_recv(struct mrc_qp *qp)
{
	u32 prod;
	int n;

	if (qp->srq)
		return mrc_srq_take(qp->srq, qp->ud.recv_wqe);
	prod = mrc_queue_load_prod(&qp->rq);
	n = mrc_queue_count(&qp->rq, prod, qp->ud.rq_done);
	if (n <= 0)
		return n < 0 ? -EINVAL : -EAGAIN;
	memcpy(qp->ud.recv_wqe, mrc_queue_slot(&qp->rq, qp->ud.rq_done), qp->rq.slot_size);
	return 0;
}

/*
 * The GRH a RoCEv2 receiver finds before the payload: the IPv6 header as
 * it arrived, or 20 zero bytes and the IPv4 header (options left out), as
 * if UDP followed at once: a datagram that came over SRv6 segments shows
 * its last one (ours) as destination, not the routing header.
 */
static void mrc_ud_grh(const struct sk_buff *skb, u8 *grh)
{
	u16 ip_payload = sizeof(struct udphdr) + skb->len;	/* skb->data: the MRC header */

	memset(grh, 0, MRC_UD_GRH_LEN);
	if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)grh;

		memcpy(ip6, ipv6_hdr(skb), sizeof(*ip6));
		ip6->nexthdr = IPPROTO_UDP;
		ip6->payload_len = htons(ip_payload);
	} else {
		struct iphdr *ip4 = (struct iphdr *)(grh + MRC_UD_GRH_LEN - sizeof(*ip4));

		memcpy(ip4, ip_hdr(skb), sizeof(*ip4));
		ip4->ihl = sizeof(*ip4) / 4;
		ip4->tot_len = htons(sizeof(*ip4) + ip_payload);
	}
}

/* Place GRH and payload into the taken receive WQE; the completion status. */
static u8 mrc_ud_place(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
		       const struct sk_buff *skb)
{
	const struct mrc_recv_wqe *wqe = qp->ud.recv_wqe;
	const struct mrc_sge *sge = (const void *)(wqe + 1);
	u8 grh[MRC_UD_GRH_LEN];

	if (wqe->num_sge > qp->max_recv_sge)
		return IB_WC_LOC_QP_OP_ERR;
	if (mrc_sge_total(sge, wqe->num_sge) < MRC_UD_GRH_LEN + (u64)hdr->payload_len)
		return IB_WC_LOC_LEN_ERR;
	mrc_ud_grh(skb, grh);
	if (mrc_sge_copy(qp, sge, wqe->num_sge, 0, grh, MRC_UD_GRH_LEN, MRC_TO_MR) ||
	    mrc_sge_copy(qp, sge, wqe->num_sge, MRC_UD_GRH_LEN,
			 skb->data + hdr->hdr_len, hdr->payload_len, MRC_TO_MR))
		return IB_WC_LOC_PROT_ERR;
	return IB_WC_SUCCESS;
}

/* @skb: the datagram the receive took (NULL for a flush). */
static void mrc_ud_complete_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
				 const struct sk_buff *skb, u8 status)
{
	const struct mrc_recv_wqe *wqe = qp->ud.recv_wqe;
	struct mrc_cqe cqe = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp_num = qp->ibqp.qp_num,
	};

	if (skb) {
		cqe.byte_len = MRC_UD_GRH_LEN + hdr->payload_len;
		cqe.src_qp = hdr->ud.src_qpn;
		cqe.wc_flags = IB_WC_GRH;
		cqe.sl = MRC_CQE_SL_UDP | (skb->protocol == htons(ETH_P_IPV6) ?
					   MRC_CQE_SL_IPV6 : MRC_CQE_SL_IPV4);
		if (hdr->opcode == MRC_OP_UD_SEND_IMM) {
			cqe.imm_data = (__force u32)cpu_to_be32(hdr->ud.imm);
			cqe.wc_flags |= IB_WC_WITH_IMM;
		}
	}
	if (!qp->srq) {
		qp->ud.rq_done++;
		mrc_queue_store_cons(&qp->rq, qp->ud.rq_done);
	}
	if (mrc_cq_post(qp->rcq, &cqe, hdr && (hdr->flags & MRC_WIRE_F_SOLICITED)) &&
	    status != IB_WC_WR_FLUSH_ERR)
		mrc_qp_error(qp);
}

/* A datagram for @qp (receive softirq, with a reference on the QP). */
void mrc_ud_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr, struct sk_buff *skb)
{
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	enum ib_qp_state state;
	int err;

	if (hdr->ud.qkey != READ_ONCE(qp->ud.qkey)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_BAD_QKEY);
		return;
	}
	/* under the lock: the ERR flush runs under it once the state is ERR */
	spin_lock_bh(&qp->resp.lock);
	state = mrc_qp_state(qp);
	if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	    state != IB_QPS_SQD && state != IB_QPS_SQE) {
		spin_unlock_bh(&qp->resp.lock);
		mrc_stats_inc(mdev, MRC_CNT_DROP_QP_STATE);
		return;
	}
	err = mrc_ud_take_recv(qp);
	if (err) {
		spin_unlock_bh(&qp->resp.lock);
		if (err == -EAGAIN) {
			mrc_stats_inc(mdev, MRC_CNT_DROP_NO_RECV_WQE);
			return;
		}
		mrc_stats_inc(mdev, MRC_CNT_BAD_RING_INDEX);
		mrc_qp_error(qp);
		return;
	}
	mrc_ud_complete_recv(qp, hdr, skb, mrc_ud_place(qp, hdr, skb));
	spin_unlock_bh(&qp->resp.lock);
}

/* ERR: complete every posted receive with WR_FLUSH_ERR (an SRQ's stay). */
void mrc_ud_flush_recv(struct mrc_qp *qp)
{
	bool last_wqe = false;
	u32 prod;
	int n;

	spin_lock_bh(&qp->resp.lock);
	if (qp->srq) {
		last_wqe = !qp->resp.last_wqe_reached;
		qp->resp.last_wqe_reached = true;
	} else {
		prod = mrc_queue_load_prod(&qp->rq);
		n = mrc_queue_count(&qp->rq, prod, qp->ud.rq_done);
		for (; n > 0; n--) {
			memcpy(qp->ud.recv_wqe, mrc_queue_slot(&qp->rq, qp->ud.rq_done),
			       MRC_RECV_WQE_HDR_SIZE);
			mrc_ud_complete_recv(qp, NULL, NULL, IB_WC_WR_FLUSH_ERR);
		}
	}
	spin_unlock_bh(&qp->resp.lock);
	if (last_wqe)
		mrc_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
}

/* ERR: complete every posted send with WR_FLUSH_ERR, then the receives. */
void mrc_ud_flush(struct mrc_qp *qp)
{
	struct mrc_send_wqe *wqe = qp->ud.send_wqe;
	u32 prod;
	int n;

	spin_lock_bh(&qp->req.lock);
	n = mrc_ud_sq_count(qp, &prod);
	for (; n > 0; n--) {
		memcpy(wqe, mrc_queue_slot(&qp->sq, qp->ud.sq_done), MRC_SEND_WQE_HDR_SIZE);
		mrc_ud_complete_send(qp, wqe->wr_id, 0, IB_WC_WR_FLUSH_ERR, 0);
	}
	spin_unlock_bh(&qp->req.lock);
	mrc_ud_flush_recv(qp);
}

/* Back to RESET: forget everything posted, without completions. */
void mrc_ud_discard(struct mrc_qp *qp)
{
	u32 prod;

	spin_lock_bh(&qp->req.lock);
	prod = mrc_queue_load_prod(&qp->sq);
	if (mrc_queue_count(&qp->sq, prod, mrc_queue_peek_cons(&qp->sq)) >= 0)
		mrc_queue_store_cons(&qp->sq, prod);
	qp->ud.sq_done = mrc_queue_peek_cons(&qp->sq);
	qp->ud.psn = 0;
	spin_unlock_bh(&qp->req.lock);

	spin_lock_bh(&qp->resp.lock);
	if (!qp->srq) {
		prod = mrc_queue_load_prod(&qp->rq);
		if (mrc_queue_count(&qp->rq, prod, mrc_queue_peek_cons(&qp->rq)) >= 0)
			mrc_queue_store_cons(&qp->rq, prod);
		qp->ud.rq_done = mrc_queue_peek_cons(&qp->rq);
	}
	qp->resp.last_wqe_reached = false;
	spin_unlock_bh(&qp->resp.lock);
}

/* A kernel consumer's WR into the next SQ slot, under post_lock. */
static int mrc_ud_put_send(struct mrc_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct mrc_queue *q = &qp->sq;
	u32 prod = *mrc_queue_prod_ptr(q);
	struct mrc_send_wqe *wqe;

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge ||
	    (wr->send_flags & IB_SEND_INLINE) || !ud->ah)
		return -EINVAL;
	if (prod - mrc_queue_load_cons(q) >= q->num_slots)
		return -ENOMEM;

	wqe = mrc_queue_slot(q, prod);
	memset(wqe, 0, MRC_SEND_WQE_HDR_SIZE);
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;	/* IB_WR_SEND* are the uverbs values */
	wqe->send_flags = wr->send_flags;
	wqe->ex = (__force u32)wr->ex.imm_data;
	wqe->num_sge = wr->num_sge;
	wqe->wr.ud.ah_num = container_of(ud->ah, struct mrc_ah, ibah)->ah_num;
	wqe->wr.ud.remote_qpn = ud->remote_qpn;
	wqe->wr.ud.remote_qkey = ud->remote_qkey;
	mrc_queue_put_sges((struct mrc_sge *)(wqe + 1), wr->sg_list, wr->num_sge);
	mrc_queue_store_prod(q, prod + 1);
	return 0;
}

/*
 * ib_post_send of a kernel consumer, from any context (the MAD layer posts
 * with interrupts off): the WRs go into the ring, the work item sends them.
 */
int mrc_ud_post_send(struct mrc_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->post_lock, flags);
	for (; wr; wr = wr->next) {
		err = mrc_ud_put_send(qp, wr);
		if (err)
			break;
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);
	if (err)
		*bad_wr = wr;
	mrc_req_kick(qp);
	return err;
}

/* mrc_req_kick() queues this: ERR's flush, or RTS after SQD. */
static void mrc_ud_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, req.work);

	if (mrc_qp_state(qp) == IB_QPS_ERR)
		mrc_ud_flush(qp);
	else
		mrc_ud_doorbell(qp);
}
