// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV path sets: selection over GOOD EVs, loss bookkeeping per EV, and the
 * GOOD <-> ASSUMED_BAD <-> DENIED state machine (see mrc_path_set.h).
 */
#include "mrc_path_set.h"

int mrc_path_set_init(struct mrc_path_set *ps, struct mrc_ev_health *ev, uint64_t *usable,
		      uint32_t nwords, uint32_t nr_ev, uint32_t min_active, uint8_t policy)
{
	uint32_t i;

	if (!ps || !ev || !usable || !nr_ev || nr_ev > MRC_PROFILE_EV_MAX ||
	    nwords < MRC_PATH_SET_WORDS(nr_ev) || min_active > nr_ev ||
	    policy > MRC_SPRAY_ADAPTIVE)
		return -MRC_EINVAL;

	memset(ps, 0, sizeof(*ps));
	memset(ev, 0, nr_ev * sizeof(*ev));
	memset(usable, 0, nwords * sizeof(*usable));
	for (i = 0; i < nr_ev; i++) {
		ev[i].state = MRC_EV_GOOD;
		ev[i].weight = 1;
		usable[i / 64U] |= 1ULL << (i % 64U);
	}
	ps->ev = ev;
	ps->usable = usable;
	ps->nr_ev = nr_ev;
	ps->nr_good = nr_ev;
	ps->nr_usable = nr_ev;
	ps->min_active = min_active;
	ps->policy = policy;
	return 0;
}

/* Keep the usable bitmap and its count in step with @ev's state and flags. */
static void mrc_ev_update_usable(struct mrc_path_set *ps, uint32_t ev)
{
	const struct mrc_ev_health *h = &ps->ev[ev];
	bool want = h->state == MRC_EV_GOOD && !(h->flags & MRC_EV_F_SUSPECT);
	uint64_t bit = 1ULL << (ev % 64U);
	bool have = ps->usable[ev / 64U] & bit;

	if (want == have)
		return;
	if (want) {
		ps->usable[ev / 64U] |= bit;
		ps->nr_usable++;
	} else {
		ps->usable[ev / 64U] &= ~bit;
		ps->nr_usable--;
	}
}

static void mrc_ev_clear_suspect(struct mrc_path_set *ps, uint32_t ev)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->flags &= (uint8_t)~(MRC_EV_F_SUSPECT | MRC_EV_F_PROBING | MRC_EV_F_CONDEMNED);
	h->probes_missed = 0;
	ps->nr_suspect--;
	mrc_ev_update_usable(ps, ev);
	/* a false alarm: one packet lost by chance (MRC_EV_VET_PER_TICK) */
	if (!ps->nr_suspect && !ps->alarm_bad)
		ps->alarm_ns = 0;
}

/*
 * @ev, condemned with its group, was heard of (a send acknowledged, a probe
 * answered): the element lives, and every EV condemned with it carries data
 * again.
 */
static void mrc_group_absolve(struct mrc_path_set *ps, uint32_t ev)
{
	uint16_t group = ps->ev[ev].group;
	uint32_t i;

	for (i = 0; i < ps->nr_ev; i++)
		if (ps->ev[i].group == group && (ps->ev[i].flags & MRC_EV_F_CONDEMNED) &&
		    (ps->ev[i].flags & MRC_EV_F_SUSPECT))
			mrc_ev_clear_suspect(ps, i);
}

/* MRC_SPRAY_WEIGHTED: @ev carries @weight (1 ... 255) packets per turn. */
int mrc_path_set_set_weight(struct mrc_path_set *ps, uint32_t ev, uint32_t weight)
{
	if (ev >= ps->nr_ev || !weight || weight > 255U)
		return -MRC_EINVAL;
	ps->ev[ev].weight = (uint8_t)weight;
	return 0;
}

/* @ev shares a fabric element with the other EVs of @group (MRC_EV_GROUP_CONDEMN); 0: none. */
int mrc_path_set_set_group(struct mrc_path_set *ps, uint32_t ev, uint32_t group)
{
	if (ev >= ps->nr_ev || group > 0xffffU)
		return -MRC_EINVAL;
	ps->ev[ev].group = (uint16_t)group;
	return 0;
}

/* The tag of @ps's probe ids (see MRC_PROBE_TAG_SHIFT), below MRC_PROBE_TAGS. */
int mrc_path_set_set_probe_tag(struct mrc_path_set *ps, uint32_t tag)
{
	if (tag >= MRC_PROBE_TAGS)
		return -MRC_EINVAL;
	ps->probe_tag = tag;
	return 0;
}

/* Where @ps's probe ids start: a secret of the caller's (the kernel's random bytes). */
void mrc_path_set_seed_probe_ids(struct mrc_path_set *ps, uint64_t secret)
{
	ps->probe_rng = secret;
}

/*
 * The first usable EV at or after @from, wrapping, that is also set in
 * bitmap @also if given; nr_ev when there is none.
 */
static uint32_t mrc_ev_find_in(const struct mrc_path_set *ps, uint32_t from, const uint64_t *also)
{
	uint32_t nwords = MRC_PATH_SET_WORDS(ps->nr_ev);
	uint32_t w = from / 64U, i;
	uint64_t bits = ps->usable[w] & (also ? also[w] : ~0ULL) & (~0ULL << (from % 64U));

	for (i = 0; i <= nwords; i++) {
		if (bits)
			return w * 64U + mrc_ctz64(bits);
		w = w + 1U == nwords ? 0 : w + 1U;
		bits = ps->usable[w] & (also ? also[w] : ~0ULL);
	}
	return ps->nr_ev;
}

/* The first usable EV at or after @from, wrapping; there is one (nr_usable > 0). */
static uint32_t mrc_ev_find_good(const struct mrc_path_set *ps, uint32_t from)
{
	uint32_t e = mrc_ev_find_in(ps, from, NULL);

	return e < ps->nr_ev ? e : 0;	/* 0 not reached while nr_usable > 0 */
}

/* A cursor may start anywhere (e.g. at the QPN, so QPs do not walk in step). */
static uint32_t mrc_ev_wrap(const struct mrc_path_set *ps, uint32_t ev)
{
	return ev < ps->nr_ev ? ev : ev % ps->nr_ev;
}

/*
 * MRC_SPRAY_ADAPTIVE: from usable EV @e on, the first not resting in the
 * cursor's round; one walk around at most (then @e: all rest, none is
 * better than another).
 */
static uint32_t mrc_ev_find_awake(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur,
				  uint32_t e)
{
	uint32_t first = e, round = cur->round, next, i;

	for (i = 0; i < ps->nr_usable; i++) {
		if (!ps->ev[e].rest || !(round % (ps->ev[e].rest + 1U))) {
			cur->round = round;
			return e;
		}
		next = mrc_ev_find_good(ps, mrc_ev_wrap(ps, e + 1U));
		if (next <= e)
			round++;
		e = next;
	}
	return first;
}

/* The walk over the usable EVs by the set's policy (see mrc_path_set_pick()). */
static int mrc_ev_pick_spray(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur,
			     uint32_t avoid, uint32_t *ev)
{
	bool weighted = ps->policy == MRC_SPRAY_WEIGHTED;
	uint32_t e, i, pass, from;

	if (ps->nr_usable) {
		if (weighted && cur->left && mrc_path_set_usable(ps, cur->next) &&
		    cur->next != avoid) {
			*ev = cur->next;
			if (!--cur->left)
				cur->next++;
			return 0;
		}
		from = mrc_ev_wrap(ps, cur->next);
		e = mrc_ev_find_good(ps, from);
		if (ps->policy == MRC_SPRAY_ADAPTIVE) {
			if (cur->next >= ps->nr_ev || e < from)
				cur->round++;
			e = mrc_ev_find_awake(ps, cur, e);
		}
		if (e == avoid && ps->nr_usable > 1)
			e = mrc_ev_find_good(ps, mrc_ev_wrap(ps, e + 1U));
		*ev = e;
		if (weighted && ps->ev[e].weight > 1) {
			cur->next = e;
			cur->left = ps->ev[e].weight - 1U;
		} else {
			cur->next = e + 1U;
			cur->left = 0;
		}
		return 0;
	}

	/*
	 * Nothing usable: every EV not denied in turn, suspect and ASSUMED_BAD
	 * alike, @avoid only when nothing else is left. Verdicts lag a fabric
	 * that changes fast (an ECMP fabric rehashes on every link change), so
	 * some of them work again; sending everything down the one EV still
	 * GOOD would bet the QP on a path that is suspect already.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ps->nr_ev; i++) {
			e = (mrc_ev_wrap(ps, cur->next) + i) % ps->nr_ev;
			if (ps->ev[e].state == MRC_EV_DENIED || (e == avoid && !pass))
				continue;
			*ev = e;
			cur->next = e + 1U;
			cur->left = 0;
			return 1;
		}
	}
	return -MRC_ENOENT;
}

static bool mrc_ev_is_vetted(const struct mrc_path_set *ps, uint32_t ev)
{
	return ps->vetted[ev / 64U] & (1ULL << (ev % 64U));
}

static void mrc_ev_vet(struct mrc_path_set *ps, uint32_t ev)
{
	ps->vetted[ev / 64U] |= 1ULL << (ev % 64U);
}

/*
 * Something that left on @ev at @sent_ns got through (a send acknowledged, a
 * probe answered): during the alarm it vets @ev if it left after the lost
 * one -- strictly: one sent in the same instant was queued ahead of the lost
 * one, and a probe of an earlier alarm proves nothing of this one.
 */
static void mrc_ev_vet_by(struct mrc_path_set *ps, uint32_t ev, uint64_t sent_ns)
{
	if (ps->alarm_ns && sent_ns > ps->alarm_ns)
		mrc_ev_vet(ps, ev);
}

/*
 * During the alarm: the first EV at or after @from, wrapping, usable and
 * vetted (MRC_EV_VET_PER_TICK); @avoid only when it is the only one. False
 * when there is none.
 */
static bool mrc_ev_find_vetted(const struct mrc_path_set *ps, uint32_t from, uint32_t avoid,
			       uint32_t *ev)
{
	uint32_t e = mrc_ev_find_in(ps, from, ps->vetted), next;

	if (e == ps->nr_ev)
		return false;
	if (e == avoid) {
		next = mrc_ev_find_in(ps, mrc_ev_wrap(ps, e + 1U), ps->vetted);
		if (next != avoid)
			e = next;
	}
	*ev = e;
	return true;
}

/*
 * The EV for the next packet of a QP walking the set with @cur: the next
 * usable one by the set's policy, or during the alarm a vetted one
 * (MRC_EV_VET_PER_TICK) while there is one (else the walk: with nothing
 * vetted, a guess is all there is).
 *
 * @avoid is an EV not to take when another will do (the one a lost copy
 * took); pass MRC_PROFILE_EV_MAX for none.
 *
 * Return: 0 with a usable EV in *@ev; 1 with a suspect or ASSUMED_BAD one
 * when none is usable (the QP keeps retrying by its RC rules, and such a
 * packet is as good as a probe); -MRC_ENOENT when every EV is denied.
 */
int mrc_path_set_pick(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur, uint32_t avoid,
		      uint32_t *ev)
{
	if (ps->alarm_ns && ps->nr_usable &&
	    mrc_ev_find_vetted(ps, mrc_ev_wrap(ps, cur->next), avoid, ev)) {
		cur->next = *ev + 1U;
		cur->left = 0;
		return 0;
	}
	return mrc_ev_pick_spray(ps, cur, avoid, ev);
}

/*
 * Whether @ev may carry a packet that asks for an ACK: both ways work since
 * @since_ns, proven and returned. An ACK alone proves only the way back: the
 * second ACK for a duplicate rides an EV the responder chose.
 */
static bool mrc_ev_round_trips(const struct mrc_path_set *ps, uint32_t ev, uint32_t avoid,
			       uint64_t since_ns)
{
	const struct mrc_ev_health *h = &ps->ev[ev];

	return ev != avoid && h->returned_ns && h->returned_ns >= since_ns && h->proven_ns &&
	       h->proven_ns >= since_ns && mrc_path_set_usable(ps, ev) &&
	       (!ps->alarm_ns || mrc_ev_is_vetted(ps, ev));
}

/*
 * Like mrc_path_set_pick(), for a packet that asks for an ACK (a resend
 * among them; MRC_PICK_PROVEN_SCAN): among the next MRC_PICK_PROVEN_SCAN
 * usable EVs from the cursor (@avoid excepted), the first that round trips
 * since @since_ns (proven and returned); else the one the latest ACK came
 * back on, if it does; else the first of them proven since then; else the
 * one the latest ACK came back on, however long ago; else whatever
 * mrc_path_set_pick() gives. A packet that is no @resend takes the plain
 * pick while no EV of the set is suspect or ASSUMED_BAD: then every way
 * back works as far as anyone knows, and what matters is that the spray
 * stays even (a few EVs that happened to bring ACKs back would otherwise
 * carry every sixteenth packet): the set's policy then walks @answer, not
 * @next, so that the packets that ask for an ACK -- every message's last
 * among them -- do not fall on the same EVs of every round of the data's
 * walk (with messages of 64 packets over EVs named spine by spine, every
 * ACK the responder was asked for would come back over one spine). The
 * scan starts at and moves the cursor's @answer, not its @next.
 */
int mrc_path_set_pick_proven(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur,
			     uint32_t avoid, uint64_t since_ns, bool resend, uint32_t *ev)
{
	uint32_t e, i, scan, proven = ps->nr_ev;
	struct mrc_ev_cursor walk;
	int rc;

	if (!ps->nr_usable)
		return mrc_path_set_pick(ps, cur, avoid, ev);
	if (!resend && !ps->nr_suspect && !ps->nr_bad && !ps->alarm_ns) {
		walk = *cur;
		walk.next = cur->answer;
		walk.left = 0;
		rc = mrc_ev_pick_spray(ps, &walk, avoid, ev);
		cur->answer = walk.next;
		return rc;
	}
	scan = ps->nr_usable < MRC_PICK_PROVEN_SCAN ? ps->nr_usable : MRC_PICK_PROVEN_SCAN;
	e = mrc_ev_find_good(ps, mrc_ev_wrap(ps, cur->answer));
	for (i = 0; i < scan; i++) {
		if (mrc_ev_round_trips(ps, e, avoid, since_ns))
			goto take;
		if (proven == ps->nr_ev && e != avoid && ps->ev[e].proven_ns &&
		    ps->ev[e].proven_ns >= since_ns && (!ps->alarm_ns || mrc_ev_is_vetted(ps, e)))
			proven = e;
		e = mrc_ev_find_good(ps, mrc_ev_wrap(ps, e + 1U));
	}
	if (mrc_ev_round_trips(ps, ps->returned_ev, avoid, since_ns)) {
		*ev = ps->returned_ev;
		return 0;
	}
	if (proven != ps->nr_ev) {
		e = proven;
		goto take;
	}
	/* the way back that worked last beats a guess, however long ago */
	if (mrc_ev_round_trips(ps, ps->returned_ev, avoid, 1)) {
		*ev = ps->returned_ev;
		return 0;
	}
	return mrc_path_set_pick(ps, cur, avoid, ev);
take:
	*ev = e;
	cur->answer = e + 1U;
	return 0;
}

/*
 * An ACK came back on @ev at @now_ns (its EV echo): the way back of @ev
 * works too, and a packet that asks for an ACK may take it.
 */
void mrc_path_set_returned(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns)
{
	if (ev >= ps->nr_ev)
		return;
	ps->ev[ev].returned_ns = now_ns;
	ps->returned_ev = ev;
	if (now_ns > ps->heard_ns)
		ps->heard_ns = now_ns;
}

/* A packet goes out on @ev: returns its sequence number on that EV. */
uint32_t mrc_path_set_sent(struct mrc_path_set *ps, uint32_t ev)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->packets++;
	return h->tx_seq++;
}

/*
 * A data packet on @ev came back after @rtt_ns (its ACK): the EV's smoothed
 * RTT, the set's floor and, from both and the marks, how much the EV rests.
 */
void mrc_path_set_rtt_sample(struct mrc_path_set *ps, uint32_t ev, uint32_t rtt_ns)
{
	struct mrc_ev_health *h;
	uint32_t quantum, rest, step;

	if (ev >= ps->nr_ev || !rtt_ns)
		return;
	h = &ps->ev[ev];
	if (h->ce_rest)
		h->ce_rest--;
	h->srtt_ns = h->srtt_ns ? h->srtt_ns - (h->srtt_ns >> 3) + (rtt_ns >> 3) : rtt_ns;
	/*
	 * The floor follows the lowest sample down at once and up slowly,
	 * by at most 1/64 of itself per sample: a route that got longer is
	 * learnt, one wild sample moves nothing.
	 */
	if (!ps->rtt_floor_ns || rtt_ns < ps->rtt_floor_ns) {
		ps->rtt_floor_ns = rtt_ns;
	} else {
		step = (rtt_ns - ps->rtt_floor_ns) >> 12;
		if (step > (ps->rtt_floor_ns >> 6) + 1U)
			step = (ps->rtt_floor_ns >> 6) + 1U;
		ps->rtt_floor_ns += step;
	}
	quantum = ps->rtt_floor_ns / 2U;
	if (quantum < MRC_SPRAY_QUANTUM_MIN_NS)
		quantum = MRC_SPRAY_QUANTUM_MIN_NS;
	rest = h->srtt_ns > ps->rtt_floor_ns ? (h->srtt_ns - ps->rtt_floor_ns) / quantum : 0;
	if (rest < h->ce_rest)
		rest = h->ce_rest;
	h->rest = (uint8_t)(rest < MRC_SPRAY_MAX_REST ? rest : MRC_SPRAY_MAX_REST);
}

/*
 * A packet on @ev arrived congestion-marked (the peer's ACK echoed it):
 * counted, and under MRC_SPRAY_ADAPTIVE the EV rests.
 */
void mrc_path_set_ce_mark(struct mrc_path_set *ps, uint32_t ev)
{
	struct mrc_ev_health *h;

	if (ev >= ps->nr_ev)
		return;
	h = &ps->ev[ev];
	h->ce_marks++;
	if (ps->policy != MRC_SPRAY_ADAPTIVE)
		return;
	h->ce_rest = MRC_SPRAY_CE_REST;
	if (h->rest < h->ce_rest)
		h->rest = h->ce_rest;
}

/* The transmission @seq on @ev, sent at @sent_ns, was acknowledged at @now_ns. */
void mrc_path_set_acked(struct mrc_path_set *ps, uint32_t ev, uint32_t seq, uint64_t sent_ns,
			uint64_t now_ns)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->acked_ns = now_ns;
	if (now_ns > ps->heard_ns)
		ps->heard_ns = now_ns;
	if (sent_ns > h->proven_ns)
		h->proven_ns = sent_ns;
	mrc_ev_vet_by(ps, ev, sent_ns);

	if ((int32_t)(seq + 1U - h->acked_seq) > 0)
		h->acked_seq = seq + 1U;
	h->acked++;
	/* a later send got through: the path lives, whatever the probe says */
	if ((h->flags & MRC_EV_F_SUSPECT) && (int32_t)(seq - h->suspect_seq) > 0) {
		if (h->flags & MRC_EV_F_CONDEMNED)
			mrc_group_absolve(ps, ev);
		else
			mrc_ev_clear_suspect(ps, ev);
	}
}

/*
 * Whether transmission @seq on @ev, still unacknowledged, is lost because
 * MRC_EV_REORDER or more later transmissions on the same EV were
 * acknowledged: one path delivers in order, give or take a little.
 */
bool mrc_path_set_gap_lost(const struct mrc_path_set *ps, uint32_t ev, uint32_t seq)
{
	const struct mrc_ev_health *h = &ps->ev[ev];

	return h->acked_seq && (int32_t)(h->acked_seq - (seq + 1U)) >= (int32_t)MRC_EV_REORDER;
}

static void mrc_ev_set_state(struct mrc_path_set *ps, uint32_t ev, uint8_t to, uint8_t reason,
			     uint64_t now_ns, struct mrc_ev_change *change)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	/* before the suspicion goes: the last suspect going bad is no false alarm */
	if (to == MRC_EV_ASSUMED_BAD && ps->alarm_ns)
		ps->alarm_bad++;
	if (h->flags & MRC_EV_F_SUSPECT)
		mrc_ev_clear_suspect(ps, ev);
	change->ev = ev;
	change->from = h->state;
	change->to = to;
	change->reason = reason;
	ps->nr_good -= h->state == MRC_EV_GOOD;
	ps->nr_bad -= h->state == MRC_EV_ASSUMED_BAD;
	ps->nr_good += to == MRC_EV_GOOD;
	ps->nr_bad += to == MRC_EV_ASSUMED_BAD;
	h->state = to;
	h->reason = reason;
	h->changed_ns = now_ns;
	h->flags = 0;
	h->probes_ok = 0;
	h->probes_missed = 0;
	mrc_ev_update_usable(ps, ev);
}

/*
 * The alarm starts (MRC_EV_VET_PER_TICK): EVs proven by a send after
 * @sent_ns, the lost one's, are vetted already (mrc_ev_vet_by()).
 */
static void mrc_alarm_start(struct mrc_path_set *ps, uint64_t sent_ns)
{
	uint32_t ev;

	ps->alarm_ns = sent_ns ? sent_ns : 1U;
	ps->alarm_bad = 0;
	memset(ps->vetted, 0, sizeof(ps->vetted));
	for (ev = 0; ev < ps->nr_ev; ev++)
		mrc_ev_vet_by(ps, ev, ps->ev[ev].proven_ns);
}

/* GOOD @ev becomes suspect: no data until a probe or a later send's ACK clears it. */
static void mrc_ev_make_suspect(struct mrc_path_set *ps, uint32_t ev)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->flags |= MRC_EV_F_SUSPECT;
	h->flags &= (uint8_t)~(MRC_EV_F_PROBING | MRC_EV_F_VETTING);
	h->suspect_seq = h->tx_seq - 1U;	/* nothing sent so far proves anything */
	h->probes_missed = 0;
	ps->nr_suspect++;
	mrc_ev_update_usable(ps, ev);
}

/*
 * Whether some EV of @group was heard of within the last group_quiet_ns: a
 * send on it acknowledged, or an ACK back on it. A queue that grew on an
 * element delays its packets past the reordering window, and its EVs go
 * suspect together, but what it carried before keeps being acknowledged;
 * a dead one is silent.
 */
static bool mrc_group_heard(const struct mrc_path_set *ps, uint16_t group)
{
	const struct mrc_ev_health *h;
	uint32_t i;

	for (i = 0; i < ps->nr_ev; i++) {
		h = &ps->ev[i];
		if (h->group == group && (h->acked_ns + ps->group_quiet_ns > ps->heard_ns ||
					  h->returned_ns + ps->group_quiet_ns > ps->heard_ns))
			return true;
	}
	return false;
}

/*
 * @ev just became suspect: is its group's element condemned now
 * (MRC_EV_GROUP_CONDEMN)? A lone suspect, the common case, costs nothing;
 * otherwise each pass is bounded by the set's size (the caller holds the
 * set's lock), and an EV becomes suspect at most once per verdict on it.
 */
static void mrc_group_judge(struct mrc_path_set *ps, uint32_t ev)
{
	uint16_t group = ps->ev[ev].group;
	uint32_t i, suspects = 0, others = 0;
	struct mrc_ev_health *h;

	if (!group || !ps->group_quiet_ns || ps->nr_suspect < MRC_EV_GROUP_CONDEMN)
		return;
	for (i = 0; i < ps->nr_ev && (suspects < MRC_EV_GROUP_CONDEMN || !others); i++) {
		h = &ps->ev[i];
		if (h->group != group)
			others += mrc_path_set_usable(ps, i);
		else if (h->state == MRC_EV_GOOD && (h->flags & MRC_EV_F_SUSPECT))
			suspects++;
	}
	/* with nothing else to carry the data, the element is all there is */
	if (suspects < MRC_EV_GROUP_CONDEMN || !others || mrc_group_heard(ps, group))
		return;
	for (i = 0; i < ps->nr_ev; i++) {
		h = &ps->ev[i];
		if (h->group != group || h->state != MRC_EV_GOOD)
			continue;
		if (!(h->flags & MRC_EV_F_SUSPECT)) {
			mrc_ev_make_suspect(ps, i);
			/* any send acknowledged from now on proves the element lives */
			h->suspect_seq = h->acked_seq - 1U;
		}
		h->flags |= MRC_EV_F_CONDEMNED;
		if (!h->probes_missed)
			h->probes_missed = 1;
	}
}

/* GOOD @ev lost what it sent at @sent_ns: suspect, the set alarmed, its group judged. */
static void mrc_ev_suspect_lost(struct mrc_path_set *ps, uint32_t ev, uint64_t sent_ns)
{
	mrc_ev_make_suspect(ps, ev);
	if (!ps->alarm_ns)
		mrc_alarm_start(ps, sent_ns);
	mrc_group_judge(ps, ev);
}

/*
 * Transmission @seq on @ev, sent at @sent_ns, was found lost. A GOOD EV
 * becomes suspect: it carries no more data until a probe (or an
 * acknowledgement of something sent after @seq) says the path lives, and
 * the set is alarmed from @sent_ns on (MRC_EV_VET_PER_TICK). Returns true
 * when the EV just became suspect: the caller sends its first probe now
 * (mrc_path_set_probe_suspect()) and lets mrc_path_set_tick() run soon to
 * send the control that judges it. @rtt_ns, the caller's lowest data round
 * trip (0: none known), is how long a group must have been silent to be
 * condemned (MRC_EV_GROUP_CONDEMN).
 */
bool mrc_path_set_lost(struct mrc_path_set *ps, uint32_t ev, uint32_t seq, uint64_t sent_ns,
		       uint32_t rtt_ns)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	if (rtt_ns)
		ps->group_quiet_ns = rtt_ns;
	h->losses++;
	if (h->state != MRC_EV_GOOD || (h->flags & MRC_EV_F_SUSPECT))
		return false;
	/* acknowledged after the lost one already: the path delivers */
	if (h->acked_seq && (int32_t)(h->acked_seq - (seq + 1U)) > 0)
		return false;
	mrc_ev_suspect_lost(ps, ev, sent_ns);
	return true;
}

/*
 * A READ response sent on @ev at @sent_ns was asked for again at @now_ns.
 * The MRC_EV_RESPONSE_STRIKES-th such request in a row, each within
 * @window_ns of the one before, makes a GOOD EV suspect, as a loss does
 * (mrc_path_set_lost()), unless a send on it sent later has been proven.
 * Returns true when the EV just became suspect: the caller probes it.
 */
bool mrc_path_set_response_lost(struct mrc_path_set *ps, uint32_t ev, uint64_t sent_ns,
				uint64_t now_ns, uint64_t window_ns)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	if (h->state != MRC_EV_GOOD || (h->flags & MRC_EV_F_SUSPECT))
		return false;
	if (h->proven_ns > sent_ns)	/* the way works since */
		return false;
	if (now_ns - h->strike_ns > window_ns)
		h->strikes = 0;
	h->strike_ns = now_ns;
	if (++h->strikes < MRC_EV_RESPONSE_STRIKES)
		return false;
	h->strikes = 0;
	h->losses++;
	mrc_ev_suspect_lost(ps, ev, sent_ns);
	return true;
}

static bool mrc_tick_full(const struct mrc_path_tick *t)
{
	return t->nr_probes == t->max_probes || t->nr_changes == t->max_changes;
}

/*
 * The next probe id: the set's tag over 27 bits of the splitmix64 stream
 * the caller seeded. Not a cryptographic generator: it only needs to be
 * unknown to whoever does not see the probes (who sees them can forge
 * anything, see Documentation/protocol.rst, Trust model).
 */
static uint32_t mrc_probe_id_next(struct mrc_path_set *ps)
{
	uint32_t bits;
	uint64_t z;

	do {
		ps->probe_rng += 0x9e3779b97f4a7c15ULL;
		z = ps->probe_rng;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		bits = (uint32_t)(z ^ (z >> 31)) & MRC_PROBE_SEQ_MAX;
	} while (!bits);
	return ps->probe_tag << MRC_PROBE_TAG_SHIFT | bits;
}

/*
 * Lists a probe on @ev for the caller to send and returns its id; *@ord is
 * its place in the order of sending (64 bits: an order that wrapped would
 * judge a new probe by a reference from before a long outage).
 */
static uint32_t mrc_tick_probe(struct mrc_path_set *ps, uint32_t ev, struct mrc_path_tick *t,
			       uint64_t *ord)
{
	uint32_t id = mrc_probe_id_next(ps);

	t->probes[t->nr_probes].ev = ev;
	t->probes[t->nr_probes].probe_id = id;
	t->probes[t->nr_probes].reply_ev =
		ps->ev[ps->returned_ev].returned_ns ? ps->returned_ev : ps->nr_ev;
	t->nr_probes++;
	*ord = ++ps->probe_ord;
	return id;
}

/* @id goes out on @h: the newest of its probes out, the rest kept behind it. */
static void mrc_ev_probe_out(struct mrc_ev_health *h, uint32_t id)
{
	uint32_t i;

	if (!(h->flags & MRC_EV_F_PROBING)) {
		memset(h->probe_older, 0, sizeof(h->probe_older));
	} else {
		for (i = MRC_PROBE_IDS_OUT - 2U; i > 0; i--)
			h->probe_older[i] = h->probe_older[i - 1U];
		h->probe_older[0] = h->probe_id;
	}
	h->probe_id = id;
	h->flags |= MRC_EV_F_PROBING;
}

/*
 * A probe on @ev goes out now; @judged: its miss will be judged, so it needs
 * a control probe to be judged by (mrc_tick_control()).
 */
static void mrc_ev_probe_now(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
			     struct mrc_path_tick *t, bool judged)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->probe_ns = now_ns;
	h->judged_from_ns = 0;
	h->probes++;
	mrc_ev_probe_out(h, mrc_tick_probe(ps, ev, t, &h->probe_ord));
	if (judged)
		ps->newest_probe_ord = h->probe_ord;
}

/*
 * The first probe of @ev, which mrc_path_set_lost() just made suspect, to
 * go out now instead of at the next tick: a tick is milliseconds away, a
 * round trip may be microseconds, and a live EV suspected for a packet
 * that was only late (a queue that grew on its path) carries nothing
 * until an answer clears it. A miss is judged by the ticks as any other.
 * Returns true and fills *@probe when the caller is to send one.
 */
bool mrc_path_set_probe_suspect(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
				struct mrc_ev_probe *probe)
{
	struct mrc_path_tick t = { .probes = probe, .max_probes = 1 };
	const struct mrc_ev_health *h;

	if (ev >= ps->nr_ev)
		return false;
	h = &ps->ev[ev];
	if (h->state != MRC_EV_GOOD || !(h->flags & MRC_EV_F_SUSPECT) ||
	    (h->flags & MRC_EV_F_PROBING))
		return false;
	mrc_ev_probe_now(ps, ev, now_ns, &t, true);
	return true;
}

/*
 * Whether @h's probe out is lost (see MRC_EV_PROBE_GRACE_NS). The grace
 * runs from the first answer to a later probe that a tick saw, kept in
 * @h: judged from the latest answer instead, a set whose other probes
 * keep being answered (new suspects', vetting ones) would never judge it
 * before MRC_EV_PROBE_TIMEOUT_NS.
 */
static bool mrc_probe_missed(const struct mrc_path_set *ps, struct mrc_ev_health *h,
			     uint64_t now_ns)
{
	uint64_t grace = ps->ref_rtt_ns;

	if (grace < ps->probe_rtt_high_ns)
		grace = ps->probe_rtt_high_ns;
	if (grace < ps->probe_rtt_prev_high_ns)
		grace = ps->probe_rtt_prev_high_ns;

	if (grace < MRC_EV_PROBE_GRACE_NS)
		grace = MRC_EV_PROBE_GRACE_NS;
	if (now_ns - h->probe_ns >= MRC_EV_PROBE_TIMEOUT_NS)
		return true;
	if (!h->judged_from_ns) {
		if (!ps->ref_answered_ns || h->probe_ord >= ps->ref_ord)
			return false;
		h->judged_from_ns = ps->ref_answered_ns;
	}
	return now_ns - h->judged_from_ns >= grace;
}

/* Whether an interval probe may go now (see MRC_EV_PROBE_BUDGET); takes it. */
static bool mrc_probe_budget_take(struct mrc_path_set *ps, uint64_t now_ns)
{
	if (!ps->budget_ns || now_ns - ps->budget_ns >= MRC_EV_PROBE_INTERVAL_NS) {
		ps->budget_ns = now_ns ? now_ns : 1U;
		ps->budget_left = MRC_EV_PROBE_BUDGET;
	}
	if (!ps->budget_left)
		return false;
	ps->budget_left--;
	return true;
}

/*
 * One EV's share of a tick; @t has room for one probe and one change.
 * Returns false when the EV's interval probe is due but over budget.
 */
static bool mrc_ev_tick(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
			struct mrc_path_tick *t)
{
	struct mrc_ev_health *h = &ps->ev[ev];
	bool suspect = h->flags & MRC_EV_F_SUSPECT;
	bool searching, due;

	if (h->state == MRC_EV_DENIED ||
	    (h->state == MRC_EV_GOOD && !suspect && !(h->flags & MRC_EV_F_VETTING)))
		return true;
	/* ASSUMED_BAD, no answer yet: probes pile up, none is judged */
	searching = h->state == MRC_EV_ASSUMED_BAD && !h->probes_ok;

	if ((h->flags & MRC_EV_F_PROBING) && !searching &&
	    mrc_probe_missed(ps, h, now_ns)) {
		h->flags &= (uint8_t)~MRC_EV_F_PROBING;
		if (h->flags & MRC_EV_F_VETTING) {
			/* a vetting probe missed: suspect, its first probe missed */
			mrc_ev_make_suspect(ps, ev);
			h->probes_missed = 1;
			suspect = true;
			mrc_group_judge(ps, ev);
		} else if (suspect && ++h->probes_missed >= MRC_EV_SUSPECT_PROBES) {
			if (ps->nr_good > ps->min_active) {
				mrc_ev_set_state(ps, ev, MRC_EV_ASSUMED_BAD, MRC_EV_CAUSE_LOSS,
						 now_ns, &t->changes[t->nr_changes++]);
				return true;
			}
			/* ev_min_active: it must carry data again, lost or not */
			mrc_ev_clear_suspect(ps, ev);
			return true;
		}
		h->probes_ok = 0;
	}
	if ((h->flags & MRC_EV_F_PROBING) && !searching)
		return true;

	/*
	 * A suspect EV without a probe out (its first one sent by
	 * mrc_path_set_probe_suspect(), or a vetting probe missed) is probed
	 * now, and again after each miss; an
	 * ASSUMED_BAD one every interval, but at once after an answer, so
	 * MRC_EV_PROBES_GOOD answers take round trips, not intervals.
	 */
	due = suspect || h->probes_ok;
	if (!due && (!h->probes || now_ns - h->probe_ns >= MRC_EV_PROBE_INTERVAL_NS)) {
		if (!mrc_probe_budget_take(ps, now_ns))
			return false;
		due = true;
	}
	if (due)
		mrc_ev_probe_now(ps, ev, now_ns, t, !searching);
	return true;
}

/*
 * With no EV usable -- every GOOD one suspect, as when a retransmit timeout
 * blamed them all because every way died -- the control goes on a suspect
 * one, in turn: the suspects' probes out are judged only against an answer
 * sent after them, and the first answer once a way is back is the news the
 * QPs wait for (mrc_path_set_heard_ns()). False when no EV is GOOD (the
 * ASSUMED_BAD ones are probed every interval anyway).
 */
static bool mrc_control_on_suspect(struct mrc_path_set *ps, uint32_t *ev)
{
	uint32_t i, e;

	for (i = 0; i < ps->nr_ev; i++) {
		e = (ps->control_cur.next + i) % ps->nr_ev;
		if (ps->ev[e].state == MRC_EV_GOOD) {
			ps->control_cur.next = (e + 1) % ps->nr_ev;
			*ev = e;
			return true;
		}
	}
	return false;
}

/*
 * The control probe: one probe on a usable EV (or a suspect one, see
 * mrc_control_on_suspect()) whenever a probe of a suspect or ASSUMED_BAD EV
 * has no answered probe sent after it to be judged against. One at a time:
 * a control is replaced only when it has gone unanswered for
 * MRC_EV_PROBE_CONTROL_NS (it may have taken a dead path not yet
 * suspected), never by the next round, whose answer would then never
 * count.
 */
static void mrc_tick_control(struct mrc_path_set *ps, uint64_t now_ns,
			     struct mrc_path_tick *t)
{
	uint32_t ev;

	if (t->nr_probes == t->max_probes)
		return;
	if (ps->ref_answered_ns && ps->ref_ord >= ps->newest_probe_ord)
		return;		/* every probe out has its reference */
	if (ps->control_id && now_ns - ps->control_ns < MRC_EV_PROBE_CONTROL_NS)
		return;
	if (mrc_path_set_pick(ps, &ps->control_cur, MRC_PROFILE_EV_MAX, &ev) &&
	    !mrc_control_on_suspect(ps, &ev))
		return;
	ps->control_id = mrc_tick_probe(ps, ev, t, &ps->control_ord);
	ps->control_ev = ev;
	ps->control_ns = now_ns;
}

/*
 * During the alarm: vets the usable EVs not vetted yet with a probe each,
 * as many as @t has room for, from where the last tick stopped; ends the
 * alarm when every usable EV is vetted and none is suspect (a false alarm
 * ends where the last suspicion is cleared, mrc_ev_clear_suspect()).
 */
static void mrc_tick_vet(struct mrc_path_set *ps, uint64_t now_ns, struct mrc_path_tick *t)
{
	uint32_t i, ev, unvetted = 0, vets = 0, resume = ps->nr_ev;
	struct mrc_ev_health *h;

	if (!ps->alarm_ns)
		return;
	for (i = 0; i < ps->nr_ev; i++) {
		ev = (ps->vet_next + i) % ps->nr_ev;
		h = &ps->ev[ev];
		if (!mrc_path_set_usable(ps, ev) || mrc_ev_is_vetted(ps, ev))
			continue;
		unvetted++;
		if (h->flags & MRC_EV_F_PROBING)
			continue;
		if (t->nr_probes == t->max_probes || vets == MRC_EV_VET_PER_TICK) {
			if (resume == ps->nr_ev)
				resume = ev;
			continue;
		}
		vets++;
		h->flags |= MRC_EV_F_VETTING;
		mrc_ev_probe_now(ps, ev, now_ns, t, true);
	}
	if (resume != ps->nr_ev)
		ps->vet_next = resume;
	if (!unvetted && !ps->nr_suspect)
		ps->alarm_ns = 0;
}

/*
 * Probe bookkeeping, to run every few milliseconds while
 * mrc_path_set_needs_tick(): judges the probes out (see
 * MRC_EV_PROBE_GRACE_NS), marks suspect EVs whose probes went unanswered
 * ASSUMED_BAD, vets EVs during an alarm, and lists the probes to send now.
 * Stops early when @t's arrays are full; the next tick goes on from there,
 * or from the first EV it found over the probe budget (MRC_EV_PROBE_BUDGET).
 */
void mrc_path_set_tick(struct mrc_path_set *ps, uint64_t now_ns, struct mrc_path_tick *t)
{
	uint32_t i, ev, resume = ps->nr_ev;

	t->nr_probes = 0;
	t->nr_changes = 0;
	if (t->max_probes < 2 || !t->max_changes)
		return;
	t->max_probes--;	/* room for the control probe */
	for (i = 0; i < ps->nr_ev && mrc_path_set_needs_tick(ps); i++) {
		ev = (ps->tick_next + i) % ps->nr_ev;
		if (mrc_tick_full(t)) {
			if (resume == ps->nr_ev)
				resume = ev;
			break;
		}
		/* the first EV over budget is the first in turn next time */
		if (!mrc_ev_tick(ps, ev, now_ns, t) && resume == ps->nr_ev)
			resume = ev;
	}
	if (resume != ps->nr_ev)
		ps->tick_next = resume;
	mrc_tick_vet(ps, now_ns, t);
	t->max_probes++;
	if (mrc_path_set_needs_tick(ps))
		mrc_tick_control(ps, now_ns, t);
}

/*
 * An answer to probe @ord, sent at @sent_ns: the last sent such is the
 * reference, and every answer's RTT counts into the recent high: the
 * longest of this epoch and the one before. Decayed by answers instead, a
 * burst of quick answers on short queues takes the high below a live
 * path's queue within milliseconds, which condemned that path's probes:
 * multipath_rate.sh's READ responder took 100-270 live EVs for dead in the
 * healthy seconds of a run, 0-5 with the windowed high. A grace beyond the last
 * resort would be none: RTTs count up to MRC_EV_PROBE_TIMEOUT_NS.
 */
static void mrc_probe_reference(struct mrc_path_set *ps, uint64_t ord, uint64_t sent_ns,
				uint64_t now_ns)
{
	uint32_t rtt = (uint32_t)(now_ns - sent_ns < MRC_EV_PROBE_TIMEOUT_NS ?
				  now_ns - sent_ns : MRC_EV_PROBE_TIMEOUT_NS);

	if (now_ns - ps->probe_high_epoch_ns >= MRC_EV_PROBE_HIGH_EPOCH_NS) {
		ps->probe_rtt_prev_high_ns = ps->probe_rtt_high_ns;
		ps->probe_rtt_high_ns = 0;
		ps->probe_high_epoch_ns = now_ns;
	}
	if (rtt > ps->probe_rtt_high_ns)
		ps->probe_rtt_high_ns = rtt;
	if (ps->ref_answered_ns && ord < ps->ref_ord)
		return;
	ps->ref_ord = ord;
	ps->ref_answered_ns = now_ns;
	ps->ref_rtt_ns = rtt;
}

/* Whether @probe_id (not 0) is exactly one of @h's probes out (PROBING). */
static bool mrc_probe_id_out(const struct mrc_ev_health *h, uint32_t probe_id)
{
	uint32_t i;

	if (probe_id == h->probe_id)
		return true;
	for (i = 0; i < MRC_PROBE_IDS_OUT - 1U; i++)
		if (probe_id == h->probe_older[i])
			return true;
	return false;
}

/*
 * The answer to probe @probe_id on @ev arrived. A suspect EV is cleared;
 * an ASSUMED_BAD one returns to GOOD after MRC_EV_PROBES_GOOD answers in
 * a row (true, *@change filled). An answer to a probe no longer out (late,
 * duplicated, forged) counts for nothing.
 */
bool mrc_path_set_probe_answered(struct mrc_path_set *ps, uint32_t ev, uint32_t probe_id,
				 uint64_t now_ns, struct mrc_ev_change *change)
{
	struct mrc_ev_health *h;

	if (ev >= ps->nr_ev || !probe_id)
		return false;
	h = &ps->ev[ev];
	if (ps->control_id == probe_id && ps->control_ev == ev) {
		ps->control_id = 0;
		h->probes_answered++;
		h->rtt_ns = (uint32_t)(now_ns - ps->control_ns);
		mrc_probe_reference(ps, ps->control_ord, ps->control_ns, now_ns);
		return false;
	}
	if (!(h->flags & MRC_EV_F_PROBING) || !mrc_probe_id_out(h, probe_id))
		return false;
	h->flags &= (uint8_t)~MRC_EV_F_PROBING;
	h->probes_answered++;
	/* of an older probe than the last, neither the sending time nor the order is kept */
	if (probe_id == h->probe_id) {
		h->rtt_ns = (uint32_t)(now_ns - h->probe_ns);
		mrc_probe_reference(ps, h->probe_ord, h->probe_ns, now_ns);
	}
	if (h->flags & MRC_EV_F_VETTING) {
		/* it crossed, both ways: the EV is vetted */
		h->flags &= (uint8_t)~MRC_EV_F_VETTING;
		if (h->probe_ns > h->proven_ns)
			h->proven_ns = h->probe_ns;
		mrc_ev_vet_by(ps, ev, h->probe_ns);
		return false;
	}
	if (h->flags & MRC_EV_F_CONDEMNED) {
		mrc_group_absolve(ps, ev);
		return false;
	}
	if (h->flags & MRC_EV_F_SUSPECT) {
		mrc_ev_clear_suspect(ps, ev);
		return false;
	}
	if (h->state != MRC_EV_ASSUMED_BAD || ++h->probes_ok < MRC_EV_PROBES_GOOD)
		return false;
	mrc_ev_set_state(ps, ev, MRC_EV_GOOD, MRC_EV_CAUSE_PROBE, now_ns, change);
	return true;
}

/*
 * The controller denies @ev (never used, never probed) or allows it again
 * (GOOD). Its word is not subject to ev_min_active.
 *
 * Return: 1 and *@change filled when the state changed, 0 when it was
 * already so, -MRC_EINVAL for an EV outside the set.
 */
int mrc_path_set_deny(struct mrc_path_set *ps, uint32_t ev, bool deny, uint64_t now_ns,
		      struct mrc_ev_change *change)
{
	uint8_t state;

	if (ev >= ps->nr_ev)
		return -MRC_EINVAL;
	state = ps->ev[ev].state;
	if (deny ? state == MRC_EV_DENIED : state != MRC_EV_DENIED)
		return 0;
	mrc_ev_set_state(ps, ev, deny ? MRC_EV_DENIED : MRC_EV_GOOD, MRC_EV_CAUSE_CONTROLLER,
			 now_ns, change);
	return 1;
}
