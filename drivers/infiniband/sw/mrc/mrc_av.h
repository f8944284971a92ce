/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_av.h - address vectors: where a QP's (or an AH's) packets go, in
 * IP terms. RoCEv2-style GIDs are IPv6 addresses or IPv4-mapped ones.
 */
#ifndef MRC_AV_H
#define MRC_AV_H

#include <linux/in6.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>

struct mrc_av {
	sa_family_t family;		/* AF_INET or AF_INET6 */
	union {
		struct in6_addr v6;
		__be32 v4;
	} saddr, daddr;
	u32 flow_label;
	u8 hop_limit;
	u8 traffic_class;
	u8 sgid_index;
};

int mrc_av_from_ah_attr(struct mrc_av *av, const struct rdma_ah_attr *attr);
void mrc_av_to_ah_attr(const struct mrc_av *av, const union ib_gid *dgid,
		       struct rdma_ah_attr *attr);

struct mrc_ah {
	struct ib_ah ibah;
	struct mrc_av av;
	union ib_gid dgid;
	u32 ah_num;			/* in mrc_dev.ah_xa: how UD WQEs name it */
};

struct mrc_dev;

/*
 * The AV of AH @ah_num if it belongs to @pd, copied out under the
 * xarray's lock (destroy_ah erases under it, and ib_core frees the AH
 * right after); any context. -ENOENT for no such AH, -EACCES for another PD's.
 */
int mrc_ah_lookup(struct mrc_dev *mdev, const struct ib_pd *pd, u32 ah_num,
		  struct mrc_av *av);

int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		  struct ib_udata *udata);
int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int mrc_destroy_ah(struct ib_ah *ibah, u32 flags);

#endif /* MRC_AV_H */
