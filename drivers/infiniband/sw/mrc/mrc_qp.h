/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_qp.h - reliable-connected queue pairs: objects, attributes and the
 * state machine. The data path (requester, responder, completer) runs on
 * the state kept here.
 */
#ifndef MRC_QP_H
#define MRC_QP_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "mrc_av.h"
#include "mrc_queue.h"

struct mrc_cq;
struct mrc_dev;
struct mrc_srq;

struct mrc_qp {
	struct ib_qp ibqp;
	struct mutex modify_lock;	/* modify_qp / query_qp / destroy */
	spinlock_t state_lock;		/* @state as the data path reads it */
	enum ib_qp_state state;
	struct ib_qp_attr attr;		/* as set by modify_qp */
	struct mrc_av av;		/* the peer, once IB_QP_AV was given */
	union ib_gid dgid;

	struct mrc_cq *scq;
	struct mrc_cq *rcq;
	struct mrc_srq *srq;		/* receives come from here if set */
	bool sq_sig_all;

	spinlock_t sq_lock;		/* SQ consumer side */
	struct mrc_queue sq;
	u32 max_send_sge;
	u32 max_inline;

	spinlock_t rq_lock;		/* RQ consumer side */
	struct mrc_queue rq;
	u32 max_recv_sge;
};

static inline struct mrc_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);

struct ib_qp *mrc_qp_lookup_ib(struct mrc_dev *mdev, u32 qpn);
const char *mrc_qp_state_name(enum ib_qp_state state);

#endif /* MRC_QP_H */
