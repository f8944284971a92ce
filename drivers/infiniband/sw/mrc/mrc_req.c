// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_req.c - the requester: fetches send WQEs from the SQ ring, cuts them
 * into packets with consecutive PSNs, sprays them over the QP's entropy
 * values, and retransmits selectively: holes the peer's SACKs reveal, and
 * on a timeout whatever is still unacknowledged. Never go-back-N.
 *
 * Execution: one work item per QP on mrc_tx_wq, bound to the QP's transmit
 * CPU, so an ACK that opens the window and the timers all just kick it; it
 * sends at most MRC_REQ_BUDGET packets per run and requeues itself, so a
 * big message never holds a CPU for long. A doorbell on that CPU runs the
 * pass itself. All state is under req.lock (BH), shared with the completer
 * running in the receive softirq.
 *
 * One transmit CPU per QP: a software link queues what a CPU sends on that
 * CPU's backlog, so passes on two CPUs put one QP's packets in two queues
 * that drain independently -- reordering the sender made itself, which a
 * loss detector must then tell from the fabric's. The QP sends from the
 * CPU that moved it to RTS, and follows its application to another CPU
 * when a doorbell comes from there with nothing in flight.
 */
#include <linux/slab.h>

#include "core/mrc_read_track.h"
#include "core/mrc_seg.h"
#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_qp.h"
#include "mrc_stats.h"

/* How a packet goes out. */
enum mrc_tx_kind {
	MRC_TX_NEW,		/* first transmission */
	MRC_TX_RESEND,		/* the recorded copy, replacing a lost one */
	MRC_TX_SPARE,		/* one more copy beside the recorded one, unrecorded */
};

static unsigned int mrc_cc_target_delay_us;
module_param_named(cc_target_delay_us, mrc_cc_target_delay_us, uint, 0644);
MODULE_PARM_DESC(cc_target_delay_us,
		 "Queueing delay a QP's congestion window tolerates, in us (default 0: half the base RTT, at least 16 packets' delivery time)");

static void mrc_req_timer(struct timer_list *t);
static enum hrtimer_restart mrc_req_loss_timer(struct hrtimer *t);
static void mrc_req_work(struct work_struct *work);

static inline u32 mrc_req_slot(const struct mrc_qp *qp, u32 psn)
{
	return psn & (qp->window - 1);
}

/* 4.096 us * 2^timeout, as IB defines the local ACK timeout; at least 2 jiffies. */
unsigned long mrc_req_rto(const struct mrc_qp *qp)
{
	u32 t = qp->attr.timeout;
	u64 ns;

	if (!t)
		t = MRC_DEFAULT_TIMEOUT;	/* 0 means infinite: retry forever */
	ns = 4096ULL << min_t(u32, t, 31);
	return max_t(unsigned long, nsecs_to_jiffies(ns), 2);
}

/*
 * Fresh congestion windows: a QP entering RTS knows nothing of its path.
 * One paces what this side sends; the other the READ responses it asks for
 * (the responder sends them as fast as asked: the requester, which sees
 * their marks and round trips, is the one to pace them), up to what the
 * READ tracker holds. The READ window counts in responses but is spent in
 * chunks of up to MRC_READ_REQ_MAX_PKTS: below one chunk it means nothing
 * (one chunk may always be asked for), and it starts at two, so a READ is
 * asked for while the one before it still streams.
 */
static void mrc_req_cc_reset(struct mrc_qp *qp)
{
	struct mrc_cc_params p = {
		.init_cwnd = min_t(u32, MRC_CC_INIT_CWND, qp->window),
		.min_cwnd = min_t(u32, MRC_CC_MIN_CWND, qp->window),
		.max_cwnd = qp->window,
		.target_delay_ns = min_t(u32, READ_ONCE(mrc_cc_target_delay_us),
					 MRC_CC_MAX_RTT_NS / NSEC_PER_USEC) * NSEC_PER_USEC,
	};

	/* the parameters are consistent by construction: init cannot fail */
	WARN_ON_ONCE(mrc_cc_init(&qp->req.cc, &p, ktime_get_ns()));
	p.init_cwnd = 2 * MRC_READ_REQ_MAX_PKTS;
	p.min_cwnd = MRC_READ_REQ_MAX_PKTS;
	p.max_cwnd = MRC_READ_TRACK_CHUNKS * MRC_READ_REQ_MAX_PKTS;
	WARN_ON_ONCE(mrc_cc_init(&qp->req.read_cc, &p, ktime_get_ns()));
}

/*
 * Fresh loss detection: until the first ACKs, the round trip is assumed
 * to be as long as the QP's ACK timeout allows (capped at the estimator's
 * second), so no packet is called lost before its paths have answered.
 */
static void mrc_req_loss_reset(struct mrc_qp *qp)
{
	u32 t = qp->attr.timeout ? qp->attr.timeout : MRC_DEFAULT_TIMEOUT;
	const struct mrc_loss_params p = {
		.initial_rtt_ns = (u32)min_t(u64, 4096ULL << min_t(u32, t, 31),
					     MRC_LOSS_MAX_RTT_NS),
		.min_reo_ns = MRC_LOSS_MIN_REO_NS,
		.tlp_min_ns = MRC_LOSS_MIN_REO_NS,
	};

	WARN_ON_ONCE(mrc_loss_init(&qp->req.loss, &p, ktime_get_ns()));
	hrtimer_try_to_cancel(&qp->req.loss_timer);
}

int mrc_req_init(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	u32 i;

	spin_lock_init(&req->lock);
	timer_setup(&req->timer, mrc_req_timer, 0);
	hrtimer_init(&req->loss_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	req->loss_timer.function = mrc_req_loss_timer;
	INIT_WORK(&req->work, mrc_req_work);
	req->tx_cpu = raw_smp_processor_id();	/* until RTS chooses */

	req->txw_map = kcalloc(MRC_WINDOW_WORDS(qp->window), sizeof(u64), GFP_KERNEL);
	req->rec = kvcalloc(qp->window, sizeof(*req->rec), GFP_KERNEL);
	req->swqe = kvcalloc(qp->sq.num_slots, sizeof(*req->swqe), GFP_KERNEL);
	req->raw = kvcalloc(qp->sq.num_slots, qp->sq.slot_size, GFP_KERNEL);
	/* what READs of any length need, fixed now and charged to the creator */
	req->reads = kzalloc(sizeof(*req->reads), GFP_KERNEL_ACCOUNT);
	if (!req->txw_map || !req->rec || !req->swqe || !req->raw || !req->reads) {
		mrc_req_free(qp);
		return -ENOMEM;
	}
	for (i = 0; i < qp->sq.num_slots; i++)
		req->swqe[i].wqe = (void *)(req->raw + (size_t)i * qp->sq.slot_size);
	mrc_req_cc_reset(qp);
	mrc_req_loss_reset(qp);
	return mrc_tx_window_init(&req->txw, qp->window, req->txw_map,
				  MRC_WINDOW_WORDS(qp->window), 0);
}

void mrc_req_free(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;

	kfree(req->reads);
	req->reads = NULL;
	kfree(req->txw_map);
	kvfree(req->rec);
	kvfree(req->swqe);
	kvfree(req->raw);
	req->txw_map = NULL;
	req->rec = NULL;
	req->swqe = NULL;
	req->raw = NULL;
}

/* Stop the timer and the work for good (destroy) or until restarted. */
void mrc_req_stop(struct mrc_qp *qp)
{
	/* qp->dying is set: neither the timer nor the work requeues */
	cancel_work_sync(&qp->req.work);
	del_timer_sync(&qp->req.timer);
	hrtimer_cancel(&qp->req.loss_timer);
}

static void mrc_req_reset_locked(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *req = &qp->req;

	mrc_read_track_init(req->reads);
	mrc_tx_window_init(&req->txw, qp->window, req->txw_map,
			   MRC_WINDOW_WORDS(qp->window), psn);
	mrc_req_cc_reset(qp);
	mrc_req_loss_reset(qp);
	req->done = req->send = req->next = mrc_queue_peek_cons(&qp->sq);
	req->msn = 0;
	req->rsn = 0;
	req->rd_atomic = 0;
	req->retries = 0;
	req->rnr_retries = 0;
	req->tlp_probes = 0;
	req->progress_una = psn;
	req->timeout_ns = 0;
	req->path_returned = false;
	req->rnr_until = 0;
	req->timed_out = false;
	req->stall.since_ns = 0;
	req->wr_stall.since_ns = 0;
}

/*
 * Entering RTS: start numbering at the sq_psn the application gave, and
 * send from the CPU it does that on.
 */
void mrc_req_start(struct mrc_qp *qp)
{
	spin_lock_bh(&qp->req.lock);
	mrc_req_reset_locked(qp, qp->attr.sq_psn);
	WRITE_ONCE(qp->req.tx_cpu, raw_smp_processor_id());
	spin_unlock_bh(&qp->req.lock);
}

void mrc_req_kick(struct mrc_qp *qp)
{
	int cpu = READ_ONCE(qp->req.tx_cpu);

	if (READ_ONCE(qp->dying))
		return;
	/* an offline CPU's work would run anywhere: the local one is as good */
	if (!cpu_online(cpu))
		cpu = WORK_CPU_UNBOUND;
	queue_work_on(cpu, mrc_tx_wq, &qp->req.work);
}

/* Back to RESET: forget everything posted, without completions. */
void mrc_req_discard(struct mrc_qp *qp)
{
	u32 prod;

	spin_lock_bh(&qp->req.lock);
	prod = mrc_queue_load_prod(&qp->sq);
	if (mrc_queue_count(&qp->sq, prod, mrc_queue_peek_cons(&qp->sq)) >= 0)
		mrc_queue_store_cons(&qp->sq, prod);
	mrc_req_reset_locked(qp, 0);
	spin_unlock_bh(&qp->req.lock);
}

/* Only for a WQE whose num_sge or inline_len mrc_wqe_check() has bounded. */
static u32 mrc_wqe_length(const struct mrc_send_wqe *wqe)
{
	if (mrc_wqe_is_atomic(wqe))
		return 8;
	if (wqe->send_flags & IB_SEND_INLINE)
		return wqe->inline_len;
	return mrc_sge_total((const void *)(wqe + 1), wqe->num_sge);
}

/*
 * Check a WQE copied from userspace. Anything wrong completes it with a
 * local error instead of being sent.
 */
static u8 mrc_wqe_check(struct mrc_qp *qp, const struct mrc_send_wqe *wqe)
{
	u32 max_sge = (qp->sq.slot_size - MRC_SEND_WQE_HDR_SIZE) /
		      sizeof(struct mrc_sge);

	switch (wqe->opcode) {
	case IB_UVERBS_WR_SEND:
	case IB_UVERBS_WR_SEND_WITH_IMM:
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		break;
	case IB_UVERBS_WR_RDMA_READ:
		if (wqe->send_flags & IB_SEND_INLINE)
			return IB_WC_LOC_QP_OP_ERR;
		break;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		if (wqe->num_sge != 1 ||
		    ((const struct mrc_sge *)(wqe + 1))->length != 8 ||
		    (wqe->wr.atomic.remote_addr & 7))
			return IB_WC_LOC_QP_OP_ERR;
		break;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
	if (wqe->send_flags & IB_SEND_INLINE) {
		if (wqe->inline_len > qp->sq.slot_size - MRC_SEND_WQE_HDR_SIZE)
			return IB_WC_LOC_LEN_ERR;
	} else if (wqe->num_sge > max_sge) {
		return IB_WC_LOC_LEN_ERR;
	}
	if (mrc_wqe_length(wqe) > MRC_PORT_MAX_MSG_SZ)
		return IB_WC_LOC_LEN_ERR;
	return IB_WC_SUCCESS;
}

/*
 * Whether the producer index @prod userspace wrote is possible: at most a
 * ring ahead of the oldest WQE not completed, and never behind a WQE
 * fetched already (an index moved backwards would make the fetch loop run
 * around the u32 space).
 */
static bool mrc_req_prod_valid(struct mrc_qp *qp, u32 prod)
{
	const struct mrc_req *req = &qp->req;

	return mrc_queue_count(&qp->sq, prod, req->done) >= 0 &&
	       prod - req->done >= req->next - req->done;
}

/* Take the WQEs userspace published since the last fetch. */
static void mrc_req_fetch(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	u32 prod = mrc_queue_load_prod(&qp->sq);

	if (!mrc_req_prod_valid(qp, prod)) {
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_BAD_RING_INDEX);
		mrc_qp_error(qp);	/* a provider wrote nonsense */
		return;
	}
	for (; req->next != prod; req->next++) {
		struct mrc_swqe *w = &req->swqe[req->next & (qp->sq.num_slots - 1)];
		struct mrc_send_wqe *wqe = w->wqe;

		memcpy(wqe, mrc_queue_slot(&qp->sq, req->next), qp->sq.slot_size);
		w->status = mrc_wqe_check(qp, wqe);
		w->len = w->status ? 0 : mrc_wqe_length(wqe);
		w->npkts = mrc_wqe_is_atomic(wqe) ? 1 : mrc_seg_count(w->len, qp->mtu);
		w->next_pkt = 0;
		w->resp_pkts = 0;
		w->atomic_done = false;
		w->msn = req->msn++;
		w->rsn = 0;
		if (wqe->opcode == IB_UVERBS_WR_SEND ||
		    wqe->opcode == IB_UVERBS_WR_SEND_WITH_IMM ||
		    wqe->opcode == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM)
			w->rsn = req->rsn++;
	}
}

/* Whether response @idx of READ @w, asked for already, is in. */
bool mrc_req_read_arrived(const struct mrc_qp *qp, const struct mrc_swqe *w, u32 idx)
{
	return mrc_read_track_arrived(qp->req.reads,
				      w->first_chunk + idx / MRC_READ_REQ_MAX_PKTS,
				      idx % MRC_READ_REQ_MAX_PKTS);
}

/*
 * The first response of READ @w that may be missing: every chunk before the
 * oldest one tracked is complete, so a search for holes starts there.
 */
static u32 mrc_req_read_first_missing(const struct mrc_qp *qp, const struct mrc_swqe *w)
{
	u32 behind = qp->req.reads->tail - w->first_chunk;

	if ((s32)behind <= 0)
		return 0;
	if (behind >= DIV_ROUND_UP(w->next_pkt, MRC_READ_REQ_MAX_PKTS))
		return w->next_pkt;
	return behind * MRC_READ_REQ_MAX_PKTS;
}

/* The WQE that owns @psn among those with packets sent, or NULL. */
struct mrc_swqe *mrc_req_find_psn(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *req = &qp->req;
	u32 i;

	for (i = req->done; i != req->next; i++) {
		struct mrc_swqe *w = mrc_req_swqe(qp, i);

		if (!w->next_pkt) {
			if (w->status)
				continue;	/* failed before sending */
			break;
		}
		if (!mrc_psn_before(psn, w->first_psn) &&
		    mrc_psn_before(psn, w->first_psn + w->next_pkt))
			return w;
	}
	return NULL;
}

static u8 mrc_wr_to_op(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_UVERBS_WR_SEND: return MRC_OP_SEND;
	case IB_UVERBS_WR_SEND_WITH_IMM: return MRC_OP_SEND_IMM;
	case IB_UVERBS_WR_RDMA_WRITE: return MRC_OP_WRITE;
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM: return MRC_OP_WRITE_IMM;
	case IB_UVERBS_WR_RDMA_READ: return MRC_OP_READ_REQ;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP: return MRC_OP_ATOMIC_CSWAP;
	default: return MRC_OP_ATOMIC_FADD;
	}
}

/*
 * Packets the network may still hold: sent, not acknowledged, SACKed
 * ones excluded. A hole counts until it is acknowledged, so a loss keeps
 * its slot until its resend gets through.
 */
static u32 mrc_req_in_flight(const struct mrc_req *req)
{
	return mrc_tx_window_outstanding(&req->txw) - req->txw.nr_sacked;
}

/*
 * Whether the packet with @psn fills the congestion window and no packet
 * of the last MRC_ACK_EVERY_PKTS asked for an ACK: the responder coalesces
 * ACKs, and once the window is full nothing else would make it answer the
 * last few packets -- the requester would wait for its timeout. Asking at
 * most every MRC_ACK_EVERY_PKTS packets adds no ACKs to a busy stream.
 */
static bool mrc_req_fills_window(struct mrc_qp *qp, u32 psn)
{
	return mrc_req_in_flight(&qp->req) >= mrc_cc_cwnd(&qp->req.cc) &&
	       psn - qp->req.ack_req_psn >= MRC_ACK_EVERY_PKTS;
}

static struct mrc_tx_rec *mrc_req_rec(struct mrc_qp *qp, u32 psn)
{
	return &qp->req.rec[mrc_req_slot(qp, psn)];
}

/*
 * Choose the EV of a packet carrying PSNs @psn .. @psn + @count - 1 and
 * record how it went out. A resend avoids the EV of the copy it replaces.
 * A packet that asks for an ACK (@ack_req: a resend among them) takes an EV
 * whose ACKs came back lately if it can, else one proven lately -- for a
 * resend, proven by a packet sent after the copy it replaces: after a
 * failure, the dead path's EVs are the ones nothing sent lately has
 * crossed, and an ECMP fabric may have killed an EV's way back alone.
 * Only PSNs still waiting for an acknowledgement own a record: a READ
 * re-requested after its PSNs were acknowledged (cumulatively: its slots
 * are live PSNs' now; or by SACK: its record was accounted already) is not
 * a transmission the scoreboard will hear of.
 */
static void mrc_req_record(struct mrc_qp *qp, u32 psn, u32 count, enum mrc_tx_kind kind,
			   bool ack_req, struct mrc_path_pick *pick)
{
	struct mrc_req *req = &qp->req;
	bool retx = kind != MRC_TX_NEW;
	bool live = !mrc_tx_window_is_acked(&req->txw, psn);
	u32 avoid = retx && live ? mrc_req_rec(qp, psn)->ev : MRC_PROFILE_EV_MAX;
	u64 copy_ns = retx && live ? mrc_req_rec(qp, psn)->sent_ns : 0;
	u64 now_ns = ktime_get_ns();
	u32 i;

	/*
	 * A spare is no transmission the scoreboard tracks: the record stays,
	 * but whichever copy is acknowledged first is unknown now, so no EV
	 * is credited with it (the resend's EV may be the dead one).
	 */
	if (kind == MRC_TX_SPARE) {
		if (live)
			mrc_req_rec(qp, psn)->account = 0;
		live = false;
	}
	req->quiet_since_ns = now_ns;
	mrc_path_pick(qp->path, &req->cursor, avoid,
		      ack_req ? mrc_loss_proven_since(&req->loss, now_ns, copy_ns) : 0, retx, live,
		      pick);
	for (i = 0; live && i < count; i++)
		mrc_tx_rec_sent(mrc_req_rec(qp, psn + i), now_ns, pick->ev, pick->seq, pick->usable,
				retx, i);
}

/*
 * Send packet @idx of @w (for a READ: the READ_REQ asking for response
 * packets idx .. idx + count - 1). The PSN is first_psn + idx.
 */
static int mrc_req_xmit(struct mrc_qp *qp, struct mrc_swqe *w, u32 idx,
			u32 count, enum mrc_tx_kind kind)
{
	bool retx = kind != MRC_TX_NEW;
	const struct mrc_send_wqe *wqe = w->wqe;
	struct mrc_path_pick pick;
	struct mrc_pkt_hdr hdr = {};
	u32 len = w->len;
	u32 off = 0, seg = 0, last;
	struct sk_buff *skb;
	void *payload;
	int err;

	hdr.opcode = mrc_wr_to_op(wqe->opcode);
	hdr.dest_qpn = qp->attr.dest_qp_num;
	hdr.psn = w->first_psn + idx;

	if (mrc_wqe_is_atomic(wqe)) {
		hdr.flags = MRC_WIRE_F_ACK_REQ;
		hdr.atomic.msn = w->msn;
		hdr.atomic.rkey = wqe->wr.atomic.rkey;
		hdr.atomic.va = wqe->wr.atomic.remote_addr;
		hdr.atomic.swap_add = wqe->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ?
				      wqe->wr.atomic.swap : wqe->wr.atomic.compare_add;
		hdr.atomic.compare = wqe->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ?
				     wqe->wr.atomic.compare_add : 0;
	} else {
		mrc_seg_get(len, qp->mtu, idx, &off, &seg);
		hdr.msg.msn = w->msn;
		hdr.msg.offset = off;
		hdr.msg.msg_len = len;
		hdr.msg.rsn = w->rsn;
		hdr.msg.imm = be32_to_cpu((__force __be32)wqe->ex);
		hdr.msg.rkey = wqe->wr.rdma.rkey;
		hdr.msg.va = wqe->wr.rdma.remote_addr;
		last = mrc_wqe_is_read(wqe) ? idx + count - 1 : idx;
		if (mrc_wqe_is_read(wqe)) {
			u32 end_off, end_seg;

			if (retx)	/* served ahead of the peer's queue */
				mrc_read_track_again(qp->req.reads, w->first_chunk +
						     idx / MRC_READ_REQ_MAX_PKTS);

			mrc_seg_get(len, qp->mtu, last, &end_off, &end_seg);
			hdr.msg.read_len = end_off + end_seg - off;
			seg = 0;
		}
		if (last + 1 == w->npkts || retx || !((idx + 1) % MRC_ACK_REQ_EVERY_PKTS) ||
		    mrc_wqe_is_read(wqe) || mrc_req_fills_window(qp, hdr.psn))
			hdr.flags |= MRC_WIRE_F_ACK_REQ;
		if (last + 1 == w->npkts && (wqe->send_flags & IB_SEND_SOLICITED) &&
		    (hdr.opcode == MRC_OP_SEND || hdr.opcode == MRC_OP_SEND_IMM ||
		     hdr.opcode == MRC_OP_WRITE_IMM))
			hdr.flags |= MRC_WIRE_F_SOLICITED;
	}

	if (hdr.flags & MRC_WIRE_F_ACK_REQ)
		qp->req.ack_req_psn = hdr.psn;
	skb = mrc_pkt_alloc(qp, &hdr, seg, &payload);
	if (!skb)
		return -ENOMEM;
	if (seg) {
		if (wqe->send_flags & IB_SEND_INLINE)
			memcpy(payload, (const u8 *)(wqe + 1) + off, seg);
		else {
			err = mrc_sge_copy(qp, (const void *)(wqe + 1), wqe->num_sge,
					   off, payload, seg, MRC_FROM_MR);
			if (err) {
				kfree_skb(skb);
				w->status = IB_WC_LOC_PROT_ERR;
				return err;
			}
		}
	}
	mrc_req_record(qp, hdr.psn, max_t(u32, count, 1), kind,
		       hdr.flags & MRC_WIRE_F_ACK_REQ, &pick);
	WRITE_ONCE(qp->req.tx_packets, qp->req.tx_packets + 1);
	WRITE_ONCE(qp->req.tx_retransmits, qp->req.tx_retransmits + retx);
	if (retx)
		mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_RETRANSMITS);
	return mrc_pkt_send(qp, skb, &pick.tx);
}

/* The timer interval: the RTO, doubled per expiry without progress. */
static unsigned long mrc_req_backed_off_rto(const struct mrc_qp *qp)
{
	return mrc_req_rto(qp) << min_t(u32, qp->req.retries, MRC_REQ_MAX_BACKOFF);
}

/*
 * The peer made progress (the completer says so): the retransmit timeout
 * runs from now while anything is outstanding, and stops when nothing is.
 * Under req.lock.
 */
void mrc_req_restart_rto(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;

	if (mrc_tx_window_outstanding(&req->txw) || req->done != req->send)
		mod_timer(&req->timer, jiffies + mrc_req_backed_off_rto(qp));
	else
		del_timer(&req->timer);
}

/*
 * The peer had no receive WQE for @psn (an RNR NAK): nothing from @psn on
 * is resent before @until (jiffies), when the timer wakes the requester.
 * Under req.lock.
 */
void mrc_req_wait_rnr(struct mrc_qp *qp, u32 psn, unsigned long until)
{
	struct mrc_req *req = &qp->req;

	req->rnr_until = until;
	if (!req->rnr_pending || mrc_psn_before(psn, req->rnr_psn))
		req->rnr_psn = psn;
	req->rnr_pending = true;
	mod_timer(&req->timer, until);
}

static void mrc_req_arm_timer(struct mrc_qp *qp)
{
	if (!timer_pending(&qp->req.timer))
		mod_timer(&qp->req.timer, jiffies + mrc_req_backed_off_rto(qp));
}

/*
 * First transmissions, in WQE order, while the PSN window has room and the
 * congestion window allows.
 */
static int mrc_req_send_new(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;

	while (budget > 0 && req->send != req->next) {
		struct mrc_swqe *w = mrc_req_swqe(qp, req->send);
		u32 count = 1, i;

		if (w->status)
			goto next_wqe;	/* completes with its error */
		/*
		 * The window paces what this side puts on the wire. A READ_REQ
		 * is small and its PSNs are acknowledged on arrival, before the
		 * responses flow: the READ window paces those, by the responses
		 * asked for and not in yet.
		 */
		if (mrc_wqe_is_read(w->wqe)) {
			count = min_t(u32, MRC_READ_REQ_MAX_PKTS, w->npkts - w->next_pkt);
			if (!mrc_read_track_room(req->reads))
				break;	/* so is the peer's READ queue */
			if (!mrc_cc_may_send(&req->read_cc, mrc_read_track_missing(req->reads),
					     count))
				break;
		} else if (!mrc_cc_may_send(&req->cc, mrc_req_in_flight(req), count)) {
			break;
		}
		if (mrc_tx_window_space(&req->txw) < count)
			break;
		if (!w->next_pkt) {
			bool rd = mrc_wqe_is_read(w->wqe) || mrc_wqe_is_atomic(w->wqe);

			if (rd && req->rd_atomic >= max_t(u32, qp->attr.max_rd_atomic, 1))
				break;
			if ((w->wqe->send_flags & IB_SEND_FENCE) && req->rd_atomic)
				break;
			if (rd)
				req->rd_atomic++;	/* once: next_pkt moves below */
			w->first_psn = mrc_tx_window_nxt(&req->txw);
			/* every WQE before it complete: the oldest from now */
			mrc_stall_sent(&req->wr_stall, req->done == req->send, ktime_get_ns());
		}
		mrc_stall_sent(&req->stall, !mrc_tx_window_outstanding(&req->txw), ktime_get_ns());
		for (i = 0; i < count; i++) {
			u32 psn;

			mrc_tx_window_alloc(&req->txw, &psn);
		}
		if (mrc_wqe_is_read(w->wqe)) {
			u64 now = ktime_get_ns();
			u32 chunk;

			/* a tail probe waits for silence from the first request on */
			if (req->reads->tail == req->reads->head)
				mrc_read_track_heard(req->reads, now, false);
			chunk = mrc_read_track_open(req->reads, count, now);

			if (!w->next_pkt)
				w->first_chunk = chunk;
		}
		mrc_req_xmit(qp, w, w->next_pkt, count, MRC_TX_NEW);
		w->next_pkt += count;
		w->progress_at = jiffies;
		budget--;
		mrc_req_arm_timer(qp);
		if (w->next_pkt < w->npkts && !w->status)
			continue;
next_wqe:
		req->send++;
	}
	return budget;
}

/*
 * Resend PSN @psn: its data packet, or a READ_REQ for that one response;
 * @kind is MRC_TX_RESEND or MRC_TX_SPARE.
 */
static void mrc_req_send_psn_again(struct mrc_qp *qp, u32 psn, enum mrc_tx_kind kind)
{
	struct mrc_swqe *w = mrc_req_find_psn(qp, psn);

	if (!w || w->status)
		return;
	/*
	 * Even if this PSN's READ response is already here, ask again: the
	 * response may have come from a re-executed duplicate READ_REQ that
	 * did not mark this PSN at the responder, and only a request for
	 * exactly this PSN makes the peer's cumulative PSN move past it.
	 */
	mrc_req_xmit(qp, w, psn - w->first_psn, 1, kind);
}

static void mrc_req_resend_psn(struct mrc_qp *qp, u32 psn)
{
	mrc_req_send_psn_again(qp, psn, MRC_TX_RESEND);
}

/*
 * PSN @psn's copy is lost: the EV it took hears of it (a GOOD EV becomes
 * suspect and is probed), and it goes again on another EV. A retransmit
 * timeout blames every EV its overdue PSNs took: the suspects' probes,
 * judged against a control, clear the innocent ones within a round trip
 * (blaming none made the VM fabric's RTO storms worse).
 */
static void mrc_req_resend_lost(struct mrc_qp *qp, u32 psn)
{
	struct mrc_tx_rec *rec = mrc_req_rec(qp, psn);

	mrc_path_lost(qp->path, rec->ev, rec->seq, rec->sent_ns, true, rec->account,
		      mrc_loss_min_rtt(&qp->req.loss));
	mrc_cc_on_loss(&qp->req.cc, ktime_get_ns(), !mrc_path_ev_usable(qp->path, rec->ev));
	mrc_req_resend_psn(qp, psn);
}

/*
 * Selective retransmission: each hole is judged by mrc_tx_rec_judge() (by
 * send time across EVs, sooner while its EV is on trial, at once when its
 * EV fell), and the earliest deadline of a hole not lost yet arms the loss
 * timer.
 */
static int mrc_req_fast_retransmit(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	u64 now = ktime_get_ns(), next = 0, deadline;
	u32 psn, scanned = 0;

	if (!mrc_tx_window_holes(&req->txw))
		return budget;
	mrc_tx_window_for_each_hole(&req->txw, psn) {
		struct mrc_tx_rec *rec = mrc_req_rec(qp, psn);
		enum mrc_loss_verdict v;

		if (budget <= 0 || ++scanned > MRC_LOSS_SCAN)
			break;
		v = mrc_tx_rec_judge(rec, &req->loss, psn, mrc_path_ev_standing(qp->path, rec->ev),
				     now, &deadline);
		if (v == MRC_LOSS_WAIT && (!next || deadline < next))
			next = deadline;
		if (v != MRC_LOSS_LOST)
			continue;
		mrc_req_resend_lost(qp, psn);
		budget--;
	}
	if (next)
		mrc_req_arm_loss_timer(qp, next);
	return budget;
}

/*
 * A tail-loss probe when mrc_loss_tlp_due() says so: the oldest
 * unacknowledged PSN again, on an EV proven lately. Its arrival moves cum,
 * which reopens a window full of holes, and its ACK is the evidence loss
 * detection needs for the rest: a lost tail, or resends lost again while
 * nothing new may leave. Otherwise the loss timer is armed for its deadline.
 */
static int mrc_req_tail_probe(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	u64 deadline;

	if (budget <= 0 || !mrc_tx_window_outstanding(&req->txw))
		return budget;
	if (!mrc_loss_tlp_due(&req->loss, req->quiet_since_ns, req->tlp_probes, ktime_get_ns(),
			      &deadline)) {
		if (deadline)
			mrc_req_arm_loss_timer(qp, deadline);
		return budget;
	}
	req->tlp_probes++;
	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_TAIL_PROBES);
	mrc_req_send_psn_again(qp, mrc_tx_window_una(&req->txw), MRC_TX_RESEND);
	return budget - 1;
}

/* What was measured of the READ responses' timing (mrc_loss_read_reo_ns()). */
void mrc_req_read_rtt(const struct mrc_qp *qp, struct mrc_read_rtt *read)
{
	read->srtt_ns = READ_ONCE(qp->req.read_cc.srtt_ns);
	read->spread_ns = mrc_read_track_spread(qp->req.reads);
}

/* How long READ responses asked for again may take (mrc_loss_read_again_ns()). */
static u64 mrc_req_read_again_ns(const struct mrc_qp *qp)
{
	struct mrc_read_rtt read;

	mrc_req_read_rtt(qp, &read);
	return mrc_loss_read_again_ns(&qp->req.loss, &read, jiffies_to_nsecs(mrc_req_rto(qp)));
}

/* The silence before a READ's tail is asked for (mrc_loss_read_tail_ns()). */
static u64 mrc_req_read_tail_wait_ns(const struct mrc_qp *qp)
{
	struct mrc_read_rtt read;

	mrc_req_read_rtt(qp, &read);
	return mrc_loss_read_tail_ns(&qp->req.loss, &read, jiffies_to_nsecs(mrc_req_rto(qp)));
}

/* The READ WQE that chunk @seq belongs to, and the chunk's index in it (@k), or NULL. */
static struct mrc_swqe *mrc_req_read_wqe(struct mrc_qp *qp, u32 seq, u32 *k)
{
	struct mrc_req *req = &qp->req;
	u32 i;

	for (i = req->done; i != req->next; i++) {
		struct mrc_swqe *w = mrc_req_swqe(qp, i);

		if (!w->next_pkt)
			break;
		if (w->status || !mrc_wqe_is_read(w->wqe))
			continue;
		*k = seq - w->first_chunk;
		if (*k < DIV_ROUND_UP(w->next_pkt, MRC_READ_REQ_MAX_PKTS))
			return w;
	}
	return NULL;
}

/* READ @w failed: its missing responses are judged no more (its chunks go as it completes). */
static void mrc_req_read_forget(struct mrc_qp *qp, const struct mrc_swqe *w)
{
	u32 k;

	if (!mrc_wqe_is_read(w->wqe))
		return;
	for (k = mrc_req_read_first_missing(qp, w) / MRC_READ_REQ_MAX_PKTS;
	     k < DIV_ROUND_UP(w->next_pkt, MRC_READ_REQ_MAX_PKTS); k++)
		mrc_read_track_forget(qp->req.reads, w->first_chunk + k);
}

/* Whether the READ_REQ asking for response @idx of @w arrived (was acknowledged). */
static bool mrc_req_read_requested(const struct mrc_qp *qp, const struct mrc_swqe *w, u32 idx)
{
	return mrc_tx_window_is_acked(&qp->req.txw, w->first_psn + idx);
}

/*
 * The lost responses of chunk @k of READ @w asked for again, each run of
 * them by one READ_REQ (a packet that asks for an ACK: it takes an EV
 * proven lately). A response whose READ_REQ is not acknowledged yet is
 * left to the requests' own loss detection, which resends that READ_REQ.
 */
static int mrc_req_read_chunk_again(struct mrc_qp *qp, struct mrc_swqe *w, u32 k, u64 lost,
				    u64 now, int budget)
{
	u32 base = k * MRC_READ_REQ_MAX_PKTS;

	while (lost) {
		u32 first = __ffs64(lost), n = 1;

		lost &= lost - 1;
		if (base + first >= w->next_pkt)
			break;
		if (!mrc_req_read_requested(qp, w, base + first))
			continue;
		while (first + n < MRC_READ_REQ_MAX_PKTS && (lost >> (first + n) & 1) &&
		       base + first + n < w->next_pkt &&
		       mrc_req_read_requested(qp, w, base + first + n)) {
			lost &= ~(1ULL << (first + n));
			n++;
		}
		mrc_req_xmit(qp, w, base + first, n, MRC_TX_RESEND);
		mrc_stats_add(mrc_qp_dev(qp), MRC_CNT_READ_RESPONSES_LOST, n);
		budget--;
	}
	mrc_read_track_asked(qp->req.reads, w->first_chunk + k, now + mrc_req_read_again_ns(qp));
	return budget;
}

/*
 * READ responses found lost by their order (mrc_read_track_lost()) are
 * asked for again within a reordering window, not after a retransmit
 * timeout without progress; the earliest chunk still waiting arms the loss
 * timer. At most MRC_REQ_READ_AGAIN requests a pass: the peer queues them
 * apart, in MRC_RESP_AGAIN slots.
 */
static int mrc_req_read_losses(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	u64 now = ktime_get_ns(), next, judge, lost;
	int floor = budget - MRC_REQ_READ_AGAIN;
	u32 i, k, seq;

	if (req->reads->tail == req->reads->head)
		return budget;
	for (i = req->done; i != req->next && budget > floor; i++) {
		struct mrc_swqe *w = mrc_req_swqe(qp, i);

		if (w->status) {	/* failed, maybe before it was sent */
			mrc_req_read_forget(qp, w);
			continue;
		}
		if (!w->next_pkt)
			break;
		if (!mrc_wqe_is_read(w->wqe))
			continue;
		for (k = mrc_req_read_first_missing(qp, w) / MRC_READ_REQ_MAX_PKTS;
		     k < DIV_ROUND_UP(w->next_pkt, MRC_READ_REQ_MAX_PKTS) && budget > floor; k++) {
			lost = mrc_read_track_lost(req->reads, w->first_chunk + k, now, &judge);
			if (lost)
				budget = mrc_req_read_chunk_again(qp, w, k, lost, now, budget);
		}
	}
	if (mrc_read_track_tail_due(req->reads, now, mrc_req_read_tail_wait_ns(qp), &seq, &lost)) {
		struct mrc_swqe *w = mrc_req_read_wqe(qp, seq, &k);

		if (w) {
			mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_TAIL_PROBES);
			budget = mrc_req_read_chunk_again(qp, w, k, lost, now, budget);
		}
	}
	/*
	 * A deadline passed already is one this pass left (its limit reached):
	 * the next looks a while on, never at once, or timer and pass would
	 * wake each other without end.
	 */
	next = mrc_read_track_next_judge(req->reads, mrc_req_read_tail_wait_ns(qp));
	if (next && next <= now)
		next = now + mrc_req_read_again_ns(qp);
	if (next)
		mrc_req_arm_loss_timer(qp, next);
	return budget;
}

/*
 * Whether an ACK or response leaves the requester something to do: WQEs
 * waiting for window or READ/atomic credit, or holes for loss detection
 * to judge. Timeouts and RNR back-offs come with their timer.
 */
bool mrc_req_has_work(const struct mrc_qp *qp)
{
	const struct mrc_req *req = &qp->req;

	return req->send != req->next || mrc_tx_window_holes(&req->txw);
}

/* READ/atomic WQEs whose requests arrived but whose responses did not. */
static int mrc_req_rerequest(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	unsigned long rto = mrc_req_rto(qp);
	u32 i, k;

	/* up to and including the WQE still being sent (a long READ) */
	for (i = req->done; i != req->next && budget > 0; i++) {
		struct mrc_swqe *w = mrc_req_swqe(qp, i);

		if (!w->next_pkt)
			break;
		if (w->status || time_before(jiffies, w->progress_at + rto))
			continue;
		if (mrc_wqe_is_atomic(w->wqe) && !w->atomic_done) {
			mrc_req_xmit(qp, w, 0, 1, MRC_TX_RESEND);
			budget--;
		} else if (mrc_wqe_is_read(w->wqe)) {
			for (k = mrc_req_read_first_missing(qp, w);
			     k < w->next_pkt && budget > 0; k++) {
				if (mrc_req_read_arrived(qp, w, k))
					continue;
				mrc_req_xmit(qp, w, k, 1, MRC_TX_RESEND);
				budget--;
			}
		}
		w->progress_at = jiffies;
	}
	return budget;
}

/*
 * After an RNR NAK's back-off: resend the message from the NAKed PSN, at
 * most @budget packets per pass (what is left goes on the next).
 */
static int mrc_req_rnr_resend(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	struct mrc_swqe *w = mrc_req_find_psn(qp, req->rnr_psn);
	u32 psn, end;

	req->rnr_pending = false;
	if (!w)
		return budget;
	end = w->first_psn + w->next_pkt;
	for (psn = req->rnr_psn; mrc_psn_before(psn, end); psn++) {
		if (mrc_tx_window_is_acked(&req->txw, psn))
			continue;
		if (budget <= 0) {
			req->rnr_psn = psn;
			req->rnr_pending = true;
			break;
		}
		mrc_req_resend_psn(qp, psn);
		budget--;
	}
	return budget;
}

/*
 * The QP fails for want of an answer: what it was waiting on, for whoever
 * has to find out why (the peer, or every path to it, went quiet).
 */
static void mrc_req_report_retry_exc(struct mrc_qp *qp, const struct mrc_swqe *w, u32 una)
{
	struct mrc_req *req = &qp->req;
	u32 in_flight = mrc_tx_window_outstanding(&req->txw);
	const struct mrc_tx_rec *rec = in_flight ? mrc_req_rec(qp, una) : NULL;

	ibdev_info_ratelimited(&mrc_qp_dev(qp)->ib_dev,
			       "QP %u: retry count exceeded at PSN %u (%u in flight; its last copy on EV %d, %u ms ago); WQE opcode %d PSNs %u+%u, %u sent, %u responses\n",
			       qp->ibqp.qp_num, una, in_flight, rec ? (int)rec->ev : -1,
			       rec ? (u32)div_u64(ktime_get_ns() - rec->sent_ns, NSEC_PER_MSEC) : 0,
			       w ? (int)w->wqe->opcode : -1, w ? w->first_psn : 0,
			       w ? w->npkts : 0, w ? w->next_pkt : 0, w ? w->resp_pkts : 0);
}

/*
 * After a retransmit timeout, the loss timer looks at what the path set
 * hears (mrc_req_loss_timer()) from when news would say the resend died.
 */
static void mrc_req_look_for_return(struct mrc_qp *qp, u64 now_ns)
{
	struct mrc_req *req = &qp->req;
	u64 look;

	if (req->timeout_ns &&
	    !mrc_loss_return_due(&req->loss, req->timeout_ns, 0, now_ns, &look) && look)
		mrc_req_arm_loss_timer(qp, look);
}

/* The retransmit timer fired: resend what is overdue, count the retry. */
static int mrc_req_timeout(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	u64 rto_ns = jiffies_to_nsecs(mrc_req_rto(qp)), now_ns = ktime_get_ns();
	u32 psn, una = mrc_tx_window_una(&req->txw);
	bool retry_forever = !qp->attr.timeout;

	req->timed_out = false;
	if (!mrc_tx_window_outstanding(&req->txw) && req->done == req->send)
		return budget;

	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_TIMEOUTS);
	WRITE_ONCE(req->tx_timeouts, req->tx_timeouts + 1);
	if (una == req->progress_una && !retry_forever &&
	    ++req->retries > qp->attr.retry_cnt) {
		struct mrc_swqe *w = mrc_req_find_psn(qp, una);

		if (!w && req->done != req->send)
			w = mrc_req_swqe(qp, req->done);
		if (w && !w->status)	/* a NAK's reason stays */
			w->status = IB_WC_RETRY_EXC_ERR;
		req->timeout_ns = 0;
		req->path_returned = false;
		mrc_req_report_retry_exc(qp, w, una);
		mrc_qp_error(qp);
		return budget;
	}
	if (una != req->progress_una)
		req->retries = 0;
	req->progress_una = una;
	mrc_cc_on_timeout(&req->cc);

	psn = una;
	while (budget > 0 && mrc_tx_window_next_unacked(&req->txw, psn, &psn)) {
		if (now_ns - mrc_req_rec(qp, psn)->sent_ns >= rto_ns) {
			mrc_req_resend_lost(qp, psn);
			budget--;
		}
		psn++;
	}
	/*
	 * The oldest PSN timed out without progress: its copy or the ACK of
	 * it died. On a fabric losing paths faster than probes find them,
	 * one copy per RTO may keep riding dead paths until the retry budget
	 * is gone; spare copies on other EVs (each answered by an ACK) make
	 * every round a few independent tries.
	 */
	if (req->retries && mrc_tx_window_outstanding(&req->txw)) {
		u32 i, spares = min_t(u32, req->retries, MRC_REQ_MAX_SPARES);

		for (i = 0; i < spares && budget > 0; i++, budget--)
			mrc_req_send_psn_again(qp, una, MRC_TX_SPARE);
	}
	/* what the path set hears once this resend's ACK is overdue says a way is back */
	req->timeout_ns = now_ns;
	req->path_returned = false;
	req->returns_left = MRC_LOSS_RETURN_RESENDS;
	mrc_req_look_for_return(qp, now_ns);
	return mrc_req_rerequest(qp, budget);
}

/*
 * The path set heard from the peer after a retransmit timeout's resend
 * should have been acknowledged (mrc_loss_return_due()): the oldest PSN
 * goes again now, not after the doubled RTO, on an EV proven lately if one
 * is. The next one, if this dies too, waits for news after it.
 */
static int mrc_req_return_resend(struct mrc_qp *qp, int budget)
{
	struct mrc_req *req = &qp->req;
	u64 now_ns;

	if (budget <= 0)
		return budget;	/* the next pass sends it */
	req->path_returned = false;
	if (!req->timeout_ns || !mrc_tx_window_outstanding(&req->txw)) {
		req->timeout_ns = 0;
		return budget;
	}
	mrc_req_send_psn_again(qp, mrc_tx_window_una(&req->txw), MRC_TX_RESEND);
	mrc_stats_inc(mrc_qp_dev(qp), MRC_CNT_RETURN_RESENDS);
	now_ns = ktime_get_ns();
	req->timeout_ns = --req->returns_left ? now_ns : 0;
	mrc_req_look_for_return(qp, now_ns);
	return budget - 1;
}

/* Arm the loss timer for @deadline_ns, unless it fires before that anyway. */
void mrc_req_arm_loss_timer(struct mrc_qp *qp, u64 deadline_ns)
{
	struct hrtimer *t = &qp->req.loss_timer;
	ktime_t when = ns_to_ktime(deadline_ns);

	if (hrtimer_is_queued(t) && !ktime_after(hrtimer_get_expires(t), when))
		return;
	hrtimer_start(t, when, HRTIMER_MODE_ABS_SOFT);
}

/*
 * The loss timer fired: a pass runs only if it has something to decide, holes
 * to judge, a tail-loss probe due or, after a retransmit timeout, news from
 * the peer's side (mrc_loss_return_due()). While ACKs keep coming, the probe's
 * deadline moves on without a pass, and the timer follows it here: a worker
 * woken every two round trips preempts the application polling on the
 * transmit CPU (ib_read_lat in the VM: 81-99 us, 75-89 us without).
 */
static enum hrtimer_restart mrc_req_loss_timer(struct hrtimer *t)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, req.loss_timer);
	struct mrc_req *req = &qp->req;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	bool kick = false;
	u64 deadline = 0;

	spin_lock(&req->lock);	/* a soft hrtimer: BHs are off */
	if (!READ_ONCE(qp->dying) && mrc_qp_state(qp) != IB_QPS_ERR) {
		u64 now = ktime_get_ns(), look = 0;
		u64 reads = mrc_read_track_next_judge(req->reads, mrc_req_read_tail_wait_ns(qp));

		/* READ responses to judge: their READ_REQs may all be acknowledged */
		kick = reads && reads <= now;
		if (mrc_tx_window_outstanding(&req->txw)) {
			kick |= mrc_tx_window_holes(&req->txw) ||
				mrc_loss_tlp_due(&req->loss, req->quiet_since_ns, req->tlp_probes,
						 now, &deadline);
			if (req->timeout_ns &&
			    mrc_loss_return_due(&req->loss, req->timeout_ns,
						mrc_path_heard_ns(qp->path), now, &look)) {
				req->path_returned = true;
				kick = true;
			}
		}
		if (look && (!deadline || look < deadline))
			deadline = look;
		if (reads > now && (!deadline || reads < deadline))
			deadline = reads;
		/* a pass may have armed it again while this waited for the lock */
		if (!kick && deadline && !hrtimer_is_queued(t)) {
			hrtimer_set_expires(t, ns_to_ktime(deadline));
			ret = HRTIMER_RESTART;
		}
	}
	spin_unlock(&req->lock);
	if (kick)
		mrc_req_kick(qp);
	return ret;
}

static void mrc_req_timer(struct timer_list *t)
{
	struct mrc_qp *qp = from_timer(qp, t, req.timer);

	WRITE_ONCE(qp->req.timed_out, true);
	mrc_req_kick(qp);
}

static void mrc_req_work(struct work_struct *work)
{
	mrc_req_run(container_of(work, struct mrc_qp, req.work));
}

/*
 * One requester pass: the work item runs it on the QP's transmit CPU, and
 * so does a doorbell there (mrc_req_doorbell). Passes serialise on
 * req.lock.
 */
void mrc_req_run(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	enum ib_qp_state state = mrc_qp_state(qp);
	int budget = MRC_REQ_BUDGET;

	if (state == IB_QPS_ERR) {
		mrc_req_flush(qp);
		mrc_resp_flush(qp);
		return;
	}
	if (state != IB_QPS_RTS && state != IB_QPS_SQD)
		return;

	spin_lock_bh(&req->lock);
	if (req->rnr_until && time_before(jiffies, req->rnr_until)) {
		mod_timer(&req->timer, req->rnr_until);
		spin_unlock_bh(&req->lock);
		return;
	}
	req->rnr_until = 0;
	if (req->rnr_pending) {
		budget = mrc_req_rnr_resend(qp, budget);
		/*
		 * The RNR back-off took over the retransmit timer: its expiry
		 * is no retransmit timeout. Counted as one, a few RNR NAKs in a
		 * row failed the QP with RETRY_EXC_ERR within milliseconds.
		 */
		req->timed_out = false;
	}
	if (req->timed_out)
		budget = mrc_req_timeout(qp, budget);
	if (req->path_returned)
		budget = mrc_req_return_resend(qp, budget);
	if (state == IB_QPS_RTS)
		mrc_req_fetch(qp);
	budget = mrc_req_fast_retransmit(qp, budget);
	budget = mrc_req_read_losses(qp, budget);
	budget = mrc_req_send_new(qp, budget);
	budget = mrc_req_tail_probe(qp, budget);
	mrc_comp_complete(qp);
	if (mrc_tx_window_outstanding(&req->txw) || req->done != req->send)
		mrc_req_arm_timer(qp);
	if (mrc_qp_state(qp) != IB_QPS_ERR)	/* a pass for holes must not end the look-out */
		mrc_req_look_for_return(qp, ktime_get_ns());
	spin_unlock_bh(&req->lock);

	if (budget <= 0)
		mrc_req_kick(qp);	/* more to do: let others run first */
}

/*
 * The application rang the doorbell (post_send, process context). On the
 * transmit CPU the pass runs now: a kworker behind a busy-polling
 * application may wait for the scheduler, and that would be the latency of
 * every message. From another CPU, the QP moves there if nothing of it is
 * in flight (no packet of it can then be overtaken), else the transmit
 * CPU's work takes over. In ERR the pass only flushes, here and now.
 */
void mrc_req_doorbell(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	int cpu;

	if (mrc_qp_state(qp) == IB_QPS_ERR) {
		mrc_req_run(qp);
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	if (cpu != READ_ONCE(req->tx_cpu)) {
		spin_lock_bh(&req->lock);
		if (!mrc_tx_window_outstanding(&req->txw) && req->done == req->send)
			WRITE_ONCE(req->tx_cpu, cpu);
		spin_unlock_bh(&req->lock);
	}
	if (cpu == READ_ONCE(req->tx_cpu))
		mrc_req_run(qp);
	else
		mrc_req_kick(qp);
	migrate_enable();
}

/*
 * The QP is in ERR: complete the failed WQE with its status and every
 * other posted one with WR_FLUSH_ERR. Runs from the work item or modify_qp.
 */
void mrc_req_flush(struct mrc_qp *qp)
{
	struct mrc_req *req = &qp->req;
	u32 prod;

	spin_lock_bh(&req->lock);
	prod = mrc_queue_load_prod(&qp->sq);
	if (mrc_req_prod_valid(qp, prod))
		mrc_req_fetch(qp);
	req->send = req->next;
	while (req->done != req->next) {
		struct mrc_swqe *w = mrc_req_swqe(qp, req->done);

		mrc_comp_retire(qp, w, w->status ? w->status : IB_WC_WR_FLUSH_ERR, true);
	}
	req->rd_atomic = 0;
	mrc_read_track_init(req->reads);
	req->timeout_ns = 0;	/* nothing left to resend when a way is back */
	req->path_returned = false;
	del_timer(&req->timer);
	hrtimer_try_to_cancel(&req->loss_timer);
	spin_unlock_bh(&req->lock);
}
