/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_netlink.h - the generic netlink family "mrc" as the rest of the
 * module sees it: registration and EV events.
 */
#ifndef MRC_NETLINK_H
#define MRC_NETLINK_H

#include <linux/types.h>

struct genl_info;
struct in6_addr;
struct mrc_dev;
struct mrc_ev_change;
struct mrc_path;
struct net;
struct netlink_callback;
struct netlink_ext_ack;
struct nlattr;
struct sk_buff;

int mrc_netlink_init(void);
void mrc_netlink_exit(void);

/*
 * Tell the ev-events group of the device's namespace that an EV of @path
 * changed state (CLOCK_MONOTONIC @time_ns). Any context, no locks needed;
 * costs a test when nobody listens.
 */
void mrc_nl_notify_ev(const struct mrc_path *path, const struct mrc_ev_change *change,
		      u64 time_ns);

/*
 * Shared by the handler files (mrc_netlink.c, mrc_nl_profile.c, mrc_nl_probe.c).
 */

/* cb->args of the dumps */
enum {
	MRC_NL_ARG_DEV,		/* ib_dev.index of the device to go on with */
	MRC_NL_ARG_POS,		/* path set position in it, QP number or profile id */
	MRC_NL_ARG_EV,		/* EV of that path set */
	MRC_NL_ARG_STARTED,	/* not the first call: no -ENODEV any more */
};

int mrc_nl_dump_ret(struct sk_buff *skb, int err);
int mrc_nl_require(struct genl_info *info, int attr);
struct mrc_dev *mrc_nl_dev_get(struct net *net, struct nlattr *attr,
			       struct netlink_ext_ack *extack);
int mrc_nl_dump_check_dev(struct netlink_callback *cb, struct nlattr *attr);
s64 mrc_nl_dump_want(const struct nlattr *attr);
struct mrc_dev *mrc_nl_dump_next_dev(struct netlink_callback *cb, u64 *index, s64 want);

/*
 * The first path set of @mdev towards @dst (IPv4 as ::ffff:a.b.c.d) of
 * profile @profile, or of any when @profile < 0; referenced (mrc_path_put).
 */
struct mrc_path *mrc_nl_path_lookup(struct mrc_dev *mdev, const struct in6_addr *dst,
				    s64 profile);
void mrc_nl_path_dst(const struct mrc_path *path, struct in6_addr *dst);

/* mrc_nl_probe.c: a PROBE_REPLY to a one-shot probe (consumed), or false. */
struct mrc_pkt_hdr;
bool mrc_nl_probe_answered(struct mrc_dev *mdev, const struct sk_buff *skb,
			   const struct mrc_pkt_hdr *hdr, u64 now_ns);

#endif /* MRC_NETLINK_H */
