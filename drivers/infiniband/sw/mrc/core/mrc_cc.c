// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_cc.c - the per-QP congestion window (see mrc_cc.h for the rules).
 */
#include "mrc_cc.h"

#define MRC_CC_ONE		(1U << MRC_CC_SHIFT)

static void mrc_cc_clamp(struct mrc_cc *cc)
{
	uint32_t lo = cc->p.min_cwnd << MRC_CC_SHIFT;
	uint32_t hi = cc->p.max_cwnd << MRC_CC_SHIFT;

	if (cc->cwnd < lo)
		cc->cwnd = lo;
	if (cc->cwnd > hi)
		cc->cwnd = hi;
}

int mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p, uint64_t now_ns)
{
	if (!p->min_cwnd || p->min_cwnd > p->max_cwnd ||
	    p->max_cwnd > (1U << (32 - MRC_CC_SHIFT - 2)) ||
	    p->init_cwnd < p->min_cwnd || p->init_cwnd > p->max_cwnd)
		return -MRC_EINVAL;
	memset(cc, 0, sizeof(*cc));
	cc->p = *p;
	cc->cwnd = p->init_cwnd << MRC_CC_SHIFT;
	mrc_rtt_min_init(&cc->base, now_ns);
	mrc_rtt_min_init(&cc->interval, now_ns);
	cc->meas_start_ns = now_ns;
	cc->ssthresh = 0xffffffffU;
	cc->marks_avg = MRC_CC_MARKS_INIT << MRC_CC_SHIFT;
	return 0;
}

static void mrc_cc_sample(struct mrc_cc *cc, uint32_t rtt_ns, uint64_t now_ns)
{
	mrc_rtt_min_sample(&cc->base, rtt_ns, now_ns, MRC_CC_BASE_EPOCH_NS);
	cc->last_rtt_ns = rtt_ns;
	if (!cc->srtt_ns)
		cc->srtt_ns = rtt_ns;
	else
		cc->srtt_ns = cc->srtt_ns - (cc->srtt_ns >> 3) + (rtt_ns >> 3);
}

/*
 * Time per delivered packet, measured over a smoothed RTT at least (one
 * ACK's batch says nothing about the rate); a measurement spanning an idle
 * time only reads long, and the minimum ignores it.
 */
static void mrc_cc_measure(struct mrc_cc *cc, uint32_t acked, uint64_t now_ns)
{
	uint64_t span = now_ns - cc->meas_start_ns;

	cc->meas_pkts += acked;
	if (!cc->srtt_ns || span < cc->srtt_ns || cc->meas_pkts < MRC_CC_INTERVAL_PKTS)
		return;
	if (span <= MRC_CC_MAX_RTT_NS)
		mrc_rtt_min_sample(&cc->interval, (uint32_t)span / cc->meas_pkts, now_ns,
				   MRC_CC_INTERVAL_EPOCH_NS);
	cc->meas_start_ns = now_ns;
	cc->meas_pkts = 0;
}

/*
 * Once per smoothed RTT (as ACKs come), fold the marks of the round trip
 * that ended into their average, 1/2^MRC_CC_MARKS_GAIN_SHIFT each.
 */
static void mrc_cc_count_round(struct mrc_cc *cc, uint64_t now_ns)
{
	uint32_t marks = cc->round_marks;

	if (!cc->srtt_ns || now_ns < cc->round_end_ns)
		return;
	if (!cc->round_end_ns) {	/* the first round trip starts with the first sample */
		cc->round_end_ns = now_ns + cc->srtt_ns;
		return;
	}
	if (marks > MRC_CC_MARKS_MAX)
		marks = MRC_CC_MARKS_MAX;
	cc->marks_avg = cc->marks_avg - (cc->marks_avg >> MRC_CC_MARKS_GAIN_SHIFT) +
			((marks << MRC_CC_SHIFT) >> MRC_CC_MARKS_GAIN_SHIFT);
	cc->round_marks = 0;
	cc->round_end_ns = now_ns + cc->srtt_ns;
}

uint32_t mrc_cc_target_delay(const struct mrc_cc *cc)
{
	uint32_t rel = mrc_cc_base_rtt(cc) >> MRC_CC_TARGET_BASE_SHIFT;
	uint32_t floor = mrc_cc_delivery_interval(cc);

	if (cc->p.target_delay_ns)
		return cc->p.target_delay_ns;
	floor = floor > MRC_CC_MAX_RTT_NS / MRC_CC_TARGET_PKTS ? MRC_CC_MAX_RTT_NS :
		floor * MRC_CC_TARGET_PKTS;
	return rel > floor ? rel : floor;
}

/* One decrease per smoothed RTT: the next ones would see the same queue. */
static bool mrc_cc_may_decrease(struct mrc_cc *cc, uint64_t now_ns)
{
	if (now_ns < cc->hold_until_ns)
		return false;
	cc->hold_until_ns = now_ns + cc->srtt_ns;
	return true;
}

/*
 * Shrink by half the share of the sample that is excess delay: a sample
 * twice the target's worth of queueing halves the window's excess, one far
 * beyond it halves the window.
 */
static void mrc_cc_delay_decrease(struct mrc_cc *cc, uint32_t delay, uint32_t target)
{
	uint32_t excess = delay - target;
	uint32_t share;	/* excess / delay, fixed point */

	if (delay >= MRC_CC_ONE)
		share = excess / (delay >> MRC_CC_SHIFT);
	else
		share = (excess << MRC_CC_SHIFT) / delay;
	if (share > MRC_CC_ONE)
		share = MRC_CC_ONE;
	cc->cwnd -= (uint32_t)(((uint64_t)cc->cwnd * share) >> (MRC_CC_SHIFT + 1));
	cc->delay_decreases++;
	mrc_cc_clamp(cc);
	cc->ssthresh = cc->cwnd;
}

/*
 * The queueing delay a round trip of @rtt_ns shows: what it takes above the
 * base. Of the smoothed RTT, the queue the window answers to (0 before a
 * sample); of the latest sample, the queue as it stands now, where the
 * smoothed RTT still remembers the one a decrease has drained already.
 */
static uint32_t mrc_cc_queue_of(const struct mrc_cc *cc, uint32_t rtt_ns)
{
	uint32_t base = mrc_cc_base_rtt(cc);

	return rtt_ns > base ? rtt_ns - base : 0;
}

static uint32_t mrc_cc_delay(const struct mrc_cc *cc)
{
	return mrc_cc_queue_of(cc, cc->srtt_ns);
}

/*
 * Below the target the window grows by a packet per window, plus up to
 * MRC_CC_PROP_GAIN more the emptier the queue is (after NSCC's
 * proportional increase): a window cut by a failure or a loss returns
 * within a few round trips of an idle path, not a hundred.
 */
static void mrc_cc_increase(struct mrc_cc *cc, uint32_t acked, uint32_t delay, uint32_t target)
{
	uint32_t step, room = 0;	/* room: (target - delay) / target, fixed point */
	uint64_t next;

	if (mrc_cc_in_slow_start(cc)) {
		next = (uint64_t)cc->cwnd + ((uint64_t)acked << MRC_CC_SHIFT);
	} else {
		step = (acked << MRC_CC_SHIFT) / mrc_cc_cwnd(cc);	/* acked <= 2^20 */
		if (target && delay < target)
			room = target >= MRC_CC_ONE ? (target - delay) / (target >> MRC_CC_SHIFT) :
				((target - delay) << MRC_CC_SHIFT) / target;
		next = (uint64_t)cc->cwnd + step +
		       (((uint64_t)step * room * MRC_CC_PROP_GAIN) >> MRC_CC_SHIFT);
	}
	cc->cwnd = next > (uint64_t)cc->p.max_cwnd << MRC_CC_SHIFT ?
		cc->p.max_cwnd << MRC_CC_SHIFT : (uint32_t)next;
	mrc_cc_clamp(cc);
}

void mrc_cc_on_ack(struct mrc_cc *cc, uint32_t acked, uint32_t rtt_ns, uint64_t now_ns)
{
	uint32_t delay = 0, target = 0, now_queue;

	if (acked > cc->p.max_cwnd)
		acked = cc->p.max_cwnd;
	mrc_cc_measure(cc, acked, now_ns);
	mrc_cc_count_round(cc, now_ns);
	if (rtt_ns) {
		if (rtt_ns > MRC_CC_MAX_RTT_NS)
			rtt_ns = MRC_CC_MAX_RTT_NS;
		mrc_cc_sample(cc, rtt_ns, now_ns);
		delay = mrc_cc_delay(cc);
		target = mrc_cc_target_delay(cc);
		if (delay > target && now_ns < cc->ecn_until_ns) {
			/* a queue that does not mark: the fair increase only */
			if (mrc_cc_in_slow_start(cc))
				cc->ssthresh = cc->cwnd;
			delay = 0;
			target = 0;
		} else if (delay > target) {
			now_queue = mrc_cc_queue_of(cc, rtt_ns);
			if (now_queue < delay)
				delay = now_queue;
			if (delay > target && mrc_cc_may_decrease(cc, now_ns))
				mrc_cc_delay_decrease(cc, delay, target);
			return;
		}
	}
	mrc_cc_increase(cc, acked, delay, target);
}

/*
 * A loss on an EV that stopped carrying data with it (@path_failed: the
 * loss made it suspect, or it was suspect, ASSUMED_BAD or denied already)
 * says a path failed, not that the network is congested: the bypass, not
 * the window, answers it (after UET NSCC). Cut for those, the window of a
 * QP whose dead path swallowed a window's worth of packets went down to its
 * floor within a few round trips of the failure.
 */
void mrc_cc_on_loss(struct mrc_cc *cc, uint64_t now_ns, bool path_failed)
{
	if (path_failed) {
		cc->path_losses++;
		return;
	}
	/* no queue to speak of: a packet corrupted or dropped at random, not congestion */
	if (cc->srtt_ns && mrc_cc_delay(cc) <= mrc_cc_target_delay(cc)) {
		cc->quiet_losses++;
		return;
	}
	if (!mrc_cc_may_decrease(cc, now_ns))
		return;
	cc->cwnd -= cc->cwnd >> 2;
	cc->loss_decreases++;
	mrc_cc_clamp(cc);
	cc->ssthresh = cc->cwnd;
}

/*
 * A packet came back congestion-marked (the ACK's CE echo) after
 * @marked_rtt_ns, 0 when the echo could not name it (the latest sample
 * stands in). With a queue beyond the target behind it, it counts into the
 * round trip's marks, and the first of a round trip cuts the window by the
 * share the average round trip's marks take (see mrc_cc.h).
 */
void mrc_cc_on_ce(struct mrc_cc *cc, uint32_t marked_rtt_ns, uint64_t now_ns)
{
	uint32_t rtt = marked_rtt_ns ? marked_rtt_ns : cc->last_rtt_ns;
	bool quiet = now_ns >= cc->ecn_until_ns;
	uint32_t marks, share;	/* share: of the window, fixed point */

	cc->ecn_until_ns = now_ns + MRC_CC_ECN_EPOCH_NS;
	if (!cc->srtt_ns || rtt <= mrc_cc_base_rtt(cc) + mrc_cc_target_delay(cc)) {
		cc->ecn_path_marks++;
		return;
	}
	/* the quiet round trips since the last congestion say nothing of this one */
	if (quiet)
		cc->marks_avg = MRC_CC_MARKS_INIT << MRC_CC_SHIFT;
	if (cc->round_marks < MRC_CC_MARKS_MAX)
		cc->round_marks++;
	if (now_ns < cc->ecn_round_end_ns)
		return;
	cc->ecn_round_end_ns = now_ns + cc->srtt_ns;
	/* this round trip has brought one mark at least */
	marks = cc->marks_avg > MRC_CC_ONE ? cc->marks_avg : MRC_CC_ONE;
	share = marks >> MRC_CC_ECN_CUT_SHIFT;
	if (share > MRC_CC_ONE / 2)
		share = MRC_CC_ONE / 2;
	cc->cwnd -= (uint32_t)(((uint64_t)cc->cwnd * share) >> MRC_CC_SHIFT);
	cc->ecn_decreases++;
	mrc_cc_clamp(cc);
	cc->ssthresh = cc->cwnd;
}

void mrc_cc_on_timeout(struct mrc_cc *cc)
{
	cc->ssthresh = cc->cwnd >> 1;
	cc->cwnd = cc->p.min_cwnd << MRC_CC_SHIFT;
	if (cc->ssthresh < cc->cwnd)
		cc->ssthresh = cc->cwnd;
	cc->timeouts++;
}
