/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which READ responses a requester has, per chunk: the responses one
 * READ_REQ asks for (at most MRC_READ_REQ_MAX_PKTS, a 64-bit map).
 *
 * Chunks are numbered in the order their READ_REQs go out, across all the
 * QP's READs. Only the chunks from the oldest one not complete on are
 * tracked, MRC_READ_TRACK_CHUNKS at most, in a ring the QP owns: a READ_REQ
 * goes out only when its chunk has room (mrc_read_track_room), and a chunk
 * older than the oldest tracked is complete. So what a QP keeps for its
 * READs is fixed when it is created, however long they are -- a map per
 * READ WQE would be a megabyte for a 2 GiB READ, allocated from whatever
 * a process posts.
 *
 * Loss of responses is found by their order: the responder sends the
 * responses of a chunk in index order, and the chunks in the order of their
 * READ_REQs, so a response that arrives overtakes every earlier one still
 * missing. Those count as lost once a wait the caller gives (its reordering
 * window) has passed since the last of a chunk's was overtaken
 * (mrc_read_track_overtake(), mrc_read_track_lost()):
 * a round trip or two, where waiting for a retransmit timeout without
 * progress cost a flapping fabric seconds per READ. The responder serves
 * repeated requests ahead of its queue, so a chunk asked for again (a
 * response or its READ_REQ resent) neither overtakes nor is overtaken:
 * its responses are judged a round trip after they were asked for.
 *
 * What nothing overtakes, the tail of the newest responses, is found by
 * silence: with responses missing and none arriving for a wait the caller
 * gives (two round trips), the oldest incomplete chunk's are asked for
 * again, the wait doubling while the silence lasts.
 *
 * For the requester's READ window (the responses it lets be on their way),
 * the tracker counts the responses asked for and not in yet
 * (mrc_read_track_missing()), and times a chunk's round trip from its
 * READ_REQ to its first response (mrc_read_track_rtt()): a chunk asked for
 * again times nothing, as a resent packet does not. For the reordering
 * window it keeps the recent high of how long after its first response a
 * chunk's last one came (mrc_read_track_spread()): sprayed over paths whose
 * queues differ (one spine hashed more EVs than another holds the window's
 * responses longest), responses of one chunk arrive that far apart, and a
 * response overtaken by less is no loss.
 */
#ifndef MRC_READ_TRACK_H
#define MRC_READ_TRACK_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"

#define MRC_READ_TRACK_CHUNKS	MRC_READ_REQS_QUEUED	/* a power of 2 */

struct mrc_read_chunk {
	uint64_t arrived;	/* bit i: its i-th response is in */
	uint64_t judge_ns;	/* the missing ones below @upto are lost from then; 0: none */
	uint64_t asked_ns;	/* its READ_REQ went out */
	uint64_t first_ns;	/* its first response arrived */
	uint32_t seq;		/* the chunk this slot tracks */
	uint32_t npkts;		/* responses it asks for: 1 ... 64 */
	uint32_t upto;		/* the responses before this one were overtaken */
	bool again;		/* some of it asked for again: its order proves nothing */
};

struct mrc_read_track {
	struct mrc_read_chunk chunk[MRC_READ_TRACK_CHUNKS];
	uint32_t head;		/* the number the next chunk gets */
	uint32_t tail;		/* the oldest chunk not complete; head: none */
	uint32_t overtaken;	/* the chunks before it were overtaken whole */
	uint64_t heard_ns;	/* a response last arrived, or a chunk was (re)asked */
	uint32_t probes;	/* tail probes since (mrc_read_track_tail_due()) */
	uint32_t missing;	/* responses of the tracked chunks not in yet */
	uint32_t spread_hi_ns;	/* first to last response of a chunk, its recent high */
};

void mrc_read_track_init(struct mrc_read_track *t);
bool mrc_read_track_room(const struct mrc_read_track *t);
uint32_t mrc_read_track_open(struct mrc_read_track *t, uint32_t npkts, uint64_t now_ns);
bool mrc_read_track_arrived(const struct mrc_read_track *t, uint32_t seq, uint32_t i);
int mrc_read_track_mark(struct mrc_read_track *t, uint32_t seq, uint32_t i, uint64_t now_ns);
void mrc_read_track_release(struct mrc_read_track *t, uint32_t end);
bool mrc_read_track_overtake(struct mrc_read_track *t, uint32_t seq, uint32_t i,
			     uint64_t judge_ns);
uint64_t mrc_read_track_lost(const struct mrc_read_track *t, uint32_t seq, uint64_t now_ns,
			     uint64_t *judge_ns);
void mrc_read_track_asked(struct mrc_read_track *t, uint32_t seq, uint64_t judge_ns);
void mrc_read_track_again(struct mrc_read_track *t, uint32_t seq);
void mrc_read_track_forget(struct mrc_read_track *t, uint32_t seq);
uint64_t mrc_read_track_next_judge(const struct mrc_read_track *t, uint64_t tail_wait_ns);
void mrc_read_track_heard(struct mrc_read_track *t, uint64_t now_ns, bool arrival);
uint32_t mrc_read_track_rtt(const struct mrc_read_track *t, uint32_t seq, uint64_t now_ns);
bool mrc_read_track_tail_due(struct mrc_read_track *t, uint64_t now_ns, uint64_t wait_ns,
			     uint32_t *seq, uint64_t *missing);

/* First to last response of a chunk, the recent high (ns); 0 before a sample. */
static inline uint32_t mrc_read_track_spread(const struct mrc_read_track *t)
{
	return t->spread_hi_ns;
}

/* Responses asked for and not in yet: what the READ window counts in flight. */
static inline uint32_t mrc_read_track_missing(const struct mrc_read_track *t)
{
	return t->missing;
}

#endif /* MRC_READ_TRACK_H */
