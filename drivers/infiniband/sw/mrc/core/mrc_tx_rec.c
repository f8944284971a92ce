// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester's per-PSN decisions (mrc_tx_rec.h says which and why here).
 */
#include "mrc_tx_rec.h"

/*
 * PSN @psn, recorded in @rec, is acknowledged. False when it was already:
 * each copy is counted once. The RTT sample is the copy sent last among
 * those sent once: the one the ACK answers most directly (earlier ones may
 * have waited for a coalesced ACK, resent ones are ambiguous).
 */
bool mrc_tx_rec_acked(struct mrc_tx_rec *rec, uint32_t psn, struct mrc_tx_acked *acked)
{
	if (rec->acked)
		return false;
	rec->acked = 1;
	acked->pkts++;
	if (!rec->resent && rec->sent_ns > acked->newest_sent_ns) {
		acked->newest_sent_ns = rec->sent_ns;
		acked->newest_psn = psn;
		acked->newest_ev = rec->ev;
	}
	if (rec->resent && rec->sent_ns > acked->newest_resent_ns) {
		acked->newest_resent_ns = rec->sent_ns;
		acked->newest_resent_psn = psn;
	}
	return true;
}

/*
 * Whether the EV @rec names may be credited with the ACK that just covered
 * it (mrc_path_set_acked()). Not when the last copy was a resend and the
 * ACK came too soon to be for it: the earlier copy arrived, and crediting
 * the resend's EV would make a dead EV look alive (its losses then count
 * as older than an acknowledgement and never make it suspect).
 */
bool mrc_tx_rec_credits_ev(const struct mrc_tx_rec *rec, const struct mrc_loss *l, uint64_t now_ns)
{
	if (!rec->account)
		return false;
	return !rec->resent || !mrc_loss_acked_earlier_copy(l, rec->sent_ns, now_ns);
}

/*
 * Loss detection hears of the newest copy an ACK covered: what was sent
 * before it should have arrived by now, too. A resent copy counts when it
 * is newer than every copy sent once (mrc_loss_on_acked() ignores it when
 * the ACK came too soon to be for it): when a failure leaves only resends
 * in flight, their ACKs are the only clock there is, and without it a
 * resend lost again would wait for the retransmit timeout.
 */
void mrc_tx_acked_to_loss(const struct mrc_tx_acked *acked, struct mrc_loss *l, uint64_t now_ns)
{
	if (acked->newest_sent_ns)
		mrc_loss_on_acked(l, acked->newest_psn, acked->newest_sent_ns, now_ns, false);
	if (acked->newest_resent_ns > acked->newest_sent_ns)
		mrc_loss_on_acked(l, acked->newest_resent_psn, acked->newest_resent_ns, now_ns, true);
}

/* The round trip of the newest copy an ACK acknowledged; 0: none to take. */
uint32_t mrc_tx_acked_rtt(const struct mrc_tx_acked *acked, uint64_t now_ns)
{
	return acked->newest_sent_ns ? mrc_loss_rtt(acked->newest_sent_ns, now_ns) : 0;
}

/*
 * The round trip of the packet a CE echo named, acknowledged by now: 0
 * when more than one copy left (the mark may have been on either).
 */
uint32_t mrc_tx_rec_marked_rtt(const struct mrc_tx_rec *rec, uint64_t now_ns)
{
	return rec->resent ? 0 : mrc_loss_rtt(rec->sent_ns, now_ns);
}

/*
 * Whether the hole @psn is lost at @now_ns: by mrc_loss's rule, or at once
 * when its copy rode an EV that fell since (@standing: suspect after a missed
 * probe, ASSUMED_BAD or denied), so what is in flight on a failing path
 * goes elsewhere without waiting for its own verdict. While the EV is on
 * trial (suspect, its first probe out) the copy gets most of the window
 * only (MRC_LOSS_TRIAL_CUT_SHIFT). A copy sent while no EV carried data is
 * judged by time like any other: resent at once, it would go out again on
 * every pass.
 */
enum mrc_loss_verdict mrc_tx_rec_judge(const struct mrc_tx_rec *rec, const struct mrc_loss *l,
				       uint32_t psn, enum mrc_ev_standing standing,
				       uint64_t now_ns, uint64_t *deadline_ns)
{
	uint32_t reo = mrc_loss_reo_wnd(l);

	if (rec->fallback || standing == MRC_EV_STANDS)
		return mrc_loss_check_within(l, psn, rec->sent_ns, now_ns, reo, deadline_ns);
	if (standing == MRC_EV_FELL)
		return MRC_LOSS_LOST;
	return mrc_loss_check_within(l, psn, rec->sent_ns, now_ns,
				     reo - (reo >> MRC_LOSS_TRIAL_CUT_SHIFT), deadline_ns);
}

/*
 * The peer received the PSN of @rec twice. True, once per copy, when we had
 * resent it: the resend was spurious.
 */
bool mrc_tx_rec_dup_heard(struct mrc_tx_rec *rec)
{
	if (!rec->resent || rec->dup_heard)
		return false;
	rec->dup_heard = 1;
	return true;
}
