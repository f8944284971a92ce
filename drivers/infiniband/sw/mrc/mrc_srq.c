// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_srq.c - shared receive queues.
 */
#include "mrc.h"
#include "mrc_param.h"
#include "mrc_srq.h"

int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	struct mrc_create_srq_resp resp = {};
	struct ib_srq_attr *attr = &init->attr;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > MRC_MAX_SRQ_WR ||
	    !attr->max_sge || attr->max_sge > MRC_MAX_SGE ||
	    attr->srq_limit > attr->max_wr)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;

	spin_lock_init(&srq->lock);
	srq->max_sge = attr->max_sge;
	srq->limit = attr->srq_limit;
	err = mrc_queue_init(&srq->q, udata, attr->max_wr,
			     mrc_recv_slot_size(attr->max_sge));
	if (err)
		return err;
	attr->max_wr = srq->q.num_slots;

	if (udata) {
		mrc_queue_fill_info(&srq->q, &resp.rq);
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			mrc_queue_destroy(&srq->q);
			return err;
		}
	}
	return 0;
}

/* Only the limit can change: resizing a shared ring is not supported. */
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	if (mask & IB_SRQ_MAX_WR)
		return -EOPNOTSUPP;
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit > srq->q.num_slots)
			return -EINVAL;
		spin_lock_irq(&srq->lock);
		srq->limit = attr->srq_limit;
		spin_unlock_irq(&srq->lock);
	}
	return 0;
}

int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	attr->max_wr = srq->q.num_slots;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	return 0;
}

int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	mrc_queue_destroy(&to_msrq(ibsrq)->q);
	return 0;
}

/* Kernel consumers post here; user SRQs are filled by the provider. */
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		err = mrc_queue_put_recv(&srq->q, srq->max_sge, wr);
		if (err)
			break;
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}
