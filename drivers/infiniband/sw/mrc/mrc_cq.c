// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_cq.c - completion queues.
 *
 * CQEs use the userspace (ibv_wc) numbering of status, opcode and flags
 * because the provider reads them without a syscall; kernel consumers get
 * them translated by mrc_poll_cq.
 */
#include <linux/overflow.h>

#include "mrc.h"
#include "mrc_cq.h"
#include "mrc_param.h"
#include "mrc_qp.h"

/* A CQ of @cqe entries: one slot per entry, rounded up to a power of two. */
static int mrc_cq_check_size(struct mrc_dev *mdev, int cqe)
{
	if (cqe < 1 || cqe > MRC_MAX_CQE) {
		ibdev_dbg(&mdev->ib_dev, "CQ size %d out of 1..%d\n", cqe,
			  MRC_MAX_CQE);
		return -EINVAL;
	}
	return 0;
}

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibcq->device);
	struct mrc_cq *cq = to_mcq(ibcq);
	struct mrc_create_cq_resp resp = {};
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	err = mrc_cq_check_size(mdev, attr->cqe);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	spin_lock_init(&cq->lock);
	err = mrc_queue_init(&cq->q, udata, attr->cqe, sizeof(struct mrc_cqe));
	if (err)
		return err;
	ibcq->cqe = cq->q.num_slots;
	cq->prod = 0;

	if (udata) {
		mrc_queue_fill_info(&cq->q, &resp.cq);
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			mrc_queue_destroy(&cq->q);
			return err;
		}
	}
	return 0;
}

int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	mrc_queue_destroy(&to_mcq(ibcq)->q);
	return 0;
}

/*
 * Move the unconsumed CQEs into a new ring. The provider holds its CQ lock
 * across the command, so nobody consumes from the old ring meanwhile.
 */
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibcq->device);
	struct mrc_cq *cq = to_mcq(ibcq);
	struct mrc_resize_cq_resp resp = {};
	struct mrc_queue nq, old;
	u32 prod, cons, i;
	int err, count;

	err = mrc_cq_check_size(mdev, cqe);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	err = mrc_queue_init(&nq, udata, cqe, sizeof(struct mrc_cqe));
	if (err)
		return err;

	spin_lock_irq(&cq->lock);
	prod = cq->prod;
	cons = mrc_queue_load_cons(&cq->q);
	count = mrc_queue_count(&cq->q, prod, cons);
	if (count < 0 || count > nq.num_slots) {
		spin_unlock_irq(&cq->lock);
		mrc_queue_destroy(&nq);
		return count < 0 ? count : -EINVAL;
	}
	for (i = 0; i < count; i++)
		memcpy(mrc_queue_slot(&nq, i), mrc_queue_slot(&cq->q, cons + i),
		       sizeof(struct mrc_cqe));
	mrc_queue_store_prod(&nq, count);
	cq->prod = count;
	old = cq->q;
	cq->q = nq;
	ibcq->cqe = nq.num_slots;
	spin_unlock_irq(&cq->lock);

	mrc_queue_destroy(&old);

	if (udata) {
		mrc_queue_fill_info(&cq->q, &resp.cq);
		return ib_copy_to_udata(udata, &resp, sizeof(resp));
	}
	return 0;
}

/*
 * Post one completion. A full CQ is an overflow: the CQE is lost, so the
 * consumer learns through IB_EVENT_CQ_ERR (once: the CQ stays broken) and
 * the caller moves the QP to the error state. The producer index is our
 * own copy: the ring's is in a page the process can write.
 */
int mrc_cq_post(struct mrc_cq *cq, const struct mrc_cqe *cqe, bool solicited)
{
	struct ib_event ev;
	unsigned long flags;
	bool notify = false, first;
	u32 prod, cons;

	spin_lock_irqsave(&cq->lock, flags);
	prod = cq->prod;
	cons = mrc_queue_load_cons(&cq->q);
	if (cq->overflowed || mrc_queue_count(&cq->q, prod, cons) < 0 ||
	    prod - cons == cq->q.num_slots) {
		first = !cq->overflowed;
		cq->overflowed = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first && cq->ibcq.event_handler) {
			ev.device = cq->ibcq.device;
			ev.element.cq = &cq->ibcq;
			ev.event = IB_EVENT_CQ_ERR;
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
		return -ENOSPC;
	}

	memcpy(mrc_queue_slot(&cq->q, prod), cqe, sizeof(*cqe));
	cq->prod = prod + 1;
	mrc_queue_store_prod(&cq->q, cq->prod);

	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		notify = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long irqflags;
	int missed = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    cq->prod != mrc_queue_load_cons(&cq->q))
		missed = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}

static void mrc_cqe_to_wc(const struct mrc_cqe *cqe, struct ib_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = cqe->wr_id;
	wc->status = cqe->status;	/* same numbering in both ABIs */
	/* ibv_wc_opcode and ib_wc_opcode agree on every opcode we produce */
	wc->opcode = cqe->opcode;
	wc->vendor_err = cqe->vendor_err;
	wc->byte_len = cqe->byte_len;
	wc->ex.imm_data = (__force __be32)cqe->imm_data;
	wc->src_qp = cqe->src_qp;
	wc->wc_flags = cqe->wc_flags;	/* IB_WC_WITH_IMM etc. match */
	wc->pkey_index = cqe->pkey_index;
	wc->slid = cqe->slid;
	wc->sl = cqe->sl;
	wc->dlid_path_bits = cqe->dlid_path_bits;
	wc->port_num = 1;
	/*
	 * A datagram's sl carries its packet type for userspace (mrc_ud.c);
	 * kernel consumers (the GSI's MAD layer) are told it as the network
	 * header type, and the SL a RoCE packet does not have is 0.
	 */
	if ((cqe->wc_flags & IB_WC_GRH) && (cqe->sl & MRC_CQE_SL_UDP)) {
		wc->network_hdr_type = (cqe->sl & MRC_CQE_SL_L3) == MRC_CQE_SL_IPV4 ?
				       RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
		wc->wc_flags |= IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->sl = 0;
	}
}

/* Kernel consumers poll here; user CQs are polled by the provider. */
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long flags;
	u32 prod, cons;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	prod = mrc_queue_load_prod(&cq->q);
	cons = mrc_queue_peek_cons(&cq->q);
	while (n < num_entries && cons != prod) {
		const struct mrc_cqe *cqe = mrc_queue_slot(&cq->q, cons);

		mrc_cqe_to_wc(cqe, &wc[n]);
		wc[n].qp = mrc_qp_lookup_ib(to_mdev(ibcq->device), cqe->qp_num);
		n++;
		cons++;
	}
	mrc_queue_store_cons(&cq->q, cons);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}
