// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The READ messages a responder accepted (see mrc_read_table.h). A linear
 * scan: the table is small, and a READ_REQ stands for up to
 * MRC_READ_REQ_MAX_PKTS responses.
 */
#include "mrc_read_table.h"
#include "mrc_seg.h"

void mrc_read_table_init(struct mrc_read_table *t)
{
	memset(t, 0, sizeof(*t));
}

/* MSNs wrap: @a is older than @b when it is less than half the space behind. */
static bool mrc_msn_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/**
 * mrc_read_ask_valid() - whether a READ_REQ is consistent in itself.
 * @ask: what it asks for
 * @mtu: the QP's path MTU, mrc_seg_mtu_valid()
 *
 * Return: true when @ask starts at a packet boundary of its message and
 * asks for no byte past the message's end.
 */
bool mrc_read_ask_valid(const struct mrc_read_ask *ask, uint32_t mtu)
{
	return mrc_seg_mtu_valid(mtu) && !(ask->offset & (mtu - 1U)) &&
	       ask->offset <= ask->msg_len && ask->len <= ask->msg_len - ask->offset;
}

static const struct mrc_read_msg *mrc_read_table_find(const struct mrc_read_table *t,
						      uint32_t msn)
{
	uint32_t i;

	for (i = 0; i < MRC_READ_TABLE_MSGS; i++)
		if (t->msg[i].valid && t->msg[i].msn == msn)
			return &t->msg[i];
	return NULL;
}

/* A free entry, else the one of the oldest MSN. */
static struct mrc_read_msg *mrc_read_table_victim(struct mrc_read_table *t)
{
	struct mrc_read_msg *victim = &t->msg[0];
	uint32_t i;

	for (i = 0; i < MRC_READ_TABLE_MSGS; i++) {
		struct mrc_read_msg *m = &t->msg[i];

		if (!m->valid)
			return m;
		if (mrc_msn_before(m->msn, victim->msn))
			victim = m;
	}
	return victim;
}

/**
 * mrc_read_table_note() - remember the READ message of a new READ_REQ.
 * @t: the table
 * @ask: the READ_REQ, which arrived as new (none of its PSNs had)
 * @mtu: the QP's path MTU
 *
 * The first request of a message to arrive describes it; later ones of the
 * same MSN change nothing. A message older than every one the full table
 * holds is not kept: the requester cannot have it outstanding any more.
 */
void mrc_read_table_note(struct mrc_read_table *t, const struct mrc_read_ask *ask, uint32_t mtu)
{
	struct mrc_read_msg *m;

	if (!mrc_read_ask_valid(ask, mtu) || mrc_read_table_find(t, ask->msn))
		return;
	m = mrc_read_table_victim(t);
	if (m->valid && mrc_msn_before(ask->msn, m->msn))
		return;
	m->valid = true;
	m->msn = ask->msn;
	m->first_psn = ask->psn - ask->offset / mtu;
	m->rkey = ask->rkey;
	m->va = ask->va;
	m->msg_len = ask->msg_len;
}

/**
 * mrc_read_table_covers() - whether a repeated READ_REQ may be served.
 * @t: the table
 * @ask: the repeated READ_REQ
 * @mtu: the QP's path MTU
 *
 * Return: true when @ask asks for part of a READ message in @t, as that
 * message was: same MSN, rkey, address and length, at its own PSNs.
 */
bool mrc_read_table_covers(const struct mrc_read_table *t, const struct mrc_read_ask *ask,
			   uint32_t mtu)
{
	const struct mrc_read_msg *m = mrc_read_table_find(t, ask->msn);

	return m && mrc_read_ask_valid(ask, mtu) && m->rkey == ask->rkey && m->va == ask->va &&
	       m->msg_len == ask->msg_len && ask->psn - m->first_psn == ask->offset / mtu;
}
