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
#include <linux/module.h>
#include <net/dst_cache.h>
#include <net/inet_ecn.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "mrc.h"
#include "mrc_av.h"
#include "mrc_net.h"
#include "mrc_stats.h"

unsigned short mrc_udp_port = 4791;
module_param_named(udp_port, mrc_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of MRC packets (default 4791)");

struct mrc_net {
	unsigned int users;		/* attached devices */
	struct socket *sock4;
	struct socket *sock6;
};

static unsigned int mrc_net_id;
static DEFINE_MUTEX(mrc_net_lock);	/* attach/detach, socket lifetime */

static int mrc_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct mrc_dev *mdev;

	/* the UDP layer verified the checksum; step over the UDP header */
	if (!pskb_may_pull(skb, sizeof(struct udphdr)))
		goto drop;
	__skb_pull(skb, sizeof(struct udphdr));

	rcu_read_lock();
	mdev = mrc_dev_lookup_rcu(skb->dev);
	if (mdev)
		mrc_recv(mdev, skb);	/* consumes the skb */
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
	unsigned int head = LL_RESERVED_SPACE(mdev->ndev) +
			    sizeof(struct ipv6hdr) + sizeof(struct udphdr);
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

static int mrc_net_xmit6(struct mrc_dev *mdev, struct sock *sk,
			 const struct mrc_av *av, u16 ev, struct dst_cache *cache,
			 struct sk_buff *skb)
{
	struct in6_addr saddr = av->saddr.v6, daddr = av->daddr.v6;
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_UDP,
		.daddr = daddr,
		.saddr = saddr,
		.fl6_sport = htons(ev),
		.fl6_dport = htons(mrc_udp_port),
	};
	struct dst_entry *dst;

	if (ipv6_addr_type(&daddr) & IPV6_ADDR_LINKLOCAL)
		fl6.flowi6_oif = mdev->ndev->ifindex;
	dst = cache ? dst_cache_get_ip6(cache, &saddr) : NULL;
	if (!dst) {
		dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(sk), sk, &fl6, NULL);
		if (IS_ERR(dst)) {
			kfree_skb(skb);
			return PTR_ERR(dst);
		}
		if (cache)
			dst_cache_set_ip6(cache, dst, &saddr);
	}

	/* takes over both the skb and the route reference */
	return udp_tunnel6_xmit_skb(dst, sk, skb, dst->dev, &saddr, &daddr,
				    mrc_net_tclass(av), av->hop_limit,
				    htonl(av->flow_label), htons(ev),
				    htons(mrc_udp_port), false);
}

static int mrc_net_xmit4(struct mrc_dev *mdev, struct sock *sk,
			 const struct mrc_av *av, u16 ev, struct dst_cache *cache,
			 struct sk_buff *skb)
{
	struct flowi4 fl4 = {
		.flowi4_proto = IPPROTO_UDP,
		.daddr = av->daddr.v4,
		.saddr = av->saddr.v4,
		.fl4_sport = htons(ev),
		.fl4_dport = htons(mrc_udp_port),
	};
	struct rtable *rt;

	rt = cache ? dst_cache_get_ip4(cache, &fl4.saddr) : NULL;
	if (!rt) {
		rt = ip_route_output_key(sock_net(sk), &fl4);
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
			    htons(ev), htons(mrc_udp_port), false, false);
	return 0;
}

int mrc_net_xmit(struct mrc_dev *mdev, const struct mrc_av *av, u16 ev,
		 struct dst_cache *cache, struct sk_buff *skb)
{
	unsigned int len = skb->len;
	struct sock *sk;
	int err = -ENETDOWN;

	/* BH off: the route cache is per CPU */
	rcu_read_lock_bh();
	if (av->family == AF_INET6)
		sk = rcu_dereference_bh(mdev->sk6);
	else
		sk = rcu_dereference_bh(mdev->sk4);
	if (sk) {
		if (av->family == AF_INET6)
			err = mrc_net_xmit6(mdev, sk, av, ev, cache, skb);
		else
			err = mrc_net_xmit4(mdev, sk, av, ev, cache, skb);
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
