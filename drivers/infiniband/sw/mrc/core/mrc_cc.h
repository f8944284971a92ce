/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-QP congestion window, delay based (after UET NSCC, the algorithm
 * behind the OCP profile "uet-1.0-nscc").
 *
 * The window counts packets.  Each ACK brings the number of packets it
 * acknowledged and, when one of them was sent only once, a round-trip
 * sample.  The queueing delay is the smoothed RTT (samples averaged 1/8
 * each, so one late sample -- a descheduled CPU, a delayed ACK -- is no
 * queue) minus the base RTT (the lowest sample of the last two epochs, so
 * a route that got longer is learnt within two epochs).
 *
 * The target delay is relative, not one number for every fabric: half the
 * base RTT, and never less than MRC_CC_TARGET_PKTS packets' worth of the
 * QP's own delivery interval (the shortest time per acknowledged packet
 * measured over a round trip, in the last one or two
 * MRC_CC_INTERVAL_EPOCH_NS: a shaper's first burst is soon forgotten). A
 * queue shorter than that is no congestion but the way packets arrive:
 * ACKs are coalesced, so the first packet of a batch waits for the rest of
 * it, and a slow path holds a packet for its serialization time. A fixed
 * target either lets a 10 us fabric queue for a hundred round trips or
 * holds a window on a slow path at its floor. The caller may still impose
 * an absolute one.
 *
 * Within the target delay the window grows: by every acknowledged packet
 * until the first congestion signal, then by one packet per window and up
 * to MRC_CC_PROP_GAIN more in proportion to how far below the target the
 * delay is.  Beyond the target it shrinks in proportion to how far beyond,
 * by at most half, at most once per smoothed RTT, so one queue is not
 * counted twice; how far beyond is the smaller of the smoothed delay and
 * the latest sample's, which sees the queue a decrease already drained
 * (the smoothed RTT lags it by a round trip: four decreases sized by it
 * took a window from the fair share to a fifth of it after a failure), and
 * a sample within the target cuts nothing.  A loss shrinks it by a quarter
 * (once per RTT: losses come in bursts), unless it was on a path that
 * failed -- the path's bypass, not the window, is the answer to that -- or
 * came with no queue beyond the target: then it was corruption or bad luck,
 * not congestion (after NSCC, which leaves the window to delay and ECN).
 * A retransmit timeout drops it to the minimum, from where it grows by
 * every acknowledged packet again up to half of what it was.
 *
 * ECN and delay together (after NSCC's four cases): a congestion mark
 * with the delay beyond the target counts. The first one of a round trip
 * cuts the window by 1/2^MRC_CC_ECN_CUT_SHIFT for every mark a round trip
 * of this QP brought of late (their count averaged over round trips), at
 * most by half. A QP with twice the share of a queue gets twice its marks
 * and so cuts twice as deep: that, not a cut per round trip that weighs
 * every QP alike, is what makes competing QPs fair. Averaged, not a cut
 * for each mark as it comes, each QP's share does not wander with the
 * chance of which packets the queue marked.  A mark with the delay within
 * the target is one EV's queue, not the QP's: the path set rests that EV,
 * the window stays.  And once the fabric has marked (within
 * MRC_CC_ECN_EPOCH_NS), delay beyond the target with no mark is a queue
 * that does not mark -- a host, a route that got longer -- and the window
 * grows by its fair packet per round trip instead of shrinking; a fabric
 * that never marks is left to the delay rules above.
 *
 * Times are nanoseconds from the caller's monotonic clock.  The caller
 * owns the locking; nothing here allocates or divides 64-bit values.
 */
#ifndef MRC_CC_H
#define MRC_CC_H

#include "mrc_core_compat.h"
#include "mrc_rtt_min.h"

/* The window is fixed point: packets << MRC_CC_SHIFT. */
#define MRC_CC_SHIFT		10U

/* The base RTT is the minimum over this epoch and the previous one. */
#define MRC_CC_BASE_EPOCH_NS	(10ULL * 1000 * 1000 * 1000)

/* Round-trip samples are clamped to this (a second), so sums fit 32 bits. */
#define MRC_CC_MAX_RTT_NS	(1000U * 1000 * 1000)

/*
 * The relative target: the base RTT >> MRC_CC_TARGET_BASE_SHIFT, at least
 * MRC_CC_TARGET_PKTS delivery intervals. A delivery interval is measured
 * over at least a smoothed RTT and MRC_CC_INTERVAL_PKTS packets.
 */
#define MRC_CC_TARGET_BASE_SHIFT	1U
#define MRC_CC_TARGET_PKTS		16U
#define MRC_CC_INTERVAL_PKTS		16U
#define MRC_CC_INTERVAL_EPOCH_NS	(1000ULL * 1000 * 1000)

/*
 * A round trip's congestion mark takes this share of the window: 1/32.
 * The marks of a round trip are averaged over the last ones, 1/16 of each
 * (MRC_CC_MARKS_GAIN_SHIFT), each round trip's count at most
 * MRC_CC_MARKS_MAX; the cut is for one mark at least. The average starts
 * at MRC_CC_MARKS_INIT, and again at the first mark after
 * MRC_CC_ECN_EPOCH_NS without one: the first congestion halves the window
 * (averaged down over the quiet round trips, it had cut nothing).
 * Cut by 1/32 for each mark as it came, the QPs of the SRv6 8:1 incast of
 * make sim strayed 13.5% from the mean share over a hundred round trips
 * (6.4% at 1/128, which slowed the VM's rate test after a blackhole to
 * 0.54-0.73 of before); averaged, the adaptive spray's ECMP incast is
 * 2.8-9.6% from the mean over seeds 1-8 (10.4% before on seed 1). The SRv6
 * one is 4-16% under both averaged rules tried (the same run with 0-5 us
 * of jitter): phase effects of a fabric without noise, the QPs whose
 * packets meet the queue below its threshold round after round cutting
 * less often.
 */
#define MRC_CC_ECN_CUT_SHIFT		5U
#define MRC_CC_MARKS_GAIN_SHIFT		4U
#define MRC_CC_MARKS_INIT		16U
#define MRC_CC_MARKS_MAX		4096U
/* A fabric that marked within this long is taken to mark its queues. */
#define MRC_CC_ECN_EPOCH_NS		(1000ULL * 1000 * 1000)

/* Below the target, up to this many packets per window more than one. */
#define MRC_CC_PROP_GAIN		1U

struct mrc_cc_params {
	uint32_t init_cwnd;		/* packets */
	uint32_t min_cwnd;		/* packets, >= 1 */
	uint32_t max_cwnd;		/* packets, <= 2^20 */
	uint32_t target_delay_ns;	/* an absolute target; 0: relative (above) */
};

struct mrc_cc {
	struct mrc_cc_params p;
	uint32_t cwnd;			/* fixed point */
	uint32_t srtt_ns;		/* 0 until the first sample */
	uint32_t last_rtt_ns;		/* the latest sample */
	struct mrc_rtt_min base;	/* the base RTT's samples */
	struct mrc_rtt_min interval;	/* ns per delivered packet, its least */
	uint64_t meas_start_ns;		/* the delivery measurement under way */
	uint32_t meas_pkts;
	uint64_t hold_until_ns;		/* no decrease before this */
	uint32_t ssthresh;		/* fixed point: slow start below it */
	uint64_t ecn_until_ns;		/* the fabric marks: delay alone cuts nothing */
	uint64_t ecn_round_end_ns;	/* no mark cuts before this */
	uint64_t round_end_ns;		/* the round trip whose marks are counted ends */
	uint32_t round_marks;		/* ... and its marks beyond the target so far */
	uint32_t marks_avg;		/* fixed point: a round trip's marks, averaged */
	/* what happened, for the QP's statistics */
	uint32_t delay_decreases;
	uint32_t loss_decreases;
	uint32_t path_losses;		/* losses on failing paths: no decrease */
	uint32_t quiet_losses;		/* losses with the delay within target: none */
	uint32_t ecn_decreases;		/* round trips whose marks cut the window */
	uint32_t ecn_path_marks;	/* marks with the delay within target: none */
	uint32_t timeouts;
};

int mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p, uint64_t now_ns);
void mrc_cc_on_ack(struct mrc_cc *cc, uint32_t acked, uint32_t rtt_ns, uint64_t now_ns);
void mrc_cc_on_loss(struct mrc_cc *cc, uint64_t now_ns, bool path_failed);
void mrc_cc_on_ce(struct mrc_cc *cc, uint32_t marked_rtt_ns, uint64_t now_ns);
void mrc_cc_on_timeout(struct mrc_cc *cc);

/* Whole packets the window allows in flight (>= the minimum). */
static inline uint32_t mrc_cc_cwnd(const struct mrc_cc *cc)
{
	return cc->cwnd >> MRC_CC_SHIFT;
}

/* Growing by every acknowledged packet: no congestion signal yet. */
static inline bool mrc_cc_in_slow_start(const struct mrc_cc *cc)
{
	return cc->cwnd < cc->ssthresh;
}

/* The lowest round trip of the last two epochs; 0 before any sample. */
static inline uint32_t mrc_cc_base_rtt(const struct mrc_cc *cc)
{
	uint32_t base = mrc_rtt_min_get(&cc->base);

	return base == MRC_RTT_MIN_NONE ? 0 : base;
}

/* The shortest time per acknowledged packet lately; 0 before a measurement. */
static inline uint32_t mrc_cc_delivery_interval(const struct mrc_cc *cc)
{
	uint32_t d = mrc_rtt_min_get(&cc->interval);

	return d == MRC_RTT_MIN_NONE ? 0 : d;
}

uint32_t mrc_cc_target_delay(const struct mrc_cc *cc);

/*
 * Whether @count more packets may go out with @in_flight already out.
 * With nothing in flight one batch always may, however large (a READ
 * request reserves up to MRC_READ_REQ_MAX_PKTS responses at once).
 */
static inline bool mrc_cc_may_send(const struct mrc_cc *cc, uint32_t in_flight,
				   uint32_t count)
{
	return !in_flight || in_flight + count <= mrc_cc_cwnd(cc);
}

#endif /* MRC_CC_H */
