// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_dev.c - lifetime of an mrc device: creation from `rdma link add`,
 * lookup by netdev, port state that follows the netdev, and removal.
 *
 * Removal has a single path: ib_core calls ops.dealloc_driver
 * (mrc_dev_dealloc) whether the device goes away through `rdma link del`,
 * its netdev disappearing, rmmod, or a failed registration.
 */
#include <linux/if_arp.h>
#include <linux/spinlock.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_net.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_stats.h"

/*
 * All mrc devices. Creation inserts before registering so that a second
 * `rdma link add` on the same netdev is refused; dealloc removes. A
 * spinlock (not a mutex held across registration) because registration
 * takes RTNL inside ib_core while our netdev notifier runs under RTNL.
 * The packet receive path walks the list under RCU: ib_core frees a
 * device with kfree_rcu.
 */
static LIST_HEAD(mrc_devs);
static DEFINE_SPINLOCK(mrc_devs_lock);

enum ib_mtu mrc_mtu_from_netdev(unsigned int ndev_mtu)
{
	int payload = (int)ndev_mtu - MRC_MAX_HDR_LEN;

	if (payload >= 4096)
		return IB_MTU_4096;
	if (payload >= 2048)
		return IB_MTU_2048;
	if (payload >= 1024)
		return IB_MTU_1024;
	if (payload >= 512)
		return IB_MTU_512;
	return IB_MTU_256;
}

enum ib_port_state mrc_port_state(struct mrc_dev *mdev)
{
	struct net_device *ndev = mdev->ndev;

	return netif_running(ndev) && netif_carrier_ok(ndev) ?
	       IB_PORT_ACTIVE : IB_PORT_DOWN;
}

/* Tell ib_core's consumers (and rdma monitor) when the port changes state. */
void mrc_port_update(struct mrc_dev *mdev)
{
	enum ib_port_state state = mrc_port_state(mdev);
	struct ib_event ev = {
		.device = &mdev->ib_dev,
		.element.port_num = 1,
	};

	if (xchg(&mdev->port_state, state) == state)
		return;

	ev.event = state == IB_PORT_ACTIVE ? IB_EVENT_PORT_ACTIVE :
					     IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
}

/* A registered mrc device on @ndev, with a registration reference, or NULL. */
struct mrc_dev *mrc_dev_get_by_netdev(struct net_device *ndev)
{
	struct mrc_dev *mdev, *found = NULL;

	spin_lock(&mrc_devs_lock);
	list_for_each_entry(mdev, &mrc_devs, list) {
		if (mdev->ndev == ndev && ib_device_try_get(&mdev->ib_dev)) {
			found = mdev;
			break;
		}
	}
	spin_unlock(&mrc_devs_lock);
	return found;
}

void mrc_dev_put(struct mrc_dev *mdev)
{
	ib_device_put(&mdev->ib_dev);
}

/* The device on @ndev (its netdev or a plane) for the receive path, under rcu_read_lock(). */
struct mrc_dev *mrc_dev_lookup_rcu(const struct net_device *ndev)
{
	struct mrc_dev *mdev;

	list_for_each_entry_rcu(mdev, &mrc_devs, list)
		if (mdev->ndev == ndev || mrc_plane_of_rcu(mdev, ndev))
			return mdev;
	return NULL;
}

/* Call @fn on every device, under the list lock: @fn must not sleep. */
void mrc_dev_for_each(void (*fn)(struct mrc_dev *mdev, void *arg), void *arg)
{
	struct mrc_dev *mdev;

	spin_lock(&mrc_devs_lock);
	list_for_each_entry(mdev, &mrc_devs, list)
		fn(mdev, arg);
	spin_unlock(&mrc_devs_lock);
}

/*
 * The registered device of @net with the lowest ib_dev.index at or above
 * @index, with a registration reference (mrc_dev_put), or NULL. Netlink
 * dumps resume from an index rather than hold a device between their
 * calls, so a device removed meanwhile is simply not found again.
 */
struct mrc_dev *mrc_dev_get_next(const struct net *net, u32 index)
{
	struct mrc_dev *mdev, *found = NULL;

	spin_lock(&mrc_devs_lock);
	list_for_each_entry(mdev, &mrc_devs, list) {
		/* ib_dev.index is only valid once registered, as try_get says */
		if (READ_ONCE(mdev->net) != net || !ib_device_try_get(&mdev->ib_dev))
			continue;
		if (mdev->ib_dev.index >= index &&
		    (!found || mdev->ib_dev.index < found->ib_dev.index)) {
			if (found)
				ib_device_put(&found->ib_dev);
			found = mdev;
		} else {
			ib_device_put(&mdev->ib_dev);
		}
	}
	spin_unlock(&mrc_devs_lock);
	return found;
}

/* The registered device of @net numbered @index, with a reference, or NULL. */
struct mrc_dev *mrc_dev_get_by_index(const struct net *net, u32 index)
{
	struct mrc_dev *mdev = mrc_dev_get_next(net, index);

	if (mdev && mdev->ib_dev.index != index) {
		mrc_dev_put(mdev);
		return NULL;
	}
	return mdev;
}

/* Under mrc_devs_lock: whether @ndev is any listed device's netdev or plane. */
static bool mrc_dev_netdev_taken_locked(const struct net_device *ndev)
{
	struct mrc_dev *other;

	list_for_each_entry(other, &mrc_devs, list)
		if (other->ndev == ndev || mrc_plane_of_rcu(other, ndev))
			return true;
	return false;
}

/*
 * Attach @ndev as plane @id of @mdev unless it is some device's netdev or
 * plane already: under the same lock as mrc_dev_claim_netdev(), so a device
 * being made on @ndev and a plane-add of it cannot both win. Registered or
 * not, every device on the list counts. Under RTNL (the planes' writers).
 */
int mrc_dev_claim_plane(struct mrc_dev *mdev, u32 id, struct net_device *ndev)
{
	int err = 0;

	spin_lock(&mrc_devs_lock);
	if (mrc_dev_netdev_taken_locked(ndev))
		err = -EBUSY;
	else
		rcu_assign_pointer(mdev->planes.ndev[id], ndev);
	spin_unlock(&mrc_devs_lock);
	return err;
}

/* Insert @mdev unless its netdev already carries an mrc device or is a plane. */
static int mrc_dev_claim_netdev(struct mrc_dev *mdev)
{
	int err = 0;

	spin_lock(&mrc_devs_lock);
	if (mrc_dev_netdev_taken_locked(mdev->ndev))
		err = -EEXIST;
	else
		list_add_tail_rcu(&mdev->list, &mrc_devs);
	spin_unlock(&mrc_devs_lock);
	return err;
}

void mrc_dev_dealloc(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mdev(ibdev);

	spin_lock(&mrc_devs_lock);
	if (!list_empty(&mdev->list))
		list_del_rcu(&mdev->list);
	spin_unlock(&mrc_devs_lock);
	/*
	 * A packet that found the device just before it left the list may still
	 * count into its stats and read its netdev and planes: wait for it.
	 */
	synchronize_rcu();

	/* the netdev is still registered, or the notifier detached already */
	mrc_net_detach(mdev);
	mrc_stats_free(mdev);

	/* ib_core destroyed every object before calling us */
	WARN_ON(!xa_empty(&mdev->qp_xa));
	WARN_ON(!xa_empty(&mdev->mr_xa));
	WARN_ON(!xa_empty(&mdev->ah_xa));
	mrc_paths_check_empty(mdev);
	mrc_profiles_free(mdev);
	xa_destroy(&mdev->qp_xa);
	xa_destroy(&mdev->mr_xa);
	xa_destroy(&mdev->ah_xa);
	mrc_planes_release(mdev);
	netdev_put(mdev->ndev, &mdev->ndev_tracker);
}

static void mrc_dev_init_attr(struct mrc_dev *mdev)
{
	struct ib_device_attr *attr = &mdev->attr;

	addrconf_addr_eui48((u8 *)&attr->sys_image_guid, mdev->ndev->dev_addr);
	attr->vendor_id = MRC_VENDOR_ID;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_pd = MRC_MAX_PD;
	attr->max_pkeys = MRC_PORT_PKEY_TBL_LEN;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_qp = MRC_MAX_QP;
	attr->max_qp_wr = MRC_MAX_QP_WR;
	attr->max_send_sge = MRC_MAX_SGE;
	attr->max_recv_sge = MRC_MAX_SGE;
	attr->max_sge_rd = MRC_MAX_SGE;
	attr->max_cq = MRC_MAX_CQ;
	attr->max_cqe = MRC_MAX_CQE;
	attr->max_mr = MRC_MAX_MR;
	attr->max_mr_size = MRC_MAX_MR_SIZE;
	attr->max_qp_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = MRC_MAX_RD_ATOMIC * MRC_MAX_QP;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_ah = MRC_MAX_AH;
	attr->max_srq = MRC_MAX_SRQ;
	attr->max_srq_wr = MRC_MAX_SRQ_WR;
	attr->max_srq_sge = MRC_MAX_SGE;
}

/*
 * If @ndev started unregistering while we were registering, the notifier
 * could not see us yet (ib_device_try_get fails until registration is
 * complete), so undo here. Both checks run under RTNL, so exactly one of
 * them observes the other.
 */
static bool mrc_dev_netdev_gone(struct net_device *ndev)
{
	bool gone;

	rtnl_lock();
	gone = ndev->reg_state != NETREG_REGISTERED;
	rtnl_unlock();
	return gone;
}

int mrc_dev_add(const char *ibdev_name, struct net_device *ndev)
{
	struct ib_device *other;
	struct mrc_dev *mdev;
	int err;

	if (ndev->type != ARPHRD_ETHER) {
		pr_err("%s: not an Ethernet device (type %u)\n",
		       ndev->name, ndev->type);
		return -EINVAL;
	}

	/*
	 * ib_core would refuse a taken name only at registration and with
	 * ENFILE ("Too many open files"); say what is wrong instead.
	 */
	other = ib_device_get_by_name(ibdev_name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		ib_device_put(other);
		pr_err("an RDMA device named %s already exists\n", ibdev_name);
		return -EEXIST;
	}

	mdev = ib_alloc_device(mrc_dev, ib_dev);
	if (!mdev)
		return -ENOMEM;

	/* ops first: from here every exit path runs mrc_dev_dealloc */
	ib_set_device_ops(&mdev->ib_dev, &mrc_dev_ops);
	INIT_LIST_HEAD(&mdev->list);
	spin_lock_init(&mdev->probe_budget_lock);
	xa_init_flags(&mdev->qp_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->mr_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->ah_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	mrc_paths_init(mdev);
	err = mrc_profiles_init(mdev);
	mdev->ndev = ndev;
	netdev_hold(ndev, &mdev->ndev_tracker, GFP_KERNEL);
	mrc_planes_init(mdev);
	mdev->port_state = mrc_port_state(mdev);
	mrc_dev_init_attr(mdev);

	if (err)
		goto err_dealloc;
	err = mrc_dev_claim_netdev(mdev);
	if (err) {
		pr_err("%s already has an mrc device\n", ndev->name);
		goto err_dealloc;
	}
	err = mrc_stats_init(mdev);
	if (!err)
		err = mrc_net_attach(mdev);
	if (err)
		goto err_dealloc;

	strscpy(mdev->ib_dev.node_desc, "mrc", sizeof(mdev->ib_dev.node_desc));
	mdev->ib_dev.node_type = RDMA_NODE_IB_CA;
	mdev->ib_dev.phys_port_cnt = 1;
	mdev->ib_dev.num_comp_vectors = num_possible_cpus();
	mdev->ib_dev.node_guid = mdev->attr.sys_image_guid;
	/* the provider's SQ doorbell and CQ arming are these two commands */
	mdev->ib_dev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
					BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);

	err = ib_device_set_netdev(&mdev->ib_dev, ndev, 1);
	if (err)
		goto err_dealloc;

	/*
	 * Once registered, @mdev can be unregistered and deallocated by
	 * another thread at any time; our reference on the struct device
	 * keeps the memory valid until we are done with it here.
	 */
	get_device(&mdev->ib_dev.dev);
	err = ib_register_device(&mdev->ib_dev, ibdev_name, NULL);
	if (err) {
		pr_err("registering %s on %s failed: %d\n", ibdev_name,
		       ndev->name, err);
		ib_dealloc_device(&mdev->ib_dev);	/* calls mrc_dev_dealloc */
	} else if (mrc_dev_netdev_gone(ndev)) {
		ib_unregister_device(&mdev->ib_dev);
	}
	put_device(&mdev->ib_dev.dev);
	return err;

err_dealloc:
	ib_dealloc_device(&mdev->ib_dev);	/* calls mrc_dev_dealloc */
	return err;
}

/*
 * rmmod: unregister every device. The reference on the struct device keeps
 * the memory valid after we drop the lock; an unregistration already in
 * flight (netdev removal) makes ours wait for it and then do nothing.
 */
void mrc_dev_remove_all(void)
{
	struct mrc_dev *mdev;

	for (;;) {
		spin_lock(&mrc_devs_lock);
		mdev = list_first_entry_or_null(&mrc_devs, struct mrc_dev, list);
		if (mdev)
			get_device(&mdev->ib_dev.dev);
		spin_unlock(&mrc_devs_lock);
		if (!mdev)
			break;
		ib_unregister_device(&mdev->ib_dev);
		put_device(&mdev->ib_dev.dev);
	}
}
