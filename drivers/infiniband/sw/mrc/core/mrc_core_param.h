/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every limit of the MRC protocol core, in one place (the device's limits
 * and defaults live in ../mrc_param.h).
 */
#ifndef MRC_CORE_PARAM_H
#define MRC_CORE_PARAM_H

#include "mrc_core_compat.h"

/*
 * PSN windows (the receiver's out-of-order window, the OCP "MPR", and the
 * sender's scoreboard) are bitmaps of 64-bit words, so their size is a whole
 * number of words.  8192 PSNs cost 1 KiB of bitmap per direction per QP.
 */
#define MRC_WINDOW_ALIGN	64U
#define MRC_WINDOW_MIN		64U
#define MRC_WINDOW_MAX		8192U

/* 64-bit words of caller storage a window of @window PSNs needs. */
#define MRC_WINDOW_WORDS(window)	(((window) + 63U) / 64U)

/* A SACK summary covers 256 PSNs: 4 words of 64 bits (see mrc_sack.h). */
#define MRC_SACK_WORDS		4U
#define MRC_SACK_BITS		(MRC_SACK_WORDS * 64U)

/*
 * Longest message, in bytes (the device's max_msg_sz): offsets and lengths
 * fit 32-bit wire fields, and offset + length never overflows them.
 */
#define MRC_MAX_MSG_LEN		0x80000000U

/*
 * Response packets one READ_REQ may ask for.  Longer READs are requested
 * as several READ_REQs, each with its own PSN range, so one request never
 * reserves more PSNs than the smallest window can hold and a lost response
 * is re-requested without re-reading the whole message.
 */
#define MRC_READ_REQ_MAX_PKTS	64U

/*
 * READ_REQs a responder queues per QP while it sends their responses, and
 * so the most a requester has outstanding (sent, responses not all in): a
 * READ_REQ beyond the queue would be acknowledged but never answered until
 * the requester's timeout asked again.
 */
#define MRC_READ_REQS_QUEUED	256U

/*
 * ACK coalescing (Documentation/protocol.rst, "When ACKs are sent").  The
 * responder ACKs at once a packet with ACK_REQ set and a duplicate, and
 * otherwise once this many new request packets have arrived since its last
 * ACK (fewer while PSNs are missing, so holes are reported quickly), or
 * when the delayed-ACK timer fires.  The requester sets ACK_REQ on the last
 * packet of each message, on retransmissions and on every
 * MRC_ACK_REQ_EVERY_PKTS-th packet.
 */
#define MRC_ACK_EVERY_PKTS	8U
#define MRC_ACK_EVERY_PKTS_OOO	2U
#define MRC_ACK_REQ_EVERY_PKTS	16U
#define MRC_ACK_DELAY_NS	20000U

/*
 * The requester's transport defaults, shared by the module and the fabric
 * simulator (tests/sim) so both make the same decisions.
 *
 * The PSN window (the OCP "MPR") both directions of a QP use: packets in
 * flight per QP, and out-of-order PSNs the responder tracks.
 */
#define MRC_DEFAULT_WINDOW	1024

/*
 * The congestion window (mrc_cc.h) of a QP in packets: where it starts, and
 * its floor; its ceiling is the PSN window. The queueing delay it tolerates
 * is relative to the QP's own path (mrc_cc_target_delay()). A larger first
 * burst queues in front of the first RTT samples, which set the base RTT.
 */
#define MRC_CC_INIT_CWND	16
#define MRC_CC_MIN_CWND		8

/*
 * Loss detection (mrc_loss.h): the reordering window's floor, a kernel's
 * scheduling noise (the window itself follows the paths' RTTs and their
 * spread); and the most holes one requester pass asks about.
 */
#define MRC_LOSS_MIN_REO_NS	(50U * 1000)
/*
 * The least silence after which a READ's missing tail is asked for again
 * (mrc_read_track_tail_due()): a responder descheduled that long is not
 * dead, and a probe then would only repeat responses still queued for it.
 * Linux TCP's tail-loss probe keeps the same 10 ms floor.
 */
#define MRC_READ_TAIL_MIN_NS	(10ULL * 1000 * 1000)
#define MRC_LOSS_SCAN		512U

#endif /* MRC_CORE_PARAM_H */
