/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_net.h - the UDP tunnel sockets (one pair per network namespace that
 * has mrc devices), packet transmit over IPv4/IPv6, and receive dispatch.
 */
#ifndef MRC_NET_H
#define MRC_NET_H

#include <linux/skbuff.h>

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

/*
 * Send @skb (MRC header onwards) to @av with UDP source port @ev; @cache
 * (may be NULL) remembers the route between packets.
 */
int mrc_net_xmit(struct mrc_dev *mdev, const struct mrc_av *av, u16 ev,
		 struct dst_cache *cache, struct sk_buff *skb);

/* Whether @skb (as received) was congestion-marked (ECN CE) on its way. */
bool mrc_net_ce(const struct sk_buff *skb);

/* Receive side entry (mrc_recv.c): @skb->data is the MRC header. */
void mrc_recv(struct mrc_dev *mdev, struct sk_buff *skb);

extern unsigned short mrc_udp_port;

#endif /* MRC_NET_H */
