/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_netlink.h - the generic netlink family "mrc" as the rest of the
 * module sees it: registration and EV events.
 */
#ifndef MRC_NETLINK_H
#define MRC_NETLINK_H

#include <linux/types.h>

struct mrc_ev_change;
struct mrc_path;

int mrc_netlink_init(void);
void mrc_netlink_exit(void);

/*
 * Tell the ev-events group of the device's namespace that an EV of @path
 * changed state (CLOCK_MONOTONIC @time_ns). Any context, no locks needed;
 * costs a test when nobody listens.
 */
void mrc_nl_notify_ev(const struct mrc_path *path, const struct mrc_ev_change *change,
		      u64 time_ns);

#endif /* MRC_NETLINK_H */
