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

static uint64_t mrc_read_first(uint32_t n)
{
	return n >= 64U ? ~0ULL : (1ULL << n) - 1ULL;
}

static bool mrc_read_chunk_complete(const struct mrc_read_chunk *c)
{
	return c->arrived == mrc_read_first(c->npkts);
}

/* The responses of @c missing although a later one arrived. */
static uint64_t mrc_read_overtaken(const struct mrc_read_chunk *c)
{
	return ~c->arrived & mrc_read_first(c->npkts) & mrc_read_first(c->upto);
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
 * @now_ns: the time: its responses' round trips start here
 *
 * Return: the chunk's number.
 */
uint32_t mrc_read_track_open(struct mrc_read_track *t, uint32_t npkts, uint64_t now_ns)
{
	struct mrc_read_chunk *c = mrc_read_slot(t, t->head);

	c->arrived = 0;
	c->judge_ns = 0;
	c->asked_ns = now_ns;
	c->seq = t->head;
	c->npkts = npkts;
	c->upto = 0;
	c->again = false;
	t->missing += npkts;
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

/*
 * Chunk @c's responses arrived from its first one on for @spread_ns: the
 * recent high goes up at once, and down by 1/2^MRC_READ_SPREAD_DECAY_SHIFT
 * of the difference with each complete chunk that took less. Chunks asked
 * for again say nothing: their repeats come a round trip late.
 */
#define MRC_READ_SPREAD_DECAY_SHIFT	4U

static void mrc_read_track_spread_sample(struct mrc_read_track *t, const struct mrc_read_chunk *c,
					 uint64_t spread_ns)
{
	uint32_t s = spread_ns > 0xffffffffULL ? 0xffffffffU : (uint32_t)spread_ns;

	if (c->again)
		return;
	if (s > t->spread_hi_ns)
		t->spread_hi_ns = s;
	else if (mrc_read_chunk_complete(c))
		t->spread_hi_ns -= (t->spread_hi_ns - s) >> MRC_READ_SPREAD_DECAY_SHIFT;
}

/**
 * mrc_read_track_mark() - response @i of chunk @seq arrived.
 * @t: the tracker
 * @seq: the chunk
 * @i: the response's index in it
 * @now_ns: the time
 *
 * Return: 1 when it is new, 0 when it was in already, -MRC_EINVAL when
 * chunk @seq asked for no such response (or is no chunk sent).
 */
int mrc_read_track_mark(struct mrc_read_track *t, uint32_t seq, uint32_t i, uint64_t now_ns)
{
	struct mrc_read_chunk *c = mrc_read_slot(t, seq);

	if (!mrc_read_tracked(t, seq))
		return (int32_t)(seq - t->tail) < 0 ? 0 : -MRC_EINVAL;
	if (i >= c->npkts)
		return -MRC_EINVAL;
	if (c->arrived >> i & 1U)
		return 0;
	if (!c->arrived)
		c->first_ns = now_ns;
	c->arrived |= 1ULL << i;
	t->missing--;
	if (now_ns > c->first_ns)
		mrc_read_track_spread_sample(t, c, now_ns - c->first_ns);
	if (!mrc_read_overtaken(c))
		c->judge_ns = 0;
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
	const struct mrc_read_chunk *c;

	if (end - t->tail > t->head - t->tail)
		end = t->tail;
	/* at most MRC_READ_TRACK_CHUNKS, and only when a READ failed */
	for (; t->tail != end; t->tail++) {
		c = mrc_read_slot_c(t, t->tail);
		t->missing -= c->npkts - mrc_popcount64(c->arrived);
	}
	mrc_read_track_advance(t);
}

/*
 * The responses of @c before @upto were overtaken: lost at @judge_ns. A
 * chunk has one deadline: when more of its responses are overtaken, the
 * deadline of those overtaken before moves out to theirs. Left where it
 * was, a response overtaken just before it would have had no reordering
 * window at all: sprayed over paths of different queues, a chunk's
 * responses overtake one another all the way, and so a healthy transfer
 * asked again for a sixth of its responses. The deadline moves at most
 * once per response of the chunk.
 */
static bool mrc_read_chunk_overtake(struct mrc_read_chunk *c, uint32_t upto, uint64_t judge_ns)
{
	uint64_t before = mrc_read_overtaken(c);

	if (c->again)
		return false;
	if (upto > c->upto)
		c->upto = upto;
	if (!(mrc_read_overtaken(c) & ~before))
		return false;
	c->judge_ns = judge_ns;
	return true;
}

/**
 * mrc_read_track_overtake() - response @i of chunk @seq arrived first time.
 * @t: the tracker
 * @seq: its chunk
 * @i: its index there
 * @judge_ns: when the responses it overtook count as lost if still missing
 *	      (the arrival's time and a reordering window; not 0)
 *
 * It overtook the responses before it in chunk @seq and every response of
 * earlier chunks: each chunk is overtaken whole once (@t->overtaken), so
 * this costs a chunk's worth of work per chunk, not per response.
 *
 * Return: whether a response newly waits to be judged at @judge_ns (the
 * caller arms its timer then).
 */
bool mrc_read_track_overtake(struct mrc_read_track *t, uint32_t seq, uint32_t i,
			     uint64_t judge_ns)
{
	bool waits = false;
	uint32_t s;

	if (!mrc_read_tracked(t, seq) || mrc_read_slot(t, seq)->again)
		return false;
	if (!judge_ns)
		judge_ns = 1;
	if ((int32_t)(t->overtaken - t->tail) < 0)
		t->overtaken = t->tail;
	for (s = t->overtaken; (int32_t)(seq - s) > 0; s++) {
		struct mrc_read_chunk *c = mrc_read_slot(t, s);

		waits |= mrc_read_chunk_overtake(c, c->npkts, judge_ns);
	}
	if ((int32_t)(seq - t->overtaken) > 0)
		t->overtaken = seq;
	return mrc_read_chunk_overtake(mrc_read_slot(t, seq), i, judge_ns) || waits;
}

/**
 * mrc_read_track_lost() - the responses of chunk @seq lost by @now_ns.
 * @t: the tracker
 * @seq: the chunk
 * @now_ns: the time
 * @judge_ns: set to when some will be, if none is now (0: none will be)
 *
 * Return: bit i set for each lost response i (0: none).
 */
uint64_t mrc_read_track_lost(const struct mrc_read_track *t, uint32_t seq, uint64_t now_ns,
			     uint64_t *judge_ns)
{
	const struct mrc_read_chunk *c = mrc_read_slot_c(t, seq);
	uint64_t lost;

	*judge_ns = 0;
	if (!mrc_read_tracked(t, seq) || !c->judge_ns)
		return 0;
	lost = mrc_read_overtaken(c);
	if (lost && now_ns < c->judge_ns) {
		*judge_ns = c->judge_ns;
		return 0;
	}
	return lost;
}

/*
 * mrc_read_track_asked() - the lost responses of chunk @seq were asked for
 * again: if still missing at @judge_ns (a round trip and a reordering
 * window on), they are lost again.
 */
void mrc_read_track_asked(struct mrc_read_track *t, uint32_t seq, uint64_t judge_ns)
{
	if (mrc_read_tracked(t, seq))
		mrc_read_slot(t, seq)->judge_ns = judge_ns ? judge_ns : 1;
}

/*
 * Chunk @seq's READ failed: its missing responses are lost for good, and
 * neither judged nor overtaken until the chunk is released.
 */
void mrc_read_track_forget(struct mrc_read_track *t, uint32_t seq)
{
	struct mrc_read_chunk *c = mrc_read_slot(t, seq);

	if (!mrc_read_tracked(t, seq))
		return;
	c->judge_ns = 0;
	c->again = true;
}

/* Responses of chunk @seq are asked for again (its READ_REQ, or some of them, resent). */
void mrc_read_track_again(struct mrc_read_track *t, uint32_t seq)
{
	if (mrc_read_tracked(t, seq))
		mrc_read_slot(t, seq)->again = true;
}

/*
 * The round trip of chunk @seq, timed by its first response to arrive, at
 * @now_ns, from its READ_REQ: the queue the chunk found on its way, which
 * the earlier ones left. Its later responses queue behind the first ones
 * of their own burst (a chunk of 64 KiB takes 5 ms through four paths of
 * 3 MB/s): a READ window judged by those held one chunk at a time.
 * 0 once a response of it is in, for a chunk asked for again (which request
 * it answers is unknown), and for one not tracked.
 */
uint32_t mrc_read_track_rtt(const struct mrc_read_track *t, uint32_t seq, uint64_t now_ns)
{
	const struct mrc_read_chunk *c = mrc_read_slot_c(t, seq);
	uint64_t rtt;

	if (!mrc_read_tracked(t, seq) || c->arrived || c->again || !c->asked_ns ||
	    now_ns < c->asked_ns)
		return 0;
	rtt = now_ns - c->asked_ns;
	return rtt > 0xffffffffULL ? 0xffffffffU : (uint32_t)rtt;
}

/* A tail probe's wait: @wait_ns, doubled for each probe the silence has lasted (up to 64x). */
static uint64_t mrc_read_tail_deadline(const struct mrc_read_track *t, uint64_t wait_ns)
{
	return t->heard_ns + (wait_ns << (t->probes < 6U ? t->probes : 6U));
}

/*
 * The earliest time a tracked chunk has responses lost, or with
 * @tail_wait_ns a tail probe is due (0: neither will be).
 */
uint64_t mrc_read_track_next_judge(const struct mrc_read_track *t, uint64_t tail_wait_ns)
{
	uint64_t next = 0;
	uint32_t s;

	if (tail_wait_ns && t->tail != t->head)
		next = mrc_read_tail_deadline(t, tail_wait_ns);
	for (s = t->tail; s != t->head; s++) {
		const struct mrc_read_chunk *c = mrc_read_slot_c(t, s);

		if (c->judge_ns && mrc_read_overtaken(c) && (!next || c->judge_ns < next))
			next = c->judge_ns;
	}
	return next;
}

/*
 * mrc_read_track_heard() - at @now_ns a response arrived first time
 * (@arrival), or a chunk was asked for: the silence a tail probe waits for
 * starts over; an arrival ends the probes' back-off.
 */
void mrc_read_track_heard(struct mrc_read_track *t, uint64_t now_ns, bool arrival)
{
	t->heard_ns = now_ns;
	if (arrival)
		t->probes = 0;
}

/**
 * mrc_read_track_tail_due() - whether a tail probe is due at @now_ns.
 * @t: the tracker
 * @now_ns: the time
 * @wait_ns: the silence it waits for (two round trips), before back-off
 * @seq: set to the chunk to ask for again, the oldest incomplete one
 * @missing: set to its missing responses (a bit each)
 *
 * A probe counts (the next waits twice as long) and restarts the silence.
 */
bool mrc_read_track_tail_due(struct mrc_read_track *t, uint64_t now_ns, uint64_t wait_ns,
			     uint32_t *seq, uint64_t *missing)
{
	const struct mrc_read_chunk *c = mrc_read_slot_c(t, t->tail);

	if (t->tail == t->head || now_ns < mrc_read_tail_deadline(t, wait_ns))
		return false;
	*seq = t->tail;
	*missing = ~c->arrived & mrc_read_first(c->npkts);
	t->probes++;
	t->heard_ns = now_ns;
	return true;
}
