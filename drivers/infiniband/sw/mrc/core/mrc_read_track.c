// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which READ responses a requester has, per chunk (see mrc_read_track.h).
 */
#include "mrc_read_track.h"

void mrc_read_track_init(struct mrc_read_track *t)
{
	memset(t, 0, sizeof(*t));
}

static struct mrc_read_chunk *mrc_read_slot(struct mrc_read_track *t, uint32_t seq)
{
	return &t->chunk[seq & (MRC_READ_TRACK_CHUNKS - 1U)];
}

static const struct mrc_read_chunk *mrc_read_slot_c(const struct mrc_read_track *t,
						    uint32_t seq)
{
	return &t->chunk[seq & (MRC_READ_TRACK_CHUNKS - 1U)];
}

static bool mrc_read_chunk_complete(const struct mrc_read_chunk *c)
{
	return c->arrived == (c->npkts >= 64U ? ~0ULL : (1ULL << c->npkts) - 1ULL);
}

/* Whether chunk @seq is tracked now: opened, and not before the oldest incomplete. */
static bool mrc_read_tracked(const struct mrc_read_track *t, uint32_t seq)
{
	return seq - t->tail < t->head - t->tail;
}

/* Whether one more chunk may be opened: fewer than MRC_READ_TRACK_CHUNKS tracked. */
bool mrc_read_track_room(const struct mrc_read_track *t)
{
	return t->head - t->tail < MRC_READ_TRACK_CHUNKS;
}

/**
 * mrc_read_track_open() - number a chunk whose READ_REQ goes out now.
 * @t: the tracker, mrc_read_track_room()
 * @npkts: responses it asks for, 1 ... MRC_READ_REQ_MAX_PKTS
 *
 * Return: the chunk's number.
 */
uint32_t mrc_read_track_open(struct mrc_read_track *t, uint32_t npkts)
{
	struct mrc_read_chunk *c = mrc_read_slot(t, t->head);

	c->arrived = 0;
	c->seq = t->head;
	c->npkts = npkts;
	return t->head++;
}

/* Whether response @i of chunk @seq is in: always, for a chunk older than the oldest tracked. */
bool mrc_read_track_arrived(const struct mrc_read_track *t, uint32_t seq, uint32_t i)
{
	const struct mrc_read_chunk *c = mrc_read_slot_c(t, seq);

	if (!mrc_read_tracked(t, seq))
		return (int32_t)(seq - t->tail) < 0;
	return i < c->npkts && (c->arrived >> i & 1U);
}

/* The oldest chunk moves on past every complete one. */
static void mrc_read_track_advance(struct mrc_read_track *t)
{
	while (t->tail != t->head && mrc_read_chunk_complete(mrc_read_slot(t, t->tail)))
		t->tail++;
}

/**
 * mrc_read_track_mark() - response @i of chunk @seq arrived.
 * @t: the tracker
 * @seq: the chunk
 * @i: the response's index in it
 *
 * Return: 1 when it is new, 0 when it was in already, -MRC_EINVAL when
 * chunk @seq asked for no such response (or is no chunk sent).
 */
int mrc_read_track_mark(struct mrc_read_track *t, uint32_t seq, uint32_t i)
{
	struct mrc_read_chunk *c = mrc_read_slot(t, seq);

	if (!mrc_read_tracked(t, seq))
		return (int32_t)(seq - t->tail) < 0 ? 0 : -MRC_EINVAL;
	if (i >= c->npkts)
		return -MRC_EINVAL;
	if (c->arrived >> i & 1U)
		return 0;
	c->arrived |= 1ULL << i;
	mrc_read_track_advance(t);
	return 1;
}

/**
 * mrc_read_track_release() - forget every chunk before @end.
 * @t: the tracker
 * @end: one past the last chunk of a READ that completed (in error: its
 *	 missing responses are no longer waited for)
 *
 * READs complete in order, so every earlier chunk is done with too.
 */
void mrc_read_track_release(struct mrc_read_track *t, uint32_t end)
{
	if (end - t->tail <= t->head - t->tail)
		t->tail = end;
	mrc_read_track_advance(t);
}
