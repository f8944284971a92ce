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
	cc->ssthresh = 0xffffffffU;
	return 0;
}

static void mrc_cc_sample(struct mrc_cc *cc, uint32_t rtt_ns, uint64_t now_ns)
{
	mrc_rtt_min_sample(&cc->base, rtt_ns, now_ns, MRC_CC_BASE_EPOCH_NS);
	if (!cc->srtt_ns)
		cc->srtt_ns = rtt_ns;
	else
		cc->srtt_ns = cc->srtt_ns - (cc->srtt_ns >> 3) + (rtt_ns >> 3);
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

void mrc_cc_on_ack(struct mrc_cc *cc, uint32_t acked, uint32_t rtt_ns, uint64_t now_ns)
{
	uint32_t base, delay;

	if (acked > cc->p.max_cwnd)
		acked = cc->p.max_cwnd;
	if (rtt_ns) {
		if (rtt_ns > MRC_CC_MAX_RTT_NS)
			rtt_ns = MRC_CC_MAX_RTT_NS;
		mrc_cc_sample(cc, rtt_ns, now_ns);
		base = mrc_cc_base_rtt(cc);
		delay = cc->srtt_ns > base ? cc->srtt_ns - base : 0;
		if (delay > cc->p.target_delay_ns) {
			if (mrc_cc_may_decrease(cc, now_ns))
				mrc_cc_delay_decrease(cc, delay, cc->p.target_delay_ns);
			return;
		}
	}
	if (mrc_cc_in_slow_start(cc))
		cc->cwnd += acked << MRC_CC_SHIFT;
	else
		cc->cwnd += (acked << MRC_CC_SHIFT) / mrc_cc_cwnd(cc);
	mrc_cc_clamp(cc);
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
	if (!mrc_cc_may_decrease(cc, now_ns))
		return;
	cc->cwnd -= cc->cwnd >> 2;
	cc->loss_decreases++;
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
