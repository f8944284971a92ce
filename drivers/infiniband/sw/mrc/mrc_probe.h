/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_probe.h - PROBE and PROBE_REPLY packets: the path sets' probes of
 * suspect and ASSUMED_BAD EVs go out here, and a peer's probes are answered.
 */
#ifndef MRC_PROBE_H
#define MRC_PROBE_H

#include <linux/skbuff.h>

#include "core/mrc_wire.h"

struct mrc_av;
struct mrc_dev;

/*
 * Send probe @probe_id for EV @ev (as @tx says) to @av's daddr, its first
 * answer asked back on UDP source port @reply_port (0: the peer chooses);
 * @copies: ask for MRC_PROBE_REPLY_COPIES answers over different EVs.
 */
void mrc_probe_send(struct mrc_dev *mdev, const struct mrc_av *av, u32 ev, u32 probe_id,
		    u16 reply_port, const struct mrc_ev_tx *tx, bool copies);

/* A PROBE or PROBE_REPLY arrived (mrc_recv checked its header). */
void mrc_probe_recv(struct mrc_dev *mdev, struct sk_buff *skb, const struct mrc_pkt_hdr *hdr);

#endif /* MRC_PROBE_H */
