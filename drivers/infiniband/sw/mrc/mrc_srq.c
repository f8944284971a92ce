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

/*
 * A responder takes the oldest posted WQE: copied to @wqe (a slot's worth),
 * and its slot handed back to the producer at once. -EAGAIN when none is
 * posted; -EINVAL when the producer index is nonsense. Crossing below the
 * armed limit raises IB_EVENT_SRQ_LIMIT_REACHED and disarms it, as IB says.
 */
int mrc_srq_take(struct mrc_srq *srq, void *wqe)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};
	bool limit_reached = false;
	unsigned long flags;
	u32 prod, cons;
	int n;

	spin_lock_irqsave(&srq->lock, flags);
	prod = mrc_queue_load_prod(&srq->q);
	cons = mrc_queue_peek_cons(&srq->q);
	n = mrc_queue_count(&srq->q, prod, cons);
	if (n <= 0) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return n < 0 ? -EINVAL : -EAGAIN;
	}
	memcpy(wqe, mrc_queue_slot(&srq->q, cons), srq->q.slot_size);
	mrc_queue_store_cons(&srq->q, cons + 1);
	if (srq->limit && n - 1 < srq->limit) {
		srq->limit = 0;
		limit_reached = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);

	if (limit_reached && srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
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
