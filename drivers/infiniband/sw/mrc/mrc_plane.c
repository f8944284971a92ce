// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_plane.c - a device's planes (see mrc_plane.h).
 *
 * An attached plane holds a reference on its netdev; the netdev notifier
 * lets go of it when the netdev unregisters or leaves the namespace, and
 * the plane's EVs then lose what they send until it is attached again,
 * which the path sets' loss detection turns into ASSUMED_BAD EVs.
 */
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "mrc.h"
#include "mrc_plane.h"

void mrc_planes_init(struct mrc_dev *mdev)
{
	RCU_INIT_POINTER(mdev->planes.ndev[1], mdev->ndev);	/* mdev holds it */
}

/* Device teardown: nobody sends or looks any more. */
void mrc_planes_release(struct mrc_dev *mdev)
{
	struct net_device *ndev;
	u32 id;

	for (id = 2; id <= MRC_PLANES_MAX; id++) {
		ndev = rcu_dereference_protected(mdev->planes.ndev[id], true);
		if (ndev)
			netdev_put(ndev, &mdev->planes.tracker[id]);
		RCU_INIT_POINTER(mdev->planes.ndev[id], NULL);
	}
}

struct net_device *mrc_plane_dev_rcu(struct mrc_dev *mdev, u32 id)
{
	if (!id || id > MRC_PLANES_MAX || test_bit(id, &mdev->planes.admin_down))
		return NULL;
	/* the transmit path reads under rcu_read_lock_bh() */
	return rcu_dereference_check(mdev->planes.ndev[id], rcu_read_lock_bh_held());
}

u32 mrc_plane_of_rcu(struct mrc_dev *mdev, const struct net_device *ndev)
{
	u32 id;

	for (id = 1; id <= MRC_PLANES_MAX; id++)
		if (rcu_access_pointer(mdev->planes.ndev[id]) == ndev)
			return id;
	return 0;
}

u32 mrc_planes_attached(struct mrc_dev *mdev, u8 ids[MRC_PLANES_MAX])
{
	u32 id, n = 0;

	rcu_read_lock();
	for (id = 1; id <= MRC_PLANES_MAX; id++)
		if (rcu_access_pointer(mdev->planes.ndev[id]))
			ids[n++] = id;
	rcu_read_unlock();
	return n;
}

struct mrc_plane_gone {
	struct net_device *ndev;
	struct mrc_dev *mdev;
	u32 id;
};

/* under the device list's lock: must not sleep */
static void mrc_plane_find(struct mrc_dev *mdev, void *arg)
{
	struct mrc_plane_gone *g = arg;
	u32 id;

	if (g->mdev)
		return;
	for (id = 2; id <= MRC_PLANES_MAX; id++) {
		if (rcu_access_pointer(mdev->planes.ndev[id]) == g->ndev &&
		    ib_device_try_get(&mdev->ib_dev)) {
			g->mdev = mdev;
			g->id = id;
			return;
		}
	}
}

int mrc_plane_attach(struct mrc_dev *mdev, u32 id, struct net_device *ndev,
		     struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	if (id < 2 || id > MRC_PLANES_MAX) {
		NL_SET_ERR_MSG_MOD(extack, "plane 1 is the device's netdev: attach planes 2 to 16");
		return -EINVAL;
	}
	if (rtnl_dereference(mdev->planes.ndev[id])) {
		NL_SET_ERR_MSG_MOD(extack, "the device has this plane already");
		return -EEXIST;
	}
	if (ndev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG_MOD(extack, "a plane is an Ethernet netdev");
		return -EINVAL;
	}
	if (ndev->reg_state != NETREG_REGISTERED) {
		NL_SET_ERR_MSG_MOD(extack, "the netdev is going away");
		return -ENODEV;
	}
	clear_bit(id, &mdev->planes.admin_down);
	if (mrc_dev_claim_plane(mdev, id, ndev)) {
		NL_SET_ERR_MSG_MOD(extack, "the netdev is an mrc device's netdev or plane already");
		return -EBUSY;
	}
	/* RTNL held: it cannot unregister before we hold it */
	netdev_hold(ndev, &mdev->planes.tracker[id], GFP_KERNEL);
	return 0;
}

int mrc_plane_detach(struct mrc_dev *mdev, u32 id, struct netlink_ext_ack *extack)
{
	struct net_device *ndev;

	ASSERT_RTNL();
	if (id == 1) {
		NL_SET_ERR_MSG_MOD(extack, "plane 1 is the device's netdev: delete the device");
		return -EINVAL;
	}
	ndev = id <= MRC_PLANES_MAX ? rtnl_dereference(mdev->planes.ndev[id]) : NULL;
	if (!ndev) {
		NL_SET_ERR_MSG_MOD(extack, "no such plane");
		return -ENOENT;
	}
	RCU_INIT_POINTER(mdev->planes.ndev[id], NULL);
	synchronize_net();	/* no packet is on its way out through it */
	netdev_put(ndev, &mdev->planes.tracker[id]);
	return 0;
}

int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up, struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	if (!id || id > MRC_PLANES_MAX || !rtnl_dereference(mdev->planes.ndev[id])) {
		NL_SET_ERR_MSG_MOD(extack, "no such plane");
		return -ENOENT;
	}
	if (up)
		clear_bit(id, &mdev->planes.admin_down);
	else
		set_bit(id, &mdev->planes.admin_down);
	return 0;
}

/*
 * The netdev notifier, under RTNL: @ndev unregisters (or leaves the
 * namespace). If it is a device's plane, the plane lets go of it; returns
 * whether it was one.
 */
bool mrc_plane_netdev_gone(struct net_device *ndev)
{
	struct mrc_plane_gone g = { .ndev = ndev };

	ASSERT_RTNL();
	mrc_dev_for_each(mrc_plane_find, &g);
	if (!g.mdev)
		return false;
	pr_info("%s: plane %u (%s) is going away: detached\n", dev_name(&g.mdev->ib_dev.dev),
		g.id, ndev->name);
	mrc_plane_detach(g.mdev, g.id, NULL);
	mrc_dev_put(g.mdev);
	return true;
}
