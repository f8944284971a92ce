/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Cutting a message into packets.
 *
 * A message of L bytes at path MTU M travels as max(1, ceil(L / M))
 * packets, one PSN each: packet i carries bytes [i * M, min(L, (i + 1) * M)),
 * and a zero-length message is one packet with no payload.  The requester
 * cuts SEND and WRITE messages this way, the READ responder cuts the span a
 * READ_REQ asks for this way, and the requester reserves that many PSNs for
 * the READ_REQ, so both sides agree on which PSN carries which bytes.
 */
#ifndef MRC_SEG_H
#define MRC_SEG_H

#include "mrc_core_compat.h"

/* The IB path MTUs an MRC QP can use, in bytes. */
#define MRC_SEG_MTU_MIN		256U
#define MRC_SEG_MTU_MAX		4096U

bool mrc_seg_mtu_valid(uint32_t mtu);
uint32_t mrc_seg_count(uint32_t len, uint32_t mtu);
int mrc_seg_get(uint32_t len, uint32_t mtu, uint32_t index, uint32_t *offset,
		uint32_t *seg_len);

#endif /* MRC_SEG_H */
