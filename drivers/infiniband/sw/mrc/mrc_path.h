/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_path.h - path sets in the kernel: one per device, destination address
 * and EV profile, shared (refcounted) by every QP that sends there, around
 * the protocol core's struct mrc_path_set (Documentation/multipath.rst).
 */
#ifndef MRC_PATH_H
#define MRC_PATH_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "core/mrc_path_set.h"
#include "mrc_av.h"
#include "mrc_net.h"

struct mrc_dev;

#define MRC_DEFAULT_PROFILE_EVS	256	/* profile 0: UDP source ports */
#define MRC_DEFAULT_PROFILE_PORT 49152	/* ... from here up */
/*
 * ev_min_active of profile 0: with every path dead, one EV stays GOOD and
 * the QPs' retry rules decide, as they would on a single path.
 */
#define MRC_DEFAULT_PROFILE_MIN_ACTIVE 1

struct mrc_path {
	struct list_head node;		/* in mdev->paths, under mdev->paths_lock */
	refcount_t refs;
	struct mrc_dev *mdev;
	sa_family_t family;
	union {
		struct in6_addr v6;
		__be32 v4;
	} daddr;
	u32 profile;			/* EV profile id */
	bool has_profile;		/* counts as a user of it (mrc_profile_put) */
	struct mrc_av av;		/* where probes go: the first QP's AV */

	spinlock_t lock;		/* @ps */
	struct mrc_path_set ps;
	struct mrc_ev_health *ev;
	u64 *usable;
	/* what the EVs put into packets, fixed while the set lives (kvmalloc) */
	u16 *sport;			/* EV -> UDP source port */
	bool sport_names_ev;		/* no two EVs share a port: an echo names one */
	u8 *plane;			/* EV -> plane */
	u16 *label;			/* EV -> its flow label bits; NULL: not STEV */
	struct mrc_ev_srv6 *srv6;	/* EV -> its segments; NULL: not SRV6 */
	u16 *srv6_slot;			/* @srv6 hashed by segments: EV + 1, 0: empty */
	u32 srv6_mask;			/* slots - 1 (a power of 2 minus 1) */
	struct timer_list probe_timer;	/* runs while suspect or bad EVs need probes */
};

struct mrc_path *mrc_path_get(struct mrc_dev *mdev, const struct mrc_av *av, u32 profile);
void mrc_path_put(struct mrc_path *path);
u32 mrc_path_event_mask(const struct mrc_path *path);
void mrc_paths_init(struct mrc_dev *mdev);
void mrc_paths_check_empty(struct mrc_dev *mdev);

/*
 * A QP's next packet: the EV (an index), its sequence number on it and
 * what it puts into the packet.
 */
struct mrc_path_pick {
	u32 ev;
	u32 seq;
	bool usable;		/* @ev carried data when picked: not a fallback */
	struct mrc_ev_tx tx;
};

void mrc_path_pick(struct mrc_path *path, struct mrc_ev_cursor *cur, u32 avoid,
		   u64 proven_since, bool resend, bool account, struct mrc_path_pick *pick);
bool mrc_path_lost(struct mrc_path *path, u32 ev, u32 seq, u64 sent_ns, bool by_time,
		   bool account, u32 rtt_ns);
void mrc_path_response_lost(struct mrc_path *path, u32 ev, u64 sent_ns, u64 window_ns);
void mrc_path_account_acked(struct mrc_path *path, u32 ev, u32 seq, u64 sent_ns, u64 now_ns);
void mrc_path_rtt_sample(struct mrc_path *path, u32 ev, u32 rtt_ns);
void mrc_path_ack_came_back(struct mrc_path *path, u32 sport, bool ce);
bool mrc_path_ev_usable(const struct mrc_path *path, u32 ev);
enum mrc_ev_standing mrc_path_ev_standing(const struct mrc_path *path, u32 ev);
/* What EV @ev (< path->ps.nr_ev) of @path puts into a packet; any context, no lock. */
void mrc_path_ev_tx(const struct mrc_path *path, u32 ev, struct mrc_ev_tx *tx);

/* mrc_probe.c uses these: where probe answers come in, how replies go out. */
void mrc_path_probe_answered(struct mrc_dev *mdev, const struct mrc_av *peer, u32 ev,
			     u32 probe_id);
bool mrc_path_known_peer(struct mrc_dev *mdev, const struct mrc_av *peer,
			 struct mrc_ev_srv6 *way);
bool mrc_path_has_srv6(const struct mrc_path *path, const struct mrc_ev_srv6 *way);
u64 mrc_path_heard_ns(struct mrc_path *path);
void mrc_path_reply_ev(struct mrc_dev *mdev, const struct mrc_av *peer, u32 salt,
		       struct mrc_ev_tx *tx);

#endif /* MRC_PATH_H */
