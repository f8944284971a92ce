// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_qp.c - queue pairs (RC, and UD whose data path is mrc_ud.c):
 * creation, the modify_qp state machine, query, destruction, and flushing
 * work requests when a QP enters the error state.
 */
#include <linux/log2.h>

#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_param.h"
#include "mrc_qp.h"
#include "mrc_path.h"
#include "mrc_srq.h"
#include "mrc_stats.h"

static const char *const mrc_qp_state_names[] = {
	[IB_QPS_RESET] = "RESET",
	[IB_QPS_INIT] = "INIT",
	[IB_QPS_RTR] = "RTR",
	[IB_QPS_RTS] = "RTS",
	[IB_QPS_SQD] = "SQD",
	[IB_QPS_SQE] = "SQE",
	[IB_QPS_ERR] = "ERR",
};

const char *mrc_qp_state_name(enum ib_qp_state state)
{
	if ((unsigned int)state >= ARRAY_SIZE(mrc_qp_state_names))
		return "?";
	return mrc_qp_state_names[state];
}

struct ib_qp *mrc_qp_lookup_ib(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_qp *qp = xa_load(&mdev->qp_xa, qpn);

	return qp ? &qp->ibqp : NULL;
}

void mrc_qp_event(struct mrc_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/* The receive path's reference: destroy waits until it is dropped. */
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_qp *qp;

	rcu_read_lock();
	qp = xa_load(&mdev->qp_xa, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refs))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

void mrc_qp_put(struct mrc_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->released);
}

enum ib_qp_state mrc_qp_state(struct mrc_qp *qp)
{
	return READ_ONCE(qp->state);
}

/*
 * Under state_lock. The RQ's flag tells the provider that receives it
 * posts in ERR wait for a doorbell to be flushed: it posts them without a
 * system call, and nothing else would look at them until the QP's reset.
 */
static void mrc_qp_write_state(struct mrc_qp *qp, enum ib_qp_state state)
{
	WRITE_ONCE(qp->state, state);
	if (qp->rq.buf)
		mrc_queue_set_flags(&qp->rq, state == IB_QPS_ERR ? MRC_RING_F_FLUSH : 0);
}

/*
 * The data path found a fatal error: enter ERR from any context. The
 * requester's work item flushes both queues (it may not run here: we can
 * be inside the responder's or completer's lock).
 */
void mrc_qp_error(struct mrc_qp *qp)
{
	unsigned long flags;
	bool was;

	spin_lock_irqsave(&qp->state_lock, flags);
	was = qp->state == IB_QPS_ERR;
	mrc_qp_write_state(qp, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->state_lock, flags);
	if (!was) {
		mrc_stats_inc(to_mdev(qp->ibqp.device), MRC_CNT_QP_ERRORS);
		mrc_qp_event(qp, IB_EVENT_QP_FATAL);
	}
	mrc_req_kick(qp);
}

static u32 mrc_send_slot_size(u32 max_sge, u32 max_inline)
{
	u32 body = max_t(u32, max_sge * sizeof(struct mrc_sge), max_inline);

	return MRC_SEND_WQE_HDR_SIZE + ALIGN(body, 64);
}

static int mrc_qp_check_init(struct mrc_dev *mdev, struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI) {
		ibdev_dbg(&mdev->ib_dev, "only RC, UD and GSI QPs are supported\n");
		return -EOPNOTSUPP;
	}
	if (init->qp_type == IB_QPT_GSI && init->port_num != 1)
		return -EINVAL;
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (!cap->max_send_wr || cap->max_send_wr > MRC_MAX_QP_WR ||
	    cap->max_send_sge > MRC_MAX_SGE ||
	    cap->max_inline_data > MRC_MAX_INLINE_DATA)
		return -EINVAL;
	if (!init->srq && (!cap->max_recv_wr ||
			   cap->max_recv_wr > MRC_MAX_QP_WR ||
			   cap->max_recv_sge > MRC_MAX_SGE))
		return -EINVAL;
	return 0;
}

/*
 * Optional driver input: the EV profile the QP is bound to, if it names
 * one (else it takes the device's default when it gets its AV).
 */
static int mrc_qp_read_cmd(struct mrc_dev *mdev, struct ib_udata *udata, u32 *profile)
{
	struct mrc_create_qp_cmd cmd = {};
	int err;

	*profile = MRC_PROFILE_DEFAULT;
	if (!udata || !udata->inlen)
		return 0;
	if (udata->inlen < sizeof(cmd))
		return -EINVAL;
	err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
	if (err)
		return err;
	if (cmd.flags & ~MRC_CREATE_QP_EV_PROFILE) {
		ibdev_dbg(&mdev->ib_dev, "create_qp: unknown flags %#x\n", cmd.flags);
		return -EINVAL;
	}
	if (!(cmd.flags & MRC_CREATE_QP_EV_PROFILE))
		return cmd.ev_profile_id ? -EINVAL : 0;
	if (cmd.ev_profile_id >= MRC_PROFILES_MAX)
		return -ENOENT;	/* as for an id of no profile */
	*profile = cmd.ev_profile_id;
	return 0;
}

static void mrc_qp_put_profile(struct mrc_qp *qp)
{
	if (qp->bound_profile != MRC_PROFILE_DEFAULT)
		mrc_profile_put(to_mdev(qp->ibqp.device), qp->bound_profile);
	qp->bound_profile = MRC_PROFILE_DEFAULT;
}

/* The data path's state: requester and responder (RC), or mrc_ud.c's. */
static int mrc_qp_init_halves(struct mrc_qp *qp)
{
	int err;

	if (mrc_qp_is_ud(qp))
		return mrc_ud_init(qp);
	err = mrc_req_init(qp);
	if (err)
		return err;
	err = mrc_resp_init(qp);
	if (err)
		mrc_req_free(qp);
	return err;
}

static void mrc_qp_free_halves(struct mrc_qp *qp)
{
	if (mrc_qp_is_ud(qp)) {
		mrc_ud_free(qp);
		return;
	}
	mrc_resp_free(qp);
	mrc_req_free(qp);
}

int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_create_qp_resp resp = {};
	struct ib_qp_cap *cap = &init->cap;
	u32 qpn, send_sge, recv_sge;
	int err;

	qp->bound_profile = MRC_PROFILE_DEFAULT;	/* nothing held yet */
	err = mrc_qp_check_init(mdev, init);
	if (!err)
		err = mrc_qp_read_cmd(mdev, udata, &qp->bound_profile);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	/* a datagram goes the way its AH routes: there are no EVs to choose */
	if (init->qp_type == IB_QPT_UD && qp->bound_profile != MRC_PROFILE_DEFAULT)
		return -EINVAL;
	/* QP 1 is the MAD layer's */
	if (init->qp_type == IB_QPT_GSI && udata)
		return -EPERM;
	if (qp->bound_profile != MRC_PROFILE_DEFAULT) {
		/* ENOENT: no such profile; EINVAL: not online */
		err = mrc_profile_hold(mdev, qp->bound_profile);
		if (err)
			return err;
	}

	mutex_init(&qp->modify_lock);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->post_lock);
	refcount_set(&qp->refs, 1);
	init_completion(&qp->released);
	qp->state = IB_QPS_RESET;
	qp->window = MRC_DEFAULT_WINDOW;
	qp->mtu = 1024;
	qp->scq = to_mcq(init->send_cq);
	qp->rcq = to_mcq(init->recv_cq);
	qp->srq = init->srq ? to_msrq(init->srq) : NULL;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;

	/* at least one SGE per slot, and report what the slot really holds */
	send_sge = max_t(u32, cap->max_send_sge, 1);
	err = mrc_queue_init(&qp->sq, udata, cap->max_send_wr,
			     mrc_send_slot_size(send_sge, cap->max_inline_data));
	if (err)
		goto err_profile;
	qp->max_inline = qp->sq.slot_size - MRC_SEND_WQE_HDR_SIZE;
	qp->max_send_sge = min_t(u32, qp->max_inline / sizeof(struct mrc_sge),
				 MRC_MAX_SGE);

	if (!qp->srq) {
		recv_sge = max_t(u32, cap->max_recv_sge, 1);
		err = mrc_queue_init(&qp->rq, udata, cap->max_recv_wr,
				     mrc_recv_slot_size(recv_sge));
		if (err)
			goto err_sq;
		qp->max_recv_sge = recv_sge;
	} else {
		qp->max_recv_sge = qp->srq->max_sge;
	}

	err = dst_cache_init(&qp->dst_cache, GFP_KERNEL);
	if (err)
		goto err_rq;
	err = mrc_qp_init_halves(qp);
	if (err)
		goto err_dst;

	if (init->qp_type == IB_QPT_GSI) {
		qpn = 1;
		err = xa_insert(&mdev->qp_xa, qpn, qp, GFP_KERNEL);
	} else {
		err = xa_alloc_cyclic(&mdev->qp_xa, &qpn, qp,
				      XA_LIMIT(MRC_MIN_QPN, MRC_MAX_QPN),
				      &mdev->qp_next, GFP_KERNEL);
	}
	if (err < 0)
		goto err_halves;
	ibqp->qp_num = qpn;

	cap->max_send_wr = qp->sq.num_slots;
	cap->max_send_sge = qp->max_send_sge;
	cap->max_inline_data = qp->max_inline;
	if (!qp->srq) {
		cap->max_recv_wr = qp->rq.num_slots;
		cap->max_recv_sge = qp->max_recv_sge;
	}

	if (udata) {
		mrc_queue_fill_info(&qp->sq, &resp.sq);
		if (!qp->srq)
			mrc_queue_fill_info(&qp->rq, &resp.rq);
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_xa;
	}
	return 0;

err_xa:
	xa_erase(&mdev->qp_xa, qpn);
	synchronize_rcu();	/* as in mrc_destroy_qp */
err_halves:
	mrc_qp_free_halves(qp);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
err_rq:
	if (!qp->srq)
		mrc_queue_destroy(&qp->rq);
err_sq:
	mrc_queue_destroy(&qp->sq);
err_profile:
	mrc_qp_put_profile(qp);
	return err < 0 ? err : -ENOMEM;
}

/*
 * Move from @old, the state the transition was validated against, to @new.
 * The data path may fail the QP meanwhile (a bad request on a QP in RTR):
 * that error stands, as if it came just after this modify, and the QP
 * flushes as any QP entering ERR does.
 */
static void mrc_qp_set_state(struct mrc_qp *qp, enum ib_qp_state old,
			     enum ib_qp_state new, bool notify_sq_drained)
{
	ibdev_dbg(qp->ibqp.device, "qp %u: %s -> %s\n", qp->ibqp.qp_num,
		  mrc_qp_state_name(old), mrc_qp_state_name(new));

	/* (re)start the halves before the data path can see the new state */
	if (new == IB_QPS_RTR && old != IB_QPS_RTR && !mrc_qp_is_ud(qp))
		mrc_resp_start(qp);
	if (new == IB_QPS_RTS && old == IB_QPS_RTR && !mrc_qp_is_ud(qp))
		mrc_req_start(qp);

	spin_lock_irq(&qp->state_lock);
	if (qp->state == IB_QPS_ERR && old != IB_QPS_ERR && new != IB_QPS_RESET)
		new = IB_QPS_ERR;
	mrc_qp_write_state(qp, new);
	spin_unlock_irq(&qp->state_lock);

	switch (new) {
	case IB_QPS_RESET:
		if (mrc_qp_is_ud(qp)) {
			mrc_ud_discard(qp);
			break;
		}
		mrc_req_discard(qp);
		mrc_resp_discard(qp);
		break;
	case IB_QPS_ERR:
		if (mrc_qp_is_ud(qp)) {
			mrc_ud_flush(qp);
			break;
		}
		mrc_req_flush(qp);
		mrc_resp_flush(qp);
		break;
	case IB_QPS_RTS:
		mrc_req_kick(qp);	/* WQEs may wait from SQD */
		break;
	case IB_QPS_SQD:
		/* nothing is in flight once the requester has stopped */
		if (notify_sq_drained)
			mrc_qp_event(qp, IB_EVENT_SQ_DRAINED);
		break;
	default:
		break;
	}
}

static int mrc_qp_check_attr(struct mrc_qp *qp, struct ib_qp_attr *attr,
			     int mask, struct mrc_av *av)
{
	int err;

	/* a Q_Key with its top bit set is IB's controlled kind (GSI's): not for processes */
	if ((mask & IB_QP_QKEY) && (attr->qkey & 0x80000000U) && qp->ibqp.uobject)
		return -EPERM;

	if (mask & (IB_QP_ALT_PATH | IB_QP_CAP))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= MRC_PORT_PKEY_TBL_LEN)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	/* QPN 0 is no QP an RC peer can have: nothing could be sent to it */
	if ((mask & IB_QP_DEST_QPN) &&
	    (!attr->dest_qp_num || attr->dest_qp_num > MRC_MAX_QPN))
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_LOCAL_WRITE |
				       IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC)))
		return -EINVAL;
	if (mask & IB_QP_AV) {
		err = mrc_av_from_ah_attr(av, &attr->ah_attr);
		if (err) {
			ibdev_dbg(qp->ibqp.device,
				  "qp %u: unusable address vector\n",
				  qp->ibqp.qp_num);
			return err;
		}
	}
	return 0;
}

/* Keep what was set, for query_qp and the data path. */
static void mrc_qp_save_attr(struct mrc_qp *qp, struct ib_qp_attr *attr,
			     int mask, const struct mrc_av *av)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_AV) {
		qp->av = *av;
		dst_cache_reset(&qp->dst_cache);
		qp->dgid = rdma_ah_read_grh(&attr->ah_attr)->dgid;
	}
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PATH_MIG_STATE)
		a->path_mig_state = attr->path_mig_state;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_QKEY) {
		a->qkey = attr->qkey;
		WRITE_ONCE(qp->ud.qkey, attr->qkey);	/* the receive path reads it locklessly */
	}
	if (mask & (IB_QP_PATH_MTU | IB_QP_STATE))
		qp->mtu = min(ib_mtu_enum_to_int(a->path_mtu ? a->path_mtu : IB_MTU_1024),
			      ib_mtu_enum_to_int(mrc_mtu_from_netdev(
				      READ_ONCE(to_mdev(qp->ibqp.device)->ndev->mtu))));
}

/*
 * The QP's EVs follow its AV: the data path reads qp->path under req.lock
 * (requester, completer) or resp.lock (responder), so it changes under both.
 */
static void mrc_qp_set_path(struct mrc_qp *qp, struct mrc_path *path)
{
	struct mrc_path *old;

	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	old = qp->path;
	qp->path = path;
	WRITE_ONCE(qp->profile_id, path->profile);	/* for qp-stats, read locklessly */
	qp->req.cursor.next = qp->ibqp.qp_num;	/* QPs do not walk in lockstep */
	qp->req.cursor.left = 0;
	qp->resp.cursor = qp->req.cursor;
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);
	mrc_path_put(old);
}

int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_path *path = NULL;
	enum ib_qp_state cur, new;
	struct mrc_av av;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;

	mutex_lock(&qp->modify_lock);
	/*
	 * Our own state is the truth; IB_QP_CUR_STATE is only validated as
	 * part of the mask by ib_modify_qp_is_ok.
	 */
	cur = mrc_qp_state(qp);
	new = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, ibqp->qp_type, mask)) {
		ibdev_dbg(ibqp->device, "qp %u: bad transition %s -> %s (mask %#x)\n",
			  ibqp->qp_num, mrc_qp_state_name(cur),
			  mrc_qp_state_name(new), mask);
		err = -EINVAL;
		goto out;
	}
	err = mrc_qp_check_attr(qp, attr, mask, &av);
	if (err)
		goto out;
	if (mask & IB_QP_AV) {
		path = mrc_path_get(to_mdev(ibqp->device), &av, qp->bound_profile);
		if (IS_ERR(path)) {
			err = PTR_ERR(path);	/* the bound profile is offline, or no memory */
			goto out;
		}
	}

	mrc_qp_save_attr(qp, attr, mask, &av);
	if (path)
		mrc_qp_set_path(qp, path);
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		qp->attr.en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IB_QP_STATE)
		mrc_qp_set_state(qp, cur, new, qp->attr.en_sqd_async_notify);
out:
	mutex_unlock(&qp->modify_lock);
	return err;
}

int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	mutex_lock(&qp->modify_lock);
	*attr = qp->attr;
	attr->qp_state = mrc_qp_state(qp);
	attr->cur_qp_state = attr->qp_state;
	attr->sq_draining = 0;
	attr->cap.max_send_wr = qp->sq.num_slots;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_inline_data = qp->max_inline;
	if (!qp->srq) {
		attr->cap.max_recv_wr = qp->rq.num_slots;
		attr->cap.max_recv_sge = qp->max_recv_sge;
	}
	if (!mrc_qp_is_ud(qp))
		mrc_av_to_ah_attr(&qp->av, &qp->dgid, &attr->ah_attr);
	mutex_unlock(&qp->modify_lock);

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = &qp->scq->ibcq;
	init->recv_cq = &qp->rcq->ibcq;
	init->srq = qp->srq ? &qp->srq->ibsrq : NULL;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_irq(&qp->state_lock);
	WRITE_ONCE(qp->state, IB_QPS_ERR);	/* the data path lets go */
	WRITE_ONCE(qp->dying, true);
	spin_unlock_irq(&qp->state_lock);
	xa_erase(&mdev->qp_xa, ibqp->qp_num);
	mrc_qp_put(qp);
	wait_for_completion(&qp->released);	/* no receive path inside */
	/*
	 * ... nor one that found the QP in the xarray just before the erase
	 * and has yet to try its reference: ib_core frees the QP when we
	 * return, and mrc_qp_get() reads the refcount under RCU only.
	 */
	synchronize_rcu();
	if (mrc_qp_is_ud(qp)) {
		mrc_ud_stop(qp);
	} else {
		mrc_req_stop(qp);
		mrc_resp_stop(qp);
	}
	mrc_qp_free_halves(qp);
	mrc_path_put(qp->path);
	qp->path = NULL;
	mrc_qp_put_profile(qp);
	dst_cache_destroy(&qp->dst_cache);

	if (!qp->srq)
		mrc_queue_destroy(&qp->rq);
	mrc_queue_destroy(&qp->sq);
	mutex_destroy(&qp->modify_lock);
	return 0;
}

/*
 * A user QP rings its doorbell by posting an empty list. Kernel consumers
 * post real WRs: on UD and GSI QPs so far (the MAD layer's).
 */
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	/* a kernel consumer's WRs: UD and GSI QPs so far */
	if (wr && (ibqp->uobject || !mrc_qp_is_ud(qp))) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}

	switch (mrc_qp_state(qp)) {
	case IB_QPS_RESET:
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		if (wr)
			*bad_wr = wr;
		return -EINVAL;
	default:
		if (wr)
			return mrc_ud_post_send(qp, wr, bad_wr);
		if (mrc_qp_is_ud(qp))
			mrc_ud_doorbell(qp);
		else
			mrc_req_doorbell(qp);
		return 0;
	}
}

int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}

	/*
	 * The producer side only (the consumer has its own lock), and any
	 * context: the MAD layer posts with interrupts off.
	 */
	spin_lock_irqsave(&qp->post_lock, flags);
	for (; wr; wr = wr->next) {
		err = mrc_queue_put_recv(&qp->rq, qp->max_recv_sge, wr);
		if (err)
			break;
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);
	if (err)
		*bad_wr = wr;
	else if (mrc_qp_state(qp) == IB_QPS_ERR)
		mrc_req_kick(qp);	/* its work item flushes them */
	return err;
}
