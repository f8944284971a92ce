// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_probe.c - path probes on the wire (Documentation/protocol.rst, PROBE).
 *
 * A probe names the EV it was sent on by its index in the prober's profile
 * and carries the prober's clock; the peer's device echoes both in a
 * PROBE_REPLY, MRC_PROBE_REPLY_COPIES times if the probe asks for copies
 * (the path sets' probes do), else once; the prober takes the first copy
 * (later ones find no probe out). A probe that came over SRv6 segments is
 * answered back along them (mrc_net_reply_tx): the round trip of its EV,
 * which its ACKs take too. Any other reply's first copy goes back on the
 * UDP source port the probe asks for (the port its latest ACK came back
 * on: a way back the prober knows works), the others over paths the
 * prober knows nothing about, on different EVs of ours: a lost reply would
 * count against a forward path that works.
 *
 * Probes are not authenticated and their source is easily forged: only a
 * source some QP of ours talks to is answered, and a device sends at most
 * probe_replies_per_sec replies a second, to all peers together (refused
 * probes are counted), so no stranger can use us as a reflector and a peer
 * at most at that rate.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "mrc.h"
#include "mrc_av.h"
#include "mrc_net.h"
#include "mrc_netlink.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_pkt.h"
#include "mrc_probe.h"
#include "mrc_stats.h"

static unsigned int mrc_probe_replies_per_sec = 20000;
module_param_named(probe_replies_per_sec, mrc_probe_replies_per_sec, uint, 0644);
MODULE_PARM_DESC(probe_replies_per_sec,
		 "PROBE_REPLY packets a device sends per second at most (default 20000)");

static void mrc_probe_xmit(struct mrc_dev *mdev, const struct mrc_av *av,
			   const struct mrc_pkt_hdr *hdr, const struct mrc_ev_tx *tx)
{
	struct sk_buff *skb;
	void *payload;

	skb = mrc_pkt_alloc_dev(mdev, hdr, 0, &payload);
	if (skb)
		mrc_net_xmit(mdev, av, tx, NULL, skb);
}

void mrc_probe_send(struct mrc_dev *mdev, const struct mrc_av *av, u32 ev, u32 probe_id,
		    u16 reply_port, const struct mrc_ev_tx *tx, bool copies)
{
	struct mrc_pkt_hdr hdr = {
		.opcode = MRC_OP_PROBE,
		.flags = copies ? MRC_WIRE_F_REPLY_COPIES : 0,
		.probe = {
			.probe_id = probe_id,
			.ev = ev,
			.reply_port = reply_port,
			.timestamp = ktime_get_ns(),
		},
	};

	mrc_probe_xmit(mdev, av, &hdr, tx);
	mrc_stats_inc(mdev, MRC_CNT_PROBES_SENT);
}

/* The sender of @skb as an AV: our address and theirs, swapped. */
static void mrc_probe_peer(const struct sk_buff *skb, struct mrc_av *peer)
{
	memset(peer, 0, sizeof(*peer));
	peer->hop_limit = 64;
	if (skb->protocol == htons(ETH_P_IPV6)) {
		peer->family = AF_INET6;
		peer->saddr.v6 = ipv6_hdr(skb)->daddr;
		peer->daddr.v6 = ipv6_hdr(skb)->saddr;
	} else {
		peer->family = AF_INET;
		peer->saddr.v4 = ip_hdr(skb)->daddr;
		peer->daddr.v4 = ip_hdr(skb)->saddr;
	}
}

/* Take @n replies from the device's budget for this second; false: none left. */
static bool mrc_probe_budget_take(struct mrc_dev *mdev, u32 n)
{
	unsigned long now = jiffies;
	bool ok;

	spin_lock(&mdev->probe_budget_lock);
	if (time_after_eq(now, mdev->probe_budget_end)) {
		mdev->probe_budget_end = now + HZ;
		mdev->probe_budget_left = READ_ONCE(mrc_probe_replies_per_sec);
	}
	ok = mdev->probe_budget_left >= n;
	if (ok)
		mdev->probe_budget_left -= n;
	spin_unlock(&mdev->probe_budget_lock);
	return ok;
}

/*
 * A probe that came over segments is answered back along them, every copy:
 * it tests the round trip its EV's ACKs take (mrc_net_reply_tx) -- if they
 * are those of one of our EVs towards the peer; other segments are not
 * followed (mrc_path_known_peer clears them).
 */
static void mrc_probe_answer(struct mrc_dev *mdev, const struct mrc_av *peer,
			     const struct mrc_pkt_hdr *probe, struct mrc_ev_tx *back,
			     u64 arrived_ns)
{
	struct mrc_pkt_hdr hdr = {
		.opcode = MRC_OP_PROBE_REPLY,
		.probe = probe->probe,
	};
	int i, copies = probe->flags & MRC_WIRE_F_REPLY_COPIES ? MRC_PROBE_REPLY_COPIES : 1;
	u32 asked = probe->probe.reply_port;

	if (!mrc_path_known_peer(mdev, peer, &back->srv6) ||
	    !mrc_probe_budget_take(mdev, copies)) {
		mrc_stats_inc(mdev, MRC_CNT_PROBES_REFUSED);
		return;
	}
	for (i = 0; i < copies; i++) {
		struct mrc_ev_tx tx = *back;

		/* with segments, every copy goes back along them */
		if (!back->srv6.nr_sids && !i && asked && asked <= U16_MAX)
			tx.sport = asked;
		else if (!back->srv6.nr_sids)
			mrc_path_reply_ev(mdev, peer,
					  probe->probe.probe_id + i * MRC_PROBE_REPLY_SPREAD, &tx);
		hdr.probe.reply_port = tx.sport;
		hdr.probe.service_time = (u32)min_t(u64, ktime_get_ns() - arrived_ns, U32_MAX);
		mrc_probe_xmit(mdev, peer, &hdr, &tx);
	}
	mrc_stats_inc(mdev, MRC_CNT_PROBES_ANSWERED);
}

void mrc_probe_recv(struct mrc_dev *mdev, struct sk_buff *skb, const struct mrc_pkt_hdr *hdr)
{
	u64 now = ktime_get_ns();
	struct mrc_ev_tx back;
	struct mrc_av peer;

	mrc_probe_peer(skb, &peer);
	if (hdr->opcode == MRC_OP_PROBE) {
		mrc_net_reply_tx(skb, (u8)mrc_plane_of_rcu(mdev, skb->dev), &back);
		mrc_probe_answer(mdev, &peer, hdr, &back, now);
	} else if (mrc_nl_probe_answered(mdev, skb, hdr, now)) {
		mrc_stats_inc(mdev, MRC_CNT_PROBE_REPLIES);	/* a controller's one-shot probe */
	} else {
		mrc_path_probe_answered(mdev, &peer, hdr->probe.ev, hdr->probe.probe_id);
	}
}
