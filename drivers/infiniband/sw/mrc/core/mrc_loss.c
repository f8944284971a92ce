// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Loss detection by send time and a reordering window that adapts
 * (mrc_loss.h says why and how).
 */
#include "mrc_loss.h"
#include "mrc_psn.h"

int mrc_loss_init(struct mrc_loss *l, const struct mrc_loss_params *p, uint64_t now_ns)
{
	if (!p->initial_rtt_ns || p->initial_rtt_ns > MRC_LOSS_MAX_RTT_NS ||
	    p->min_reo_ns > MRC_LOSS_MAX_RTT_NS || p->tlp_min_ns > MRC_LOSS_MAX_RTT_NS)
		return -MRC_EINVAL;
	memset(l, 0, sizeof(*l));
	l->p = *p;
	mrc_rtt_min_init(&l->min, now_ns);
	/* until the long paths have answered, assume they are as long as the initial RTT */
	l->rtt_hi_ns = p->initial_rtt_ns;
	l->reo_mult = 1;
	return 0;
}

/*
 * The smoothed RTT (RFC 6298's 1/8, in a form that cannot overflow 32 bits),
 * the windowed minimum, and a high-water mark that jumps to every higher
 * sample and sinks towards lower ones by 1/64 of the difference each: the
 * longest path in use stays in it, a queueing spike fades within a few
 * hundred samples.
 */
static void mrc_loss_sample(struct mrc_loss *l, uint32_t rtt_ns, uint64_t now_ns)
{
	mrc_rtt_min_sample(&l->min, rtt_ns, now_ns, MRC_LOSS_MIN_RTT_EPOCH_NS);
	if (rtt_ns > l->rtt_hi_ns)
		l->rtt_hi_ns = rtt_ns;
	else
		l->rtt_hi_ns -= (l->rtt_hi_ns - rtt_ns) / 64;

	if (!l->srtt_ns)
		l->srtt_ns = rtt_ns;
	else
		l->srtt_ns = l->srtt_ns - l->srtt_ns / 8 + rtt_ns / 8;
	if (!l->srtt_ns)
		l->srtt_ns = 1;
}

uint32_t mrc_loss_min_rtt(const struct mrc_loss *l)
{
	uint32_t m = mrc_rtt_min_get(&l->min);

	return m == MRC_RTT_MIN_NONE ? l->p.initial_rtt_ns : m;
}

/*
 * An ACK sooner than any round trip after a resent copy left is for an
 * earlier copy: neither the last copy's EV nor what left with it may be
 * judged by it.
 */
bool mrc_loss_acked_earlier_copy(const struct mrc_loss *l, uint64_t sent_ns, uint64_t now_ns)
{
	return mrc_loss_rtt(sent_ns, now_ns) < mrc_loss_min_rtt(l);
}

/* Was (a_ns, a_psn) sent after (b_ns, b_psn)? PSN order breaks ties of the clock. */
static bool mrc_loss_sent_after(uint64_t a_ns, uint32_t a_psn, uint64_t b_ns, uint32_t b_psn)
{
	return a_ns > b_ns || (a_ns == b_ns && mrc_psn_after(a_psn, b_psn));
}

void mrc_loss_on_acked(struct mrc_loss *l, uint32_t psn, uint64_t sent_ns, uint64_t now_ns,
		       bool resent)
{
	uint32_t rtt = mrc_loss_rtt(sent_ns, now_ns);

	if (resent) {
		/* says nothing about what was sent with the last copy */
		if (mrc_loss_acked_earlier_copy(l, sent_ns, now_ns))
			return;
	} else {
		mrc_loss_sample(l, rtt, now_ns);
	}
	if (!l->rack_valid || mrc_loss_sent_after(sent_ns, psn, l->rack_sent_ns, l->rack_psn)) {
		l->rack_sent_ns = sent_ns;
		l->rack_psn = psn;
		l->rack_rtt_ns = rtt;
		l->rack_valid = true;
	}
}

/*
 * A quarter of the minimum RTT (RACK's allowance for reordering among paths
 * of one length) on top of the spread between the longest path in use and
 * the shortest: a packet on the longest may arrive that much after one sent
 * later on the shortest. Widened by spurious resends, up to the larger of
 * the smoothed RTT and the longest path's.
 */
uint32_t mrc_loss_reo_wnd(const struct mrc_loss *l)
{
	uint32_t min_rtt = mrc_loss_min_rtt(l);
	uint32_t spread = l->rtt_hi_ns > min_rtt ? l->rtt_hi_ns - min_rtt : 0;
	uint32_t base = min_rtt / 4 + spread;
	uint32_t cap = l->srtt_ns ? l->srtt_ns : l->p.initial_rtt_ns;
	uint64_t wnd;

	/* RACK stops at the smoothed RTT; sprayed, the longest path's RTT may be more */
	if (l->rtt_hi_ns > cap)
		cap = l->rtt_hi_ns;

	if (l->p.min_reo_ns > base)
		base = l->p.min_reo_ns;
	if (l->p.min_reo_ns > cap)
		cap = l->p.min_reo_ns;
	wnd = (uint64_t)base * l->reo_mult;
	return wnd < cap ? (uint32_t)wnd : cap;
}

enum mrc_loss_verdict mrc_loss_check_within(const struct mrc_loss *l, uint32_t psn,
					    uint64_t sent_ns, uint64_t now_ns, uint32_t reo_ns,
					    uint64_t *deadline_ns)
{
	uint64_t deadline;

	if (!l->rack_valid || !mrc_loss_sent_after(l->rack_sent_ns, l->rack_psn, sent_ns, psn))
		return MRC_LOSS_NO_EVIDENCE;
	/* it should have arrived about one RTT after it left, as the later one did */
	deadline = sent_ns + l->rack_rtt_ns + reo_ns;
	*deadline_ns = deadline;
	return now_ns >= deadline ? MRC_LOSS_LOST : MRC_LOSS_WAIT;
}

enum mrc_loss_verdict mrc_loss_check(const struct mrc_loss *l, uint32_t psn, uint64_t sent_ns,
				     uint64_t now_ns, uint64_t *deadline_ns)
{
	return mrc_loss_check_within(l, psn, sent_ns, now_ns, mrc_loss_reo_wnd(l), deadline_ns);
}

void mrc_loss_on_spurious(struct mrc_loss *l)
{
	l->spurious++;
	l->clean_recoveries = 0;
	if (l->reo_mult < MRC_LOSS_REO_MAX_MULT)
		l->reo_mult *= 2;
}

void mrc_loss_on_recovered(struct mrc_loss *l)
{
	if (++l->clean_recoveries < MRC_LOSS_REO_DECAY)
		return;
	l->clean_recoveries = 0;
	if (l->reo_mult > 1)
		l->reo_mult /= 2;
}

uint64_t mrc_loss_proven_since(const struct mrc_loss *l, uint64_t now_ns,
			       uint64_t copy_sent_ns)
{
	uint64_t back = 2ULL * (l->srtt_ns ? l->srtt_ns : l->p.initial_rtt_ns);
	uint64_t since = now_ns > back ? now_ns - back : 1;

	return copy_sent_ns >= since ? copy_sent_ns + 1U : since;
}

uint32_t mrc_loss_read_reo_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read)
{
	uint32_t wnd = mrc_loss_reo_wnd(l);

	return read->spread_ns > wnd ? read->spread_ns : wnd;
}

/* The READ responses' round trip (see mrc_loss_read_reo_ns()); 0: none measured. */
static uint32_t mrc_loss_read_srtt(const struct mrc_loss *l, const struct mrc_read_rtt *read)
{
	return read->srtt_ns > l->srtt_ns ? read->srtt_ns : l->srtt_ns;
}

uint64_t mrc_loss_read_again_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read,
				uint64_t no_rtt_ns)
{
	uint32_t srtt = mrc_loss_read_srtt(l, read);

	if (!srtt)
		return no_rtt_ns;
	return (uint64_t)srtt + mrc_loss_read_reo_ns(l, read);
}

uint64_t mrc_loss_read_tail_ns(const struct mrc_loss *l, const struct mrc_read_rtt *read,
			       uint64_t no_rtt_ns)
{
	uint32_t srtt = mrc_loss_read_srtt(l, read);
	uint64_t wait;

	if (!srtt)
		return no_rtt_ns;
	wait = 2ULL * srtt + mrc_loss_read_reo_ns(l, read);
	return wait > MRC_READ_TAIL_MIN_NS ? wait : MRC_READ_TAIL_MIN_NS;
}

uint64_t mrc_loss_tlp_deadline(const struct mrc_loss *l, uint64_t last_sent_ns)
{
	uint32_t srtt = l->srtt_ns ? l->srtt_ns : l->p.initial_rtt_ns;
	uint64_t pto = 2ULL * srtt;

	if (pto < l->p.tlp_min_ns)
		pto = l->p.tlp_min_ns;
	return last_sent_ns + pto;
}

/*
 * News heard two smoothed RTTs (the tail-loss probe's wait) after the
 * timeout came after its resend's ACK would have: the resend died, where
 * a way is back now.
 */
bool mrc_loss_return_due(const struct mrc_loss *l, uint64_t timeout_ns, uint64_t heard_ns,
			 uint64_t now_ns, uint64_t *deadline_ns)
{
	uint64_t from;

	*deadline_ns = 0;
	if (!timeout_ns)
		return false;
	from = mrc_loss_tlp_deadline(l, timeout_ns);
	if (heard_ns >= from)
		return true;
	*deadline_ns = (now_ns > from ? now_ns : from) + MRC_LOSS_RETURN_POLL_NS;
	return false;
}

/*
 * Whether a tail-loss probe is due at @now_ns: data is out, nothing was
 * sent or acknowledged since @quiet_since_ns, and @probes (sent since the
 * last progress) is below MRC_LOSS_TLP_MAX; the probe's deadline doubles
 * with each one sent. When not due yet, *@deadline_ns says when to ask
 * again (0: never, until progress). The probe's ACK is what the losses
 * RACK cannot see wait for: the last packets of a burst, or resends lost
 * again while a full window of holes lets nothing new out.
 */
bool mrc_loss_tlp_due(const struct mrc_loss *l, uint64_t quiet_since_ns, uint32_t probes,
		      uint64_t now_ns, uint64_t *deadline_ns)
{
	uint64_t due;

	*deadline_ns = 0;
	if (probes >= MRC_LOSS_TLP_MAX)
		return false;
	due = mrc_loss_tlp_deadline(l, quiet_since_ns);
	due += (due - quiet_since_ns) * ((1ULL << probes) - 1U);
	if (now_ns >= due)
		return true;
	*deadline_ns = due;
	return false;
}
