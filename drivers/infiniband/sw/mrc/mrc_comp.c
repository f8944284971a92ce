// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_comp.c - the completer: what comes back for our requests. ACKs and
 * NAKs update the PSN scoreboard (cumulative PSN + SACK), READ responses
 * are placed straight at their offset in the local buffer, atomic
 * responses deliver the original value; then WQEs complete in order.
 * Completion is the completer's alone: the requester's pass calls
 * mrc_comp_complete() for what its own decisions finished (a WQE that needs
 * no answer, a failed one), and its flush retires through mrc_comp_retire().
 * Runs in the receive softirq (and the requester's pass) under req.lock.
 */
#include "core/mrc_read_track.h"
#include "core/mrc_seg.h"
#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_net.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

/* IB's 5-bit RNR timer encoding, in microseconds (0 is the longest). */
static const u32 mrc_rnr_usec[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* Progress resets the retry budget and pushes the retransmit timer out. */
static void mrc_comp_progress(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;

	req->retries = 0;
	req->tlp_probes = 0;
	req->quiet_since_ns = ktime_get_ns();
	req->progress_una = mrc_tx_window_una(&req->txw);
	req->timeout_ns = 0;
	req->path_returned = false;
	mrc_req_restart_rto(qp);
}

/* PSN @psn is acknowledged: the EV its copy took hears of it once. */
static void mrc_comp_account_psn(struct mrc_qp *qp, u32 psn, struct mrc_tx_acked *acked,
				 u64 now)
{
	struct mrc_tx_rec *rec = &qp->req.rec[psn & (qp->window - 1)];

	if (mrc_tx_rec_acked(rec, psn, acked) && mrc_tx_rec_credits_ev(rec, &qp->req.loss, now))
		mrc_path_account_acked(qp->path, rec->ev, rec->seq, rec->sent_ns, now);
}

/*
 * Account the PSNs this ACK acknowledged: the cumulative advance from
 * @old_una, and whatever its SACK bitmap covers that was not known yet.
 * The congestion window hears how many, and the round trip of the copy
 * sent last among them: the one the ACK answers most directly (earlier
 * ones may have waited for the delayed ACK, resent ones are ambiguous).
 * Loss detection hears of that copy too: it is the newest evidence of
 * what should have arrived.
 */
static void mrc_comp_account(struct mrc_qp *qp, u32 old_una, const struct mrc_sack *sack)
{
	struct mrc_tx_window *txw = &qp->req.txw;
	u32 una = mrc_tx_window_una(txw), psn, end;
	struct mrc_tx_acked acked = {};
	u64 now = ktime_get_ns();
	u32 rtt;

	for (psn = old_una; mrc_psn_before(psn, una); psn++)
		mrc_comp_account_psn(qp, psn, &acked, now);
	end = sack->sack_base + MRC_SACK_BITS;
	if (mrc_psn_after(end, mrc_tx_window_nxt(txw)))
		end = mrc_tx_window_nxt(txw);
	psn = mrc_psn_before(sack->sack_base, una) ? una : sack->sack_base;
	for (; mrc_psn_before(psn, end); psn++)
		if (mrc_tx_window_is_acked(txw, psn))
			mrc_comp_account_psn(qp, psn, &acked, now);
	if (!acked.pkts)
		return;
	rtt = mrc_tx_acked_rtt(&acked, now);
	mrc_cc_on_ack(&qp->req.cc, acked.pkts, rtt, now);
	if (rtt)
		mrc_path_rtt_sample(qp->path, acked.newest_ev, rtt);
	mrc_tx_acked_to_loss(&acked, &qp->req.loss, now);
}

/*
 * The peer received PSN @psn twice. If we resent it, the resend was
 * spurious: the reordering window was too small, and widens. Only a PSN
 * whose record is still its own (within a window of nxt) is looked at, and
 * each once.
 */
static void mrc_comp_dup_heard(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *req = &qp->req;
	u32 nxt = mrc_tx_window_nxt(&req->txw);
	struct mrc_tx_rec *rec;

	if (!mrc_psn_before(psn, nxt) || nxt - psn > qp->window)
		return;
	rec = &req->rec[psn & (qp->window - 1)];
	if (!mrc_tx_rec_dup_heard(rec))
		return;
	mrc_loss_on_spurious(&req->loss);
	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_SPURIOUS_RESENDS);
}

/*
 * The round trip of the packet a CE echo names in the PSN field (unless
 * a duplicate's echo took it), acknowledged by now: 0 when it names none
 * of ours, and the window judges by its latest sample.
 */
static u32 mrc_comp_marked_rtt(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr, u64 now)
{
	struct mrc_req *req = &qp->req;
	u32 nxt = mrc_tx_window_nxt(&req->txw), psn = hdr->psn;

	if ((hdr->flags & MRC_WIRE_F_DUP) || !mrc_psn_before(psn, nxt) ||
	    nxt - psn > qp->window || !mrc_tx_window_is_acked(&req->txw, psn))
		return 0;
	return mrc_tx_rec_marked_rtt(&req->rec[psn & (qp->window - 1)], now);
}

/* Apply an ACK (or a NAK's ACK part); false when it fails validation. */
static bool mrc_comp_ack(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr)
{
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_req *req = &qp->req;
	u32 old_una = mrc_tx_window_una(&req->txw);
	struct mrc_tx_ack_result res;

	if (mrc_tx_window_ack(&req->txw, &hdr->ack.sack, &res)) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_BAD_ACK);
		return false;
	}
	if (res.una_advance) {
		/* IB counts RNR retries per message: progress starts anew */
		req->rnr_retries = 0;
		mrc_stall_una_moved(&req->stall, ktime_get_ns());
	}
	if (res.una_advance || res.newly_acked) {
		mrc_comp_account(qp, old_una, &hdr->ack.sack);
		mrc_comp_progress(qp);
	}
	/*
	 * The EV echo: the way this ACK came back, and with CE_ECHO the EV of
	 * the packet that came marked (answered at once), whose own wait the
	 * window judges the mark by.
	 */
	mrc_path_ack_came_back(qp->path, hdr->ack.ev_port, hdr->flags & MRC_WIRE_F_CE_ECHO);
	if (hdr->flags & MRC_WIRE_F_CE_ECHO) {
		u64 now = ktime_get_ns();

		mrc_cc_on_ce(&req->cc, mrc_comp_marked_rtt(qp, hdr, now), now);
	}
	if (hdr->flags & MRC_WIRE_F_DUP)
		mrc_comp_dup_heard(qp, hdr->psn);
	return true;
}

/* The ibv_wc opcode a send WQE completes with. */
static u32 mrc_wqe_wc_opcode(const struct mrc_send_wqe *wqe)
{
	switch (wqe->opcode) {
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		return IB_UVERBS_WC_RDMA_WRITE;
	case IB_UVERBS_WR_RDMA_READ:
		return IB_UVERBS_WC_RDMA_READ;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
		return IB_UVERBS_WC_COMP_SWAP;
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		return IB_UVERBS_WC_FETCH_ADD;
	default:
		return IB_UVERBS_WC_SEND;
	}
}

/* The completion of @w with @status. */
static void mrc_comp_fill_cqe(struct mrc_qp *qp, const struct mrc_swqe *w,
			      u8 status, struct mrc_cqe *cqe)
{
	memset(cqe, 0, sizeof(*cqe));
	cqe->wr_id = w->wqe->wr_id;
	cqe->status = status;
	cqe->opcode = mrc_wqe_wc_opcode(w->wqe);
	cqe->qp_num = qp->ibqp.qp_num;
	if (mrc_wqe_is_read(w->wqe))
		cqe->byte_len = w->len;
	else if (mrc_wqe_is_atomic(w->wqe))
		cqe->byte_len = 8;
}

/*
 * Retire the oldest WQE: free its SQ slot first, then post its completion
 * (if any), so an application that polls the CQE and posts at once always
 * finds the slot free.
 */
void mrc_comp_retire(struct mrc_qp *qp, struct mrc_swqe *w, u8 status, bool signal)
{
	struct mrc_req *req = &qp->req;
	struct mrc_cqe cqe;

	mrc_comp_fill_cqe(qp, w, status, &cqe);
	if ((mrc_wqe_is_read(w->wqe) || mrc_wqe_is_atomic(w->wqe)) &&
	    w->next_pkt && req->rd_atomic)
		req->rd_atomic--;
	/* a READ that failed waits for its missing responses no more */
	if (mrc_wqe_is_read(w->wqe) && w->next_pkt)
		mrc_read_track_release(req->reads, w->first_chunk +
				       DIV_ROUND_UP(w->next_pkt, MRC_READ_REQ_MAX_PKTS));
	req->done++;
	/* a READ's wait for its responses shows here, not in the PSN stall */
	mrc_stall_una_moved(&req->wr_stall, ktime_get_ns());
	mrc_queue_store_cons(&qp->sq, req->done);
	if (signal && mrc_cq_post(qp->scq, &cqe, false))
		mrc_qp_error(qp);
}

static bool mrc_swqe_done(struct mrc_qp *qp, struct mrc_swqe *w)
{
	u32 una = mrc_tx_window_una(&qp->req.txw);

	if (w->next_pkt < w->npkts)
		return false;
	/*
	 * Every PSN acknowledged, READs and atomics too: a response proves
	 * that some request was executed, not that the responder's window
	 * holds each PSN (a delayed chunk READ_REQ executed as a duplicate
	 * answers PSNs that only single-PSN re-requests will fill). The
	 * requester must keep the WQE to resend those.
	 */
	if (mrc_psn_before(una, w->first_psn + w->npkts))
		return false;
	if (mrc_wqe_is_read(w->wqe))
		return w->resp_pkts == w->npkts;
	if (mrc_wqe_is_atomic(w->wqe))
		return w->atomic_done;
	return true;
}

/*
 * A fatal NAK for @failed: the responder's QP went to ERR and answers
 * nothing more. Earlier WQEs still waiting on it -- READ responses and
 * atomic results it had queued -- would wait until the retries ran out,
 * holding @failed's error back; they are flushed instead. Those fully
 * acknowledged complete as they are.
 */
void mrc_comp_responder_failed(struct mrc_qp *qp, const struct mrc_swqe *failed)
{
	struct mrc_req *req = &qp->req;
	u32 i;

	for (i = req->done; i != req->next; i++) {
		struct mrc_swqe *w = mrc_req_swqe(qp, i);

		if (w == failed)
			return;
		if (!w->status && !mrc_swqe_done(qp, w))
			w->status = IB_WC_WR_FLUSH_ERR;
	}
}

/*
 * Complete WQEs in posting order (RC). Called with req.lock held whenever
 * acknowledgements or responses may have finished the oldest ones.
 */
void mrc_comp_complete(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;

	while (req->done != req->send) {
		struct mrc_swqe *w = mrc_req_swqe(qp, req->done);

		if (w->status) {
			mrc_comp_retire(qp, w, w->status, true);
			mrc_qp_error(qp);	/* the rest is flushed */
			return;
		}
		if (!mrc_swqe_done(qp, w))
			return;
		mrc_comp_retire(qp, w, IB_WC_SUCCESS, qp->sq_sig_all ||
				(w->wqe->send_flags & IB_SEND_SIGNALED));
	}
}

/*
 * The WQE a NAK names, or NULL when the NAK cannot be ours. Its PSN must be
 * one we sent (before nxt) inside a WQE with packets on the wire, and still
 * owe something: not acknowledged yet or, for a READ, a response that has
 * not come (a READ_REQ's PSNs are acknowledged on arrival, a failure to
 * read comes after). Anything else is a forgery or a NAK so old that the
 * PSN was answered since; it is dropped, never pinned on another WQE.
 */
static struct mrc_swqe *mrc_comp_nak_target(struct mrc_qp *qp, u32 psn)
{
	const struct mrc_tx_window *txw = &qp->req.txw;
	struct mrc_swqe *w;

	if (!mrc_psn_before(psn, mrc_tx_window_nxt(txw)))
		return NULL;
	w = mrc_req_find_psn(qp, psn);
	if (!w || !mrc_tx_window_is_acked(txw, psn))
		return w;
	if (mrc_wqe_is_read(w->wqe) && !mrc_req_read_arrived(qp, w, psn - w->first_psn))
		return w;
	return NULL;
}

static void mrc_comp_nak(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr)
{
	struct mrc_req *req = &qp->req;
	unsigned long wait;
	struct mrc_swqe *w;
	u8 status;

	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_NAKS_RECEIVED);
	/* a NAK carries the peer's window too: act only on one that validates */
	if (!mrc_comp_ack(qp, hdr))
		goto bad;
	w = mrc_comp_nak_target(qp, hdr->psn);
	if (!w)
		goto bad;

	switch (hdr->ack.nak_code) {
	case MRC_NAK_RNR:
		if (qp->attr.rnr_retry != 7 &&
		    ++req->rnr_retries > qp->attr.rnr_retry) {
			status = IB_WC_RNR_RETRY_EXC_ERR;
			break;
		}
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_RNR_RETRIES);
		wait = usecs_to_jiffies(mrc_rnr_usec[hdr->ack.nak_value & 31]);
		mrc_req_wait_rnr(qp, hdr->psn, jiffies + max_t(unsigned long, 1, wait));
		return;
	case MRC_NAK_OUT_OF_WINDOW:
		return;		/* resent when the window catches up (timer) */
	case MRC_NAK_REMOTE_ACCESS:
		status = IB_WC_REM_ACCESS_ERR;
		break;
	case MRC_NAK_INVALID_REQUEST:
		status = IB_WC_REM_INV_REQ_ERR;
		break;
	default:
		status = IB_WC_REM_OP_ERR;
		break;
	}
	if (!w->status)
		w->status = status;
	mrc_comp_responder_failed(qp, w);
	return;
bad:
	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DROP_BAD_NAK);
}

/*
 * A READ response arrived first time, @rtt_ns after its chunk was asked for
 * (0: asked for again, no sample): the READ window hears of it as of an
 * acknowledged packet, and of its congestion mark. Lost responses and
 * timeouts cut nothing: they come of a path that died as often as of a
 * queue, and a queue marks and delays before it drops.
 */
static void mrc_comp_read_window(struct mrc_qp *qp, const struct sk_buff *skb, u32 rtt_ns,
				 u64 now)
{
	mrc_cc_on_ack(&qp->req.read_cc, 1, rtt_ns, now);
	if (mrc_net_ce(skb))
		mrc_cc_on_ce(&qp->req.read_cc, rtt_ns, now);
}

static void mrc_comp_read_resp(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
			       struct sk_buff *skb)
{
	struct mrc_dev *mdev = mrc_qp_dev(qp);
	struct mrc_swqe *w = mrc_req_find_psn(qp, hdr->psn);
	u32 idx, off, seg, chunk, rtt, len = hdr->payload_len;
	struct mrc_read_rtt read;
	u64 judge, now;
	void *buf;
	int err;

	if (!w || !mrc_wqe_is_read(w->wqe) || w->status) {
		mrc_stats_inc(mdev, MRC_CNT_DUPLICATES);
		return;
	}
	idx = hdr->psn - w->first_psn;
	if (mrc_seg_get(w->len, qp->mtu, idx, &off, &seg) ||
	    off != hdr->msg.offset || seg != len) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_BAD_HEADER);
		return;
	}
	/* READs go out as READ_REQs of MRC_READ_REQ_MAX_PKTS responses from the start */
	chunk = w->first_chunk + idx / MRC_READ_REQ_MAX_PKTS;
	if (mrc_read_track_arrived(qp->req.reads, chunk, idx % MRC_READ_REQ_MAX_PKTS)) {
		/* asked for again too soon: the reordering window widens */
		mrc_loss_on_spurious(&qp->req.loss);
		mrc_stats_inc(mdev, MRC_CNT_DUPLICATES);
		return;
	}

	if (len) {
		buf = skb->data + hdr->hdr_len;
		err = mrc_sge_copy(qp, (const void *)(w->wqe + 1), w->wqe->num_sge,
				   off, buf, len, MRC_TO_MR);
		if (err) {
			w->status = IB_WC_LOC_PROT_ERR;
			return;
		}
	}
	/* its PSN was sent, so its chunk is tracked or complete: this counts it once */
	now = ktime_get_ns();
	rtt = mrc_read_track_rtt(qp->req.reads, chunk, now);
	if (mrc_read_track_mark(qp->req.reads, chunk, idx % MRC_READ_REQ_MAX_PKTS, now) != 1)
		return;
	mrc_comp_read_window(qp, skb, rtt, now);
	/* the missing responses it overtook are lost a reordering window from now */
	mrc_read_track_heard(qp->req.reads, now, true);
	mrc_req_read_rtt(qp, &read);
	judge = now + mrc_loss_read_reo_ns(&qp->req.loss, &read);
	if (mrc_read_track_overtake(qp->req.reads, chunk, idx % MRC_READ_REQ_MAX_PKTS, judge))
		mrc_req_arm_loss_timer(qp, judge);
	w->resp_pkts++;
	w->progress_at = jiffies;
	mrc_comp_progress(qp);
}

static void mrc_comp_atomic_resp(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr)
{
	struct mrc_swqe *w = mrc_req_find_psn(qp, hdr->psn);
	u64 orig = hdr->atomic_resp.orig;

	if (!w || w->atomic_done || w->status || w->npkts != 1 ||
	    w->first_psn != hdr->psn) {
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DUPLICATES);
		return;
	}
	if (mrc_sge_copy(qp, (const void *)(w->wqe + 1), 1, 0, &orig, 8,
			 MRC_TO_MR))
		w->status = IB_WC_LOC_PROT_ERR;
	w->atomic_orig = orig;
	w->atomic_done = true;
	mrc_comp_progress(qp);
}

void mrc_comp_recv(struct mrc_qp *qp, const struct mrc_pkt_hdr *hdr,
		   struct sk_buff *skb)
{
	struct mrc_req *req = &qp->req;
	enum ib_qp_state state = mrc_qp_state(qp);

	if (state != IB_QPS_RTS && state != IB_QPS_SQD && state != IB_QPS_SQE) {
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_DROP_QP_STATE);
		return;
	}

	spin_lock_bh(&req->lock);
	switch (hdr->opcode) {
	case MRC_OP_ACK:
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_ACKS_RECEIVED);
		mrc_comp_ack(qp, hdr);
		break;
	case MRC_OP_NAK:
		mrc_comp_nak(qp, hdr);
		break;
	case MRC_OP_READ_RESP:
		mrc_comp_read_resp(qp, hdr, skb);
		break;
	case MRC_OP_ATOMIC_RESP:
		mrc_comp_atomic_resp(qp, hdr);
		break;
	}
	mrc_comp_complete(qp);
	/*
	 * Wake the requester only when it has work: a wake-up per ACK would
	 * preempt a busy-polling application on every message.
	 */
	if (mrc_req_has_work(qp))
		mrc_req_kick(qp);
	spin_unlock_bh(&req->lock);
}
