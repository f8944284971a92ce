// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_netlink.c - the generic netlink family "mrc". Its policies, op table
 * and family are generated from Documentation/netlink/specs/mrc.yaml into
 * mrc_nl_gen.c; the handlers are here.
 *
 * A request sees only the mrc devices whose netdev lives in the
 * requester's namespace. A handler holds a registration reference on the
 * device it works on (mrc_dev_get_*), so unregistration (rdma link del,
 * the netdev going, rmmod) waits for it. A dump holds nothing between its
 * calls: it resumes by position (device index, path set position, EV or
 * QP number) and finds its place again, so devices, path sets and QPs may
 * come and go meanwhile; an entry may then be skipped or repeated, never
 * read after it was freed.
 *
 * Lock order: mdev->paths_lock, then path->lock.
 */
#include <linux/build_bug.h>
#include <linux/ktime.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "mrc.h"
#include "mrc_netlink.h"
#include "mrc_nl_gen.h"
#include "mrc_path.h"
#include "mrc_qp.h"

/* The core names the uapi's values in enums of its own: they must agree. */
static_assert((int)MRC_EV_STATE_GOOD == (int)MRC_EV_GOOD);
static_assert((int)MRC_EV_STATE_ASSUMED_BAD == (int)MRC_EV_ASSUMED_BAD);
static_assert((int)MRC_EV_STATE_DENIED == (int)MRC_EV_DENIED);
static_assert((int)MRC_EV_REASON_NONE == (int)MRC_EV_CAUSE_NONE);
static_assert((int)MRC_EV_REASON_LOSS == (int)MRC_EV_CAUSE_LOSS);
static_assert((int)MRC_EV_REASON_TIMEOUT == (int)MRC_EV_CAUSE_TIMEOUT);
static_assert((int)MRC_EV_REASON_PROBE == (int)MRC_EV_CAUSE_PROBE);
static_assert((int)MRC_EV_REASON_CONTROLLER == (int)MRC_EV_CAUSE_CONTROLLER);
static_assert((int)MRC_EV_POLICY_ROUND_ROBIN == (int)MRC_SPRAY_ROUND_ROBIN);
static_assert((int)MRC_EV_POLICY_WEIGHTED == (int)MRC_SPRAY_WEIGHTED);
static_assert(MRC_EV_MAX == MRC_PROFILE_EV_MAX);

/* What a device can do: UDP source port, STEV and SRv6 EVs, auto, explicit or generated. */
#define MRC_NL_FMT_MODES	(MRC_EV_FMT_MODE_UDP | MRC_EV_FMT_MODE_STEV | MRC_EV_FMT_MODE_SRV6)
#define MRC_NL_EV_MODES		(MRC_EV_MODE_AUTO | MRC_EV_MODE_EXP | MRC_EV_MODE_GEN)

/*
 * A dump's return value: more to come while something fitted, the error
 * when not even one message fits an empty skb, 0 once done.
 */
int mrc_nl_dump_ret(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* A required attribute; the extack names it and says so. */
int mrc_nl_require(struct genl_info *info, int attr)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return 0;
	NL_SET_ERR_MSG_MOD(info->extack, "a required attribute is missing");
	return -EINVAL;
}

/* The device a request names, with a reference; NULL (and extack) if none. */
struct mrc_dev *mrc_nl_dev_get(struct net *net, struct nlattr *attr,
			       struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev = mrc_dev_get_by_index(net, nla_get_u32(attr));

	if (!mdev)
		NL_SET_ERR_MSG_ATTR(extack, attr, "no such mrc device in this namespace");
	return mdev;
}

/*
 * The first call of a dump filtered by a device that does not exist (or
 * not here) fails; a later call finds the device gone and ends the dump.
 */
int mrc_nl_dump_check_dev(struct netlink_callback *cb, struct nlattr *attr)
{
	struct mrc_dev *mdev;

	if (!attr || cb->args[MRC_NL_ARG_STARTED])
		return 0;
	cb->args[MRC_NL_ARG_STARTED] = 1;
	mdev = mrc_nl_dev_get(sock_net(cb->skb->sk), attr, cb->extack);
	if (!mdev)
		return -ENODEV;
	mrc_dev_put(mdev);
	return 0;
}

/*
 * The device a dump is filtered by, -1 for all: an s64, so no u32 index is
 * taken for it (not a ?: either, whose u32 operand would make -1 U32_MAX).
 */
s64 mrc_nl_dump_want(const struct nlattr *attr)
{
	if (!attr)
		return -1;
	return nla_get_u32(attr);
}

/*
 * The next device of a dump: at or after @*index, the one numbered @want
 * alone when filtered (@want < 0: all). Moves @*index to it.
 */
struct mrc_dev *mrc_nl_dump_next_dev(struct netlink_callback *cb, u64 *index, s64 want)
{
	struct mrc_dev *mdev;

	if (want >= 0) {
		if (*index > (u64)want)
			return NULL;
		*index = want;
	}
	if (*index > U32_MAX)
		return NULL;
	mdev = mrc_dev_get_next(sock_net(cb->skb->sk), *index);
	if (mdev && want >= 0 && mdev->ib_dev.index != want) {
		mrc_dev_put(mdev);
		return NULL;
	}
	if (mdev)
		*index = mdev->ib_dev.index;
	return mdev;
}

/* dev-get */

static int mrc_nl_dev_fill(struct sk_buff *skb, struct mrc_dev *mdev, u32 portid, u32 seq,
			   int flags)
{
	struct net_device *ndev;
	char ifname[IFNAMSIZ];
	struct nlattr *plane;
	void *hdr;
	u32 id;

	hdr = genlmsg_put(skb, portid, seq, &mrc_nl_family, flags, MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_DEV_NAME, dev_name(&mdev->ib_dev.dev)))
		goto cancel;
	rcu_read_lock();
	for (id = 1; id <= MRC_PLANES_MAX; id++) {
		ndev = rcu_dereference(mdev->planes.ndev[id]);
		if (!ndev)
			continue;
		/* a rename racing us may give a mixed name, never an unterminated one */
		strscpy(ifname, ndev->name, sizeof(ifname));
		plane = nla_nest_start(skb, MRC_A_DEV_PLANES);
		if (!plane || nla_put_u8(skb, MRC_A_PLANE_ID, id) ||
		    nla_put_u32(skb, MRC_A_PLANE_IFINDEX, ndev->ifindex) ||
		    nla_put_string(skb, MRC_A_PLANE_IFNAME, ifname) ||
		    nla_put_u8(skb, MRC_A_PLANE_ADMIN_UP,
				!test_bit(id, &mdev->planes.admin_down))) {
			rcu_read_unlock();
			goto cancel;
		}
		nla_nest_end(skb, plane);
	}
	rcu_read_unlock();
	if (nla_put_u32(skb, MRC_A_DEV_EV_MAX, MRC_PROFILE_EV_MAX) ||
	    nla_put_u32(skb, MRC_A_DEV_PROFILES_MAX, MRC_PROFILES_MAX) ||
	    nla_put_u32(skb, MRC_A_DEV_FMT_MODES, MRC_NL_FMT_MODES) ||
	    nla_put_u32(skb, MRC_A_DEV_EV_MODES, MRC_NL_EV_MODES) ||
	    nla_put_u32(skb, MRC_A_DEV_DEFAULT_PROFILE, READ_ONCE(mdev->profiles.default_id)))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	if (mrc_nl_require(info, MRC_A_DEV_INDEX))
		return -EINVAL;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_DEV_INDEX], info->extack);
	if (!mdev)
		return -ENODEV;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		mrc_dev_put(mdev);
		return -ENOMEM;
	}
	err = mrc_nl_dev_fill(msg, mdev, info->snd_portid, info->snd_seq, 0);
	mrc_dev_put(mdev);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int mrc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *dev_attr = genl_dumpit_info(cb)->attrs[MRC_A_DEV_INDEX];
	s64 want = mrc_nl_dump_want(dev_attr);
	u64 index = cb->args[MRC_NL_ARG_DEV];
	struct mrc_dev *mdev;
	int err;

	err = mrc_nl_dump_check_dev(cb, dev_attr);
	if (err)
		return err;
	while ((mdev = mrc_nl_dump_next_dev(cb, &index, want))) {
		err = mrc_nl_dev_fill(skb, mdev, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		mrc_dev_put(mdev);
		if (err)
			break;
		index++;
	}
	cb->args[MRC_NL_ARG_DEV] = index;
	return mrc_nl_dump_ret(skb, err);
}

/* path sets: path-get, ev-set, ev-event */

struct mrc_nl_path_filter {
	bool has_profile;
	bool has_dst;
	u32 profile;
	struct in6_addr dst;
};

static void mrc_nl_path_filter_parse(struct nlattr **attrs, struct mrc_nl_path_filter *f)
{
	f->has_profile = attrs[MRC_A_PATH_PROFILE_ID];
	f->profile = f->has_profile ? nla_get_u32(attrs[MRC_A_PATH_PROFILE_ID]) : 0;
	f->has_dst = attrs[MRC_A_PATH_DST];	/* the policy made it 16 bytes */
	if (f->has_dst)
		f->dst = nla_get_in6_addr(attrs[MRC_A_PATH_DST]);
}

/* The destination as the uapi has it: IPv4 as ::ffff:a.b.c.d. */
void mrc_nl_path_dst(const struct mrc_path *path, struct in6_addr *dst)
{
	if (path->family == AF_INET6)
		*dst = path->daddr.v6;
	else
		ipv6_addr_set_v4mapped(path->daddr.v4, dst);
}

/* @path's family, destination and profile never change: no lock needed. */
static bool mrc_nl_path_matches(const struct mrc_path *path, const struct mrc_nl_path_filter *f)
{
	struct in6_addr dst;

	if (f->has_profile && path->profile != f->profile)
		return false;
	if (!f->has_dst)
		return true;
	mrc_nl_path_dst(path, &dst);
	return ipv6_addr_equal(&dst, &f->dst);
}

/*
 * The first path set matching @f at or after position @*pos of the
 * device's list, with a reference (mrc_path_put); moves @*pos to it.
 */
static struct mrc_path *mrc_nl_path_find(struct mrc_dev *mdev, const struct mrc_nl_path_filter *f,
					 unsigned long *pos)
{
	struct mrc_path *path, *found = NULL;
	unsigned long i = 0;

	spin_lock_bh(&mdev->paths_lock);
	list_for_each_entry(path, &mdev->paths, node) {
		if (i++ < *pos || !mrc_nl_path_matches(path, f))
			continue;
		/* on the list means referenced: mrc_path_put unlinks under the lock */
		refcount_inc(&path->refs);
		found = path;
		*pos = i - 1;
		break;
	}
	spin_unlock_bh(&mdev->paths_lock);
	return found;
}

/* One EV of one path set as path-get reports it, copied under path->lock. */
struct mrc_nl_ev_snap {
	struct mrc_ev_health h;
	u32 nr_good;
	u16 sport;
	u8 plane;
	s32 label;			/* STEV: the flow label bits; -1: not STEV */
	const struct mrc_ev_srv6 *srv6;	/* fixed while the path set lives */
};

static int mrc_nl_path_fill(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct mrc_path *path, u32 ev, const struct mrc_nl_ev_snap *s)
{
	__be32 stev = cpu_to_be32((u32)s->label << 16 | s->sport);
	__be16 port = cpu_to_be16(s->sport);
	/* the EV's bytes as its profile gave them: the port, label and port, or segments */
	const void *bytes = s->srv6 ? (const void *)s->srv6->sid :
			    s->label >= 0 ? (const void *)&stev : &port;
	int len = s->srv6 ? s->srv6->nr_sids * MRC_PROF_SID_BYTES :
		  s->label >= 0 ? sizeof(stev) : sizeof(port);
	struct in6_addr dst;
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &mrc_nl_family,
			  NLM_F_MULTI, MRC_CMD_PATH_GET);
	if (!hdr)
		return -EMSGSIZE;
	mrc_nl_path_dst(path, &dst);
	if (nla_put_u32(skb, MRC_A_PATH_DEV_INDEX, path->mdev->ib_dev.index) ||
	    nla_put_u32(skb, MRC_A_PATH_PROFILE_ID, path->profile) ||
	    nla_put_in6_addr(skb, MRC_A_PATH_DST, &dst) ||
	    nla_put_u32(skb, MRC_A_PATH_GOOD, s->nr_good))
		goto cancel;
	nest = nla_nest_start(skb, MRC_A_PATH_EV);
	if (!nest)
		goto cancel;
	if (nla_put_u32(skb, MRC_A_EV_INDEX, ev) ||
	    nla_put(skb, MRC_A_EV_BYTES, len, bytes) ||
	    nla_put_u8(skb, MRC_A_EV_PLANE, s->plane) ||
	    nla_put_u8(skb, MRC_A_EV_WEIGHT, s->h.weight) ||
	    nla_put_u32(skb, MRC_A_EV_STATE, s->h.state) ||
	    nla_put_u32(skb, MRC_A_EV_REASON, s->h.reason) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_CHANGED_NS, s->h.changed_ns, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_PACKETS, s->h.packets, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_ACKED, s->h.acked, MRC_A_EV_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_LOSSES, s->h.losses, MRC_A_EV_PAD) ||
	    nla_put_u32(skb, MRC_A_EV_RTT_NS, s->h.rtt_ns) ||
	    nla_put_u32(skb, MRC_A_EV_DATA_RTT_NS, s->h.srtt_ns) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_CE_MARKS, s->h.ce_marks, MRC_A_EV_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The EVs of @path from @*ev on, one message each; @*ev: the first not sent. */
static int mrc_nl_path_dump_evs(struct sk_buff *skb, struct netlink_callback *cb,
				struct mrc_path *path, unsigned long *ev)
{
	struct mrc_nl_ev_snap s;
	int err;

	for (;; (*ev)++) {
		spin_lock_bh(&path->lock);
		if (*ev >= path->ps.nr_ev) {
			spin_unlock_bh(&path->lock);
			return 0;
		}
		s.h = path->ps.ev[*ev];
		s.nr_good = path->ps.nr_good;
		s.sport = path->sport[*ev];
		s.srv6 = path->srv6 ? &path->srv6[*ev] : NULL;
		s.plane = path->plane[*ev];
		s.label = path->label ? path->label[*ev] : -1;
		spin_unlock_bh(&path->lock);

		err = mrc_nl_path_fill(skb, cb, path, *ev, &s);
		if (err)
			return err;
	}
}

static int mrc_nl_path_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
				struct mrc_dev *mdev, const struct mrc_nl_path_filter *f,
				unsigned long *pos, unsigned long *ev)
{
	struct mrc_path *path;
	unsigned long at;
	int err;

	for (;;) {
		at = *pos;
		path = mrc_nl_path_find(mdev, f, pos);
		if (!path)
			return 0;
		if (*pos != at)		/* not the set we stopped in: from its first EV */
			*ev = 0;
		err = mrc_nl_path_dump_evs(skb, cb, path, ev);
		mrc_path_put(path);
		if (err)
			return err;
		(*pos)++;
		*ev = 0;
	}
}

int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct nlattr *dev_attr = attrs[MRC_A_PATH_DEV_INDEX];
	s64 want = mrc_nl_dump_want(dev_attr);
	u64 index = cb->args[MRC_NL_ARG_DEV];
	unsigned long pos = cb->args[MRC_NL_ARG_POS];
	unsigned long ev = cb->args[MRC_NL_ARG_EV];
	struct mrc_nl_path_filter f;
	struct mrc_dev *mdev;
	u64 at;
	int err;

	err = mrc_nl_dump_check_dev(cb, dev_attr);
	if (err)
		return err;
	mrc_nl_path_filter_parse(attrs, &f);
	for (;;) {
		at = index;
		mdev = mrc_nl_dump_next_dev(cb, &index, want);
		if (!mdev)
			break;
		if (index != at) {	/* the device we stopped in is gone */
			pos = 0;
			ev = 0;
		}
		err = mrc_nl_path_dump_dev(skb, cb, mdev, &f, &pos, &ev);
		mrc_dev_put(mdev);
		if (err)
			break;
		index++;
		pos = 0;
		ev = 0;
	}
	cb->args[MRC_NL_ARG_DEV] = index;
	cb->args[MRC_NL_ARG_POS] = pos;
	cb->args[MRC_NL_ARG_EV] = ev;
	return mrc_nl_dump_ret(skb, err);
}

static int mrc_nl_ev_event_fill(struct sk_buff *skb, const struct mrc_path *path,
				const struct mrc_ev_change *change, u64 time_ns)
{
	struct in6_addr dst;
	void *hdr;

	hdr = genlmsg_put(skb, 0, 0, &mrc_nl_family, 0, MRC_CMD_EV_EVENT);
	if (!hdr)
		return -EMSGSIZE;
	mrc_nl_path_dst(path, &dst);
	if (nla_put_u32(skb, MRC_A_EV_EVENT_DEV_INDEX, path->mdev->ib_dev.index) ||
	    nla_put_u32(skb, MRC_A_EV_EVENT_PROFILE_ID, path->profile) ||
	    nla_put_in6_addr(skb, MRC_A_EV_EVENT_DST, &dst) ||
	    nla_put_u32(skb, MRC_A_EV_EVENT_EV_INDEX, change->ev) ||
	    nla_put_u32(skb, MRC_A_EV_EVENT_FROM, change->from) ||
	    nla_put_u32(skb, MRC_A_EV_EVENT_TO, change->to) ||
	    nla_put_u32(skb, MRC_A_EV_EVENT_REASON, change->reason) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_EVENT_TIME_NS, time_ns, MRC_A_EV_EVENT_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * An EV event, unless the profile's event mask leaves out the state the EV
 * entered (the controller's changes too: the mask says which states it
 * wants to hear of, not who made them).
 */
void mrc_nl_notify_ev(const struct mrc_path *path, const struct mrc_ev_change *change,
		      u64 time_ns)
{
	struct sk_buff *skb;
	struct net *net;

	if (!(mrc_path_event_mask(path) & change->to))
		return;

	/*
	 * mdev->net goes NULL when the netdev unregisters, and netdev
	 * unregistration waits for an RCU grace period before the namespace
	 * (and its genetlink socket) can go: inside this read-side section
	 * a namespace seen is a namespace alive.
	 */
	rcu_read_lock();
	net = READ_ONCE(path->mdev->net);
	if (!net || !genl_has_listeners(&mrc_nl_family, net, MRC_NLGRP_EV_EVENTS))
		goto out;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!skb)
		goto out;
	if (mrc_nl_ev_event_fill(skb, path, change, time_ns)) {
		nlmsg_free(skb);
		goto out;
	}
	genlmsg_multicast_netns(&mrc_nl_family, net, skb, 0, MRC_NLGRP_EV_EVENTS, GFP_ATOMIC);
out:
	rcu_read_unlock();
}

/*
 * Deny or allow EV @ev in every path set of @mdev that matches @f. Nothing
 * changes unless every one of them has that EV.
 */
static int mrc_nl_ev_set_dev(struct mrc_dev *mdev, const struct mrc_nl_path_filter *f, u32 ev,
			     bool deny, struct nlattr *ev_attr, struct netlink_ext_ack *extack)
{
	struct mrc_ev_change change;
	u64 now = ktime_get_ns();
	struct mrc_path *path;
	bool found = false;
	int err = 0;
	int changed;

	spin_lock_bh(&mdev->paths_lock);
	list_for_each_entry(path, &mdev->paths, node) {
		if (!mrc_nl_path_matches(path, f))
			continue;
		found = true;
		spin_lock(&path->lock);
		if (ev >= path->ps.nr_ev)
			err = -ERANGE;
		spin_unlock(&path->lock);
		if (err)
			break;
	}
	if (err) {
		NL_SET_ERR_MSG_ATTR(extack, ev_attr, "EV index beyond the path set's EVs");
		goto out;
	}
	if (!found) {
		NL_SET_ERR_MSG_MOD(extack, "no path set of this device matches");
		err = -ENOENT;
		goto out;
	}
	list_for_each_entry(path, &mdev->paths, node) {
		if (!mrc_nl_path_matches(path, f))
			continue;
		spin_lock(&path->lock);
		changed = mrc_path_set_deny(&path->ps, ev, deny, now, &change);
		spin_unlock(&path->lock);
		/* the path set stays alive under paths_lock; GFP_ATOMIC inside */
		if (changed > 0)
			mrc_nl_notify_ev(path, &change, now);
	}
out:
	spin_unlock_bh(&mdev->paths_lock);
	return err;
}

struct mrc_path *mrc_nl_path_lookup(struct mrc_dev *mdev, const struct in6_addr *dst,
				    s64 profile)
{
	struct mrc_nl_path_filter f = {
		.has_profile = profile >= 0,
		.profile = profile >= 0 ? (u32)profile : 0,
		.has_dst = true,
		.dst = *dst,
	};
	unsigned long pos = 0;

	return mrc_nl_path_find(mdev, &f, &pos);
}

int mrc_nl_ev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MRC_A_EV_MAX + 1];
	struct mrc_nl_path_filter f;
	struct mrc_dev *mdev;
	u32 state;
	int err, i;

	if (mrc_nl_require(info, MRC_A_PATH_DEV_INDEX) ||
	    mrc_nl_require(info, MRC_A_PATH_PROFILE_ID) ||
	    mrc_nl_require(info, MRC_A_PATH_EV))
		return -EINVAL;
	err = nla_parse_nested(tb, MRC_A_EV_MAX, info->attrs[MRC_A_PATH_EV], mrc_ev_nl_policy,
			       extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, info->attrs[MRC_A_PATH_EV], tb, MRC_A_EV_INDEX) ||
	    NL_REQ_ATTR_CHECK(extack, info->attrs[MRC_A_PATH_EV], tb, MRC_A_EV_STATE)) {
		NL_SET_ERR_MSG_MOD(extack, "ev needs an index and a state");
		return -EINVAL;
	}
	for (i = 1; i <= MRC_A_EV_MAX; i++) {
		if (tb[i] && i != MRC_A_EV_INDEX && i != MRC_A_EV_STATE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[i], "ev-set sets an EV's state alone");
			return -EINVAL;
		}
	}
	state = nla_get_u32(tb[MRC_A_EV_STATE]);
	if (state != MRC_EV_STATE_DENIED && state != MRC_EV_STATE_GOOD) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_A_EV_STATE], "state must be denied or good");
		return -EINVAL;
	}

	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_PATH_DEV_INDEX], extack);
	if (!mdev)
		return -ENODEV;
	mrc_nl_path_filter_parse(info->attrs, &f);
	err = mrc_nl_ev_set_dev(mdev, &f, nla_get_u32(tb[MRC_A_EV_INDEX]),
				state == MRC_EV_STATE_DENIED, tb[MRC_A_EV_INDEX], extack);
	mrc_dev_put(mdev);
	return err;
}

/* qp-stats-get */

/* One QP's counters, copied under the QP table's lock. */
struct mrc_nl_qp_snap {
	u32 qpn;
	u32 profile_id;
	u64 packets;
	u64 retransmits;
	u64 timeouts;
	u32 cwnd;
	u32 srtt_ns;
	u32 base_rtt_ns;
	u32 in_flight;
	u32 retries;
	u64 stall_max_ns;
	u64 wr_wait_max_ns;
	u32 spurious;
	u32 delay_decreases, loss_decreases, ecn_decreases, ecn_path_marks;
	u32 read_cwnd, read_delay_decreases, read_ecn_decreases;
};

static int mrc_nl_qp_stats_fill(struct sk_buff *skb, struct netlink_callback *cb,
				struct mrc_dev *mdev, const struct mrc_nl_qp_snap *s)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &mrc_nl_family,
			  NLM_F_MULTI, MRC_CMD_QP_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	/* qp->path itself is not ours to read without the QP's modify_lock */
	if (nla_put_u32(skb, MRC_A_QP_STATS_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_QPN, s->qpn) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_PROFILE_ID, s->profile_id) ||
	    nla_put_u64_64bit(skb, MRC_A_QP_STATS_PACKETS, s->packets, MRC_A_QP_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_QP_STATS_RETRANSMITS, s->retransmits,
			      MRC_A_QP_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_QP_STATS_TIMEOUTS, s->timeouts, MRC_A_QP_STATS_PAD) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_CWND, s->cwnd) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_SRTT_NS, s->srtt_ns) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_BASE_RTT_NS, s->base_rtt_ns) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_IN_FLIGHT, s->in_flight) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_RETRIES, s->retries) ||
	    nla_put_u64_64bit(skb, MRC_A_QP_STATS_STALL_MAX_NS, s->stall_max_ns,
			      MRC_A_QP_STATS_PAD) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_SPURIOUS_RESENDS, s->spurious) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_DELAY_DECREASES, s->delay_decreases) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_LOSS_DECREASES, s->loss_decreases) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_ECN_DECREASES, s->ecn_decreases) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_ECN_PATH_MARKS, s->ecn_path_marks) ||
	    nla_put_u64_64bit(skb, MRC_A_QP_STATS_WR_WAIT_MAX_NS, s->wr_wait_max_ns,
			      MRC_A_QP_STATS_PAD) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_READ_CWND, s->read_cwnd) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_READ_DELAY_DECREASES, s->read_delay_decreases) ||
	    nla_put_u32(skb, MRC_A_QP_STATS_READ_ECN_DECREASES, s->read_ecn_decreases)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The QPs of @mdev from number @*qpn on; @*qpn: the first not sent. Read
 * under the xarray's lock: destroy erases a QP from it (under that lock)
 * before the QP is freed, so one found there is alive while we hold it.
 */
static int mrc_nl_qp_dump_dev(struct sk_buff *skb, struct netlink_callback *cb,
			      struct mrc_dev *mdev, unsigned long *qpn)
{
	struct mrc_nl_qp_snap s;
	struct mrc_qp *qp;
	bool datagram;
	int err;

	for (;; (*qpn)++) {
		xa_lock(&mdev->qp_xa);
		qp = xa_find(&mdev->qp_xa, qpn, U32_MAX, XA_PRESENT);
		/* datagram QPs (UD, the GSI's) have no path set, window or EVs */
		datagram = qp && mrc_qp_is_ud(qp);
		if (qp && !datagram) {
			s.qpn = qp->ibqp.qp_num;
			s.profile_id = READ_ONCE(qp->profile_id);
			s.packets = READ_ONCE(qp->req.tx_packets);
			s.retransmits = READ_ONCE(qp->req.tx_retransmits);
			s.timeouts = READ_ONCE(qp->req.tx_timeouts);
			/* racy against the completer: a snapshot, torn at worst */
			s.cwnd = mrc_cc_cwnd(&qp->req.cc);
			s.srtt_ns = READ_ONCE(qp->req.cc.srtt_ns);
			s.base_rtt_ns = mrc_cc_base_rtt(&qp->req.cc);
			s.in_flight = mrc_tx_window_outstanding(&qp->req.txw);
			s.retries = READ_ONCE(qp->req.retries);
			s.stall_max_ns = READ_ONCE(qp->req.stall.max_ns);
			s.wr_wait_max_ns = READ_ONCE(qp->req.wr_stall.max_ns);
			s.spurious = READ_ONCE(qp->req.loss.spurious);
			s.delay_decreases = READ_ONCE(qp->req.cc.delay_decreases);
			s.loss_decreases = READ_ONCE(qp->req.cc.loss_decreases);
			s.ecn_decreases = READ_ONCE(qp->req.cc.ecn_decreases);
			s.ecn_path_marks = READ_ONCE(qp->req.cc.ecn_path_marks);
			s.read_cwnd = mrc_cc_cwnd(&qp->req.read_cc);
			s.read_delay_decreases = READ_ONCE(qp->req.read_cc.delay_decreases);
			s.read_ecn_decreases = READ_ONCE(qp->req.read_cc.ecn_decreases);
		}
		xa_unlock(&mdev->qp_xa);
		if (!qp)
			return 0;
		if (datagram)
			continue;
		err = mrc_nl_qp_stats_fill(skb, cb, mdev, &s);
		if (err)
			return err;
	}
}

int mrc_nl_qp_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *dev_attr = genl_dumpit_info(cb)->attrs[MRC_A_QP_STATS_DEV_INDEX];
	s64 want = mrc_nl_dump_want(dev_attr);
	u64 index = cb->args[MRC_NL_ARG_DEV];
	unsigned long qpn = cb->args[MRC_NL_ARG_POS];
	struct mrc_dev *mdev;
	u64 at;
	int err;

	err = mrc_nl_dump_check_dev(cb, dev_attr);
	if (err)
		return err;
	for (;;) {
		at = index;
		mdev = mrc_nl_dump_next_dev(cb, &index, want);
		if (!mdev)
			break;
		if (index != at)
			qpn = 0;
		err = mrc_nl_qp_dump_dev(skb, cb, mdev, &qpn);
		mrc_dev_put(mdev);
		if (err)
			break;
		index++;
		qpn = 0;
	}
	cb->args[MRC_NL_ARG_DEV] = index;
	cb->args[MRC_NL_ARG_POS] = qpn;
	return mrc_nl_dump_ret(skb, err);
}

/*
 * A QP's longest wait starts over, under req.lock, where the completer
 * keeps it (a wait under way counts whole when it ends). False when there
 * is no such QP (any more).
 */
static bool mrc_nl_qp_stall_reset(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_qp *qp = mrc_qp_get(mdev, qpn);

	if (!qp)
		return false;
	spin_lock_bh(&qp->req.lock);
	WRITE_ONCE(qp->req.stall.max_ns, 0);
	WRITE_ONCE(qp->req.wr_stall.max_ns, 0);
	spin_unlock_bh(&qp->req.lock);
	mrc_qp_put(qp);
	return true;
}

/*
 * qp-stall-reset: the QP @qpn names, or each QP of the device in turn (one
 * created meanwhile starts at zero anyway). The xarray's lock only finds
 * the next number: the QP's own lock is taken with a reference, not in it.
 */
int mrc_nl_qp_stall_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *qpn_attr = info->attrs[MRC_A_QP_STATS_QPN];
	unsigned long qpn = 0;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	int err = 0;

	if (mrc_nl_require(info, MRC_A_QP_STATS_DEV_INDEX))
		return -EINVAL;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_QP_STATS_DEV_INDEX],
			      info->extack);
	if (!mdev)
		return -ENODEV;
	if (qpn_attr) {
		if (!mrc_nl_qp_stall_reset(mdev, nla_get_u32(qpn_attr))) {
			NL_SET_ERR_MSG_ATTR(info->extack, qpn_attr, "no such QP on the device");
			err = -ENOENT;
		}
		mrc_dev_put(mdev);
		return err;
	}
	for (;; qpn++) {
		xa_lock(&mdev->qp_xa);
		qp = xa_find(&mdev->qp_xa, &qpn, U32_MAX, XA_PRESENT);
		xa_unlock(&mdev->qp_xa);
		if (!qp)
			break;
		mrc_nl_qp_stall_reset(mdev, qpn);
		cond_resched();
	}
	mrc_dev_put(mdev);
	return 0;
}

/* plane-add, plane-del, plane-set: under RTNL, as the netdev notifier (mrc_plane.c) */

static struct mrc_dev *mrc_nl_plane_dev(struct genl_info *info)
{
	if (mrc_nl_require(info, MRC_A_PLANE_DEV_INDEX) || mrc_nl_require(info, MRC_A_PLANE_ID))
		return ERR_PTR(-EINVAL);
	return mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_PLANE_DEV_INDEX],
			      info->extack) ?: ERR_PTR(-ENODEV);
}

int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *ndev;
	struct mrc_dev *mdev;
	int err;

	if (mrc_nl_require(info, MRC_A_PLANE_IFINDEX))
		return -EINVAL;
	mdev = mrc_nl_plane_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	rtnl_lock();
	ndev = __dev_get_by_index(genl_info_net(info),
				  nla_get_u32(info->attrs[MRC_A_PLANE_IFINDEX]));
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_PLANE_IFINDEX],
				    "no such netdev in the device's namespace");
		err = -ENODEV;
	} else {
		err = mrc_plane_attach(mdev, nla_get_u8(info->attrs[MRC_A_PLANE_ID]), ndev,
				       info->extack);
	}
	rtnl_unlock();
	mrc_dev_put(mdev);
	return err;
}

int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_plane_dev(info);
	int err;

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	rtnl_lock();
	err = mrc_plane_detach(mdev, nla_get_u8(info->attrs[MRC_A_PLANE_ID]), info->extack);
	rtnl_unlock();
	mrc_dev_put(mdev);
	return err;
}

int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	int err;

	if (mrc_nl_require(info, MRC_A_PLANE_ADMIN_UP))
		return -EINVAL;
	mdev = mrc_nl_plane_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	rtnl_lock();
	err = mrc_plane_set_admin(mdev, nla_get_u8(info->attrs[MRC_A_PLANE_ID]),
				  nla_get_u8(info->attrs[MRC_A_PLANE_ADMIN_UP]), info->extack);
	rtnl_unlock();
	mrc_dev_put(mdev);
	return err;
}

int mrc_netlink_init(void)
{
	return genl_register_family(&mrc_nl_family);
}

void mrc_netlink_exit(void)
{
	genl_unregister_family(&mrc_nl_family);
}
