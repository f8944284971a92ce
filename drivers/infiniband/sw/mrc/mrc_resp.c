// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_resp.c - the responder: places every request packet the moment it
 * arrives, at the address it names (WRITE: va + offset; SEND: offset into
 * the receive WQE numbered by the packet's rsn), so arrival order does not
 * matter; records the PSN in the receive window (the MPR); and acts on
 * message boundaries only when every earlier PSN is in - that is when
 * receive completions are posted and READs/atomics execute, which keeps RC
 * ordering (a WRITE is placed before a later SEND completes or a later
 * READ reads). ACKs carry the cumulative PSN and a SACK bitmap.
 *
 * Runs in the receive softirq under resp.lock; READ responses are sent by
 * a work item so a large READ never holds the softirq.
 */
#include <linux/slab.h>

#include "core/mrc_read_table.h"
#include "core/mrc_seg.h"
#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_net.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"

/* Atomics are atomic against each other across all QPs of all devices. */
static DEFINE_SPINLOCK(mrc_atomic_lock);

static void mrc_resp_work(struct work_struct *work);

static inline struct mrc_resp_evt *mrc_resp_evt(struct mrc_qp *qp, u32 psn)
{
	return &qp->resp.evt[psn & (qp->window - 1)];
}

/*
 * The copy of the receive WQE for message @rsn. With its own RQ, a QP
 * keeps one per ring slot; with an SRQ, one per message it may hold.
 */
static inline struct mrc_rwqe *mrc_resp_rwqe_slot(struct mrc_qp *qp, u32 rsn)
{
	struct mrc_resp *resp = &qp->resp;

	if (qp->srq)
		return &resp->rwqe[rsn & (resp->nr_rwqe - 1)];
	return &resp->rwqe[(resp->rq_base + rsn) & (resp->nr_rwqe - 1)];
}

int mrc_resp_init(struct mrc_qp *qp)
{
	struct mrc_resp *resp = &qp->resp;
	u32 i, slots, slot_size;

	/* the table must hold every READ a requester may have outstanding */
	BUILD_BUG_ON(MRC_READ_TABLE_MSGS < MRC_MAX_RD_ATOMIC);
	BUILD_BUG_ON(MRC_RESP_ATOMICS < MRC_MAX_RD_ATOMIC);
	spin_lock_init(&resp->lock);
	INIT_WORK(&resp->work, mrc_resp_work);
	resp->tx_cpu = raw_smp_processor_id();	/* until a READ arrives */
	resp->rxw_map = kcalloc(MRC_WINDOW_WORDS(qp->window), sizeof(u64), GFP_KERNEL);
	resp->evt = kvcalloc(qp->window, sizeof(*resp->evt), GFP_KERNEL);
	resp->reads = kcalloc(MRC_RESP_READS + MRC_RESP_AGAIN, sizeof(*resp->reads), GFP_KERNEL);
	resp->atomics = kcalloc(MRC_RESP_ATOMICS, sizeof(*resp->atomics), GFP_KERNEL);
	resp->read_msgs = kmalloc(sizeof(*resp->read_msgs), GFP_KERNEL);
	slots = qp->srq ? MRC_RESP_SRQ_WQES : qp->rq.num_slots;
	slot_size = qp->srq ? qp->srq->q.slot_size : qp->rq.slot_size;
	resp->rwqe = kvcalloc(slots, sizeof(*resp->rwqe), GFP_KERNEL);
	resp->raw = kvcalloc(slots, slot_size, GFP_KERNEL);
	if (!resp->rxw_map || !resp->evt || !resp->reads || !resp->atomics ||
	    !resp->read_msgs || !resp->rwqe || !resp->raw) {
		mrc_resp_free(qp);
		return -ENOMEM;
	}
	mrc_read_table_init(resp->read_msgs);
	resp->nr_rwqe = slots;
	for (i = 0; i < slots; i++)
		resp->rwqe[i].wqe = (void *)(resp->raw + (size_t)i * slot_size);
	return mrc_rx_window_init(&resp->rxw, qp->window, resp->rxw_map,
				  MRC_WINDOW_WORDS(qp->window), 0);
}

void mrc_resp_free(struct mrc_qp *qp)
{
	struct mrc_resp *resp = &qp->resp;

	kfree(resp->rxw_map);
	kvfree(resp->evt);
	kfree(resp->reads);
	kfree(resp->atomics);
	kfree(resp->read_msgs);
	kvfree(resp->rwqe);
	kvfree(resp->raw);
	memset(resp, 0, sizeof(*resp));
}

void mrc_resp_stop(struct mrc_qp *qp)
{
	cancel_work_sync(&qp->resp.work);
}

static void mrc_resp_flush_srq_locked(struct mrc_qp *qp);

static void mrc_resp_reset_locked(struct mrc_qp *qp, u32 psn)
{
	struct mrc_resp *resp = &qp->resp;
	u32 i;

	/* SRQ WQEs this QP took belong to the application: give them back */
	if (qp->srq)
		mrc_resp_flush_srq_locked(qp);

	mrc_rx_window_init(&resp->rxw, qp->window, resp->rxw_map,
			   MRC_WINDOW_WORDS(qp->window), psn);
	memset(resp->evt, 0, qp->window * sizeof(*resp->evt));
	if (!qp->srq)
		resp->rq_base = mrc_queue_peek_cons(&qp->rq);
	for (i = 0; i < resp->nr_rwqe; i++)
		resp->rwqe[i].valid = false;
	resp->last_wqe_reached = false;
	resp->rsn_done = 0;
	resp->msn_done = 0;
	resp->since_ack = 0;
	resp->ce_seen = false;
	resp->dup_seen = false;
	resp->ack_psn = psn;
	resp->ack_cum = psn;
	resp->read_head = resp->read_tail = 0;
	resp->again_head = resp->again_tail = 0;
	memset(resp->atomics, 0, MRC_RESP_ATOMICS * sizeof(*resp->atomics));
	resp->atomic_next = 0;
	mrc_read_table_init(resp->read_msgs);
}

/* Entering RTR: expect the rq_psn the application gave. */
void mrc_resp_start(struct mrc_qp *qp)
{
	spin_lock_bh(&qp->resp.lock);
	mrc_resp_reset_locked(qp, qp->attr.rq_psn);
	spin_unlock_bh(&qp->resp.lock);
}

void mrc_resp_discard(struct mrc_qp *qp)
{
	spin_lock_bh(&qp->resp.lock);
	if (!qp->srq)
		mrc_queue_store_cons(&qp->rq, mrc_queue_load_prod(&qp->rq));
	mrc_resp_reset_locked(qp, 0);
	spin_unlock_bh(&qp->resp.lock);
}

/*
 * A packet back the way the last request came (mrc_net_reply_tx): with UDP
 * source port @sport (the EV as the wire carries it), on the plane it came
 * in on, back along its segments if it came over SRv6; without segments the
 * fabric's hash takes it back over the path of that port. Under resp.lock.
 */
static void mrc_resp_port_tx(struct mrc_qp *qp, u16 sport, struct mrc_ev_tx *tx)
{
	*tx = qp->resp.back;
	tx->sport = sport;
}

/* An ACK or NAK answering a packet that came from port @sport (echoed), sent as @tx says. */
static void mrc_resp_send_ack_on(struct mrc_qp *qp, u8 nak, u8 nak_value,
				 u32 nak_psn, bool fatal, u16 sport, const struct mrc_ev_tx *tx)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_pkt_hdr hdr = {};
	struct sk_buff *skb;
	void *payload;

	hdr.opcode = nak ? MRC_OP_NAK : MRC_OP_ACK;
	hdr.dest_qpn = qp->attr.dest_qp_num;
	hdr.psn = nak ? nak_psn : mrc_rx_window_cum(&resp->rxw);
	if (!nak && resp->ce_seen) {
		/* the PSN field names the marked packet (protocol.rst, ECN) */
		hdr.flags |= MRC_WIRE_F_CE_ECHO;
		hdr.psn = resp->ce_psn;
		resp->ce_seen = false;
	}
	/* the sender learns its resend of that PSN was spurious */
	if (!nak && resp->dup_seen) {
		hdr.flags |= MRC_WIRE_F_DUP;
		hdr.psn = resp->dup_psn;
		resp->dup_seen = false;
	}
	hdr.ack.msn = resp->msn_done - 1;	/* last completed; ~0 before any */
	hdr.ack.ev_port = sport;
	hdr.ack.nak_code = nak;
	hdr.ack.nak_value = nak_value;
	if (fatal) {
		/* everything before the failed PSN, and nothing after it */
		hdr.ack.sack.cum_psn = nak_psn;
		hdr.ack.sack.sack_base = nak_psn;
	} else {
		/* around the packet answered, when cum is stuck far behind it */
		mrc_rx_window_sack_for(&resp->rxw, resp->ack_psn, resp->ack_cum, &hdr.ack.sack);
		resp->ack_cum = hdr.ack.sack.cum_psn;
	}

	skb = mrc_pkt_alloc(qp, &hdr, 0, &payload);
	if (!skb)
		return;
	if (!mrc_pkt_send(qp, skb, tx))
		mrc_stats_inc(mdev, nak ? MRC_CNT_NAKS_SENT : MRC_CNT_ACKS_SENT);
	resp->since_ack = 0;
}

/* The answer to a packet that came from port @sport goes back with the same port. */
static void mrc_resp_send_ack(struct mrc_qp *qp, u8 nak, u8 nak_value,
			      u32 nak_psn, bool fatal, u16 sport)
{
	struct mrc_ev_tx tx;

	mrc_resp_port_tx(qp, sport, &tx);
	mrc_resp_send_ack_on(qp, nak, nak_value, nak_psn, fatal, sport, &tx);
}

/*
 * The ACK a full batch of requests earned goes back the way its
 * ack_turn-th packet came, the turn moving on with every such ACK: packets
 * sprayed round robin over N paths would otherwise bring every ACK back
 * over one of them, the one every MRC_ACK_EVERY_PKTS-th packet takes. An
 * ACK the newest packet asked for (@asked) answers it on its way: the
 * requester put it on an EV whose ACKs came back lately (a retransmission,
 * perhaps; the batch's older packets may have come long ago over paths
 * dead since, and an ECMP fabric may have killed their way back alone).
 * So does the ACK of one that came congestion-marked, whose EV the echo
 * names.
 */
static void mrc_resp_send_batch_ack(struct mrc_qp *qp, bool asked)
{
	struct mrc_resp *resp = &qp->resp;
	const struct mrc_ev_tx *tx = &resp->back;

	if (resp->since_ack >= MRC_ACK_EVERY_PKTS && !resp->ce_seen && !asked) {
		tx = &resp->ack_back;
		resp->ack_turn = (resp->ack_turn + 1) % MRC_ACK_EVERY_PKTS;
	}
	mrc_resp_send_ack_on(qp, 0, 0, 0, false, tx->sport, tx);
}

/*
 * The receive WQE message @rsn consumes, copied out of the RQ ring (or taken
 * from the SRQ) once. -EAGAIN: none posted yet, or more messages ahead than
 * this QP can hold (RNR: the requester tries again); -EINVAL: not a number
 * we can accept, or a ring whose producer index is nonsense.
 */
static struct mrc_rwqe *mrc_resp_rwqe(struct mrc_qp *qp, u32 rsn, int *err)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_rwqe *rw;

	if ((s32)(rsn - resp->rsn_done) < 0) {
		*err = -EINVAL;		/* a message already completed */
		return NULL;
	}
	if (rsn - resp->rsn_done >= resp->nr_rwqe) {
		*err = -EAGAIN;
		return NULL;
	}
	rw = mrc_resp_rwqe_slot(qp, rsn);
	if (rw->valid && rw->rsn == rsn)
		goto check;

	if (qp->srq) {
		*err = mrc_srq_take(qp->srq, rw->wqe);
		if (*err == -EINVAL)
			mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_BAD_RING_INDEX);
		if (*err)
			return NULL;
	} else {
		u32 cons = resp->rq_base + resp->rsn_done;
		u32 idx = resp->rq_base + rsn;
		u32 prod = mrc_queue_load_prod(&qp->rq);

		/* a producer more than a ring ahead is no RNR: the QP fails */
		if (mrc_queue_count(&qp->rq, prod, cons) < 0) {
			mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_BAD_RING_INDEX);
			*err = -EINVAL;
			return NULL;
		}
		if (idx - cons >= prod - cons) {
			*err = -EAGAIN;
			return NULL;
		}
		memcpy(rw->wqe, mrc_queue_slot(&qp->rq, idx), qp->rq.slot_size);
	}
	/* bound to @rsn even if bad: a WQE taken from an SRQ must complete */
	rw->rsn = rsn;
	rw->valid = true;
check:
	/* the provider wrote it: every packet of the message checks it again */
	if (rw->wqe->num_sge > qp->max_recv_sge) {
		*err = -EINVAL;
		return NULL;
	}
	return rw;
}

/*
 * Messages consume receive WQEs in the order they complete, which is PSN
 * order: the one completing now must name the next WQE, which its packets
 * took (a requester numbers them so; a forger might not).
 */
static bool mrc_resp_rsn_next(struct mrc_qp *qp, u32 rsn)
{
	const struct mrc_rwqe *rw = mrc_resp_rwqe_slot(qp, rsn);

	return rsn == qp->resp.rsn_done && rw->valid && rw->rsn == rsn;
}

/* Returns false when the CQ had no room: the QP is in error then. */
static bool mrc_resp_post_recv_cqe(struct mrc_qp *qp, const struct mrc_resp_evt *e,
				   u8 status)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_rwqe *rw = mrc_resp_rwqe_slot(qp, e->rsn);
	struct mrc_cqe cqe = {
		.wr_id = rw->wqe->wr_id,
		.status = status,
		.opcode = e->opcode == MRC_OP_WRITE_IMM ?
			  IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV,
		.byte_len = e->len,
		.qp_num = qp->ibqp.qp_num,
		.src_qp = qp->attr.dest_qp_num,
	};

	if (e->opcode != MRC_OP_SEND) {
		cqe.imm_data = (__force u32)cpu_to_be32(e->imm);
		cqe.wc_flags = IB_WC_WITH_IMM;
	}
	rw->valid = false;
	resp->rsn_done++;
	if (!qp->srq)
		mrc_queue_store_cons(&qp->rq, resp->rq_base + resp->rsn_done);
	if (!mrc_cq_post(qp->rcq, &cqe, e->solicited))
		return true;
	mrc_qp_error(qp);
	return false;
}

static int mrc_resp_check_rkey(struct mrc_qp *qp, u32 rkey, int access,
			       u64 va, u64 len)
{
	struct mrc_mr *mr;

	if (!(qp->attr.qp_access_flags & access))
		return -EACCES;
	if (!len)
		return 0;
	mr = mrc_mr_get(mrc_qp_dev(qp), qp->ibqp.pd, rkey, access, va, len);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	mrc_mr_put(mr);
	return 0;
}

static bool mrc_resp_reads_pending(const struct mrc_resp *resp)
{
	return resp->again_head != resp->again_tail || resp->read_head != resp->read_tail;
}

/* The READ job whose responses go next, and the head that moves past it. */
static struct mrc_read_job *mrc_resp_next_job(struct mrc_resp *resp, u32 **head)
{
	if (resp->again_head != resp->again_tail) {
		*head = &resp->again_head;
		return &resp->reads[MRC_RESP_READS + resp->again_head % MRC_RESP_AGAIN];
	}
	*head = &resp->read_head;
	return &resp->reads[resp->read_head % MRC_RESP_READS];
}

/*
 * May READ message @msn queue responses? At most max_dest_rd_atomic READ
 * messages have responses waiting at once: what this QP granted its peer.
 * A requester within its max_rd_atomic never asks for more, as it waits for
 * a READ's last response before it counts it done. A message's chunks are
 * consecutive in the queue (the requester sends them in PSN order), so the
 * messages are its runs of one MSN; jobs fully sent no longer count.
 */
static bool mrc_resp_read_admitted(const struct mrc_resp *resp, u32 msn, u32 max)
{
	u32 i, open = 0, last = 0;

	for (i = resp->read_head; i != resp->read_tail; i++) {
		const struct mrc_read_job *job = &resp->reads[i % MRC_RESP_READS];

		if (job->next == job->npkts)
			continue;
		if (job->msn == msn)
			return true;	/* another chunk of an admitted READ */
		if (!open || job->msn != last)
			open++;
		last = job->msn;
	}
	return open < max;
}

/*
 * Queue the READ in @e; the work item sends its responses. A READ asked
 * for @again (a duplicate of one executed already) goes ahead of the
 * queue: the requester is missing those responses, and is likely stuck on
 * them, while behind a queue of big READs it would wait for seconds, past
 * its retries, with every retry only adding to the queue.
 */
static u8 mrc_resp_start_read(struct mrc_qp *qp, u32 psn, const struct mrc_resp_evt *e,
			      bool again)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_read_job *job;

	if (!again && !mrc_resp_read_admitted(resp, e->msn, qp->attr.max_dest_rd_atomic)) {
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_RD_ATOMIC_REFUSED);
		return MRC_NAK_INVALID_REQUEST;
	}
	if (mrc_resp_check_rkey(qp, e->rkey, IB_ACCESS_REMOTE_READ,
				e->va + e->offset, e->len))
		return MRC_NAK_REMOTE_ACCESS;
	if (again ? resp->again_tail - resp->again_head >= MRC_RESP_AGAIN :
		    resp->read_tail - resp->read_head >= MRC_RESP_READS) {
		/* too many: the requester asks again later */
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DROP_READ_QUEUE_FULL);
		return 0;
	}

	if (again)
		job = &resp->reads[MRC_RESP_READS + resp->again_tail++ % MRC_RESP_AGAIN];
	else
		job = &resp->reads[resp->read_tail++ % MRC_RESP_READS];
	job->psn = psn;
	job->npkts = mrc_seg_count(e->len, qp->mtu);
	job->next = 0;
	job->offset = e->offset;
	job->len = e->len;
	job->msg_len = e->msg_len;
	job->msn = e->msn;
	job->rkey = e->rkey;
	job->va = e->va;
	return 0;	/* sent once the request is acknowledged */
}

static void mrc_resp_send_atomic_resp(struct mrc_qp *qp, u32 psn, u32 msn,
				      u64 orig, u16 sport)
{
	struct mrc_pkt_hdr hdr = {
		.opcode = MRC_OP_ATOMIC_RESP,
		.dest_qpn = qp->attr.dest_qp_num,
		.psn = psn,
		.atomic_resp = { .msn = msn, .orig = orig },
	};
	struct sk_buff *skb;
	void *payload;

	struct mrc_ev_tx tx;

	skb = mrc_pkt_alloc(qp, &hdr, 0, &payload);
	if (!skb)
		return;
	mrc_resp_port_tx(qp, sport, &tx);
	mrc_pkt_send(qp, skb, &tx);
}

static u8 mrc_resp_atomic(struct mrc_qp *qp, u32 psn, const struct mrc_resp_evt *e,
			  u16 sport)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_atomic_res *res;
	struct mrc_mr *mr;
	u64 orig, val;

	if (!qp->attr.max_dest_rd_atomic) {	/* this QP granted none */
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_RD_ATOMIC_REFUSED);
		return MRC_NAK_INVALID_REQUEST;
	}
	if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_ATOMIC) || (e->va & 7))
		return MRC_NAK_REMOTE_ACCESS;
	mr = mrc_mr_get(mrc_qp_dev(qp), qp->ibqp.pd, e->rkey,
			IB_ACCESS_REMOTE_ATOMIC, e->va, 8);
	if (IS_ERR(mr))
		return MRC_NAK_REMOTE_ACCESS;

	spin_lock(&mrc_atomic_lock);
	mrc_mr_copy(mr, e->va, &orig, 8, MRC_FROM_MR);
	if (e->opcode == MRC_OP_ATOMIC_CSWAP)
		val = orig == e->compare ? e->swap_add : orig;
	else
		val = orig + e->swap_add;
	mrc_mr_copy(mr, e->va, &val, 8, MRC_TO_MR);
	spin_unlock(&mrc_atomic_lock);
	mrc_mr_put(mr);

	res = &resp->atomics[resp->atomic_next++ % MRC_RESP_ATOMICS];
	res->psn = psn;
	res->msn = e->msn;
	res->orig = orig;
	res->valid = true;
	mrc_resp_send_atomic_resp(qp, psn, e->msn, orig, sport);
	return 0;
}

/*
 * cum moved from @from to @to: every PSN before @to is in. Act on the
 * message boundaries in between, in PSN (= posting) order. Returns true
 * when one of them failed the QP (its fatal NAK sent, or its completion
 * found the CQ full).
 */
static bool mrc_resp_advance(struct mrc_qp *qp, u32 from, u32 to, u16 sport)
{
	bool failed = false;
	u32 psn;

	for (psn = from; psn != to; psn++) {
		struct mrc_resp_evt *e = mrc_resp_evt(qp, psn);
		u8 nak = e->nak;

		if (!e->opcode)
			continue;
		switch (e->opcode) {
		case MRC_OP_SEND:
		case MRC_OP_SEND_IMM:
		case MRC_OP_WRITE_IMM:
			if (!nak && !mrc_resp_rsn_next(qp, e->rsn))
				nak = MRC_NAK_INVALID_REQUEST;
			/* no ACK for what nobody saw complete */
			if (!nak && !mrc_resp_post_recv_cqe(qp, e, IB_WC_SUCCESS))
				failed = true;
			break;
		case MRC_OP_READ_REQ:
			if (!nak)
				nak = mrc_resp_start_read(qp, psn, e, false);
			break;
		case MRC_OP_ATOMIC_CSWAP:
		case MRC_OP_ATOMIC_FADD:
			if (!nak)
				nak = mrc_resp_atomic(qp, psn, e, sport);
			break;
		}
		e->opcode = 0;
		if (!nak)
			qp->resp.msn_done++;
		if (nak) {
			mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_REMOTE_ACCESS_ERRORS);
			mrc_resp_send_ack(qp, nak, 0, psn, true, sport);
			mrc_qp_error(qp);
			return true;
		}
	}
	return failed;
}

/* Place a SEND / WRITE packet; returns the NAK code it earns, if any. */
static u8 mrc_resp_place(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			 struct sk_buff *skb, struct mrc_rwqe *rw)
{
	const struct mrc_wire_msg *m = &hdr->msg;
	u32 len = hdr->payload_len;
	void *data = skb->data + hdr->hdr_len;
	struct mrc_mr *mr;

	switch (hdr->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
		if (m->msg_len > mrc_sge_total((const void *)(rw->wqe + 1),
					       rw->wqe->num_sge))
			return MRC_NAK_INVALID_REQUEST;
		if (len && mrc_sge_copy(qp, (const void *)(rw->wqe + 1),
					rw->wqe->num_sge, m->offset, data, len,
					MRC_TO_MR))
			return MRC_NAK_REMOTE_OP;
		return 0;
	default:	/* WRITE, WRITE_IMM */
		if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_WRITE))
			return MRC_NAK_REMOTE_ACCESS;
		if (!len)
			return 0;
		mr = mrc_mr_get(mrc_qp_dev(qp), qp->ibqp.pd, m->rkey,
				IB_ACCESS_REMOTE_WRITE, m->va + m->offset, len);
		if (IS_ERR(mr))
			return MRC_NAK_REMOTE_ACCESS;
		mrc_mr_copy(mr, m->va + m->offset, data, len, MRC_TO_MR);
		mrc_mr_put(mr);
		return 0;
	}
}

/* What a READ_REQ asks for, as the READ job it becomes. */
static void mrc_resp_evt_read(struct mrc_resp_evt *e, const struct mrc_pkt_hdr *hdr)
{
	e->opcode = hdr->opcode;
	e->rkey = hdr->msg.rkey;
	e->va = hdr->msg.va;
	e->offset = hdr->msg.offset;
	e->len = hdr->msg.read_len;
	e->msg_len = hdr->msg.msg_len;
	e->msn = hdr->msg.msn;
}

/*
 * READ response @psn leaves on @ev: recorded, so that a request for it
 * again is known for one of a response sent, and blames @ev
 * (mrc_resp_read_asked_again()).
 */
static void mrc_resp_sent_read(struct mrc_qp *qp, u32 psn, u32 ev)
{
	struct mrc_resp_evt *e = mrc_resp_evt(qp, psn);

	e->resp_psn = psn;
	e->resp_sent = true;
	e->resp_ev = ev;
	e->resp_sent_ns = ktime_get_ns();
}

/*
 * Duplicate READ_REQ @ask asks again for responses sent already: counted
 * (read_responses_resent), and a strike against each one's EV, which
 * turns suspect at its MRC_EV_RESPONSE_STRIKES-th within
 * MRC_RESP_STRIKE_WINDOW_NS: the responder's only news that its responses
 * die on a way (a peer asks again for some a reordering only delayed too).
 * Bounded by the READ_REQ_MAX_PKTS a request may ask for; a slot whose
 * request is newer names no response.
 */
static void mrc_resp_read_asked_again(struct mrc_qp *qp, const struct mrc_read_ask *ask)
{
	u32 n = min_t(u32, DIV_ROUND_UP(ask->len, qp->mtu), MRC_READ_REQ_MAX_PKTS);
	u32 i;

	for (i = 0; i < max(n, 1U); i++) {
		const struct mrc_resp_evt *e = mrc_resp_evt(qp, ask->psn + i);

		if (e->resp_psn != ask->psn + i || !e->resp_sent)
			continue;
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_READ_RESPONSES_RESENT);
		mrc_path_response_lost(qp->path, e->resp_ev, e->resp_sent_ns,
				       MRC_RESP_STRIKE_WINDOW_NS);
	}
}

/*
 * Send up to @budget READ response packets, oldest job first. Returns
 * whether jobs remain. Called with resp.lock held.
 */
static bool mrc_resp_send_reads(struct mrc_qp *qp, int budget)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_path_pick pick;
	struct mrc_ev_tx tx;

	while (budget > 0 && mrc_resp_reads_pending(resp) && mrc_qp_state(qp) != IB_QPS_ERR) {
		u32 *head;
		struct mrc_read_job *job = mrc_resp_next_job(resp, &head);
		struct mrc_pkt_hdr hdr = {};
		u32 off, seg;
		struct sk_buff *skb;
		struct mrc_mr *mr;
		void *payload;

		if (job->next == job->npkts) {
			(*head)++;
			continue;
		}
		mrc_seg_get(job->len, qp->mtu, job->next, &off, &seg);
		off += job->offset;
		hdr.opcode = MRC_OP_READ_RESP;
		hdr.dest_qpn = qp->attr.dest_qp_num;
		hdr.psn = job->psn + job->next;
		hdr.msg.msn = job->msn;
		hdr.msg.offset = off;
		hdr.msg.msg_len = job->msg_len;

		skb = mrc_pkt_alloc(qp, &hdr, seg, &payload);
		if (!skb)
			break;
		if (seg) {
			mr = mrc_mr_get(mdev, qp->ibqp.pd, job->rkey,
					IB_ACCESS_REMOTE_READ, job->va + off, seg);
			if (IS_ERR(mr)) {	/* deregistered since: as any access NAK */
				kfree_skb(skb);
				mrc_qp_next_ev(qp, &tx);
				mrc_resp_send_ack_on(qp, MRC_NAK_REMOTE_ACCESS, 0, job->psn,
						     false, tx.sport, &tx);
				(*head)++;
				mrc_stats_inc(mdev, MRC_CNT_REMOTE_ACCESS_ERRORS);
				mrc_qp_error(qp);
				break;
			}
			mrc_mr_copy(mr, job->va + off, payload, seg, MRC_FROM_MR);
			mrc_mr_put(mr);
		}
		mrc_path_pick(qp->path, &resp->cursor, MRC_PROFILE_EV_MAX, 0, false, false,
			      &pick);
		mrc_resp_sent_read(qp, hdr.psn, pick.ev);
		mrc_pkt_send(qp, skb, &pick.tx);
		/*
		 * A job leaves the queue with its last response: the requester
		 * sends its next READ_REQ as soon as that arrives, and the
		 * queue must have room for it then, not on this work's next run.
		 */
		if (++job->next == job->npkts)
			(*head)++;
		budget--;
	}
	return mrc_resp_reads_pending(resp);
}

/*
 * READ responses leave from one CPU at a time (resp.tx_cpu): from two, a
 * later response could overtake an earlier one on its way through the
 * stack, and the requester, which finds lost responses by their order,
 * would ask for the earlier one again.
 */
static void mrc_resp_queue_reads(struct mrc_qp *qp)
{
	int cpu = READ_ONCE(qp->resp.tx_cpu);

	if (READ_ONCE(qp->dying) || mrc_qp_state(qp) == IB_QPS_ERR)
		return;
	if (!cpu_online(cpu))
		cpu = WORK_CPU_UNBOUND;
	queue_work_on(cpu, mrc_tx_wq, &qp->resp.work);
}

/* What READ_REQ @hdr asks for, as the READ table reads it. */
static void mrc_resp_read_ask(struct mrc_read_ask *ask, const struct mrc_pkt_hdr *hdr)
{
	ask->va = hdr->msg.va;
	ask->psn = hdr->psn;
	ask->msn = hdr->msg.msn;
	ask->rkey = hdr->msg.rkey;
	ask->msg_len = hdr->msg.msg_len;
	ask->offset = hdr->msg.offset;
	ask->len = hdr->msg.read_len;
}

/*
 * Cut a READ asked for again, from @psn on, to the responses sent already.
 * Those its READ's job has still to send, the job sends: sent by an extra
 * job as well, they would reach the requester first, which then completes
 * the READ and sends its next one while this job still counts as open, and
 * that READ is refused beyond the grant (the QP in error). Returns false
 * when nothing is left to send again. The ask lies within one job: a
 * READ_REQ asks for one chunk's responses at most.
 */
static bool mrc_resp_clip_to_sent(const struct mrc_resp *resp, struct mrc_resp_evt *e,
				  u32 psn, u32 mtu)
{
	u32 i;

	for (i = resp->read_head; i != resp->read_tail; i++) {
		const struct mrc_read_job *job = &resp->reads[i % MRC_RESP_READS];
		u32 into = psn - job->psn;

		if (into >= job->npkts || job->next == job->npkts)
			continue;
		if (into >= job->next)
			return false;
		e->len = min(e->len, (job->next - into) * mtu);
		return true;
	}
	return true;
}

/* A duplicate READ/atomic request: answer it again (executing READ anew). */
static void mrc_resp_duplicate(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			       u16 sport)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_resp_evt e = {};
	struct mrc_read_ask ask;
	u32 i;

	if (!mrc_psn_before(hdr->psn, mrc_rx_window_cum(&resp->rxw)))
		return;		/* the original has not executed yet */

	switch (hdr->opcode) {
	case MRC_OP_READ_REQ:
		/*
		 * Served only as part of a READ this QP accepted: the
		 * duplicate's own address and length are never trusted.
		 */
		mrc_resp_read_ask(&ask, hdr);
		if (!mrc_read_table_covers(resp->read_msgs, &ask, qp->mtu)) {
			mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DROP_BAD_READ);
			break;
		}
		mrc_resp_read_asked_again(qp, &ask);
		mrc_resp_evt_read(&e, hdr);
		if (!mrc_resp_clip_to_sent(resp, &e, hdr->psn, qp->mtu))
			break;
		if (mrc_resp_start_read(qp, hdr->psn, &e, true))
			mrc_resp_send_ack(qp, MRC_NAK_REMOTE_ACCESS, 0, hdr->psn,
					  false, sport);
		break;
	case MRC_OP_ATOMIC_CSWAP:
	case MRC_OP_ATOMIC_FADD:
		for (i = 0; i < MRC_RESP_ATOMICS; i++) {
			struct mrc_atomic_res *r = &resp->atomics[i];

			if (r->valid && r->psn == hdr->psn) {
				mrc_resp_send_atomic_resp(qp, r->psn, r->msn,
							  r->orig, sport);
				break;
			}
		}
		break;
	}
}

/*
 * A READ_REQ asks for the responses of PSNs @psn .. @psn + @n - 1: at most
 * MRC_READ_REQ_MAX_PKTS of them (the limit Documentation/protocol.rst sets,
 * which bounds what one request makes us send), and a new one only where
 * none of those PSNs has arrived yet (they would be overwritten).
 */
static bool mrc_resp_read_req_valid(struct mrc_qp *qp, u32 psn, u32 n, bool dup)
{
	u32 i;

	if (n > MRC_READ_REQ_MAX_PKTS)
		return false;
	for (i = 1; !dup && i < n; i++)
		if (mrc_rx_window_test(&qp->resp.rxw, psn + i))
			return false;
	return true;
}

/*
 * Answers go back along a request's segments, reversed, only when they are
 * one of this QP's own EVs: a forger's segments would otherwise steer our
 * ACKs and atomic results through any SID it names. Others are routed
 * plainly. Under resp.lock (the path set changes under it).
 */
static void mrc_resp_trust_way_back(struct mrc_qp *qp, struct mrc_ev_tx *back)
{
	if (back->srv6.nr_sids && !mrc_path_has_srv6(qp->path, &back->srv6)) {
		back->srv6.nr_sids = 0;
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_REPLY_SRH_REFUSED);
	}
}

/*
 * A copy of a PSN that is in already: answer a READ or atomic again, and
 * acknowledge. Our ACK of it may have died on the way back: ACKs go back on
 * the requester's EV, whose return path may be the dead one every time, so
 * when the requester asked, a second copy takes one of our own EVs and
 * echoes that one: the requester learns which ways back work from the echo.
 */
static void mrc_resp_recv_duplicate(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr, u16 sport)
{
	struct mrc_resp *resp = &qp->resp;
	struct mrc_ev_tx tx;

	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DUPLICATES);
	resp->dup_seen = true;
	resp->dup_psn = hdr->psn;
	mrc_resp_duplicate(qp, hdr, sport);
	mrc_resp_send_ack(qp, 0, 0, 0, false, sport);
	if (!(hdr->flags & MRC_WIRE_F_ACK_REQ))
		return;
	mrc_qp_next_ev(qp, &tx);
	mrc_resp_send_ack_on(qp, 0, 0, 0, false, tx.sport, &tx);
}

/*
 * Place what a SEND or WRITE carries. Returns -EAGAIN when a message that
 * consumes a receive WQE (SEND, SEND_IMM, WRITE_IMM) found none (the
 * requester is told RNR and resends it), else 0 with *@nak the NAK the
 * packet earned, if any.
 */
static int mrc_resp_recv_place(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			       struct sk_buff *skb, u8 *nak)
{
	struct mrc_rwqe *rw = NULL;
	int err = 0;

	*nak = 0;
	switch (hdr->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_WRITE_IMM:
		rw = mrc_resp_rwqe(qp, hdr->msg.rsn, &err);
		if (err == -EAGAIN)
			return err;
		if (err) {
			*nak = MRC_NAK_INVALID_REQUEST;
			return 0;
		}
		fallthrough;
	case MRC_OP_WRITE:
		*nak = mrc_resp_place(qp, hdr, skb, rw);
		return 0;
	default:
		return 0;
	}
}

/*
 * What the packet's PSN owes once every PSN before it is in (the message
 * boundary acts in PSN order, mrc_resp_advance()): a receive completion, a
 * READ to serve, an atomic to execute, or the NAK placement earned.
 */
static void mrc_resp_recv_note(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr, u8 nak)
{
	struct mrc_resp_evt *e = mrc_resp_evt(qp, hdr->psn);
	struct mrc_read_ask ask;

	memset(e, 0, sizeof(*e));
	e->nak = nak;
	switch (hdr->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_WRITE_IMM:
		if (nak || mrc_pkt_is_last(hdr, hdr->payload_len))
			e->opcode = hdr->opcode;
		e->rsn = hdr->msg.rsn;
		e->len = hdr->msg.msg_len;
		e->imm = hdr->msg.imm;
		e->solicited = !!(hdr->flags & MRC_WIRE_F_SOLICITED);
		break;
	case MRC_OP_WRITE:
		if (nak)
			e->opcode = hdr->opcode;
		break;
	case MRC_OP_READ_REQ:
		mrc_resp_evt_read(e, hdr);
		mrc_resp_read_ask(&ask, hdr);
		mrc_read_table_note(qp->resp.read_msgs, &ask, qp->mtu);
		break;
	case MRC_OP_ATOMIC_CSWAP:
	case MRC_OP_ATOMIC_FADD:
		e->opcode = hdr->opcode;
		e->rkey = hdr->atomic.rkey;
		e->va = hdr->atomic.va;
		e->swap_add = hdr->atomic.swap_add;
		e->compare = hdr->atomic.compare;
		e->msn = hdr->atomic.msn;
		break;
	}
}

/*
 * Mark PSNs @psn .. @psn + @n - 1 received (a READ_REQ's later PSNs owe
 * nothing of their own) and act on every message boundary the cumulative
 * point @cum passes. Returns true when a message failed the QP.
 */
static bool mrc_resp_recv_accept(struct mrc_qp *qp, u32 psn, u32 n, u32 cum, u16 sport)
{
	struct mrc_resp *resp = &qp->resp;
	u32 i, adv, total = 0;

	for (i = 0; i < n; i++) {
		if (i)
			memset(mrc_resp_evt(qp, psn + i), 0, sizeof(*resp->evt));
		mrc_rx_window_accept(&resp->rxw, psn + i, &adv);
		total += adv;
	}
	return total && mrc_resp_advance(qp, cum, cum + total, sport);
}

/*
 * Whether this packet's arrival calls for an ACK now. ACKs are coalesced,
 * but holes are reported quickly (SACKs drive retransmission), and a
 * congestion mark at once: the requester puts it on the EV of the newest
 * packet the ACK covers, which is this one. The way back of the batch's
 * ack_turn-th packet is kept for the batch's ACK (mrc_resp_send_batch_ack()).
 */
static bool mrc_resp_recv_ack_due(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
				  struct sk_buff *skb, const struct mrc_ev_tx *back)
{
	struct mrc_resp *resp = &qp->resp;
	bool due = hdr->flags & MRC_WIRE_F_ACK_REQ;

	if (mrc_net_ce(skb)) {
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_CE_RECEIVED);
		resp->ce_seen = true;
		resp->ce_psn = hdr->psn;
		due = true;
	}
	resp->since_ack++;
	if (resp->since_ack == resp->ack_turn + 1)
		resp->ack_back = *back;
	if (resp->since_ack >= MRC_ACK_EVERY_PKTS ||
	    (mrc_rx_window_has_ooo(&resp->rxw) &&
	     resp->since_ack >= MRC_ACK_EVERY_PKTS_OOO))
		due = true;
	return due;
}

/*
 * A new packet inside the window: place it, note what its PSN owes, slide
 * the window, acknowledge when due.
 */
static void mrc_resp_recv_new(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			      struct sk_buff *skb, const struct mrc_ev_tx *back, u32 n, u32 cum)
{
	u16 sport = back->sport;
	bool failed;
	u8 nak;

	if (mrc_resp_recv_place(qp, hdr, skb, &nak) == -EAGAIN) {
		mrc_resp_send_ack(qp, MRC_NAK_RNR, qp->attr.min_rnr_timer, hdr->psn, false, sport);
		return;
	}
	if (hdr->psn != cum)
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_OUT_OF_ORDER);
	mrc_resp_recv_note(qp, hdr, nak);
	failed = mrc_resp_recv_accept(qp, hdr->psn, n, cum, sport);
	/*
	 * Owed even if the QP went to ERR since this packet came in: its
	 * application may have polled the completion the packet made and
	 * moved on (rdma_disconnect), and unacknowledged, the peer's last
	 * SEND retransmits into a QP that answers nothing until its retries
	 * run out (likely what held cm_traffic.sh's rdma_server past its 60 s
	 * once in CI, its client done). Not when the packet failed the QP
	 * itself.
	 */
	if (mrc_resp_recv_ack_due(qp, hdr, skb, back) && !failed)
		mrc_resp_send_batch_ack(qp, hdr->flags & MRC_WIRE_F_ACK_REQ);
}

/*
 * A request packet for this QP: a duplicate is answered again, a new one
 * in the window placed and accepted (or NAKed RNR when it found no receive
 * WQE), the rest dropped (counted, and NAKed when beyond the window). Then
 * the READs pending -- this packet's among them -- get a few responses at
 * once, after the ACK (the requester completes a READ once both are in),
 * so a small READ never waits for a kworker; the rest from the work item.
 */
void mrc_resp_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
		   struct sk_buff *skb, struct mrc_ev_tx *back)
{
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_resp *resp = &qp->resp;
	u32 psn = hdr->psn, n = 1, cum;
	enum ib_qp_state state;
	bool dup;

	/*
	 * Under the lock: the ERR flush runs under it once the state is ERR,
	 * and nothing may take an SRQ WQE after it (LAST_WQE_REACHED).
	 */
	spin_lock_bh(&resp->lock);
	state = mrc_qp_state(qp);
	if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	    state != IB_QPS_SQD && state != IB_QPS_SQE) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_QP_STATE);
		goto unlock;
	}
	mrc_resp_trust_way_back(qp, back);
	resp->back = *back;	/* where our answers to it go */
	resp->ack_psn = psn;
	/*
	 * With no response queued, the responses to come may leave from this
	 * CPU: one READ at a time is answered from the softirq it came in,
	 * without a worker's wake-up.
	 */
	if (!mrc_resp_reads_pending(resp))
		WRITE_ONCE(resp->tx_cpu, smp_processor_id());
	cum = mrc_rx_window_cum(&resp->rxw);
	dup = mrc_psn_before(psn, cum) || mrc_rx_window_test(&resp->rxw, psn);
	if (hdr->opcode == MRC_OP_READ_REQ)
		n = mrc_seg_count(hdr->msg.read_len, qp->mtu);

	if (hdr->opcode == MRC_OP_READ_REQ && !mrc_resp_read_req_valid(qp, psn, n, dup)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_BAD_READ);
	} else if (dup) {
		mrc_resp_recv_duplicate(qp, hdr, back->sport);
	} else if (psn + n - 1 - cum >= qp->window || n > qp->window) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_OUT_OF_WINDOW);
		mrc_resp_send_ack(qp, MRC_NAK_OUT_OF_WINDOW, 0, psn, false, back->sport);
	} else {
		mrc_resp_recv_new(qp, hdr, skb, back, n, cum);
	}

	/* the first responses go at once, when this is the transmit CPU */
	if (mrc_resp_reads_pending(resp) && !work_pending(&resp->work) &&
	    (smp_processor_id() != resp->tx_cpu ||
	     mrc_resp_send_reads(qp, MRC_RESP_INLINE_PKTS)))
		mrc_resp_queue_reads(qp);
unlock:
	spin_unlock_bh(&resp->lock);
}

/*
 * READ responses beyond what the softirq sends, a budget's worth per run:
 * a big READ must not hold the softirq (nor starve it: the work item runs
 * at normal priority).
 */
static void mrc_resp_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, resp.work);
	bool more;

	spin_lock_bh(&qp->resp.lock);
	more = mrc_resp_send_reads(qp, MRC_RESP_BUDGET);
	spin_unlock_bh(&qp->resp.lock);
	if (more)
		mrc_resp_queue_reads(qp);
}

/* ERR with an SRQ: the WQEs this QP took and did not complete are flushed. */
static void mrc_resp_flush_srq_locked(struct mrc_qp *qp)
{
	struct mrc_resp *resp = &qp->resp;
	u32 i;

	for (i = 0; i < resp->nr_rwqe; i++) {
		struct mrc_rwqe *rw = mrc_resp_rwqe_slot(qp, resp->rsn_done + i);
		struct mrc_cqe cqe = {
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = IB_WC_RECV,
			.qp_num = qp->ibqp.qp_num,
		};

		if (!rw->valid || rw->rsn != resp->rsn_done + i)
			continue;
		cqe.wr_id = rw->wqe->wr_id;
		rw->valid = false;
		mrc_cq_post(qp->rcq, &cqe, false);
	}
}

/*
 * The QP is in ERR: complete every posted receive with WR_FLUSH_ERR; with
 * an SRQ, the ones this QP took, and tell the application (once) that no
 * more will be taken, so it may destroy the QP.
 */
void mrc_resp_flush(struct mrc_qp *qp)
{
	struct mrc_resp *resp = &qp->resp;
	bool last_wqe = false;
	u32 prod, cons;
	int n;

	spin_lock_bh(&resp->lock);
	resp->read_head = resp->read_tail;
	resp->again_head = resp->again_tail;
	if (qp->srq) {
		mrc_resp_flush_srq_locked(qp);
		last_wqe = !resp->last_wqe_reached;
		resp->last_wqe_reached = true;
		spin_unlock_bh(&resp->lock);
		if (last_wqe)
			mrc_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
		return;
	}

	prod = mrc_queue_load_prod(&qp->rq);
	cons = resp->rq_base + resp->rsn_done;
	n = mrc_queue_count(&qp->rq, prod, cons);
	for (; n > 0; n--) {
		struct mrc_resp_evt e = { .opcode = MRC_OP_SEND, .rsn = resp->rsn_done };
		struct mrc_rwqe *rw = mrc_resp_rwqe_slot(qp, resp->rsn_done);

		if (!rw->valid || rw->rsn != resp->rsn_done) {
			memcpy(rw->wqe, mrc_queue_slot(&qp->rq, cons), qp->rq.slot_size);
			rw->rsn = resp->rsn_done;
			rw->valid = true;
		}
		mrc_resp_post_recv_cqe(qp, &e, IB_WC_WR_FLUSH_ERR);
		cons++;
	}
	spin_unlock_bh(&resp->lock);
}
