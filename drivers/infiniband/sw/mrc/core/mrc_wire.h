/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The MRC wire format, version 1: every header, in one place.
 *
 * Documentation/protocol.rst is the reader's reference; this header and
 * mrc_wire.c are what it describes.  An MRC packet is the payload of a UDP
 * datagram (destination port MRC_WIRE_UDP_PORT unless configured otherwise,
 * source port = the entropy value): a 12-byte base header, the sub-headers
 * of its opcode in a fixed order, possibly extensions a v1 receiver skips,
 * then the payload.  All multi-byte fields are big-endian.
 *
 * Base header (every packet):
 *
 *	byte  0      version (high nibble, 1), reserved (low nibble, 0)
 *	byte  1      opcode
 *	byte  2      hdr_len: bytes before the payload / 4
 *	byte  3      flags: 0x80 ACK_REQ, 0x40 SOLICITED, 0x20 CE_ECHO, others
 *	             reserved
 *	byte  4      reserved (0)
 *	bytes 5-7    destination QPN
 *	bytes 8-11   PSN
 *
 * Sub-headers, in wire order (an opcode carries a subset, see the table in
 * mrc_wire.c and protocol.rst):
 *
 *	DETH   8  qkey, src_qpn (datagrams: UD_SEND, UD_SEND_IMM)
 *	MSG   12  msn, offset, msg_len
 *	RETH  12  va (8), rkey
 *	RQ     4  rsn: the receive WQE this message consumes
 *	IMM    4  immediate data
 *	READ   4  read_len
 *	ATOM  32  msn, rkey, va (8), swap_add (8), compare (8)
 *	ATOMR 12  msn, orig (8)
 *	ACK   48  msn, ev_port, cum_psn, sack_base, bitmap (4 x 8)
 *	NAK    4  code, value, reserved (2)
 *	PROBE 24  probe_id, ev, reply_port, service_time, timestamp (8)
 */
#ifndef MRC_WIRE_H
#define MRC_WIRE_H

#include "mrc_core_compat.h"
#include "mrc_core_param.h"
#include "mrc_sack.h"

#define MRC_WIRE_VERSION	1U
#define MRC_WIRE_UDP_PORT	4791U	/* default destination port */

/* Sub-header sizes in bytes; every one a multiple of 4. */
#define MRC_WIRE_BASE_LEN	12U
#define MRC_WIRE_DETH_LEN	8U
#define MRC_WIRE_MSG_LEN	12U
#define MRC_WIRE_RETH_LEN	12U
#define MRC_WIRE_RQ_LEN		4U
#define MRC_WIRE_IMM_LEN	4U
#define MRC_WIRE_READ_LEN	4U
#define MRC_WIRE_ATOM_LEN	32U
#define MRC_WIRE_ATOMR_LEN	12U
#define MRC_WIRE_ACK_LEN	48U
#define MRC_WIRE_NAK_LEN	4U
#define MRC_WIRE_PROBE_LEN	24U

/*
 * The longest v1 header (NAK, 64 bytes) and the budget every data packet's
 * headers must fit (the device's MTU reserves 64 bytes for them, see
 * ../mrc_param.h); mrc_wire.c asserts both at compile time.  A receiver
 * hands parse at least min(packet length, MRC_WIRE_HDR_MAX) bytes.
 */
#define MRC_WIRE_HDR_MAX	64U
#define MRC_WIRE_DATA_HDR_BUDGET 64U

#define MRC_WIRE_QPN_MAX	0xffffffU	/* QPNs are 24 bits */

/* Flags (base header byte 3). */
#define MRC_WIRE_F_ACK_REQ	0x80U	/* requests: answer with an ACK now */
#define MRC_WIRE_F_SOLICITED	0x40U	/* SEND*, WRITE_IMM: solicited event */
#define MRC_WIRE_F_CE_ECHO	0x20U	/* ACK: a request since the last ACK came CE-marked */
#define MRC_WIRE_F_REPLY_COPIES	0x10U	/* PROBE: answer with copies over several EVs */
#define MRC_WIRE_F_DUP		0x08U	/* ACK: its PSN had arrived before */
#define MRC_WIRE_F_ALL		(MRC_WIRE_F_ACK_REQ | MRC_WIRE_F_SOLICITED | MRC_WIRE_F_CE_ECHO | \
				 MRC_WIRE_F_REPLY_COPIES | MRC_WIRE_F_DUP)

enum mrc_opcode {
	MRC_OP_SEND		= 0x01,
	MRC_OP_SEND_IMM		= 0x02,
	MRC_OP_SEND_INV		= 0x03,	/* reserved: rejected by v1 */
	MRC_OP_WRITE		= 0x04,
	MRC_OP_WRITE_IMM	= 0x05,
	MRC_OP_UD_SEND		= 0x08,	/* a datagram: one packet, unacknowledged */
	MRC_OP_UD_SEND_IMM	= 0x09,
	MRC_OP_READ_REQ		= 0x10,
	MRC_OP_READ_RESP	= 0x11,
	MRC_OP_ATOMIC_CSWAP	= 0x18,
	MRC_OP_ATOMIC_FADD	= 0x19,
	MRC_OP_ATOMIC_RESP	= 0x1a,
	MRC_OP_ACK		= 0x20,
	MRC_OP_NAK		= 0x21,
	MRC_OP_PROBE		= 0x30,
	MRC_OP_PROBE_REPLY	= 0x31,
};

enum mrc_nak_code {
	MRC_NAK_RNR		= 1,	/* no receive WQE; value = RNR timer */
	MRC_NAK_OUT_OF_WINDOW	= 2,	/* PSN at or past cum + MPR window */
	MRC_NAK_INVALID_REQUEST	= 3,	/* opcode, length or ordering violation */
	MRC_NAK_REMOTE_ACCESS	= 4,	/* bad rkey, bounds or access rights */
	MRC_NAK_REMOTE_OP	= 5,	/* responder could not complete it */
};

#define MRC_NAK_RNR_TIMER_MAX	31U	/* IB's 5-bit RNR timer encoding */

/*
 * Why parse (or check) refused a packet; the kernel counts drops by it.
 * MRC_WIRE_ERR_COUNT sizes a counter array.
 */
enum mrc_wire_err {
	MRC_WIRE_OK = 0,
	MRC_WIRE_ERR_TRUNCATED,		/* shorter than its headers */
	MRC_WIRE_ERR_VERSION,		/* version other than MRC_WIRE_VERSION */
	MRC_WIRE_ERR_OPCODE,		/* unknown or reserved opcode */
	MRC_WIRE_ERR_HDR_LEN,		/* hdr_len shorter than the opcode's headers */
	MRC_WIRE_ERR_RESERVED,		/* a reserved bit or field not zero */
	MRC_WIRE_ERR_FLAGS,		/* a flag the opcode does not take */
	MRC_WIRE_ERR_QPN,		/* QPN 0 / too wide, or non-zero on a probe */
	MRC_WIRE_ERR_PAYLOAD,		/* payload on an opcode that has none */
	MRC_WIRE_ERR_LENGTH,		/* offset, lengths and payload disagree */
	MRC_WIRE_ERR_NAK_CODE,		/* unknown NAK code */
	MRC_WIRE_ERR_SACK,		/* SACK inconsistent with its cum_psn */
	MRC_WIRE_ERR_COUNT
};

/* SEND*, WRITE*, READ_REQ, READ_RESP: the message this packet belongs to. */
struct mrc_wire_msg {
	uint32_t msn;		/* message sequence number */
	uint32_t offset;	/* of this packet's payload (READ_REQ: first byte asked) */
	uint32_t msg_len;	/* the whole message's length */
	uint32_t rsn;		/* SEND, SEND_IMM, WRITE_IMM: receive WQE number */
	uint32_t imm;		/* SEND_IMM, WRITE_IMM: immediate data */
	uint32_t rkey;		/* WRITE, WRITE_IMM, READ_REQ */
	uint64_t va;		/* WRITE, WRITE_IMM, READ_REQ: message start */
	uint32_t read_len;	/* READ_REQ: bytes asked from @offset */
};

/*
 * UD_SEND, UD_SEND_IMM: a datagram to a UD QP (the GSI QP among them), the
 * whole message in one packet; the PSN is the sender's running count, which
 * nobody tracks.
 */
struct mrc_wire_ud {
	uint32_t qkey;		/* the receiving QP's Q_Key must match it */
	uint32_t src_qpn;	/* the sender's QPN, reported in the completion */
	uint32_t imm;		/* UD_SEND_IMM: immediate data */
};

/* ATOMIC_CSWAP, ATOMIC_FADD. */
struct mrc_wire_atomic {
	uint32_t msn;
	uint32_t rkey;
	uint64_t va;		/* the 8-byte target */
	uint64_t swap_add;	/* CSWAP: swap value; FADD: addend */
	uint64_t compare;	/* CSWAP: compare value; FADD: reserved, 0 */
};

/* ATOMIC_RESP. */
struct mrc_wire_atomic_resp {
	uint32_t msn;
	uint64_t orig;		/* the target's value before the operation */
};

/* ACK and NAK. */
struct mrc_wire_ack {
	uint32_t msn;		/* every message up to this one has completed */
	uint32_t ev_port;	/* the UDP source port (the EV as carried) of the packet answered */
	struct mrc_sack sack;
	uint8_t nak_code;	/* NAK: enum mrc_nak_code */
	uint8_t nak_value;	/* NAK RNR: RNR timer (0..31); others 0 */
};

/* PROBE and PROBE_REPLY. */
struct mrc_wire_probe {
	uint32_t probe_id;	/* chosen by the prober, echoed */
	uint32_t ev;		/* EV the probe was sent on, echoed */
	uint32_t reply_port;	/* PROBE: UDP source port asked for the reply (0: any);
				 * PROBE_REPLY: the port the reply was sent with */
	uint32_t service_time;	/* PROBE_REPLY: ns from probe arrival to reply */
	uint64_t timestamp;	/* prober's clock, echoed */
};

/*
 * A header in host form.  build() reads the fields the opcode carries and
 * ignores the rest, including @hdr_len and @payload_len; parse() fills
 * every field, zero where the opcode carries none.
 */
struct mrc_pkt_hdr {
	uint8_t opcode;		/* enum mrc_opcode */
	uint8_t flags;		/* MRC_WIRE_F_* */
	uint16_t hdr_len;	/* parse: bytes before the payload */
	uint32_t payload_len;	/* parse: bytes after @hdr_len */
	uint32_t dest_qpn;
	uint32_t psn;
	union {
		struct mrc_wire_msg msg;
		struct mrc_wire_ud ud;
		struct mrc_wire_atomic atomic;
		struct mrc_wire_atomic_resp atomic_resp;
		struct mrc_wire_ack ack;
		struct mrc_wire_probe probe;
	};
};

unsigned int mrc_wire_hdr_len(unsigned int opcode);
bool mrc_opcode_is_request(unsigned int opcode);
bool mrc_opcode_has_payload(unsigned int opcode);
bool mrc_opcode_is_datagram(unsigned int opcode);
enum mrc_wire_err mrc_wire_check(const struct mrc_pkt_hdr *hdr, uint32_t payload_len);
int mrc_wire_build(const struct mrc_pkt_hdr *hdr, uint32_t payload_len, void *buf,
		   uint32_t size);
enum mrc_wire_err mrc_wire_parse(const void *buf, uint32_t buf_len, uint32_t pkt_len,
				 struct mrc_pkt_hdr *hdr);
const char *mrc_opcode_name(unsigned int opcode);
const char *mrc_nak_code_name(unsigned int code);
const char *mrc_wire_err_name(enum mrc_wire_err err);

/* Data packets (SEND*, WRITE*, READ_RESP): the message's first packet. */
static inline bool mrc_pkt_is_first(const struct mrc_pkt_hdr *hdr)
{
	return hdr->msg.offset == 0;
}

/* Data packets: the message's last packet (its payload ends the message). */
static inline bool mrc_pkt_is_last(const struct mrc_pkt_hdr *hdr, uint32_t payload_len)
{
	return hdr->msg.msg_len - hdr->msg.offset == payload_len;
}

#endif /* MRC_WIRE_H */
