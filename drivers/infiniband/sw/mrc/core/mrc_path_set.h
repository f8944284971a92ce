/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A path set: the entropy values (EVs) one device sprays over towards one
 * destination with one EV profile, and what it knows about each of them
 * (Documentation/multipath.rst).
 *
 * Every QP of the device towards that destination shares the path set, so
 * one QP's discovery of a dead path protects them all.  Per EV it keeps the
 * state (GOOD / ASSUMED_BAD / DENIED), the bookkeeping for loss detection
 * within the EV (packets on one EV follow one path in order, so an
 * acknowledgement of a later transmission on the same EV shows an earlier
 * one lost), and the probes that decide between a lost packet and a dead
 * path:
 *
 *   GOOD --loss--> GOOD+suspect --probe answered / later send acked--> GOOD
 *                       |
 *                       +--MRC_EV_SUSPECT_PROBES probes unanswered--> ASSUMED_BAD
 *   ASSUMED_BAD --MRC_EV_PROBES_GOOD probes answered in a row--> GOOD
 *   any --controller--> DENIED --controller--> GOOD
 *
 * A suspect EV carries no data while its probe is out, and the first
 * suspicion alarms the set (MRC_EV_VET_PER_TICK): new data keeps to EVs
 * proven since, so a dead path costs what was in flight on it and a probe
 * timeout, and a merely unlucky one costs a probe round trip, not an
 * ASSUMED_BAD state and an event.  ev_min_active is honoured: the set
 * never marks an EV bad if that would leave fewer GOOD.
 *
 * The caller owns the storage and the locking, supplies the time, sends the
 * probes mrc_path_set_tick() asks for and reports the changes it returns;
 * nothing here allocates or sleeps.
 */
#ifndef MRC_PATH_SET_H
#define MRC_PATH_SET_H

#include "mrc_core_compat.h"

/* EV states; the values are those of the OCP API's enum mrc_ctl_ev_state. */
enum mrc_ev_health_state {
	MRC_EV_GOOD = 1,
	MRC_EV_ASSUMED_BAD = 2,
	MRC_EV_DENIED = 4,
};

/* Why an EV changed state, as EV events report it. */
enum mrc_ev_cause {
	MRC_EV_CAUSE_NONE,
	MRC_EV_CAUSE_LOSS,		/* a loss, then its probes unanswered */
	MRC_EV_CAUSE_TIMEOUT,		/* a retransmit timeout with data on it */
	MRC_EV_CAUSE_PROBE,		/* probes answered again */
	MRC_EV_CAUSE_CONTROLLER,	/* denied or allowed by the controller */
};

/* How a QP walks the usable EVs. */
enum mrc_spray_policy {
	MRC_SPRAY_ROUND_ROBIN,	/* each usable EV in turn */
	MRC_SPRAY_WEIGHTED,		/* each usable EV for @weight packets in turn */
	MRC_SPRAY_ADAPTIVE,		/* in turn, but slow EVs rest (below) */
};

/*
 * MRC_SPRAY_ADAPTIVE: the data round trips of every QP on the set, per EV,
 * steer the spray away from paths with queues. An EV whose smoothed RTT is
 * k quanta above the set's floor (its lowest recent sample) rests k rounds
 * of the walk out of k + 1, at most MRC_SPRAY_MAX_REST: a path that is
 * slower because a queue builds on it gets less, the rest more, and its
 * RTT keeps being measured by what it still carries. A quantum is half
 * the floor, at least MRC_SPRAY_QUANTUM_MIN_NS, so RTT noise of the order
 * of the round trip itself moves nothing.
 */
#define MRC_SPRAY_MAX_REST		7U
#define MRC_SPRAY_QUANTUM_MIN_NS	20000U
/*
 * A congestion mark (ECN CE, echoed by the peer's ACK) is the queue itself
 * speaking, without the RTT's noise: the marked EV rests at least
 * MRC_SPRAY_CE_REST rounds of MRC_SPRAY_CE_REST + 1, one less for each RTT
 * sample of it after.
 */
#define MRC_SPRAY_CE_REST		3U

#define MRC_PROFILE_EV_MAX	4096U	/* EVs in one profile */
/*
 * A packet that asks for an ACK (a resend among them) takes an EV that
 * *returned* lately -- one an ACK came back on since the caller's instant --
 * or else one *proven* lately -- one a packet sent on it since then is known
 * to have crossed -- looking at most this many usable EVs ahead of the
 * cursor: after a failure, the EVs of the dead path have carried nothing
 * that arrived, and a resend must not ride one of them before its own loss
 * has marked it. The ACK goes back on the packet's EV, and an ECMP fabric
 * hashes the way back independently of the way out: with a spine down, an
 * EV that delivers may still lose every ACK on it, and a requester whose
 * ACKs all die resends what arrived long ago.
 */
#define MRC_PICK_PROVEN_SCAN	64U
/*
 * The alarm (after the REPS idea of reusing the entropies that came back,
 * frozen on a failure): from the first suspicion on, new data leaves only
 * on EVs *vetted* since -- proven by a send after the lost one -- in turn,
 * so the EVs of a dead path that have not lost a packet yet get no more
 * either: a path stops receiving new data within a round trip of the first
 * evidence, not after one loss per EV of it. Meanwhile each tick vets up to
 * MRC_EV_VET_PER_TICK of the usable EVs not vetted yet with a probe
 * (unanswered: suspect, then ASSUMED_BAD as any suspect). The alarm ends
 * when every usable EV is vetted and none is suspect, or at once when the
 * suspects are cleared and none went ASSUMED_BAD (a packet lost by chance,
 * not a path). The spray's policy (weights, rests) waits for its end.
 */
#define MRC_EV_VET_PER_TICK	8U
/*
 * Siblings: EVs the caller labels with one group (mrc_path_set_set_group())
 * cross one element of the fabric that fails for all of them at once -- an
 * SRv6 path set's first segment, a spine, in one plane. When
 * MRC_EV_GROUP_CONDEMN of a group are suspect at once, the group was silent
 * (no send on it acknowledged, no ACK back on it) for a round trip before
 * the set's latest such news, and EVs of other groups still carry data,
 * the element is condemned: every GOOD EV of the group stands as a suspect
 * whose first probe went unanswered (MRC_EV_F_CONDEMNED), so its copies in
 * flight are lost at once (MRC_EV_FELL) and it carries nothing; one more
 * miss makes it ASSUMED_BAD. Without it, each EV through a dead spine
 * waits for a copy of its own to outlive the reordering window. The
 * silence tells a queue from a failure: the EVs of a spine whose queue grew
 * go suspect together too, but what they carried keeps being acknowledged.
 * Any sign of life of a condemned EV (a probe answered, a send on it
 * acknowledged) clears every EV condemned with it.
 */
#define MRC_EV_GROUP_CONDEMN	2U
#define MRC_EV_REORDER		3U	/* later sends acked on the same EV: lost */
#define MRC_EV_SUSPECT_PROBES	2U	/* unanswered probes of a suspect EV: ASSUMED_BAD */
#define MRC_EV_PROBES_GOOD	3U	/* probes answered in a row: GOOD again */
/*
 * A responder's READ responses are never acknowledged: it learns that one
 * died only when its requester asks for it again, which a reordering the
 * requester misjudged does too. Only this many such requests for responses
 * on one EV, each within @window_ns of the one before, make it suspect
 * (mrc_path_set_response_lost()).
 */
#define MRC_EV_RESPONSE_STRIKES	2U

/*
 * Probe timing (the caller's clock, nanoseconds). A probe is judged missed
 * relative to the others, not by a clock alone: when a probe sent after it
 * (on any EV; a *control* probe on a usable EV -- a suspect one when none
 * is usable -- goes out last with every round of suspect probes) was
 * answered, and a grace has passed since the first such answer a tick saw
 * without this one's answer: the latest answer's RTT or the recent high of
 * probe RTTs (the longest of this MRC_EV_PROBE_HIGH_EPOCH_NS and the one
 * before), whichever is longer, and at least MRC_EV_PROBE_GRACE_NS.
 * Live paths answer with a spread (in a VM, one vCPU's softirq backlog is
 * long while the other's is short), and the slow end of it is no dead
 * path. "After" is the order of sending, not the clock: the probes of one
 * tick share a time stamp, but the first of a long round may be answered
 * before the last has left, and must not condemn them. A host that stalls
 * delays every answer alike and condemns nothing. MRC_EV_PROBE_TIMEOUT_NS
 * is the last resort, when nothing is answered.
 *
 * An ASSUMED_BAD EV with no answer yet is not judged: a miss would tell
 * nothing new. It gets a fresh probe every MRC_EV_PROBE_INTERVAL_NS with
 * the older ones still out, and the first answer to any of them counts, so
 * a path that comes back is found within an interval of its return, not
 * within an interval plus whatever grace a slow answer set (on a loaded
 * host, hundreds of milliseconds), and a round trip longer than the
 * interval still brings it back.
 */
#define MRC_EV_PROBE_GRACE_NS		2000000ULL
#define MRC_EV_PROBE_HIGH_EPOCH_NS	500000000ULL	/* the recent high: 2 of these */
#define MRC_EV_PROBE_TIMEOUT_NS		1000000000ULL
#define MRC_EV_PROBE_CONTROL_NS		50000000ULL	/* a control probe unanswered: another */
#define MRC_EV_PROBE_INTERVAL_NS	100000000ULL	/* between probes of an ASSUMED_BAD EV */
/*
 * At most this many ASSUMED_BAD EVs of a set get their interval probe in one
 * interval (the probes that follow an answer, and those of suspect EVs, are
 * not counted): with most EVs condemned, probes and their answers would
 * otherwise outnumber the data, and on a loaded host their own drops keep
 * live EVs condemned. The rest wait for the next interval, in turn.
 */
#define MRC_EV_PROBE_BUDGET		64U
/*
 * The probe ids path sets give out lie in 1 ... MRC_PATH_PROBE_ID_MAX; ids
 * above are the controller's one-shot probes (mrc_nl_probe.c), whose answers
 * never reach a path set. An id is the set's tag (bits 27-30; the caller's
 * choice: mrc gives its EV profile id) over 27 bits drawn from a stream the
 * caller seeds with a secret (mrc_path_set_seed_probe_ids), never 0: every
 * path set towards a peer is offered each answer from it, the tag lets each
 * take only its own, and the random bits make an off-path forger guess.
 */
#define MRC_PATH_PROBE_ID_MAX		0x7fffffffU
#define MRC_PROBE_TAG_SHIFT		27U
#define MRC_PROBE_TAGS			16U
#define MRC_PROBE_SEQ_MAX		((1U << MRC_PROBE_TAG_SHIFT) - 1U)
/*
 * An answer counts only when its id is exactly one of the last this many
 * probes out of its EV: the newest, and older ones for a round trip longer
 * than the probe interval (MRC_EV_PROBE_INTERVAL_NS apart, these cover
 * about MRC_EV_PROBE_TIMEOUT_NS).
 */
#define MRC_PROBE_IDS_OUT		8U

/* 64-bit words of caller storage the usable bitmap of @nr_ev EVs needs. */
#define MRC_PATH_SET_WORDS(nr_ev)	(((nr_ev) + 63U) / 64U)

/* mrc_ev_health.flags */
#define MRC_EV_F_SUSPECT	0x1U	/* GOOD, but a loss waits for its probe's verdict */
#define MRC_EV_F_PROBING	0x2U	/* @probe_id and @probe_older are out */
#define MRC_EV_F_VETTING	0x4U	/* GOOD, not suspect: its probe out vets it (alarm) */
#define MRC_EV_F_CONDEMNED	0x8U	/* SUSPECT with its group (MRC_EV_GROUP_CONDEMN) */

struct mrc_ev_health {
	uint32_t tx_seq;	/* transmissions on this EV so far */
	uint32_t acked_seq;	/* one past the highest tx_seq acknowledged; 0: none */
	uint32_t suspect_seq;	/* SUSPECT: an ack of a later send clears it */
	uint64_t proven_ns;	/* the latest send on it known to have arrived; 0: none */
	uint64_t returned_ns;	/* when an ACK last came back on it; 0: never */
	uint64_t acked_ns;	/* when a send on it was last acknowledged; 0: never */
	uint32_t probe_id;	/* PROBING: the probe out (the newest, when several) */
	uint32_t probe_older[MRC_PROBE_IDS_OUT - 1];	/* PROBING: earlier ones, newest first; 0: none */
	uint64_t probe_ns;	/* when the last probe went out */
	uint64_t probe_ord;	/* PROBING: its place in the order of sending */
	uint64_t judged_from_ns; /* PROBING: a later probe's answer, first seen; 0: none yet */
	uint8_t state;		/* enum mrc_ev_health_state */
	uint8_t reason;		/* enum mrc_ev_cause of the last change */
	uint8_t flags;		/* MRC_EV_F_* */
	uint8_t probes_ok;	/* ASSUMED_BAD: probes answered in a row */
	uint8_t probes_missed;	/* SUSPECT: probes unanswered */
	uint8_t weight;		/* MRC_SPRAY_WEIGHTED: 1 ... 255 */
	uint16_t group;		/* the fabric element it shares (MRC_EV_GROUP_CONDEMN); 0: none */
	uint32_t rtt_ns;	/* the last probe's round trip */
	uint32_t srtt_ns;	/* data round trips, smoothed; 0: none yet */
	uint8_t rest;		/* MRC_SPRAY_ADAPTIVE: rounds of k + 1 it sits out */
	uint8_t ce_rest;	/* MRC_SPRAY_ADAPTIVE: the part of @rest due to CE marks */
	uint64_t ce_marks;	/* samples that came back congestion-marked */
	uint64_t changed_ns;	/* when the state last changed */
	uint64_t packets;	/* transmissions, retransmissions included */
	uint64_t acked;		/* transmissions acknowledged */
	uint64_t losses;	/* transmissions found lost */
	uint64_t probes;	/* probes sent */
	uint64_t probes_answered;
	uint64_t strike_ns;	/* the latest of @strikes (MRC_EV_RESPONSE_STRIKES) */
	uint8_t strikes;	/* its responses asked for again in a row */
};

/* A QP's place in the walk over its path set. */
struct mrc_ev_cursor {
	uint32_t next;		/* the EV to consider first */
	uint32_t left;		/* MRC_SPRAY_WEIGHTED: packets left on @next */
	uint32_t round;		/* MRC_SPRAY_ADAPTIVE: walks over the set so far */
	/*
	 * Where mrc_path_set_pick_proven() looks first: a walk of its own,
	 * so that packets asking for an ACK do not move the spray past the
	 * EVs nobody has heard from, the ones whose failure it must find.
	 */
	uint32_t answer;
};

struct mrc_path_set {
	struct mrc_ev_health *ev;	/* caller storage, @nr_ev entries */
	uint64_t *usable;		/* caller storage: bit i set = EV i GOOD, not suspect */
	uint32_t nr_ev;
	uint32_t nr_good;		/* EVs in state GOOD, suspect or not */
	uint32_t nr_usable;		/* bits set in @usable */
	uint32_t nr_suspect;
	uint32_t nr_bad;		/* ASSUMED_BAD */
	uint32_t min_active;		/* ev_min_active */
	uint32_t probe_tag;		/* in every probe id it gives out */
	uint64_t probe_rng;		/* the stream probe ids are drawn from */
	uint64_t probe_ord;		/* probes given out so far (never wraps) */
	uint32_t tick_next;		/* where the next tick starts (fairness) */
	uint64_t budget_ns;		/* when the current probe budget's interval began */
	uint32_t budget_left;		/* interval probes left in it (MRC_EV_PROBE_BUDGET) */
	uint8_t policy;			/* enum mrc_spray_policy */
	uint32_t rtt_floor_ns;		/* the lowest recent data round trip */
	uint32_t returned_ev;		/* the EV the latest ACK came back on */
	uint32_t group_quiet_ns;	/* a group this long without an ACK is silent; 0: unknown */
	uint64_t heard_ns;		/* the latest acked_ns or returned_ns of any EV */

	/* the alarm (MRC_EV_VET_PER_TICK); alarm_ns 0: none */
	uint64_t alarm_ns;		/* EVs proven by a send after are vetted */
	uint32_t alarm_bad;		/* EVs gone ASSUMED_BAD during it */
	uint32_t vet_next;		/* where the next tick's vetting starts */
	uint64_t vetted[MRC_PATH_SET_WORDS(MRC_PROFILE_EV_MAX)];	/* bit i: EV i vetted */

	/* the reference for judging probes: the answered probe sent last */
	uint64_t ref_ord;
	uint64_t ref_answered_ns;
	uint32_t ref_rtt_ns;
	uint32_t probe_rtt_high_ns;	/* answered probes' RTTs: this epoch's high */
	uint32_t probe_rtt_prev_high_ns;	/* ... and the epoch's before */
	uint64_t probe_high_epoch_ns;	/* this epoch began (MRC_EV_PROBE_HIGH_EPOCH_NS) */
	uint64_t newest_probe_ord;	/* the last probe of a suspect or ASSUMED_BAD EV */
	/* the control probe out, on a usable EV (or a suspect: none usable); 0: none */
	uint32_t control_ev;
	uint32_t control_id;
	uint64_t control_ord;
	uint64_t control_ns;
	struct mrc_ev_cursor control_cur;
};

/* One EV state change, for the caller to report as an EV event. */
struct mrc_ev_change {
	uint32_t ev;
	uint8_t from;
	uint8_t to;
	uint8_t reason;
};

/*
 * A probe the caller is to send now: on EV @ev, carrying @probe_id, its
 * first answer asked back on the way of EV @reply_ev -- the one the latest
 * ACK came back on; nr_ev when none came yet. A reply the peer sends on a
 * way of its own may be lost on a fabric with paths down, and a forward
 * path that works would be condemned for it.
 */
struct mrc_ev_probe {
	uint32_t ev;
	uint32_t probe_id;
	uint32_t reply_ev;
};

/* What one mrc_path_set_tick() asks for. */
struct mrc_path_tick {
	struct mrc_ev_probe *probes;	/* caller storage */
	uint32_t max_probes;
	uint32_t nr_probes;		/* out */
	struct mrc_ev_change *changes;	/* caller storage */
	uint32_t max_changes;
	uint32_t nr_changes;		/* out */
};

int mrc_path_set_init(struct mrc_path_set *ps, struct mrc_ev_health *ev, uint64_t *usable,
		      uint32_t nwords, uint32_t nr_ev, uint32_t min_active, uint8_t policy);

int mrc_path_set_set_weight(struct mrc_path_set *ps, uint32_t ev, uint32_t weight);
int mrc_path_set_set_group(struct mrc_path_set *ps, uint32_t ev, uint32_t group);
int mrc_path_set_set_probe_tag(struct mrc_path_set *ps, uint32_t tag);
void mrc_path_set_seed_probe_ids(struct mrc_path_set *ps, uint64_t secret);
int mrc_path_set_pick(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur, uint32_t avoid,
		      uint32_t *ev);
int mrc_path_set_pick_proven(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur,
			     uint32_t avoid, uint64_t since_ns, bool resend, uint32_t *ev);
uint32_t mrc_path_set_sent(struct mrc_path_set *ps, uint32_t ev);
void mrc_path_set_returned(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns);
void mrc_path_set_rtt_sample(struct mrc_path_set *ps, uint32_t ev, uint32_t rtt_ns);
void mrc_path_set_ce_mark(struct mrc_path_set *ps, uint32_t ev);
void mrc_path_set_acked(struct mrc_path_set *ps, uint32_t ev, uint32_t seq, uint64_t sent_ns,
			uint64_t now_ns);
bool mrc_path_set_gap_lost(const struct mrc_path_set *ps, uint32_t ev, uint32_t seq);

bool mrc_path_set_lost(struct mrc_path_set *ps, uint32_t ev, uint32_t seq, uint64_t sent_ns,
		       uint32_t rtt_ns);
bool mrc_path_set_response_lost(struct mrc_path_set *ps, uint32_t ev, uint64_t sent_ns,
				uint64_t now_ns, uint64_t window_ns);
void mrc_path_set_tick(struct mrc_path_set *ps, uint64_t now_ns, struct mrc_path_tick *tick);
bool mrc_path_set_probe_suspect(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
				struct mrc_ev_probe *probe);
bool mrc_path_set_probe_answered(struct mrc_path_set *ps, uint32_t ev, uint32_t probe_id,
				 uint64_t now_ns, struct mrc_ev_change *change);
int mrc_path_set_deny(struct mrc_path_set *ps, uint32_t ev, bool deny, uint64_t now_ns,
		      struct mrc_ev_change *change);

/* Whether the set has EVs whose probes mrc_path_set_tick() looks after, or vets. */
static inline bool mrc_path_set_needs_tick(const struct mrc_path_set *ps)
{
	return ps->nr_suspect || ps->nr_bad || ps->alarm_ns;
}

/*
 * When the set last heard from the peer's side: an ACK came back or a send
 * was acknowledged on one of its EVs (any QP's), or a probe was answered.
 */
static inline uint64_t mrc_path_set_heard_ns(const struct mrc_path_set *ps)
{
	return ps->heard_ns > ps->ref_answered_ns ? ps->heard_ns : ps->ref_answered_ns;
}

/* Whether @ev carries data now (GOOD and not suspect). */
static inline bool mrc_path_set_usable(const struct mrc_path_set *ps, uint32_t ev)
{
	return ev < ps->nr_ev && (ps->usable[ev / 64U] & (1ULL << (ev % 64U)));
}

/*
 * How the EV a copy left on stands, for judging a copy not acknowledged
 * yet (mrc_tx_rec_judge()).
 */
enum mrc_ev_standing {
	MRC_EV_STANDS,		/* it carries data: the copy is judged by time */
	MRC_EV_ON_TRIAL,	/* suspect, its first probe not missed: judged sooner */
	MRC_EV_FELL,		/* suspect after a missed probe, ASSUMED_BAD or denied */
};

/*
 * The standing of @ev from its state, flags and missed probes; the caller
 * may read them without the set's lock, as a stale answer only moves a
 * verdict by one pass.
 */
static inline enum mrc_ev_standing mrc_ev_standing_of(uint8_t state, uint8_t flags,
						      uint8_t probes_missed)
{
	if (state != MRC_EV_GOOD)
		return MRC_EV_FELL;
	if (!(flags & MRC_EV_F_SUSPECT))
		return MRC_EV_STANDS;
	return probes_missed ? MRC_EV_FELL : MRC_EV_ON_TRIAL;
}

/* The standing of @ev; EVs outside the set stand (a record of a set since swapped). */
static inline enum mrc_ev_standing mrc_path_set_standing(const struct mrc_path_set *ps,
							 uint32_t ev)
{
	const struct mrc_ev_health *h;

	if (ev >= ps->nr_ev)
		return MRC_EV_STANDS;
	h = &ps->ev[ev];
	return mrc_ev_standing_of(h->state, h->flags, h->probes_missed);
}

/*
 * The time rule of loss detection: a PSN still unacknowledged that was sent
 * more than @reorder_ns before the newest acknowledged transmission (on any
 * EV) is lost.  It catches an EV that loses everything, where no later send
 * on the same EV is ever acknowledged.
 */
static inline bool mrc_path_time_lost(uint64_t sent_ns, uint64_t newest_acked_sent_ns,
				      uint64_t reorder_ns)
{
	return newest_acked_sent_ns > sent_ns && newest_acked_sent_ns - sent_ns > reorder_ns;
}

static inline uint8_t mrc_path_set_state(const struct mrc_path_set *ps, uint32_t ev)
{
	return ps->ev[ev].state;
}

#endif /* MRC_PATH_SET_H */
