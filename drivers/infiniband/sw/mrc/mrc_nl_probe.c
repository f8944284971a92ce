// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_nl_probe.c - one-shot probes (netlink "probe", mrcctl probe): the
 * controller has the device probe a destination over chosen EVs of one of
 * its path sets, waits for the answers and gets each EV's round trip.
 *
 * The probes are the path sets' own PROBE packets (mrc_probe.c), sent as
 * the EV says (its port, its segments), and the peer answers them as any
 * other. Their ids come from a space of their own (MRC_NL_PROBE_ID), so an
 * answer reaches the request waiting for it and never the path set's
 * health bookkeeping: a controller's probe judges nothing by itself.
 */
#include <linux/ipv6.h>
#include <linux/ip.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_netlink.h"
#include "mrc_nl_gen.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_probe.h"
#include "mrc_stats.h"

/*
 * One-shot probe ids: above the path sets' (this bit set), then the
 * request's block of 64, then the EV's place in it.
 */
#define MRC_NL_PROBE_ID		(MRC_PATH_PROBE_ID_MAX + 1U)
#define MRC_NL_PROBE_BLOCKS	0x1ffffffU

/* A request waiting for its answers. */
struct mrc_nl_probe_wait {
	struct list_head node;		/* in mrc_nl_probes */
	struct mrc_dev *mdev;
	struct in6_addr dst;		/* who must answer (IPv4 as ::ffff:a.b.c.d) */
	u32 first_id;
	u32 nr;
	u32 nr_answered;
	u32 ev[MRC_NL_PROBE_EVS];
	u32 rtt_ns[MRC_NL_PROBE_EVS];
	DECLARE_BITMAP(answered, MRC_NL_PROBE_EVS);
	wait_queue_head_t wq;
};

static LIST_HEAD(mrc_nl_probes);
static DEFINE_SPINLOCK(mrc_nl_probes_lock);	/* the list and the answers */
static atomic_t mrc_nl_probe_block = ATOMIC_INIT(0);

/* The sender of @skb as the uapi writes addresses. */
static void mrc_nl_probe_sender(const struct sk_buff *skb, struct in6_addr *from)
{
	if (skb->protocol == htons(ETH_P_IPV6))
		*from = ipv6_hdr(skb)->saddr;
	else
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, from);
}

bool mrc_nl_probe_answered(struct mrc_dev *mdev, const struct sk_buff *skb,
			   const struct mrc_pkt_hdr *hdr, u64 now_ns)
{
	u32 id = hdr->probe.probe_id, k;
	struct mrc_nl_probe_wait *w;
	struct in6_addr from;

	if (!(id & MRC_NL_PROBE_ID))
		return false;
	mrc_nl_probe_sender(skb, &from);
	spin_lock_bh(&mrc_nl_probes_lock);
	list_for_each_entry(w, &mrc_nl_probes, node) {
		if (w->mdev != mdev || id - w->first_id >= w->nr)
			continue;
		k = id - w->first_id;
		/* the peer asked, on the EV asked; copies after the first count once */
		if (!ipv6_addr_equal(&from, &w->dst) || hdr->probe.ev != w->ev[k] ||
		    test_and_set_bit(k, w->answered))
			break;
		w->rtt_ns[k] = (u32)min_t(u64, now_ns - hdr->probe.timestamp, U32_MAX);
		if (++w->nr_answered == w->nr)
			wake_up(&w->wq);
		break;
	}
	spin_unlock_bh(&mrc_nl_probes_lock);
	return true;	/* a late answer, or a stranger's: nobody else wants it */
}

static bool mrc_nl_probe_done(struct mrc_nl_probe_wait *w)
{
	bool done;

	spin_lock_bh(&mrc_nl_probes_lock);
	done = w->nr_answered == w->nr;
	spin_unlock_bh(&mrc_nl_probes_lock);
	return done;
}

/* The EVs a request names, checked against the path set's size. */
static int mrc_nl_probe_evs(struct genl_info *info, const struct mrc_path *path,
			    struct mrc_nl_probe_wait *w)
{
	const struct nlmsghdr *nlh = info->nlhdr;
	struct nlattr *a;
	int rem;

	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		if (nla_type(a) != MRC_A_PROBE_EV_INDEX)
			continue;
		if (w->nr == MRC_NL_PROBE_EVS) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "at most 64 EVs per probe request");
			return -EINVAL;
		}
		if (nla_len(a) != sizeof(u32) || nla_get_u32(a) >= path->ps.nr_ev) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "no such EV in the path set");
			return -ERANGE;
		}
		w->ev[w->nr++] = nla_get_u32(a);
	}
	if (!w->nr) {
		NL_SET_ERR_MSG_MOD(info->extack, "a probe request names at least one EV");
		return -EINVAL;
	}
	return 0;
}

static int mrc_nl_probe_reply(struct genl_info *info, const struct mrc_path *path,
			      const struct mrc_nl_probe_wait *w)
{
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;
	u32 k;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mrc_nl_family, 0, MRC_CMD_PROBE);
	if (!hdr)
		goto nospace;
	if (nla_put_u32(msg, MRC_A_PROBE_DEV_INDEX, w->mdev->ib_dev.index) ||
	    nla_put_in6_addr(msg, MRC_A_PROBE_DST, &w->dst) ||
	    nla_put_u32(msg, MRC_A_PROBE_PROFILE_ID, path->profile))
		goto nospace;
	for (k = 0; k < w->nr; k++) {
		nest = nla_nest_start(msg, MRC_A_PROBE_RESULT);
		if (!nest || nla_put_u32(msg, MRC_A_PROBE_RESULT_EV_INDEX, w->ev[k]))
			goto nospace;
		if (test_bit(k, w->answered) &&
		    (nla_put_flag(msg, MRC_A_PROBE_RESULT_ANSWERED) ||
		     nla_put_u32(msg, MRC_A_PROBE_RESULT_RTT_NS, w->rtt_ns[k])))
			goto nospace;
		nla_nest_end(msg, nest);
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* Probe, wait for the answers or the timeout, tell. Process context: sleeps. */
static int mrc_nl_probe_run(struct genl_info *info, struct mrc_path *path,
			    struct mrc_nl_probe_wait *w, u32 timeout_ms)
{
	struct mrc_ev_tx tx;
	long left;
	int err;
	u32 k;

	w->first_id = MRC_NL_PROBE_ID |
		      ((atomic_inc_return(&mrc_nl_probe_block) & MRC_NL_PROBE_BLOCKS) << 6);
	init_waitqueue_head(&w->wq);
	spin_lock_bh(&mrc_nl_probes_lock);
	list_add(&w->node, &mrc_nl_probes);
	spin_unlock_bh(&mrc_nl_probes_lock);

	for (k = 0; k < w->nr; k++) {
		mrc_path_ev_tx(path, w->ev[k], &tx);
		mrc_probe_send(w->mdev, &path->av, w->ev[k], w->first_id + k, 0, &tx, false);
	}
	left = wait_event_interruptible_timeout(w->wq, mrc_nl_probe_done(w),
						msecs_to_jiffies(timeout_ms));

	spin_lock_bh(&mrc_nl_probes_lock);
	list_del(&w->node);
	spin_unlock_bh(&mrc_nl_probes_lock);
	if (left < 0)
		return -EINTR;	/* a signal: the caller goes, nothing to tell */
	err = mrc_nl_probe_reply(info, path, w);
	return err;
}

int mrc_nl_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct mrc_nl_probe_wait *w;
	struct mrc_path *path;
	struct mrc_dev *mdev;
	u32 timeout_ms;
	int err;

	if (mrc_nl_require(info, MRC_A_PROBE_DEV_INDEX) || mrc_nl_require(info, MRC_A_PROBE_DST))
		return -EINVAL;
	/* the policy bounds it to 1 ... 10000 */
	timeout_ms = attrs[MRC_A_PROBE_TIMEOUT_MS] ? nla_get_u32(attrs[MRC_A_PROBE_TIMEOUT_MS]) :
						     MRC_NL_PROBE_TIMEOUT_MS;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->dst = nla_get_in6_addr(attrs[MRC_A_PROBE_DST]);
	mdev = mrc_nl_dev_get(genl_info_net(info), attrs[MRC_A_PROBE_DEV_INDEX], info->extack);
	if (!mdev) {
		kfree(w);
		return -ENODEV;
	}
	w->mdev = mdev;
	path = mrc_nl_path_lookup(mdev, &w->dst, attrs[MRC_A_PROBE_PROFILE_ID] ?
				  (s64)nla_get_u32(attrs[MRC_A_PROBE_PROFILE_ID]) : -1LL);
	if (!path) {
		NL_SET_ERR_MSG_MOD(info->extack, "no path set towards dst (of that profile)");
		err = -ENOENT;
		goto out;
	}
	err = mrc_nl_probe_evs(info, path, w);
	if (!err)
		err = mrc_nl_probe_run(info, path, w, timeout_ms);
	mrc_path_put(path);
out:
	mrc_dev_put(mdev);
	kfree(w);
	return err;
}
