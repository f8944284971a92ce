// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_path.c - path sets: the EVs a device sprays over towards one
 * destination, and their health, shared by all its QPs that send there
 * (Documentation/multipath.rst). The protocol core decides; this file
 * owns the memory, the locking and the lookup.
 *
 * For now every path set uses profile 0, the device's default: 256 UDP
 * source ports. EVs are not yet marked ASSUMED_BAD here: without probing
 * nothing would bring them back (ev_min_active = all of them until then).
 */
#include <linux/slab.h>

#include "mrc.h"
#include "mrc_path.h"

void mrc_paths_init(struct mrc_dev *mdev)
{
	INIT_LIST_HEAD(&mdev->paths);
	spin_lock_init(&mdev->paths_lock);
}

/* Every QP has let go of its path set by the time the device goes. */
void mrc_paths_check_empty(struct mrc_dev *mdev)
{
	WARN_ON(!list_empty(&mdev->paths));
}

static bool mrc_path_matches(const struct mrc_path *path, const struct mrc_av *av, u32 profile)
{
	if (path->family != av->family || path->profile != profile)
		return false;
	if (av->family == AF_INET6)
		return ipv6_addr_equal(&path->daddr.v6, &av->daddr.v6);
	return path->daddr.v4 == av->daddr.v4;
}

static void mrc_path_free(struct mrc_path *path)
{
	kvfree(path->ev);
	kfree(path->good);
	kfree(path->sport);
	kfree(path);
}

static struct mrc_path *mrc_path_alloc(struct mrc_dev *mdev, const struct mrc_av *av)
{
	u32 n = MRC_DEFAULT_PROFILE_EVS, i;
	struct mrc_path *path;

	path = kzalloc(sizeof(*path), GFP_KERNEL);
	if (!path)
		return NULL;
	path->ev = kvcalloc(n, sizeof(*path->ev), GFP_KERNEL);
	path->good = kcalloc(MRC_PATH_SET_WORDS(n), sizeof(*path->good), GFP_KERNEL);
	path->sport = kcalloc(n, sizeof(*path->sport), GFP_KERNEL);
	if (!path->ev || !path->good || !path->sport ||
	    mrc_path_set_init(&path->ps, path->ev, path->good, MRC_PATH_SET_WORDS(n), n, n,
			      MRC_SPRAY_ROUND_ROBIN)) {
		mrc_path_free(path);
		return NULL;
	}
	for (i = 0; i < n; i++)
		path->sport[i] = MRC_DEFAULT_PROFILE_PORT + i;
	refcount_set(&path->refs, 1);
	spin_lock_init(&path->lock);
	path->mdev = mdev;
	path->family = av->family;
	if (av->family == AF_INET6)
		path->daddr.v6 = av->daddr.v6;
	else
		path->daddr.v4 = av->daddr.v4;
	return path;
}

/* The path set towards @av's destination, shared or new; NULL if out of memory. */
struct mrc_path *mrc_path_get(struct mrc_dev *mdev, const struct mrc_av *av)
{
	struct mrc_path *path, *fresh = NULL;

	for (;;) {
		spin_lock_bh(&mdev->paths_lock);
		list_for_each_entry(path, &mdev->paths, node) {
			if (mrc_path_matches(path, av, 0)) {
				refcount_inc(&path->refs);
				spin_unlock_bh(&mdev->paths_lock);
				if (fresh)
					mrc_path_free(fresh);
				return path;
			}
		}
		if (fresh) {
			list_add(&fresh->node, &mdev->paths);
			spin_unlock_bh(&mdev->paths_lock);
			return fresh;
		}
		spin_unlock_bh(&mdev->paths_lock);
		fresh = mrc_path_alloc(mdev, av);	/* may sleep: outside the lock */
		if (!fresh)
			return NULL;
	}
}

void mrc_path_put(struct mrc_path *path)
{
	struct mrc_dev *mdev;

	if (!path)
		return;
	mdev = path->mdev;
	spin_lock_bh(&mdev->paths_lock);	/* lookups take references under it */
	if (!refcount_dec_and_test(&path->refs)) {
		spin_unlock_bh(&mdev->paths_lock);
		return;
	}
	list_del(&path->node);
	spin_unlock_bh(&mdev->paths_lock);
	mrc_path_free(path);
}

/*
 * The EV for a QP's next packet (see mrc_path_set_pick()). @account: a data
 * packet whose acknowledgement will be reported, so it takes a sequence
 * number on its EV. With every EV denied there is no path: the packet goes
 * out on EV 0 and is lost, and the QP's retry rules take their course.
 */
void mrc_path_pick(struct mrc_path *path, struct mrc_ev_cursor *cur, u32 avoid,
		   bool account, struct mrc_path_pick *pick)
{
	u32 ev = 0;

	if (!path) {	/* no AV yet: nothing is sent before RTR */
		pick->ev = 0;
		pick->seq = 0;
		pick->sport = MRC_DEFAULT_PROFILE_PORT;
		return;
	}
	spin_lock_bh(&path->lock);
	if (mrc_path_set_pick(&path->ps, cur, avoid, &ev) < 0)
		ev = 0;
	pick->ev = ev;
	pick->seq = account ? mrc_path_set_sent(&path->ps, ev) : 0;
	pick->sport = path->sport[ev];
	spin_unlock_bh(&path->lock);
}

/* Transmission @seq on @ev was acknowledged. */
void mrc_path_account_acked(struct mrc_path *path, u32 ev, u32 seq)
{
	if (!path || ev >= path->ps.nr_ev)	/* recorded on a path set since swapped */
		return;
	spin_lock_bh(&path->lock);
	mrc_path_set_acked(&path->ps, ev, seq);
	spin_unlock_bh(&path->lock);
}

/*
 * Whether transmission @seq on @ev, unacknowledged, counts as lost: by the
 * time rule (@by_time, judged by the caller) or the same-EV gap rule. An
 * @account-ed transmission's loss is recorded against its EV.
 */
bool mrc_path_lost(struct mrc_path *path, u32 ev, u32 seq, bool by_time, bool account)
{
	struct mrc_ev_change change;
	bool lost;

	if (!path || ev >= path->ps.nr_ev)	/* recorded on a path set since swapped */
		return by_time;
	spin_lock_bh(&path->lock);
	lost = by_time || mrc_path_set_gap_lost(&path->ps, ev, seq);
	if (lost && account)
		mrc_path_set_lost(&path->ps, ev, ktime_get_ns(), &change);
	spin_unlock_bh(&path->lock);
	return lost;
}
