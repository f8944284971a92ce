// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_main.c - module entry: the "mrc" rdma link type and the netdev
 * notifier that keeps each device in step with its netdev.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"
#include "mrc_net.h"
#include "mrc_netlink.h"
#include "mrc_qp.h"

static int mrc_newlink(const char *ibdev_name, struct net_device *ndev)
{
	return mrc_dev_add(ibdev_name, ndev);
}

static struct rdma_link_ops mrc_link_ops = {
	.type = "mrc",
	.newlink = mrc_newlink,
};

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct mrc_dev *mdev;

	/* a device's plane going (or moving to another namespace) is let go of */
	if (event == NETDEV_UNREGISTER)
		mrc_plane_netdev_gone(ndev);
	mdev = mrc_dev_get_by_netdev(ndev);
	if (!mdev)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UNREGISTER:
		/* the namespace may be dying: let go of its sockets now */
		mrc_net_detach(mdev);
		/* not inline: unregistration takes RTNL, which we hold */
		ib_unregister_device_queued(&mdev->ib_dev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		mrc_port_update(mdev);
		break;
	default:
		break;
	}

	mrc_dev_put(mdev);
	return NOTIFY_OK;
}

static struct notifier_block mrc_netdev_notifier = {
	.notifier_call = mrc_netdev_event,
};

/*
 * Per-QP transmit work, on the CPU each QP sends from: the requester's
 * passes (mrc_req.c) and READ responses (mrc_resp.c).
 */
struct workqueue_struct *mrc_tx_wq;

static int __init mrc_init(void)
{
	int err;

	/*
	 * Per CPU, not unbound: a QP's packets leave from the CPU it chose.
	 * Not WQ_HIGHPRI: a sender that outranks ksoftirqd overruns the
	 * receive backlog of a software link and turns speed into loss.
	 */
	mrc_tx_wq = alloc_workqueue("mrc_tx", 0, 0);
	if (!mrc_tx_wq)
		return -ENOMEM;
	err = mrc_net_init();
	if (err)
		goto err_tx_wq;
	err = register_netdevice_notifier(&mrc_netdev_notifier);
	if (err)
		goto err_net;
	/* before any device exists: the data path may notify from then on */
	err = mrc_netlink_init();
	if (err)
		goto err_notifier;

	rdma_link_register(&mrc_link_ops);
	pr_info("loaded\n");
	return 0;

err_notifier:
	unregister_netdevice_notifier(&mrc_netdev_notifier);
err_net:
	mrc_net_exit();
err_tx_wq:
	destroy_workqueue(mrc_tx_wq);
	return err;
}

static void __exit mrc_exit(void)
{
	/* waits for any newlink in progress; no device can appear after */
	rdma_link_unregister(&mrc_link_ops);
	mrc_dev_remove_all();
	/* after the devices: nothing can notify any more */
	mrc_netlink_exit();
	unregister_netdevice_notifier(&mrc_netdev_notifier);
	mrc_net_exit();
	destroy_workqueue(mrc_tx_wq);
	pr_info("unloaded\n");
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_AUTHOR("The mrc authors");
MODULE_DESCRIPTION("MRC (Multipath Reliable Connection) software RDMA transport");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK("mrc");
