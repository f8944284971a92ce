/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_plane.h - a device's planes: the netdevs it sends on
 * (Documentation/multipath.rst). Plane 1 is the netdev of `rdma link add`;
 * planes 2 ... MRC_PLANES_MAX are netdevs of the same namespace attached
 * with netlink (plane-add). Attaching and detaching happen under RTNL (the
 * netlink handlers take it, the netdev notifier holds it); the data path
 * reads the table under RCU.
 */
#ifndef MRC_PLANE_H
#define MRC_PLANE_H

#include <linux/netdevice.h>
#include <linux/rcupdate.h>

struct mrc_dev;
struct netlink_ext_ack;

#define MRC_PLANES_MAX	16U	/* plane ids 1 ... 16, the spec's */

struct mrc_planes {
	struct net_device __rcu *ndev[MRC_PLANES_MAX + 1];	/* [1]: the device's netdev */
	netdevice_tracker tracker[MRC_PLANES_MAX + 1];
	unsigned long admin_down;	/* bit n: plane n administratively down */
};

void mrc_planes_init(struct mrc_dev *mdev);
void mrc_planes_release(struct mrc_dev *mdev);

int mrc_plane_attach(struct mrc_dev *mdev, u32 id, struct net_device *ndev,
		     struct netlink_ext_ack *extack);
int mrc_plane_detach(struct mrc_dev *mdev, u32 id, struct netlink_ext_ack *extack);
bool mrc_plane_netdev_gone(struct net_device *ndev);

/*
 * Plane @id's netdev to send on (under rcu_read_lock): NULL when none is
 * attached or the plane is administratively down.
 */
struct net_device *mrc_plane_dev_rcu(struct mrc_dev *mdev, u32 id);
int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up, struct netlink_ext_ack *extack);

/* Which plane of @mdev @ndev is (under rcu_read_lock), 0: none. */
u32 mrc_plane_of_rcu(struct mrc_dev *mdev, const struct net_device *ndev);

/* The attached planes' ids in order, into @ids; how many. Process context. */
u32 mrc_planes_attached(struct mrc_dev *mdev, u8 ids[MRC_PLANES_MAX]);

#endif /* MRC_PLANE_H */
