/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a requester remembers of the last copy of each PSN in flight, and
 * the transport decisions made from it: whether a hole is lost now, which
 * acknowledged copy gives the round-trip sample, whether the peer's
 * duplicate report proves a resend spurious.
 *
 * The kernel's requester (mrc_req.c, mrc_comp.c) and the fabric simulator
 * (tests/sim) both keep one record per PSN slot and ask these functions,
 * so the simulator's verdicts are the module's. The caller owns the
 * storage, the locking and the path set (it credits or blames the EV a
 * record names); nothing here allocates.
 */
#ifndef MRC_TX_REC_H
#define MRC_TX_REC_H

#include "mrc_core_compat.h"
#include "mrc_loss.h"
#include "mrc_path_set.h"

struct mrc_tx_rec {
	uint64_t sent_ns;	/* when the last copy left */
	uint32_t seq;		/* its sequence number on @ev (mrc_path_set_sent) */
	uint16_t ev;		/* the EV it took */
	uint8_t account;	/* @ev hears of its fate (one record per packet does) */
	uint8_t acked;
	uint8_t resent;		/* more than one copy: no RTT sample (Karn) */
	uint8_t fallback;	/* sent while no EV carried data */
	uint8_t dup_heard;	/* the peer said it got this PSN twice */
};

/* The copy of one of @count PSNs of a packet (index @i) left on @ev at @now_ns. */
static inline void mrc_tx_rec_sent(struct mrc_tx_rec *rec, uint64_t now_ns, uint32_t ev,
				   uint32_t seq, bool usable, bool resent, uint32_t i)
{
	rec->sent_ns = now_ns;
	rec->seq = seq;
	rec->ev = (uint16_t)ev;
	rec->account = !i;
	rec->acked = 0;
	rec->resent = resent;
	rec->fallback = !usable;
	rec->dup_heard = 0;
}

/* What one ACK acknowledged, for the window, the path set and loss detection. */
struct mrc_tx_acked {
	uint32_t pkts;
	uint64_t newest_sent_ns;	/* latest send among copies sent once; 0: none */
	uint32_t newest_psn;		/* that copy's PSN */
	uint32_t newest_ev;		/* the EV that copy took */
	uint64_t newest_resent_ns;	/* latest send among resent copies; 0: none */
	uint32_t newest_resent_psn;
};

bool mrc_tx_rec_acked(struct mrc_tx_rec *rec, uint32_t psn, struct mrc_tx_acked *acked);
bool mrc_tx_rec_credits_ev(const struct mrc_tx_rec *rec, const struct mrc_loss *l, uint64_t now_ns);
uint32_t mrc_tx_acked_rtt(const struct mrc_tx_acked *acked, uint64_t now_ns);
uint32_t mrc_tx_rec_marked_rtt(const struct mrc_tx_rec *rec, uint64_t now_ns);
void mrc_tx_acked_to_loss(const struct mrc_tx_acked *acked, struct mrc_loss *l, uint64_t now_ns);
enum mrc_loss_verdict mrc_tx_rec_judge(const struct mrc_tx_rec *rec, const struct mrc_loss *l,
				       uint32_t psn, enum mrc_ev_standing standing,
				       uint64_t now_ns, uint64_t *deadline_ns);
bool mrc_tx_rec_dup_heard(struct mrc_tx_rec *rec);

#endif /* MRC_TX_REC_H */
