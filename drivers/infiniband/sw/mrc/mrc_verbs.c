// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_verbs.c - the ib_device_ops of an mrc device: device and port
 * queries, and the objects implemented so far.
 */
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

#include "mrc.h"
#include "mrc_av.h"
#include "mrc_cq.h"
#include "mrc_mr.h"
#include "mrc_param.h"
#include "mrc_qp.h"
#include "mrc_srq.h"
#include "mrc_stats.h"

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	if (udata->inlen || udata->outlen)
		return -EINVAL;

	*attr = to_mdev(ibdev)->attr;
	return 0;
}

static int mrc_query_port(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attr *attr)
{
	struct mrc_dev *mdev = to_mdev(ibdev);

	/* ib_core zeroes *attr before calling us */
	attr->state = mrc_port_state(mdev);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (netif_running(mdev->ndev))
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;

	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = mrc_mtu_from_netdev(READ_ONCE(mdev->ndev->mtu));
	attr->gid_tbl_len = MRC_PORT_GID_TBL_LEN;
	attr->pkey_tbl_len = MRC_PORT_PKEY_TBL_LEN;
	attr->max_msg_sz = MRC_PORT_MAX_MSG_SZ;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_vl_num = 1;

	/*
	 * The speed is informational; while the device is being torn down
	 * ib_core has already let go of the netdev and this fails.
	 */
	if (ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
			     &attr->active_width)) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	err = ib_query_port(ibdev, port_num, &attr);
	if (err)
		return err;

	/* RoCEv2-style addressing: ib_core fills GIDs from the netdev's IPs */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			  u16 *pkey)
{
	if (index >= MRC_PORT_PKEY_TBL_LEN)
		return -EINVAL;

	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

/*
 * A user context is what a verbs process opens; ib_uverbs creates the
 * /dev/infiniband/uverbsN node only for devices that support one.
 */
static int mrc_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	struct mrc_alloc_ucontext_resp resp = {
		.max_inline_data = MRC_MAX_INLINE_DATA,
	};

	if (udata->outlen < sizeof(resp))
		return udata->outlen ? -EINVAL : 0;
	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

static void mrc_dealloc_ucontext(struct ib_ucontext *uctx)
{
}

/*
 * The device goes (rmmod, its netdev gone) while a process holds it open:
 * ib_uverbs destroys the process's objects through our ops, the process
 * sees EIO and IB_EVENT_DEVICE_FATAL, and nothing of ours may outlive the
 * call. Nothing does: a ring's mapping has no vm_ops of ours, and the
 * pages remap_vmalloc_range() put in it hold a reference each, so the ring
 * memory freed with its object stays the process's until it unmaps it.
 * With this op, an open device no longer pins the module.
 */
static void mrc_disassociate_ucontext(struct ib_ucontext *uctx)
{
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

const struct ib_device_ops mrc_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = MRC_UVERBS_ABI_VERSION,

	.dealloc_driver = mrc_dev_dealloc,
	.get_link_layer = mrc_get_link_layer,
	.get_port_immutable = mrc_get_port_immutable,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,
	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.get_hw_stats = mrc_get_hw_stats,

	.alloc_ucontext = mrc_alloc_ucontext,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.disassociate_ucontext = mrc_disassociate_ucontext,
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,

	.alloc_pd = mrc_alloc_pd,
	.dealloc_pd = mrc_dealloc_pd,

	.create_ah = mrc_create_ah,
	.create_user_ah = mrc_create_ah,
	.query_ah = mrc_query_ah,
	.destroy_ah = mrc_destroy_ah,

	.reg_user_mr = mrc_reg_user_mr,
	.get_dma_mr = mrc_get_dma_mr,
	.dereg_mr = mrc_dereg_mr,

	.create_cq = mrc_create_cq,
	.destroy_cq = mrc_destroy_cq,
	.resize_cq = mrc_resize_cq,
	.poll_cq = mrc_poll_cq,
	.req_notify_cq = mrc_req_notify_cq,

	.create_srq = mrc_create_srq,
	.modify_srq = mrc_modify_srq,
	.query_srq = mrc_query_srq,
	.destroy_srq = mrc_destroy_srq,
	.post_srq_recv = mrc_post_srq_recv,

	.create_qp = mrc_create_qp,
	.modify_qp = mrc_modify_qp,
	.query_qp = mrc_query_qp,
	.destroy_qp = mrc_destroy_qp,
	.post_send = mrc_post_send,
	.post_recv = mrc_post_recv,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
};
