/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_cq.h - completion queues: a ring of struct mrc_cqe that the kernel
 * produces and the provider (or a kernel consumer) polls.
 */
#ifndef MRC_CQ_H
#define MRC_CQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "mrc_queue.h"

struct mrc_cq {
	struct ib_cq ibcq;
	spinlock_t lock;		/* producer side and notify state */
	struct mrc_queue q;
	u32 prod;			/* ours; the ring's copy is for the consumer */
	u8 notify;			/* 0, IB_CQ_NEXT_COMP or IB_CQ_SOLICITED */
	bool overflowed;
};

static inline struct mrc_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

int mrc_cq_post(struct mrc_cq *cq, const struct mrc_cqe *cqe, bool solicited);

/*
 * A UD receive's sl says what carried the datagram, as ConnectX reports it
 * for RoCE and as UCX reads it to find the GRH's addresses: bit 3 a UDP
 * header, bits 2:0 the L3 header (1 IPv6, 2 IPv4).
 */
#define MRC_CQE_SL_UDP		0x8
#define MRC_CQE_SL_L3		0x7
#define MRC_CQE_SL_IPV6		0x1
#define MRC_CQE_SL_IPV4		0x2

#endif /* MRC_CQ_H */
