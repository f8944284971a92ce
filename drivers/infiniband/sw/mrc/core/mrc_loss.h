/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Loss detection by time, across EVs: when is an unacknowledged packet lost?
 *
 * Sprayed packets take paths of different lengths, so PSN order says little
 * about loss: a hole 16 PSNs deep may be a packet still on a longer path.
 * Send order plus time says more (RACK, RFC 8985): once a packet sent after
 * P has been acknowledged, P should have arrived within about one round trip
 * of its own send; if it is still missing a reordering window later, it is
 * lost. Which EV either packet took does not matter, so the first ACK of a
 * later packet on any healthy EV starts the clock for every packet before
 * it, on every EV, dead ones included.
 *
 * The reordering window adapts: a quarter of the minimum RTT plus the
 * recent spread of RTTs (a path set's lengths differ, a VM's CPUs reorder),
 * never more than the smoothed or the longest path's RTT, doubled each time a resend proves
 * spurious (the peer saw both copies), halved again after recoveries
 * without one. A tail-loss probe covers the case RACK cannot:
 * the last packets of a burst are lost and nothing after them is ACKed.
 *
 * The estimator keeps its own RTT state (smoothed, windowed minimum, a high
 * water mark that forgets slowly)
 * from the samples the caller feeds it: packets sent once only (Karn).
 * Times are nanoseconds of the caller's monotonic clock; RTTs are clamped
 * to MRC_LOSS_MAX_RTT_NS so they fit 32 bits. Nothing here allocates,
 * locks or divides 64-bit values. The caller walks its own per-PSN records
 * and asks mrc_loss_check() about each one; the earliest deadline it is
 * given is when to look again (an hrtimer in the kernel).
 */
#ifndef MRC_LOSS_H
#define MRC_LOSS_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"
#include "mrc_rtt_min.h"

#define MRC_LOSS_MAX_RTT_NS	(1000U * 1000 * 1000)
/* The minimum RTT is the least sample of this epoch and the one before. */
#define MRC_LOSS_MIN_RTT_EPOCH_NS	(10ULL * 1000 * 1000 * 1000)
/* The reordering window grows to at most this many times its base. */
#define MRC_LOSS_REO_MAX_MULT	16U
/* Recoveries without a spurious resend before the multiplier steps down. */
#define MRC_LOSS_REO_DECAY	16U
/*
 * A copy whose EV is on trial (suspect, its probe out) waits the reordering
 * window less this fraction of it (a shift: a quarter). Under the whole of
 * it, every copy in flight on a dead path waits alone before its resend;
 * with none, a live EV suspected because its queue grew sees all its copies
 * resent, spuriously, while its probe's answer is a round trip away. Of
 * waits of a half, three quarters and seven eighths of the window, three
 * quarters passed the most scenarios of `make sim` (99, 100 and 94 of 113).
 */
#define MRC_LOSS_TRIAL_CUT_SHIFT	2U

struct mrc_loss_params {
	uint32_t initial_rtt_ns;	/* until the first sample */
	uint32_t min_reo_ns;		/* floor of the reordering window */
	uint32_t tlp_min_ns;		/* floor of the tail-loss probe delay */
};

struct mrc_loss {
	struct mrc_loss_params p;
	/* the most recently sent packet known to have arrived */
	uint64_t rack_sent_ns;
	uint32_t rack_psn;
	uint32_t rack_rtt_ns;
	bool rack_valid;
	/* round-trip estimator */
	uint32_t srtt_ns;		/* 0 until the first sample */
	uint32_t rtt_hi_ns;		/* the longest path's RTT, roughly */
	struct mrc_rtt_min min;
	/* reordering window */
	uint32_t reo_mult;		/* 1 .. MRC_LOSS_REO_MAX_MULT */
	uint32_t clean_recoveries;	/* since the last spurious resend */
	/* what happened, for the QP's statistics */
	uint32_t spurious;
};

enum mrc_loss_verdict {
	MRC_LOSS_NO_EVIDENCE,	/* nothing sent after it has arrived yet */
	MRC_LOSS_WAIT,		/* later packets arrived: lost at *deadline */
	MRC_LOSS_LOST,
};

int mrc_loss_init(struct mrc_loss *l, const struct mrc_loss_params *p, uint64_t now_ns);

/* The round trip of a copy sent at @sent_ns, clamped to MRC_LOSS_MAX_RTT_NS; 0 if not after it. */
static inline uint32_t mrc_loss_rtt(uint64_t sent_ns, uint64_t now_ns)
{
	if (now_ns <= sent_ns)
		return 0;
	if (now_ns - sent_ns > MRC_LOSS_MAX_RTT_NS)
		return MRC_LOSS_MAX_RTT_NS;
	return (uint32_t)(now_ns - sent_ns);
}

/*
 * PSN @psn, whose last copy left at @sent_ns, is acknowledged at @now_ns.
 * @resent: it had more than one copy, so its RTT is ambiguous (no sample;
 * it still moves the send-order clock when the copy plausibly arrived).
 */
void mrc_loss_on_acked(struct mrc_loss *l, uint32_t psn, uint64_t sent_ns, uint64_t now_ns,
		       bool resent);

/* Is the unacknowledged PSN @psn, last sent at @sent_ns, lost at @now_ns? */
enum mrc_loss_verdict mrc_loss_check(const struct mrc_loss *l, uint32_t psn, uint64_t sent_ns,
				     uint64_t now_ns, uint64_t *deadline_ns);
/* The same with a reordering allowance of @reo_ns instead of the window. */
enum mrc_loss_verdict mrc_loss_check_within(const struct mrc_loss *l, uint32_t psn,
					    uint64_t sent_ns, uint64_t now_ns, uint32_t reo_ns,
					    uint64_t *deadline_ns);

/* The peer received a resent PSN twice: the resend was spurious. */
void mrc_loss_on_spurious(struct mrc_loss *l);

/* Everything lost in a recovery episode is acknowledged, nothing twice. */
void mrc_loss_on_recovered(struct mrc_loss *l);

/* The reordering window now, in nanoseconds. */
uint32_t mrc_loss_reo_wnd(const struct mrc_loss *l);

/* The least RTT of the last two epochs (the initial RTT before a sample). */
uint32_t mrc_loss_min_rtt(const struct mrc_loss *l);
bool mrc_loss_acked_earlier_copy(const struct mrc_loss *l, uint64_t sent_ns, uint64_t now_ns);

/*
 * Since when a send must have been acknowledged for its EV to count as
 * proven at @now_ns (mrc_path_set_pick_proven()): two smoothed RTTs back,
 * so an EV acknowledged within about one round trip qualifies; for the
 * resend of a copy sent at @copy_sent_ns (0: none), after that too -- an
 * EV that carried a packet sent after the one lost worked after the loss,
 * one proven only before it may have died with it. Never 0.
 */
uint64_t mrc_loss_proven_since(const struct mrc_loss *l, uint64_t now_ns,
			       uint64_t copy_sent_ns);

/*
 * When to send a tail-loss probe if nothing is acknowledged after the
 * packet sent last, at @last_sent_ns: two smoothed RTTs after it.
 */
uint64_t mrc_loss_tlp_deadline(const struct mrc_loss *l, uint64_t last_sent_ns);

/*
 * READ responses (mrc_read_track.h) cross the queues of the responder's way
 * back, which the round trips of this side's ACKs may never meet: @read
 * says what was measured of them (0 before a sample). Their reordering
 * window is the loss estimator's or the recent high of how far apart one
 * chunk's responses arrived, whichever is longer; their round trip the
 * estimator's or the READ window's smoothed one, whichever is longer. Ones
 * asked for again may take a round trip and the window before they count
 * as lost again; a READ's missing tail is asked for after a silence of two
 * round trips and the window, at least MRC_READ_TAIL_MIN_NS. With no round
 * trip measured yet, both are @no_rtt_ns (the caller's retransmit timeout).
 */
struct mrc_read_rtt {
	uint32_t srtt_ns;	/* the READ window's smoothed round trip */
	uint32_t spread_ns;	/* mrc_read_track_spread() */
};

uint32_t mrc_loss_read_reo_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read);
uint64_t mrc_loss_read_again_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read,
				uint64_t no_rtt_ns);
uint64_t mrc_loss_read_tail_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read,
			       uint64_t no_rtt_ns);

/*
 * Tail-loss probes sent without progress before the retransmit timeout is
 * left to decide: each one's deadline is twice the one before.
 */
#define MRC_LOSS_TLP_MAX	2U

bool mrc_loss_tlp_due(const struct mrc_loss *l, uint64_t quiet_since_ns, uint32_t probes,
		      uint64_t now_ns, uint64_t *deadline_ns);

/*
 * A retransmit timeout without progress may mean every way to the peer
 * failed for a while (a switch rebooting, a link of every plane); then its
 * resend dies too, and the next timeout is twice as far. So after a
 * timeout the requester watches its path set: news from the peer's side --
 * an ACK of any QP on the same set, an answer to the set's newest probe --
 * heard after the resend's ACK would have come says the resend died where
 * a way works now, and the oldest PSN goes again at once (at most
 * MRC_LOSS_RETURN_RESENDS times per timeout, each after new news), not
 * after the doubled RTO: in the VM a 1 s outage cost a QP 3.3-3.5 s before.
 * The requester looks every MRC_LOSS_RETURN_POLL_NS (the path set's tick);
 * news comes from the control probe every 50 ms while nothing answers.
 */
#define MRC_LOSS_RETURN_POLL_NS		2000000ULL
#define MRC_LOSS_RETURN_RESENDS		3U

/*
 * Whether the oldest PSN goes again now that the path set heard from the
 * peer at @heard_ns, after a retransmit timeout (or return resend) at
 * @timeout_ns (0: none since the last progress): the news must come a
 * tail-loss probe's wait after it. Else *@deadline_ns is when to look
 * again (0: no need).
 */
bool mrc_loss_return_due(const struct mrc_loss *l, uint64_t timeout_ns, uint64_t heard_ns,
			 uint64_t now_ns, uint64_t *deadline_ns);

#endif /* MRC_LOSS_H */
