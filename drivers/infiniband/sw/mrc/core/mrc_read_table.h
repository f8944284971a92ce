/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The READ messages a responder accepted, kept to judge requests to send
 * their responses again.
 *
 * A READ_REQ's PSNs are acknowledged when it arrives, before its responses
 * flow, so a requester may ask again for a lost response long after the
 * responder's per-PSN state has moved on to newer PSNs. Such a repeated
 * READ_REQ is served only as part of a READ message this table took from a
 * request that arrived as new: the same MSN, rkey, address and length, and
 * a span inside the message at the PSNs the message's own cut gives it
 * (mrc_seg.h). A forged duplicate, with its own address or length, is not.
 *
 * The requester keeps at most MRC_READ_TABLE_MSGS READs and atomics
 * outstanding and completes them in order, so the newest
 * MRC_READ_TABLE_MSGS READ messages by MSN include every one it can still
 * ask about; the oldest makes room for a new one.
 */
#ifndef MRC_READ_TABLE_H
#define MRC_READ_TABLE_H

#include "mrc_core_compat.h"

#define MRC_READ_TABLE_MSGS	128U

/* What one READ_REQ asks for. */
struct mrc_read_ask {
	uint64_t va;		/* the READ message's remote address */
	uint32_t psn;		/* the PSN of the first response asked for */
	uint32_t msn;
	uint32_t rkey;
	uint32_t msg_len;	/* the whole READ message's length */
	uint32_t offset;	/* the first byte asked for, in the message */
	uint32_t len;		/* bytes asked for from there */
};

/* A READ message the responder accepted. */
struct mrc_read_msg {
	uint64_t va;
	uint32_t msn;
	uint32_t first_psn;	/* the PSN of its first response */
	uint32_t rkey;
	uint32_t msg_len;
	bool valid;
};

struct mrc_read_table {
	struct mrc_read_msg msg[MRC_READ_TABLE_MSGS];
};

void mrc_read_table_init(struct mrc_read_table *t);
bool mrc_read_ask_valid(const struct mrc_read_ask *ask, uint32_t mtu);
void mrc_read_table_note(struct mrc_read_table *t, const struct mrc_read_ask *ask, uint32_t mtu);
bool mrc_read_table_covers(const struct mrc_read_table *t, const struct mrc_read_ask *ask,
			   uint32_t mtu);

#endif /* MRC_READ_TABLE_H */
