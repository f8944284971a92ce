/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_srq.h - shared receive queues: a ring of struct mrc_recv_wqe that
 * the provider produces and the responders of many QPs consume.
 */
#ifndef MRC_SRQ_H
#define MRC_SRQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "mrc_queue.h"

struct mrc_srq {
	struct ib_srq ibsrq;
	spinlock_t lock;		/* consumer side */
	struct mrc_queue q;
	u32 max_sge;
	u32 limit;			/* srq_limit: 0 = disarmed */
};

static inline struct mrc_srq *to_msrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mrc_srq, ibsrq);
}

int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int mrc_srq_take(struct mrc_srq *srq, void *wqe);
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

#endif /* MRC_SRQ_H */
