// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_av.c - address vectors and address handles.
 */
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_av.h"
#include "mrc_param.h"

static int mrc_gid_to_addr(const union ib_gid *gid, sa_family_t family,
			   void *addr)
{
	union {
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} sa;

	rdma_gid2ip((struct sockaddr *)&sa, gid);
	if (sa.in.sin_family != family)
		return -EINVAL;
	if (family == AF_INET)
		*(__be32 *)addr = sa.in.sin_addr.s_addr;
	else
		*(struct in6_addr *)addr = sa.in6.sin6_addr;
	return 0;
}

/*
 * The source comes from the GID entry ib_core resolved for sgid_index;
 * source and destination must be of one family.
 */
int mrc_av_from_ah_attr(struct mrc_av *av, const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->family = ipv6_addr_v4mapped((struct in6_addr *)sgid->gid.raw) ?
		     AF_INET : AF_INET6;
	if (mrc_gid_to_addr(&sgid->gid, av->family, &av->saddr) ||
	    mrc_gid_to_addr(&grh->dgid, av->family, &av->daddr))
		return -EAFNOSUPPORT;

	av->flow_label = grh->flow_label & 0xfffff;
	av->hop_limit = grh->hop_limit ? grh->hop_limit : 64;
	av->traffic_class = grh->traffic_class;
	av->sgid_index = grh->sgid_index;
	return 0;
}

void mrc_av_to_ah_attr(const struct mrc_av *av, const union ib_gid *dgid,
		       struct rdma_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(attr, 1);
	rdma_ah_set_grh(attr, NULL, av->flow_label, av->sgid_index,
			av->hop_limit, av->traffic_class);
	rdma_ah_retrieve_grh(attr)->dgid = *dgid;
}

/*
 * Kernel consumers create and destroy AHs in any context: the IB CM does it
 * under its spinlocks with interrupts off. So the numbers' lock is taken
 * irqsave everywhere, and a number is allocated without sleeping.
 */
int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibah->device);
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);
	struct mrc_create_ah_resp resp = {};
	unsigned long flags;
	int err;

	err = mrc_av_from_ah_attr(&ah->av, init_attr->ah_attr);
	if (err)
		return err;
	ah->dgid = rdma_ah_read_grh(init_attr->ah_attr)->dgid;
	if (udata && udata->outlen && udata->outlen < sizeof(resp))
		return -EINVAL;
	xa_lock_irqsave(&mdev->ah_xa, flags);
	err = __xa_alloc_cyclic(&mdev->ah_xa, &ah->ah_num, ah, XA_LIMIT(1, MRC_MAX_AH),
				&mdev->ah_next, GFP_ATOMIC);
	xa_unlock_irqrestore(&mdev->ah_xa, flags);
	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;
	if (udata && udata->outlen) {
		resp.ah_num = ah->ah_num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			mrc_destroy_ah(ibah, 0);
			return err;
		}
	}
	return 0;
}

int mrc_ah_lookup(struct mrc_dev *mdev, const struct ib_pd *pd, u32 ah_num,
		  struct mrc_av *av)
{
	unsigned long flags;
	struct mrc_ah *ah;
	int err = 0;

	xa_lock_irqsave(&mdev->ah_xa, flags);
	ah = xa_load(&mdev->ah_xa, ah_num);
	if (!ah)
		err = -ENOENT;
	else if (ah->ibah.pd != pd)
		err = -EACCES;
	else
		*av = ah->av;
	xa_unlock_irqrestore(&mdev->ah_xa, flags);
	return err;
}

int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);

	mrc_av_to_ah_attr(&ah->av, &ah->dgid, attr);
	return 0;
}

int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);
	struct xarray *xa = &to_mdev(ibah->device)->ah_xa;
	unsigned long irqflags;

	xa_lock_irqsave(xa, irqflags);
	__xa_erase(xa, ah->ah_num);
	xa_unlock_irqrestore(xa, irqflags);
	return 0;
}
