/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc.h - the mrc device object and the functions that cross files.
 */
#ifndef MRC_H
#define MRC_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "mrc_plane.h"
#include "mrc_profile.h"

struct mrc_stats;

#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

/* An mrc device: one ib_device bound to one Ethernet netdev (plane 1), and more planes. */
struct mrc_dev {
	struct ib_device ib_dev;	/* must stay first: ib_core allocates us */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct list_head list;		/* in mrc_devs, under mrc_devs_lock */
	enum ib_port_state port_state;	/* last state reported to ib_core */
	struct ib_device_attr attr;

	/* UDP sockets of the netdev's namespace (mrc_net.c) */
	struct net *net;		/* NULL once detached */
	struct sock __rcu *sk4;
	struct sock __rcu *sk6;
	struct mrc_stats __percpu *stats;

	struct xarray qp_xa;		/* QPN -> struct mrc_qp */
	u32 qp_next;
	struct xarray mr_xa;		/* key index -> struct mrc_mr (RCU) */
	u32 mr_next;
	atomic_t mr_gen;		/* low byte of the next key */
	struct xarray ah_xa;		/* ah_num -> struct mrc_ah (lock: irqsave) */
	u32 ah_next;

	struct list_head paths;		/* struct mrc_path, under paths_lock */
	spinlock_t paths_lock;
	struct mrc_profiles profiles;	/* EV (format) profiles, the default (mrc_profile.c) */
	struct mrc_planes planes;	/* the netdevs it sends on (mrc_plane.c) */

	/* probe replies this second may still send (mrc_probe.c) */
	spinlock_t probe_budget_lock;
	unsigned long probe_budget_end;	/* jiffies: the second ends */
	u32 probe_budget_left;
};

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

static inline struct mrc_dev *to_mdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mrc_dev, ib_dev);
}

/* mrc_dev.c: device lifetime */
int mrc_dev_add(const char *ibdev_name, struct net_device *ndev);
struct mrc_dev *mrc_dev_get_by_netdev(struct net_device *ndev);
struct mrc_dev *mrc_dev_lookup_rcu(const struct net_device *ndev);
struct mrc_dev *mrc_dev_get_next(const struct net *net, u32 index);
struct mrc_dev *mrc_dev_get_by_index(const struct net *net, u32 index);
void mrc_dev_for_each(void (*fn)(struct mrc_dev *mdev, void *arg), void *arg);
int mrc_dev_claim_plane(struct mrc_dev *mdev, u32 id, struct net_device *ndev);
void mrc_dev_put(struct mrc_dev *mdev);
void mrc_dev_remove_all(void);
void mrc_dev_dealloc(struct ib_device *ibdev);
void mrc_port_update(struct mrc_dev *mdev);
enum ib_port_state mrc_port_state(struct mrc_dev *mdev);
enum ib_mtu mrc_mtu_from_netdev(unsigned int ndev_mtu);

/* mrc_verbs.c: the ib_device_ops table */
extern const struct ib_device_ops mrc_dev_ops;

#endif /* MRC_H */
