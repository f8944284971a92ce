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
 * one lost), a short history of losses that decides ASSUMED_BAD, and the
 * probe successes that decide GOOD again.  ev_min_active is honoured: the
 * set never marks an EV bad if that would leave fewer GOOD EVs.
 *
 * The caller owns the storage and the locking and supplies the time;
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
	MRC_EV_CAUSE_LOSS,		/* losses on the EV */
	MRC_EV_CAUSE_TIMEOUT,		/* a retransmit timeout with data on it */
	MRC_EV_CAUSE_PROBE,		/* probes answered again */
	MRC_EV_CAUSE_CONTROLLER,	/* denied or allowed by the controller */
};

/* How a QP walks the GOOD EVs. */
enum mrc_spray_policy {
	MRC_SPRAY_ROUND_ROBIN,	/* each GOOD EV in turn */
	MRC_SPRAY_WEIGHTED,		/* each GOOD EV for @weight packets in turn */
};

#define MRC_PROFILE_EV_MAX		4096U	/* EVs in one profile */
#define MRC_EV_REORDER		3U	/* later sends acked on the same EV: lost */
#define MRC_EV_HISTORY		16U	/* resolved sends remembered per EV */
#define MRC_EV_BAD_LOSSES	3U	/* lost among them: ASSUMED_BAD */
#define MRC_EV_PROBES_GOOD	3U	/* probes answered in a row: GOOD again */

/* 64-bit words of caller storage the GOOD bitmap of @nr_ev EVs needs. */
#define MRC_PATH_SET_WORDS(nr_ev)	(((nr_ev) + 63U) / 64U)

struct mrc_ev_health {
	uint32_t tx_seq;	/* transmissions on this EV so far */
	uint32_t acked_seq;	/* one past the highest tx_seq acknowledged; 0: none */
	uint16_t history;	/* bit i: the i-th latest resolved send was lost */
	uint8_t state;		/* enum mrc_ev_health_state */
	uint8_t reason;		/* enum mrc_ev_cause of the last change */
	uint8_t probes_ok;	/* while ASSUMED_BAD: probes answered in a row */
	uint8_t weight;		/* MRC_SPRAY_WEIGHTED: 1 ... 255 */
	uint32_t rtt_ns;	/* the last probe's round trip */
	uint64_t changed_ns;	/* when the state last changed */
	uint64_t packets;	/* transmissions, retransmissions included */
	uint64_t acked;		/* transmissions acknowledged */
	uint64_t losses;	/* transmissions found lost */
};

struct mrc_path_set {
	struct mrc_ev_health *ev;	/* caller storage, @nr_ev entries */
	uint64_t *good;			/* caller storage: bit i set = EV i GOOD */
	uint32_t nr_ev;
	uint32_t nr_good;
	uint32_t min_active;		/* ev_min_active */
	uint8_t policy;			/* enum mrc_spray_policy */
};

/* A QP's place in the walk over its path set. */
struct mrc_ev_cursor {
	uint32_t next;		/* the EV to consider first */
	uint32_t left;		/* MRC_SPRAY_WEIGHTED: packets left on @next */
};

/* One EV state change, for the caller to report as an EV event. */
struct mrc_ev_change {
	uint32_t ev;
	uint8_t from;
	uint8_t to;
	uint8_t reason;
};

int mrc_path_set_init(struct mrc_path_set *ps, struct mrc_ev_health *ev, uint64_t *good,
		      uint32_t nwords, uint32_t nr_ev, uint32_t min_active, uint8_t policy);

int mrc_path_set_set_weight(struct mrc_path_set *ps, uint32_t ev, uint32_t weight);
int mrc_path_set_pick(const struct mrc_path_set *ps, struct mrc_ev_cursor *cur, uint32_t avoid,
		      uint32_t *ev);
uint32_t mrc_path_set_sent(struct mrc_path_set *ps, uint32_t ev);
void mrc_path_set_acked(struct mrc_path_set *ps, uint32_t ev, uint32_t seq);
bool mrc_path_set_gap_lost(const struct mrc_path_set *ps, uint32_t ev, uint32_t seq);

bool mrc_path_set_lost(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
		       struct mrc_ev_change *change);
bool mrc_path_set_timed_out(struct mrc_path_set *ps, uint32_t ev, uint64_t now_ns,
			    struct mrc_ev_change *change);
bool mrc_path_set_probed(struct mrc_path_set *ps, uint32_t ev, bool answered, uint32_t rtt_ns,
			 uint64_t now_ns, struct mrc_ev_change *change);
int mrc_path_set_deny(struct mrc_path_set *ps, uint32_t ev, bool deny, uint64_t now_ns,
		      struct mrc_ev_change *change);

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
