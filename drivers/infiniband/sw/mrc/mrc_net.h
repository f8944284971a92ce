/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_net.h - the UDP tunnel sockets (one pair per network namespace that
 * has mrc devices), packet transmit over IPv4/IPv6, and receive dispatch.
 */
#ifndef MRC_NET_H
#define MRC_NET_H

#include <linux/skbuff.h>

#include "core/mrc_profile.h"

struct dst_cache;
struct mrc_av;
struct mrc_dev;

int mrc_net_init(void);
void mrc_net_exit(void);

int mrc_net_attach(struct mrc_dev *mdev);
void mrc_net_detach(struct mrc_dev *mdev);

/*
 * An skb with room for every header below the MRC header; the caller
 * appends the MRC header and payload with skb_put.
 */
struct sk_buff *mrc_net_alloc_skb(struct mrc_dev *mdev, unsigned int len);

/* An EV as the fields of the packet it sends (mrc_path_pick() and friends fill it). */
struct mrc_ev_tx {
	u16 sport;			/* UDP source port */
	u8 plane;			/* 0, 1: the device's netdev, as routed; else that plane */
	bool has_label;			/* STEV: @label is the flow label; else the AV's */
	u32 label;
	struct mrc_ev_srv6 srv6;	/* nr_sids 0: straight to the peer, no SRH */
};

/*
 * Send @skb (MRC header onwards) to @av the way @tx says (an EV's port,
 * plane, flow label, segments); @cache (may be NULL) remembers the route
 * between packets routed to the peer directly.
 */
int mrc_net_xmit(struct mrc_dev *mdev, const struct mrc_av *av, const struct mrc_ev_tx *tx,
		 struct dst_cache *cache, struct sk_buff *skb);

/*
 * How the answers to @skb (as received, on @plane) go back: to its UDP
 * source port, on @plane, and back along its segments when it came over an
 * SRH (core/mrc_srh.h; module parameter srv6_reply_reverse).
 */
void mrc_net_reply_tx(const struct sk_buff *skb, u8 plane, struct mrc_ev_tx *back);

/* Whether @skb (as received) was congestion-marked (ECN CE) on its way. */
bool mrc_net_ce(const struct sk_buff *skb);

/* Receive side entry (mrc_recv.c): @skb->data is the MRC header. */
void mrc_recv(struct mrc_dev *mdev, struct sk_buff *skb);

extern unsigned short mrc_udp_port;

#endif /* MRC_NET_H */
