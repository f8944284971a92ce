// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_path.c - path sets: the EVs a device sprays over towards one
 * destination, and their health, shared by all its QPs that send there
 * (Documentation/multipath.rst). The protocol core decides; this file
 * owns the memory, the locking and the lookup.
 *
 * A path set copies its EVs from its EV profile (the one its QP is bound
 * to, else the device's default) when it is made (mrc_profile.c) and keeps
 * them; QPs made after the default changes get path sets of the new one.
 * A loss makes its EV suspect and the path set's probe timer
 * starts; the timer sends the probes the core asks for and reports the
 * state changes it makes (mrc_probe.c builds and answers the packets).
 */
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "mrc.h"
#include "mrc_netlink.h"
#include "mrc_param.h"
#include "mrc_path.h"
#include "mrc_probe.h"
#include "mrc_profile.h"
#include "mrc_stats.h"

static void mrc_path_probe_timer(struct timer_list *t);

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
	if (path->has_profile)
		mrc_profile_put(path->mdev, path->profile);
	kvfree(path->ev);
	kfree(path->usable);
	kvfree(path->sport);
	kvfree(path->plane);
	kvfree(path->label);
	kvfree(path->srv6);
	kvfree(path->srv6_slot);
	kfree(path);
}

static u32 mrc_path_srv6_hash(const struct mrc_ev_srv6 *s)
{
	return jhash(s->sid, s->nr_sids * MRC_PROF_SID_BYTES, s->nr_sids);
}

static bool mrc_path_srv6_equal(const struct mrc_ev_srv6 *a, const struct mrc_ev_srv6 *b)
{
	return a->nr_sids == b->nr_sids &&
	       !memcmp(a->sid, b->sid, a->nr_sids * MRC_PROF_SID_BYTES);
}

/*
 * Index the segment lists of an SRV6 path set's @n EVs, so a way back that a
 * request came with can be checked against them per packet (open
 * addressing, at most half full).
 */
static int mrc_path_index_srv6(struct mrc_path *path, u32 n)
{
	u32 slots = roundup_pow_of_two(2 * n), i, k;

	path->srv6_slot = kvcalloc(slots, sizeof(*path->srv6_slot), GFP_KERNEL);
	if (!path->srv6_slot)
		return -ENOMEM;
	path->srv6_mask = slots - 1;
	for (i = 0; i < n; i++) {
		k = mrc_path_srv6_hash(&path->srv6[i]) & path->srv6_mask;
		while (path->srv6_slot[k])
			k = (k + 1) & path->srv6_mask;
		path->srv6_slot[k] = i + 1;
	}
	return 0;
}

/*
 * Whether segment list @way (a request's way back, reversed) is one of
 * @path's own EVs: answers go back only along a way we would send on
 * ourselves, never along whatever segments a forger put in a packet.
 */
bool mrc_path_has_srv6(const struct mrc_path *path, const struct mrc_ev_srv6 *way)
{
	u32 k, i;
	u16 e;

	if (!path || !path->srv6_slot || !way->nr_sids || way->nr_sids > MRC_PROF_SRV6_SIDS)
		return false;
	k = mrc_path_srv6_hash(way);
	for (i = 0; i <= path->srv6_mask; i++) {
		e = path->srv6_slot[(k + i) & path->srv6_mask];
		if (!e)
			return false;
		if (mrc_path_srv6_equal(&path->srv6[e - 1], way))
			return true;
	}
	return false;
}

/*
 * Label an SRV6 path set's @n EVs with the element each crosses first: its
 * first segment, in its plane (MRC_EV_GROUP_CONDEMN). EVs that share one
 * share a group; EVs with no segments have none. An open-addressed table
 * of each group's first EV finds them in one pass.
 */
static int mrc_path_group_srv6(struct mrc_path *path, u32 n)
{
	u32 slots = roundup_pow_of_two(2 * n), i, k, groups = 0;
	const struct mrc_ev_srv6 *s;
	u16 *first;

	first = kvcalloc(slots, sizeof(*first), GFP_KERNEL);
	if (!first)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s = &path->srv6[i];
		if (!s->nr_sids)
			continue;
		k = jhash(s->sid[0], MRC_PROF_SID_BYTES, path->plane[i]) & (slots - 1);
		while (first[k] && (path->plane[first[k] - 1] != path->plane[i] ||
				    memcmp(path->srv6[first[k] - 1].sid[0], s->sid[0],
					   MRC_PROF_SID_BYTES)))
			k = (k + 1) & (slots - 1);
		if (!first[k]) {
			first[k] = i + 1;
			mrc_path_set_set_group(&path->ps, i, ++groups);
		} else {
			mrc_path_set_set_group(&path->ps, i, path->ps.ev[first[k] - 1].group);
		}
	}
	kvfree(first);
	return 0;
}

/*
 * EVs of no plane of their own (profile 0, auto and generated profiles)
 * take the planes attached now in turn: EV i the (i mod n)-th, so a round
 * robin alternates planes. Planes attached later serve path sets made later.
 */
static void mrc_path_spread_planes(struct mrc_dev *mdev, u8 *plane, u32 count)
{
	u8 ids[MRC_PLANES_MAX];
	u32 n, i, k = 0;

	n = mrc_planes_attached(mdev, ids);
	for (i = 0; i < count; i++)
		if (!plane[i])
			plane[i] = n ? ids[k++ % n] : 1;
}

/*
 * Whether no two of @n EVs share a UDP source port, so that an ACK's EV echo
 * (the port) names one: not so in an STEV profile whose EVs differ by flow
 * label only. False too when the scratch map cannot be had.
 */
static bool mrc_path_sports_distinct(const u16 *sport, u32 n)
{
	unsigned long *seen = bitmap_zalloc(U16_MAX + 1, GFP_KERNEL);
	bool distinct = seen;
	u32 i;

	for (i = 0; distinct && i < n; i++)
		distinct = !__test_and_set_bit(sport[i], seen);
	bitmap_free(seen);
	return distinct;
}

/*
 * A path set towards @av of EV profile @profile (MRC_PROFILE_DEFAULT: the
 * device's default), its EVs copied from it.
 */
static struct mrc_path *mrc_path_alloc(struct mrc_dev *mdev, const struct mrc_av *av,
				       u32 profile)
{
	struct mrc_profile_snap snap;
	struct mrc_path *path;
	u32 n, i;
	int err;

	path = kzalloc(sizeof(*path), GFP_KERNEL);
	if (!path)
		return ERR_PTR(-ENOMEM);
	path->mdev = mdev;
	err = mrc_profile_snap(mdev, profile, &snap);
	if (err) {
		kfree(path);
		return ERR_PTR(err);
	}
	path->has_profile = true;
	path->profile = snap.id;
	path->sport = snap.sport;	/* ours now */
	path->srv6 = snap.srv6;
	path->plane = snap.plane;
	path->label = snap.label;
	mrc_path_spread_planes(mdev, path->plane, snap.count);
	n = snap.count;
	path->sport_names_ev = mrc_path_sports_distinct(path->sport, n);
	path->ev = kvcalloc(n, sizeof(*path->ev), GFP_KERNEL);
	path->usable = kcalloc(MRC_PATH_SET_WORDS(n), sizeof(*path->usable), GFP_KERNEL);
	if (!path->ev || !path->usable || (path->srv6 && mrc_path_index_srv6(path, n)) ||
	    mrc_path_set_init(&path->ps, path->ev, path->usable, MRC_PATH_SET_WORDS(n), n,
			      snap.min_active, snap.policy)) {
		kvfree(snap.weight);
		mrc_path_free(path);
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < n; i++)
		mrc_path_set_set_weight(&path->ps, i, snap.weight[i]);
	kvfree(snap.weight);
	if (path->srv6 && mrc_path_group_srv6(path, n)) {
		mrc_path_free(path);
		return ERR_PTR(-ENOMEM);
	}
	/* path sets towards one peer differ in profile: its id tells their probes apart */
	BUILD_BUG_ON(MRC_PROFILES_MAX > MRC_PROBE_TAGS);
	mrc_path_set_set_probe_tag(&path->ps, snap.id);
	mrc_path_set_seed_probe_ids(&path->ps, get_random_u64());
	refcount_set(&path->refs, 1);
	spin_lock_init(&path->lock);
	timer_setup(&path->probe_timer, mrc_path_probe_timer, 0);
	path->av = *av;
	path->family = av->family;
	if (av->family == AF_INET6)
		path->daddr.v6 = av->daddr.v6;
	else
		path->daddr.v4 = av->daddr.v4;
	return path;
}

/* Under paths_lock: the path set of @profile towards @av's daddr. */
static struct mrc_path *mrc_path_find_locked(struct mrc_dev *mdev, const struct mrc_av *av,
					     u32 profile)
{
	struct mrc_path *path;

	list_for_each_entry(path, &mdev->paths, node)
		if (mrc_path_matches(path, av, profile))
			return path;
	return NULL;
}

/* Under paths_lock: a path set towards @av's daddr, of any profile (the first found). */
static struct mrc_path *mrc_path_find_any_locked(struct mrc_dev *mdev, const struct mrc_av *av)
{
	struct mrc_path *path;

	list_for_each_entry(path, &mdev->paths, node)
		if (mrc_path_matches(path, av, path->profile))
			return path;
	return NULL;
}

/*
 * Whether some QP of @mdev has a path set towards @peer's daddr. A way back
 * @way that none of those path sets has as an EV is cleared: the answer is
 * routed plainly.
 */
bool mrc_path_known_peer(struct mrc_dev *mdev, const struct mrc_av *peer,
			 struct mrc_ev_srv6 *way)
{
	struct mrc_path *path;
	bool known = false, own = !way->nr_sids;

	spin_lock_bh(&mdev->paths_lock);
	list_for_each_entry(path, &mdev->paths, node) {
		if (!mrc_path_matches(path, peer, path->profile))
			continue;
		known = true;
		own = own || mrc_path_has_srv6(path, way);
		if (own)
			break;
	}
	spin_unlock_bh(&mdev->paths_lock);
	if (known && !own) {
		way->nr_sids = 0;
		mrc_stats_inc(mdev, MRC_CNT_REPLY_SRH_REFUSED);
	}
	return known;
}

/*
 * The path set of EV profile @profile (MRC_PROFILE_DEFAULT: the device's
 * default) towards @av's destination, shared or new; an ERR_PTR if out of
 * memory or the profile is not online. Process context. A fresh one is
 * made first (it names the profile asked for, the default as it is now if
 * that is the default) and dropped when an existing set of that profile is
 * found.
 */
struct mrc_path *mrc_path_get(struct mrc_dev *mdev, const struct mrc_av *av, u32 profile)
{
	struct mrc_path *path, *fresh;

	fresh = mrc_path_alloc(mdev, av, profile);	/* may sleep: outside the lock */
	if (IS_ERR(fresh))
		return fresh;
	spin_lock_bh(&mdev->paths_lock);
	path = mrc_path_find_locked(mdev, av, fresh->profile);
	if (path) {
		refcount_inc(&path->refs);
		spin_unlock_bh(&mdev->paths_lock);
		mrc_path_free(fresh);
		return path;
	}
	list_add(&fresh->node, &mdev->paths);
	spin_unlock_bh(&mdev->paths_lock);
	return fresh;
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
	/* nothing arms it now but itself, which del_timer_sync() outlasts */
	del_timer_sync(&path->probe_timer);
	mrc_path_free(path);
}

/*
 * The event mask of @path's profile, as the controller sets it now. No
 * lock: the profile outlives its path sets (they are its users), and only
 * the mask's word changes under them.
 */
u32 mrc_path_event_mask(const struct mrc_path *path)
{
	const struct mrc_ev_profile *prof;

	if (!path->has_profile)
		return MRC_PROF_EV_STATES;
	prof = READ_ONCE(path->mdev->profiles.ev[path->profile]);
	return prof ? READ_ONCE(prof->event_mask) : MRC_PROF_EV_STATES;
}

/*
 * An EV changed state: count it, and tell whoever listens. Called without
 * path->lock.
 */
static void mrc_path_report(struct mrc_path *path, const struct mrc_ev_change *change)
{
	struct mrc_dev *mdev = path->mdev;

	if (change->to == MRC_EV_ASSUMED_BAD)
		mrc_stats_inc(mdev, MRC_CNT_EV_MARKED_BAD);
	else if (change->to == MRC_EV_GOOD && change->from == MRC_EV_ASSUMED_BAD)
		mrc_stats_inc(mdev, MRC_CNT_EV_RECOVERED);
	ibdev_dbg(&mdev->ib_dev, "EV %u (port %u) to %pISc: %u -> %u (reason %u)\n",
		  change->ev, path->sport[change->ev],
		  path->family == AF_INET6 ? (void *)&path->daddr.v6 : (void *)&path->daddr.v4,
		  change->from, change->to, change->reason);
	mrc_nl_notify_ev(path, change, ktime_get_ns());
}

/*
 * What EV @ev of @path puts into a packet. No lock: a set's EVs are fixed
 * while it lives.
 */
void mrc_path_ev_tx(const struct mrc_path *path, u32 ev, struct mrc_ev_tx *tx)
{
	tx->sport = path->sport[ev];
	tx->plane = path->plane[ev];
	tx->has_label = !!path->label;
	tx->label = path->label ? path->label[ev] : 0;
	if (path->srv6)
		tx->srv6 = path->srv6[ev];
	else
		tx->srv6.nr_sids = 0;
}

/* Under path->lock: make sure the probe timer runs soon. */
static void mrc_path_kick_probes(struct mrc_path *path)
{
	if (!timer_pending(&path->probe_timer))
		mod_timer(&path->probe_timer, jiffies);
}

/* Send a probe the core asked for; no lock (a set's EVs and ports are fixed). */
static void mrc_path_send_probe(struct mrc_path *path, const struct mrc_ev_probe *probe)
{
	u32 back = probe->reply_ev;
	struct mrc_ev_tx tx;

	mrc_path_ev_tx(path, probe->ev, &tx);
	mrc_probe_send(path->mdev, &path->av, probe->ev, probe->probe_id,
		       back < path->ps.nr_ev ? path->sport[back] : 0, &tx, true);
}

/*
 * The probe timer: the core judges the probes out and names the ones to
 * send; we send them and report what changed, outside the lock.
 */
static void mrc_path_probe_timer(struct timer_list *t)
{
	struct mrc_path *path = from_timer(path, t, probe_timer);
	struct mrc_ev_probe probes[MRC_PATH_TICK_BATCH];
	struct mrc_ev_change changes[MRC_PATH_TICK_BATCH];
	struct mrc_path_tick tick = {
		.probes = probes, .max_probes = ARRAY_SIZE(probes),
		.changes = changes, .max_changes = ARRAY_SIZE(changes),
	};
	u32 i;

	spin_lock_bh(&path->lock);
	mrc_path_set_tick(&path->ps, ktime_get_ns(), &tick);
	if (mrc_path_set_needs_tick(&path->ps))
		mod_timer(&path->probe_timer, jiffies + MRC_PATH_TICK_JIFFIES);
	spin_unlock_bh(&path->lock);

	for (i = 0; i < tick.nr_probes; i++)
		mrc_path_send_probe(path, &probes[i]);
	for (i = 0; i < tick.nr_changes; i++)
		mrc_path_report(path, &changes[i]);
}

/* The answer to probe @probe_id on @ev came from @peer (its daddr). */
void mrc_path_probe_answered(struct mrc_dev *mdev, const struct mrc_av *peer, u32 ev,
			     u32 probe_id)
{
	struct mrc_ev_change change;
	struct mrc_path *path;
	bool changed, found = false;

	/*
	 * Every path set towards @peer (one per profile) is offered the
	 * answer; the one whose probe @probe_id is out on @ev takes it.
	 * No reference needed: paths_lock keeps the path sets alive.
	 */
	spin_lock_bh(&mdev->paths_lock);
	list_for_each_entry(path, &mdev->paths, node) {
		if (!mrc_path_matches(path, peer, path->profile))
			continue;
		found = true;
		spin_lock(&path->lock);
		changed = mrc_path_set_probe_answered(&path->ps, ev, probe_id, ktime_get_ns(),
						      &change);
		spin_unlock(&path->lock);
		if (changed)
			mrc_path_report(path, &change);
	}
	spin_unlock_bh(&mdev->paths_lock);
	mrc_stats_inc(mdev, found ? MRC_CNT_PROBE_REPLIES : MRC_CNT_DROP_UNKNOWN_QP);
}

/* When @path last heard from its peer (mrc_path_set_heard_ns()); 0: never. */
u64 mrc_path_heard_ns(struct mrc_path *path)
{
	u64 heard;

	if (!path)
		return 0;
	spin_lock_bh(&path->lock);
	heard = mrc_path_set_heard_ns(&path->ps);
	spin_unlock_bh(&path->lock);
	return heard;
}

/*
 * The EV of a probe reply to @peer: a usable EV of our own path set
 * towards it when there is one (its health is what we know of that
 * direction), else one of profile 0's ports. @salt spreads copies.
 */
void mrc_path_reply_ev(struct mrc_dev *mdev, const struct mrc_av *peer, u32 salt,
		       struct mrc_ev_tx *tx)
{
	struct mrc_ev_cursor cur = { .next = salt };
	struct mrc_path *path;
	u32 ev;

	tx->sport = MRC_DEFAULT_PROFILE_PORT + salt % MRC_DEFAULT_PROFILE_EVS;
	tx->plane = 0;
	tx->has_label = false;
	tx->srv6.nr_sids = 0;
	spin_lock_bh(&mdev->paths_lock);
	path = mrc_path_find_any_locked(mdev, peer);
	if (path) {
		spin_lock(&path->lock);
		if (mrc_path_set_pick(&path->ps, &cur, MRC_PROFILE_EV_MAX, &ev) >= 0)
			mrc_path_ev_tx(path, ev, tx);
		spin_unlock(&path->lock);
	}
	spin_unlock_bh(&mdev->paths_lock);
}

/*
 * The EV for a QP's next packet (see mrc_path_set_pick()); for one that asks
 * for an ACK (a @resend among them), one that round trips or is proven since
 * @proven_since when that is not 0 (mrc_path_set_pick_proven()). @account: a data
 * packet whose acknowledgement will be reported, so it takes a sequence
 * number on its EV. With every EV denied there is no path: the packet goes
 * out on EV 0 and is lost, and the QP's retry rules take their course.
 */
void mrc_path_pick(struct mrc_path *path, struct mrc_ev_cursor *cur, u32 avoid,
		   u64 proven_since, bool resend, bool account, struct mrc_path_pick *pick)
{
	u32 ev = 0;
	int rc;

	if (!path) {	/* no AV yet: nothing is sent before RTR */
		pick->ev = 0;
		pick->seq = 0;
		pick->usable = true;
		pick->tx.sport = MRC_DEFAULT_PROFILE_PORT;
		pick->tx.plane = 0;
		pick->tx.has_label = false;
		pick->tx.srv6.nr_sids = 0;
		return;
	}
	spin_lock_bh(&path->lock);
	if (proven_since)
		rc = mrc_path_set_pick_proven(&path->ps, cur, avoid, proven_since, resend, &ev);
	else
		rc = mrc_path_set_pick(&path->ps, cur, avoid, &ev);
	if (rc < 0)
		ev = 0;
	pick->ev = ev;
	pick->usable = !rc;
	pick->seq = account ? mrc_path_set_sent(&path->ps, ev) : 0;
	spin_unlock_bh(&path->lock);
	mrc_path_ev_tx(path, ev, &pick->tx);
}

/*
 * Whether @ev carries data now. Read without the lock: a stale answer only
 * moves a resend by one requester pass.
 */
bool mrc_path_ev_usable(const struct mrc_path *path, u32 ev)
{
	if (!path || ev >= path->ps.nr_ev)
		return true;
	return READ_ONCE(path->usable[ev / 64]) & BIT_ULL(ev % 64);
}

/*
 * How @ev stands for judging a copy it carried (mrc_tx_rec_judge()). Read
 * without the lock, like mrc_path_ev_usable().
 */
enum mrc_ev_standing mrc_path_ev_standing(const struct mrc_path *path, u32 ev)
{
	const struct mrc_ev_health *h;

	if (!path || ev >= path->ps.nr_ev)
		return MRC_EV_STANDS;
	h = &path->ps.ev[ev];
	return mrc_ev_standing_of(READ_ONCE(h->state), READ_ONCE(h->flags),
				  READ_ONCE(h->probes_missed));
}

/* Transmission @seq on @ev, sent at @sent_ns, was acknowledged at @now_ns. */
void mrc_path_account_acked(struct mrc_path *path, u32 ev, u32 seq, u64 sent_ns, u64 now_ns)
{
	if (!path || ev >= path->ps.nr_ev)	/* recorded on a path set since swapped */
		return;
	spin_lock_bh(&path->lock);
	mrc_path_set_acked(&path->ps, ev, seq, sent_ns, now_ns);
	spin_unlock_bh(&path->lock);
}

/* A data packet on @ev took @rtt_ns to be acknowledged (adaptive spraying). */
void mrc_path_rtt_sample(struct mrc_path *path, u32 ev, u32 rtt_ns)
{
	if (!path || ev >= path->ps.nr_ev || path->ps.policy != MRC_SPRAY_ADAPTIVE)
		return;
	spin_lock_bh(&path->lock);
	mrc_path_set_rtt_sample(&path->ps, ev, rtt_ns);
	spin_unlock_bh(&path->lock);
}

/*
 * The EV of this set that leaves on UDP source port @sport, or nr_ev when
 * none does (a profile since swapped) or the port names no single EV
 * (sport_names_ev). Profiles number their ports in order, so the first
 * guess is right but for a controller's own list, which costs a search of
 * at most MRC_PROFILE_EV_MAX ports.
 */
static u32 mrc_path_ev_of_sport_locked(const struct mrc_path *path, u32 sport)
{
	u32 ev = sport - path->sport[0];

	if (!path->sport_names_ev)
		return path->ps.nr_ev;
	if (ev < path->ps.nr_ev && path->sport[ev] == sport)
		return ev;
	for (ev = 0; ev < path->ps.nr_ev; ev++)
		if (path->sport[ev] == sport)
			break;
	return ev;
}

/*
 * An ACK that validated came back on UDP source port @sport (its EV echo):
 * that EV's way back works (mrc_path_set_returned()). With @ce (CE_ECHO)
 * the packet that left on it arrived congestion-marked: the echo names the
 * marked packet itself, whatever reordering put it among the ACK's PSNs. A
 * port not of this set counts for nothing.
 */
void mrc_path_ack_came_back(struct mrc_path *path, u32 sport, bool ce)
{
	u32 ev;

	if (!path)
		return;
	spin_lock_bh(&path->lock);
	ev = mrc_path_ev_of_sport_locked(path, sport);
	if (ev < path->ps.nr_ev) {
		mrc_path_set_returned(&path->ps, ev, ktime_get_ns());
		if (ce)
			mrc_path_set_ce_mark(&path->ps, ev);
	}
	spin_unlock_bh(&path->lock);
}

/*
 * @ev just turned suspect, under the set's lock: its first probe goes now,
 * not at the tick (see mrc_path_set_probe_suspect()). Returns whether
 * @probe is to be sent, by mrc_path_suspected() once the lock is dropped.
 */
static bool mrc_path_suspect_locked(struct mrc_path *path, u32 ev, struct mrc_ev_probe *probe)
{
	bool probe_now = mrc_path_set_probe_suspect(&path->ps, ev, ktime_get_ns(), probe);

	mrc_path_kick_probes(path);
	return probe_now;
}

/* Unlocked, after mrc_path_suspect_locked(): its probe, and the count. */
static void mrc_path_suspected(struct mrc_path *path, bool probe_now,
			       const struct mrc_ev_probe *probe)
{
	if (probe_now)
		mrc_path_send_probe(path, probe);
	mrc_stats_inc(path->mdev, MRC_CNT_EV_SUSPECTED);
}

/*
 * Whether transmission @seq on @ev, sent at @sent_ns and unacknowledged,
 * counts as lost: by the time rule (@by_time, judged by the caller) or the
 * same-EV gap rule. An @account-ed transmission's loss is recorded against
 * its EV; @rtt_ns is the QP's lowest round trip (mrc_path_set_lost()).
 */
bool mrc_path_lost(struct mrc_path *path, u32 ev, u32 seq, u64 sent_ns, bool by_time,
		   bool account, u32 rtt_ns)
{
	bool lost, suspect = false, probe_now = false;
	struct mrc_ev_probe probe;

	if (!path || ev >= path->ps.nr_ev)	/* recorded on a path set since swapped */
		return by_time;
	spin_lock_bh(&path->lock);
	lost = by_time || mrc_path_set_gap_lost(&path->ps, ev, seq);
	if (lost && account)
		suspect = mrc_path_set_lost(&path->ps, ev, seq, sent_ns, rtt_ns);
	if (suspect)
		probe_now = mrc_path_suspect_locked(path, ev, &probe);
	spin_unlock_bh(&path->lock);
	if (suspect)
		mrc_path_suspected(path, probe_now, &probe);
	return lost;
}

/*
 * READ response sent on @ev at @sent_ns was asked for again: a strike
 * against the EV's forward way, the responder's only news of it
 * (mrc_path_set_response_lost()); strikes more than @window_ns apart
 * start over. An EV turned suspect is probed at once, as on a loss.
 */
void mrc_path_response_lost(struct mrc_path *path, u32 ev, u64 sent_ns, u64 window_ns)
{
	bool suspect, probe_now = false;
	struct mrc_ev_probe probe;

	if (!path || ev >= path->ps.nr_ev)	/* sent on a path set since swapped */
		return;
	spin_lock_bh(&path->lock);
	suspect = mrc_path_set_response_lost(&path->ps, ev, sent_ns, ktime_get_ns(), window_ns);
	if (suspect)
		probe_now = mrc_path_suspect_locked(path, ev, &probe);
	spin_unlock_bh(&path->lock);
	if (suspect)
		mrc_path_suspected(path, probe_now, &probe);
}
