// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV path sets: selection over GOOD EVs, loss bookkeeping per EV, and the
 * GOOD <-> ASSUMED_BAD <-> DENIED state machine (see mrc_path_set.h).
 */
#include "mrc_path_set.h"

#define MRC_EV_HISTORY_MASK	((uint16_t)((1U << MRC_EV_HISTORY) - 1U))

int mrc_path_set_init(struct mrc_path_set *ps, struct mrc_ev_health *ev, uint64_t *good,
		      uint32_t nwords, uint32_t nr_ev, uint32_t min_active, uint8_t policy)
{
	uint32_t i;

	if (!ps || !ev || !good || !nr_ev || nr_ev > MRC_PROFILE_EV_MAX ||
	    nwords < MRC_PATH_SET_WORDS(nr_ev) || min_active > nr_ev ||
	    policy > MRC_SPRAY_WEIGHTED)
		return -MRC_EINVAL;

	memset(ev, 0, nr_ev * sizeof(*ev));
	memset(good, 0, nwords * sizeof(*good));
	for (i = 0; i < nr_ev; i++) {
		ev[i].state = MRC_EV_GOOD;
		ev[i].weight = 1;
		good[i / 64U] |= 1ULL << (i % 64U);
	}
	ps->ev = ev;
	ps->good = good;
	ps->nr_ev = nr_ev;
	ps->nr_good = nr_ev;
	ps->min_active = min_active;
	ps->policy = policy;
	return 0;
}

/* MRC_SPRAY_WEIGHTED: @ev carries @weight (1 ... 255) packets per turn. */
int mrc_path_set_set_weight(struct mrc_path_set *ps, uint32_t ev, uint32_t weight)
{
	if (ev >= ps->nr_ev || !weight || weight > 255U)
		return -MRC_EINVAL;
	ps->ev[ev].weight = (uint8_t)weight;
	return 0;
}

static bool mrc_ev_is_good(const struct mrc_path_set *ps, uint32_t ev)
{
	return ps->good[ev / 64U] & (1ULL << (ev % 64U));
}

/* The first GOOD EV at or after @from, wrapping; there is one (nr_good > 0). */
static uint32_t mrc_ev_find_good(const struct mrc_path_set *ps, uint32_t from)
{
	uint32_t nwords = MRC_PATH_SET_WORDS(ps->nr_ev);
	uint32_t w = from / 64U, i;
	uint64_t bits = ps->good[w] & (~0ULL << (from % 64U));

	for (i = 0; i <= nwords; i++) {
		if (bits)
			return w * 64U + mrc_ctz64(bits);
		w = w + 1U == nwords ? 0 : w + 1U;
		bits = ps->good[w];
	}
	return 0;	/* not reached while nr_good > 0 */
}

/* A cursor may start anywhere (e.g. at the QPN, so QPs do not walk in step). */
static uint32_t mrc_ev_wrap(const struct mrc_path_set *ps, uint32_t ev)
{
	return ev < ps->nr_ev ? ev : ev % ps->nr_ev;
}

/*
 * The EV for the next packet of a QP walking the set with @cur.
 *
 * @avoid is an EV not to take when another will do (the one a lost copy
 * took); pass MRC_PROFILE_EV_MAX for none.
 *
 * Return: 0 with a GOOD EV in *@ev; 1 with an ASSUMED_BAD one when no EV
 * is GOOD (the QP keeps retrying by its RC rules, and such a packet is as
 * good as a probe); -MRC_ENOENT when every EV is denied.
 */
int mrc_path_set_pick(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur, uint32_t avoid,
		      uint32_t *ev)
{
	bool weighted = ps->policy == MRC_SPRAY_WEIGHTED;
	uint32_t e, i;

	if (ps->nr_good) {
		if (weighted && cur->left && cur->next < ps->nr_ev &&
		    mrc_ev_is_good(ps, cur->next) && cur->next != avoid) {
			*ev = cur->next;
			if (!--cur->left)
				cur->next++;
			return 0;
		}
		e = mrc_ev_find_good(ps, mrc_ev_wrap(ps, cur->next));
		if (e == avoid && ps->nr_good > 1)
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

	/* nothing GOOD: walk the ASSUMED_BAD ones, still avoiding @avoid if we can */
	for (i = 0; i < 2U * ps->nr_ev; i++) {
		e = (cur->next + i) % ps->nr_ev;
		if (ps->ev[e].state != MRC_EV_ASSUMED_BAD)
			continue;
		if (e == avoid && i < ps->nr_ev)
			continue;
		*ev = e;
		cur->next = e + 1U;
		cur->left = 0;
		return 1;
	}
	return -MRC_ENOENT;
}

/* A packet goes out on @ev: returns its sequence number on that EV. */
uint32_t mrc_path_set_sent(struct mrc_path_set *ps, uint32_t ev)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->packets++;
	return h->tx_seq++;
}

/* The transmission @seq on @ev was acknowledged. */
void mrc_path_set_acked(struct mrc_path_set *ps, uint32_t ev, uint32_t seq)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	if ((int32_t)(seq + 1U - h->acked_seq) > 0)
		h->acked_seq = seq + 1U;
	h->acked++;
	h->history = (uint16_t)(h->history << 1) & MRC_EV_HISTORY_MASK;
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
	uint64_t bit = 1ULL << (ev % 64U);

	change->ev = ev;
	change->from = h->state;
	change->to = to;
	change->reason = reason;
	if (h->state == MRC_EV_GOOD) {
		ps->good[ev / 64U] &= ~bit;
		ps->nr_good--;
	}
	if (to == MRC_EV_GOOD) {
		ps->good[ev / 64U] |= bit;
		ps->nr_good++;
	}
	h->state = to;
	h->reason = reason;
	h->changed_ns = now_ns;
	h->history = 0;
	h->probes_ok = 0;
}

/* GOOD -> ASSUMED_BAD, unless that leaves fewer GOOD EVs than ev_min_active. */
static bool mrc_ev_mark_bad(struct mrc_path_set *ps, uint32_t ev, uint8_t reason,
			    uint64_t now_ns, struct mrc_ev_change *change)
{
	if (ps->ev[ev].state != MRC_EV_GOOD || ps->nr_good <= ps->min_active)
		return false;
	mrc_ev_set_state(ps, ev, MRC_EV_ASSUMED_BAD, reason, now_ns, change);
	return true;
}

/*
 * A transmission on @ev was found lost. Returns true, with *@change filled,
 * when this made the EV ASSUMED_BAD.
 */
bool mrc_path_set_lost(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
		       struct mrc_ev_change *change)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	h->losses++;
	h->history = (uint16_t)((h->history << 1) | 1U) & MRC_EV_HISTORY_MASK;
	if (mrc_popcount64(h->history) < MRC_EV_BAD_LOSSES)
		return false;
	return mrc_ev_mark_bad(ps, ev, MRC_EV_CAUSE_LOSS, now_ns, change);
}

/* The retransmit timer fired with data outstanding on @ev. */
bool mrc_path_set_timed_out(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
			    struct mrc_ev_change *change)
{
	return mrc_ev_mark_bad(ps, ev, MRC_EV_CAUSE_TIMEOUT, now_ns, change);
}

/*
 * A probe on @ev was answered (after @rtt_ns) or not. MRC_EV_PROBES_GOOD
 * answers in a row bring an ASSUMED_BAD EV back to GOOD; returns true, with
 * *@change filled, when that happened.
 */
bool mrc_path_set_probed(struct mrc_path_set *ps, uint32_t ev, bool answered, uint32_t rtt_ns,
			 uint64_t now_ns, struct mrc_ev_change *change)
{
	struct mrc_ev_health *h = &ps->ev[ev];

	if (!answered) {
		h->probes_ok = 0;
		return false;
	}
	h->rtt_ns = rtt_ns;
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
	if (deny == (state == MRC_EV_DENIED))
		return 0;
	mrc_ev_set_state(ps, ev, deny ? MRC_EV_DENIED : MRC_EV_GOOD, MRC_EV_CAUSE_CONTROLLER,
			 now_ns, change);
	return 1;
}
