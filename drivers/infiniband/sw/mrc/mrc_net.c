// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_net.c - UDP sockets per network namespace, transmit and receive.
 *
 * Two hosts in two namespaces must each have their own socket on the MRC
 * port, so sockets are per namespace, opened by the first device whose
 * netdev lives there and closed with the last one. A dying namespace
 * detaches its devices first (pernet exit), because the devices themselves
 * are unregistered asynchronously and may outlive it.
 *
 * The data path reads a device's sockets under RCU; detaching clears them
 * and waits for readers before the sockets are released.
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/seg6.h>
#include <net/dst_cache.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ip6_tunnel.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/seg6.h>
#include <net/udp_tunnel.h>

#include "core/mrc_srh.h"
#include "mrc.h"
#include "mrc_av.h"
#include "mrc_net.h"
#include "mrc_param.h"
#include "mrc_race.h"
#include "mrc_stats.h"

unsigned short mrc_udp_port = 4791;
module_param_named(udp_port, mrc_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of MRC packets (default 4791)");

static bool mrc_srv6_reply_reverse = true;
module_param_named(srv6_reply_reverse, mrc_srv6_reply_reverse, bool, 0644);
MODULE_PARM_DESC(srv6_reply_reverse,
		 "Answer SRv6 requests back along their segments, reversed (default Y)");

struct mrc_net {
	unsigned int users;		/* attached devices */
	struct socket *sock4;
	struct socket *sock6;
};

static unsigned int mrc_net_id;
static DEFINE_MUTEX(mrc_net_lock);	/* attach/detach, socket lifetime */

/*
 * The netdev a packet came in for. One a QP sent to an address of this
 * host's own comes back over the loopback device (UCX connects every rank
 * to itself, over UD too): it is for the netdev that owns its destination.
 */
static struct net_device *mrc_net_rx_dev_rcu(const struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	if (!(skb->dev->flags & IFF_LOOPBACK))
		return skb->dev;
	if (skb->protocol == htons(ETH_P_IPV6))
		return ipv6_dev_find(net, &ipv6_hdr(skb)->daddr, NULL);
	return __ip_dev_find(net, ip_hdr(skb)->daddr, false);
}

static int mrc_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct net_device *ndev;
	struct mrc_dev *mdev = NULL;

	/* the UDP layer verified the checksum; step over the UDP header */
	if (!pskb_may_pull(skb, sizeof(struct udphdr)))
		goto drop;
	__skb_pull(skb, sizeof(struct udphdr));

	rcu_read_lock();
	ndev = mrc_net_rx_dev_rcu(skb);
	if (ndev)
		mdev = mrc_dev_lookup_rcu(ndev);
	if (mdev) {
		mrc_race_window(MRC_RACE_DEV_LOOKUP);
		mrc_recv(mdev, skb);	/* consumes the skb */
	}
	rcu_read_unlock();
	if (mdev)
		return 0;
drop:
	kfree_skb(skb);
	return 0;
}

static struct socket *mrc_net_open(struct net *net, bool ipv6)
{
	struct udp_tunnel_sock_cfg tnl = {
		.encap_type = 1,
		.encap_rcv = mrc_encap_recv,
	};
	struct udp_port_cfg cfg = {
		.local_udp_port = htons(mrc_udp_port),
	};
	struct socket *sock;
	int err;

	if (ipv6) {
		cfg.family = AF_INET6;
		cfg.ipv6_v6only = 1;
		cfg.use_udp6_rx_checksums = 1;
		cfg.use_udp6_tx_checksums = 1;
		err = udp_sock_create6(net, &cfg, &sock);
	} else {
		cfg.family = AF_INET;
		cfg.use_udp_checksums = 1;
		err = udp_sock_create4(net, &cfg, &sock);
	}
	if (err)
		return ERR_PTR(err);

	setup_udp_tunnel_sock(net, sock, &tnl);
	return sock;
}

static void mrc_net_close(struct mrc_net *mn)
{
	synchronize_rcu();	/* no transmit still holds the sockets */
	udp_tunnel_sock_release(mn->sock4);
	udp_tunnel_sock_release(mn->sock6);
	mn->sock4 = NULL;
	mn->sock6 = NULL;
}

int mrc_net_attach(struct mrc_dev *mdev)
{
	struct net *net = dev_net(mdev->ndev);
	struct mrc_net *mn = net_generic(net, mrc_net_id);
	struct socket *s4, *s6;
	int err = 0;

	mutex_lock(&mrc_net_lock);
	if (!mn->users) {
		s6 = mrc_net_open(net, true);
		if (IS_ERR(s6)) {
			err = PTR_ERR(s6);
			goto out;
		}
		s4 = mrc_net_open(net, false);
		if (IS_ERR(s4)) {
			udp_tunnel_sock_release(s6);
			err = PTR_ERR(s4);
			goto out;
		}
		mn->sock4 = s4;
		mn->sock6 = s6;
	}
	mn->users++;
	mdev->net = net;
	rcu_assign_pointer(mdev->sk4, mn->sock4->sk);
	rcu_assign_pointer(mdev->sk6, mn->sock6->sk);
out:
	mutex_unlock(&mrc_net_lock);
	if (err)
		pr_err("%s: cannot open UDP port %u: %d\n", mdev->ndev->name,
		       mrc_udp_port, err);
	return err;
}

/* Returns the namespace's state when this was its last device. */
static struct mrc_net *__mrc_net_detach(struct mrc_dev *mdev)
{
	struct mrc_net *mn;

	lockdep_assert_held(&mrc_net_lock);
	if (!mdev->net)
		return NULL;
	mn = net_generic(mdev->net, mrc_net_id);
	RCU_INIT_POINTER(mdev->sk4, NULL);
	RCU_INIT_POINTER(mdev->sk6, NULL);
	mdev->net = NULL;
	return --mn->users ? NULL : mn;
}

/*
 * Called while the device's namespace is certainly alive: from the netdev
 * notifier on unregistration, or from dealloc when the netdev is still
 * registered. Idempotent.
 */
void mrc_net_detach(struct mrc_dev *mdev)
{
	struct mrc_net *last;

	mutex_lock(&mrc_net_lock);
	last = __mrc_net_detach(mdev);
	if (last)
		mrc_net_close(last);
	mutex_unlock(&mrc_net_lock);
}

/* runs under the device list's spinlock: must not sleep */
static void mrc_net_detach_one(struct mrc_dev *mdev, void *net)
{
	if (mdev->net == net)
		__mrc_net_detach(mdev);
}

static void __net_exit mrc_net_ns_exit(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	mutex_lock(&mrc_net_lock);
	if (mn->users) {
		mrc_dev_for_each(mrc_net_detach_one, net);
		WARN_ON(mn->users);
		mrc_net_close(mn);
	}
	mutex_unlock(&mrc_net_lock);
}

static struct pernet_operations mrc_net_ops = {
	.exit = mrc_net_ns_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

int mrc_net_init(void)
{
	return register_pernet_subsys(&mrc_net_ops);
}

void mrc_net_exit(void)
{
	unregister_pernet_subsys(&mrc_net_ops);
}

struct sk_buff *mrc_net_alloc_skb(struct mrc_dev *mdev, unsigned int len)
{
	unsigned int head = LL_RESERVED_SPACE(mdev->ndev) + sizeof(struct ipv6hdr) +
			    MRC_NET_SRH_MAX + sizeof(struct udphdr);
	struct sk_buff *skb;

	skb = alloc_skb(head + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	return skb;
}

/*
 * Every packet is ECN-capable (ECT(0) in the traffic class): a switch queue
 * that marks instead of dropping tells the sender which EV is congested,
 * and the sender steers off it (multipath.rst, adaptive spraying).
 */
static u8 mrc_net_tclass(const struct mrc_av *av)
{
	return (av->traffic_class & ~INET_ECN_MASK) | INET_ECN_ECT_0;
}

bool mrc_net_ce(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IPV6))
		return INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	return INET_ECN_is_ce(ip_hdr(skb)->tos);
}

/*
 * The route for @fl6; on a plane (not NULL) it must leave through the
 * plane's netdev: a host without a route on that plane loses the packet
 * (and the EV its health) rather than send it over another plane.
 */
static struct dst_entry *mrc_net_route6(struct sock *sk, struct flowi6 *fl6,
					const struct net_device *plane)
{
	struct dst_entry *dst;

	dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(sk), sk, fl6, NULL);
	if (!IS_ERR(dst) && plane && dst->dev != plane) {
		dst_release(dst);
		dst = ERR_PTR(-ENETUNREACH);
	}
	return dst;
}

/*
 * An SRV6 EV's packet: UDP and IPv6 headers to the peer as usual, then the
 * kernel's seg6 helper inserts the segment routing header (segments: the
 * peer, the EV's second segment if any, its first) and makes the first
 * segment the destination; the route is the one towards that segment. The
 * UDP checksum covers the peer's address, the final destination (RFC 8200),
 * which is what the peer's stack checks once the SRH is consumed.
 */
static int mrc_net_xmit_srv6(struct mrc_dev *mdev, struct sock *sk, const struct mrc_av *av,
			     const struct mrc_ev_tx *tx, struct net_device *plane,
			     struct sk_buff *skb)
{
	struct {
		struct ipv6_sr_hdr srh;
		struct in6_addr seg[MRC_PROF_SRV6_SIDS + 1];
	} __packed osrh = {};
	u32 nr = tx->srv6.nr_sids, i;
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_UDP,
		.saddr = av->saddr.v6,
		.fl6_sport = htons(tx->sport),
		.fl6_dport = htons(mrc_udp_port),
	};
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;
	struct udphdr *uh;
	int err;

	memcpy(&fl6.daddr, tx->srv6.sid[0], sizeof(fl6.daddr));
	fl6.flowi6_oif = plane ? plane->ifindex : 0;
	dst = mrc_net_route6(sk, &fl6, plane);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(tx->sport);
	uh->dest = htons(mrc_udp_port);
	uh->len = htons(skb->len);
	skb_dst_set(skb, dst);
	udp6_set_csum(false, skb, &av->saddr.v6, &av->daddr.v6, skb->len);
	/*
	 * A NIC that offloads only plain IPv6 checksums (NETIF_F_IPV6_CSUM)
	 * may not find the UDP header behind the SRH: checksum in software.
	 */
	if (skb->ip_summed == CHECKSUM_PARTIAL && !(dst->dev->features & NETIF_F_HW_CSUM)) {
		err = skb_checksum_help(skb);
		if (err) {
			kfree_skb(skb);
			return err;
		}
	}

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, mrc_net_tclass(av), htonl(tx->has_label ? tx->label : av->flow_label));
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->hop_limit;
	ip6h->saddr = av->saddr.v6;
	ip6h->daddr = av->daddr.v6;
	skb->protocol = htons(ETH_P_IPV6);

	/* segment 0 is the helper's to fill: the destination above, the peer */
	osrh.srh.hdrlen = (nr + 1) * 2;	/* 8-byte units past the first 8 */
	osrh.srh.type = IPV6_SRCRT_TYPE_4;
	osrh.srh.segments_left = nr;
	osrh.srh.first_segment = nr;
	for (i = 0; i < nr; i++)
		memcpy(&osrh.seg[nr - i], tx->srv6.sid[i], sizeof(struct in6_addr));
	err = seg6_do_srh_inline(skb, &osrh.srh);
	if (err) {
		kfree_skb(skb);
		return err;
	}
	/* the UDP header did not move: the transport header still points at it */
	ip6tunnel_xmit(sk, skb, NULL);
	return 0;
}

static int mrc_net_xmit6(struct mrc_dev *mdev, struct sock *sk,
			 const struct mrc_av *av, const struct mrc_ev_tx *tx,
			 struct net_device *plane, struct dst_cache *cache, struct sk_buff *skb)
{
	struct in6_addr saddr = av->saddr.v6, daddr = av->daddr.v6;
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_UDP,
		.daddr = daddr,
		.saddr = saddr,
		.fl6_sport = htons(tx->sport),
		.fl6_dport = htons(mrc_udp_port),
	};
	struct dst_entry *dst;

	if (tx->srv6.nr_sids)
		return mrc_net_xmit_srv6(mdev, sk, av, tx, plane, skb);

	if (plane)
		fl6.flowi6_oif = plane->ifindex;
	else if (ipv6_addr_type(&daddr) & IPV6_ADDR_LINKLOCAL)
		fl6.flowi6_oif = mdev->ndev->ifindex;
	/* the route cache is the device netdev's: a plane's route is looked up each time */
	if (plane)
		cache = NULL;
	dst = cache ? dst_cache_get_ip6(cache, &saddr) : NULL;
	if (!dst) {
		dst = mrc_net_route6(sk, &fl6, plane);
		if (IS_ERR(dst)) {
			kfree_skb(skb);
			return PTR_ERR(dst);
		}
		if (cache)
			dst_cache_set_ip6(cache, dst, &saddr);
	}

	/*
	 * Takes over both the skb and the route reference. No device: the
	 * helper would count the packet in a tunnel device's tstats, and the
	 * netdev under us is no tunnel (its tstats may not exist at all).
	 */
	return udp_tunnel6_xmit_skb(dst, sk, skb, NULL, &saddr, &daddr,
				    mrc_net_tclass(av), av->hop_limit,
				    htonl(tx->has_label ? tx->label : av->flow_label), htons(tx->sport),
				    htons(mrc_udp_port), false);
}

static int mrc_net_xmit4(struct mrc_dev *mdev, struct sock *sk,
			 const struct mrc_av *av, const struct mrc_ev_tx *tx,
			 struct net_device *plane, struct dst_cache *cache, struct sk_buff *skb)
{
	struct flowi4 fl4 = {
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_oif = plane ? plane->ifindex : 0,
		.daddr = av->daddr.v4,
		.saddr = av->saddr.v4,
		.fl4_sport = htons(tx->sport),
		.fl4_dport = htons(mrc_udp_port),
	};
	struct rtable *rt;

	if (plane)
		cache = NULL;
	rt = cache ? dst_cache_get_ip4(cache, &fl4.saddr) : NULL;
	if (!rt) {
		rt = ip_route_output_key(sock_net(sk), &fl4);
		if (!IS_ERR(rt) && plane && rt->dst.dev != plane) {
			ip_rt_put(rt);
			rt = ERR_PTR(-ENETUNREACH);
		}
		if (IS_ERR(rt)) {
			kfree_skb(skb);
			return PTR_ERR(rt);
		}
		if (cache)
			dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
	}

	/* takes over both the skb and the route reference */
	udp_tunnel_xmit_skb(rt, sk, skb, fl4.saddr, fl4.daddr,
			    mrc_net_tclass(av), av->hop_limit, htons(IP_DF),
			    htons(tx->sport), htons(mrc_udp_port), false, false);
	return 0;
}

/*
 * The segments back to the sender of @skb (received over IPv6, checked up to
 * its transport header), when it came with an SRH: found behind any
 * hop-by-hop and destination options, which the stack has checked and left
 * in the linear head.
 */
static bool mrc_net_srh_back(const struct sk_buff *skb, struct mrc_ev_srv6 *back)
{
	const u8 *p = skb_network_header(skb) + sizeof(struct ipv6hdr);
	const u8 *end = skb_transport_header(skb);
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;

	while (p + 2 <= end) {
		if (nexthdr == NEXTHDR_ROUTING)
			return !mrc_srh_reverse(p, end - p, back);
		if (nexthdr != NEXTHDR_HOP && nexthdr != NEXTHDR_DEST)
			return false;
		nexthdr = p[0];
		p += ipv6_optlen((const struct ipv6_opt_hdr *)p);
	}
	return false;
}

void mrc_net_reply_tx(const struct sk_buff *skb, u8 plane, struct mrc_ev_tx *back)
{
	memset(back, 0, sizeof(*back));
	back->sport = ntohs(udp_hdr(skb)->source);
	back->plane = plane;
	if (skb->protocol == htons(ETH_P_IPV6) && READ_ONCE(mrc_srv6_reply_reverse))
		mrc_net_srh_back(skb, &back->srv6);	/* or none: routed plainly */
}

int mrc_net_xmit(struct mrc_dev *mdev, const struct mrc_av *av, const struct mrc_ev_tx *tx,
		 struct dst_cache *cache, struct sk_buff *skb)
{
	unsigned int len = skb->len;
	struct net_device *plane;
	struct sock *sk;
	int err = -ENETDOWN;

	/* BH off: the route cache is per CPU */
	rcu_read_lock_bh();
	if (av->family == AF_INET6)
		sk = rcu_dereference_bh(mdev->sk6);
	else
		sk = rcu_dereference_bh(mdev->sk4);
	/* plane 1 is routed as the host's tables say; a plane down sends nothing */
	plane = tx->plane > 1 ? mrc_plane_dev_rcu(mdev, tx->plane) : NULL;
	if (tx->plane > 1 ? !plane : !mrc_plane_dev_rcu(mdev, 1))
		sk = NULL;
	if (sk) {
		if (av->family == AF_INET6)
			err = mrc_net_xmit6(mdev, sk, av, tx, plane, cache, skb);
		else
			err = mrc_net_xmit4(mdev, sk, av, tx, plane, cache, skb);
		skb = NULL;	/* consumed, sent or not */
	}
	rcu_read_unlock_bh();

	if (skb)
		kfree_skb(skb);
	if (err) {
		mrc_stats_inc(mdev, MRC_CNT_DROP_NO_ROUTE);
		return err;
	}
	mrc_stats_inc(mdev, MRC_CNT_TX_PACKETS);
	mrc_stats_add(mdev, MRC_CNT_TX_BYTES, len);
	return 0;
}
