// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MRC wire codec: build a header from its host form, parse and
 * validate one from the wire (format in mrc_wire.h and protocol.rst).
 *
 * Validation of field values lives in mrc_wire_check() alone and is run by
 * both directions, so a sender can never build a header its peer's parser
 * would drop.  parse() adds what only the wire can get wrong: version,
 * truncation, header length and reserved bits outside the host form.
 */
#include "mrc_wire.h"
#include "mrc_be.h"

/* Sub-headers after the base header; bit order is wire order. */
#define MRC_SH_DETH	0x001U
#define MRC_SH_MSG	0x002U
#define MRC_SH_RETH	0x004U
#define MRC_SH_RQ	0x008U
#define MRC_SH_IMM	0x010U
#define MRC_SH_READ	0x020U
#define MRC_SH_ATOM	0x040U
#define MRC_SH_ATOMR	0x080U
#define MRC_SH_ACK	0x100U
#define MRC_SH_NAK	0x200U
#define MRC_SH_PROBE	0x400U

/* Header length of a set of sub-headers, a constant expression. */
#define MRC_SH_LEN(sh)							\
	(MRC_WIRE_BASE_LEN +						\
	 ((sh) & MRC_SH_DETH ? MRC_WIRE_DETH_LEN : 0U) +		\
	 ((sh) & MRC_SH_MSG ? MRC_WIRE_MSG_LEN : 0U) +			\
	 ((sh) & MRC_SH_RETH ? MRC_WIRE_RETH_LEN : 0U) +		\
	 ((sh) & MRC_SH_RQ ? MRC_WIRE_RQ_LEN : 0U) +			\
	 ((sh) & MRC_SH_IMM ? MRC_WIRE_IMM_LEN : 0U) +			\
	 ((sh) & MRC_SH_READ ? MRC_WIRE_READ_LEN : 0U) +		\
	 ((sh) & MRC_SH_ATOM ? MRC_WIRE_ATOM_LEN : 0U) +		\
	 ((sh) & MRC_SH_ATOMR ? MRC_WIRE_ATOMR_LEN : 0U) +		\
	 ((sh) & MRC_SH_ACK ? MRC_WIRE_ACK_LEN : 0U) +			\
	 ((sh) & MRC_SH_NAK ? MRC_WIRE_NAK_LEN : 0U) +			\
	 ((sh) & MRC_SH_PROBE ? MRC_WIRE_PROBE_LEN : 0U))

/* Each opcode's sub-headers. */
#define MRC_SH_SEND		(MRC_SH_MSG | MRC_SH_RQ)
#define MRC_SH_SEND_IMM		(MRC_SH_MSG | MRC_SH_RQ | MRC_SH_IMM)
#define MRC_SH_WRITE		(MRC_SH_MSG | MRC_SH_RETH)
#define MRC_SH_WRITE_IMM	(MRC_SH_MSG | MRC_SH_RETH | MRC_SH_RQ | MRC_SH_IMM)
#define MRC_SH_READ_REQ		(MRC_SH_MSG | MRC_SH_RETH | MRC_SH_READ)
#define MRC_SH_READ_RESP	(MRC_SH_MSG)
#define MRC_SH_ATOMIC		(MRC_SH_ATOM)
#define MRC_SH_ATOMIC_RESP	(MRC_SH_ATOMR)
#define MRC_SH_ACK_OP		(MRC_SH_ACK)
#define MRC_SH_NAK_OP		(MRC_SH_ACK | MRC_SH_NAK)
#define MRC_SH_PROBE_OP		(MRC_SH_PROBE)
#define MRC_SH_UD_SEND		(MRC_SH_DETH)
#define MRC_SH_UD_SEND_IMM	(MRC_SH_DETH | MRC_SH_IMM)

/* The budget: every data packet's headers fit in 64 bytes. */
_Static_assert(MRC_SH_LEN(MRC_SH_SEND) <= MRC_WIRE_DATA_HDR_BUDGET, "SEND header");
_Static_assert(MRC_SH_LEN(MRC_SH_SEND_IMM) <= MRC_WIRE_DATA_HDR_BUDGET, "SEND_IMM header");
_Static_assert(MRC_SH_LEN(MRC_SH_WRITE) <= MRC_WIRE_DATA_HDR_BUDGET, "WRITE header");
_Static_assert(MRC_SH_LEN(MRC_SH_WRITE_IMM) <= MRC_WIRE_DATA_HDR_BUDGET, "WRITE_IMM header");
_Static_assert(MRC_SH_LEN(MRC_SH_READ_RESP) <= MRC_WIRE_DATA_HDR_BUDGET, "READ_RESP header");
_Static_assert(MRC_SH_LEN(MRC_SH_UD_SEND_IMM) <= MRC_WIRE_DATA_HDR_BUDGET, "UD_SEND_IMM header");
/* ... and every header in MRC_WIRE_HDR_MAX, the receiver's pull length. */
_Static_assert(MRC_SH_LEN(MRC_SH_READ_REQ) <= MRC_WIRE_HDR_MAX, "READ_REQ header");
_Static_assert(MRC_SH_LEN(MRC_SH_ATOMIC) <= MRC_WIRE_HDR_MAX, "atomic header");
_Static_assert(MRC_SH_LEN(MRC_SH_ATOMIC_RESP) <= MRC_WIRE_HDR_MAX, "ATOMIC_RESP header");
_Static_assert(MRC_SH_LEN(MRC_SH_NAK_OP) <= MRC_WIRE_HDR_MAX, "NAK header");
_Static_assert(MRC_SH_LEN(MRC_SH_ACK_OP) <= MRC_WIRE_HDR_MAX, "ACK header");
_Static_assert(MRC_SH_LEN(MRC_SH_PROBE_OP) <= MRC_WIRE_HDR_MAX, "PROBE header");
/* hdr_len is one byte counting 4-byte words. */
_Static_assert(MRC_WIRE_HDR_MAX <= 255U * 4U, "hdr_len field too narrow");

struct mrc_op_info {
	const char *name;
	uint16_t sh;		/* MRC_SH_* */
	uint8_t len;		/* MRC_SH_LEN(sh) */
	uint8_t flags;		/* MRC_WIRE_F_* the opcode may carry */
	bool request;		/* consumes PSNs of the responder's window */
	bool payload;		/* may carry a payload */
};

#define MRC_OP(op, sh_, flags_, request_, payload_)			\
	[MRC_OP_##op] = { .name = #op, .sh = (sh_), .len = MRC_SH_LEN(sh_), \
			  .flags = (flags_), .request = (request_),	\
			  .payload = (payload_) }

#define MRC_F_REQ	MRC_WIRE_F_ACK_REQ
#define MRC_F_RECV	(MRC_WIRE_F_ACK_REQ | MRC_WIRE_F_SOLICITED)

static const struct mrc_op_info mrc_ops[] = {
	MRC_OP(SEND, MRC_SH_SEND, MRC_F_RECV, true, true),
	MRC_OP(SEND_IMM, MRC_SH_SEND_IMM, MRC_F_RECV, true, true),
	MRC_OP(WRITE, MRC_SH_WRITE, MRC_F_REQ, true, true),
	MRC_OP(WRITE_IMM, MRC_SH_WRITE_IMM, MRC_F_RECV, true, true),
	MRC_OP(UD_SEND, MRC_SH_UD_SEND, MRC_WIRE_F_SOLICITED, false, true),
	MRC_OP(UD_SEND_IMM, MRC_SH_UD_SEND_IMM, MRC_WIRE_F_SOLICITED, false, true),
	MRC_OP(READ_REQ, MRC_SH_READ_REQ, MRC_F_REQ, true, false),
	MRC_OP(READ_RESP, MRC_SH_READ_RESP, 0, false, true),
	MRC_OP(ATOMIC_CSWAP, MRC_SH_ATOMIC, MRC_F_REQ, true, false),
	MRC_OP(ATOMIC_FADD, MRC_SH_ATOMIC, MRC_F_REQ, true, false),
	MRC_OP(ATOMIC_RESP, MRC_SH_ATOMIC_RESP, 0, false, false),
	MRC_OP(ACK, MRC_SH_ACK_OP, MRC_WIRE_F_CE_ECHO | MRC_WIRE_F_DUP, false, false),
	MRC_OP(NAK, MRC_SH_NAK_OP, 0, false, false),
	MRC_OP(PROBE, MRC_SH_PROBE_OP, MRC_WIRE_F_REPLY_COPIES, false, false),
	MRC_OP(PROBE_REPLY, MRC_SH_PROBE_OP, 0, false, false),
};

/* The opcode's description, or NULL for an unknown or reserved opcode. */
static const struct mrc_op_info *mrc_op_info(unsigned int opcode)
{
	if (opcode >= sizeof(mrc_ops) / sizeof(mrc_ops[0]) || !mrc_ops[opcode].name)
		return NULL;
	return &mrc_ops[opcode];
}

/**
 * mrc_wire_hdr_len() - bytes of headers a v1 sender puts before the payload.
 * @opcode: an enum mrc_opcode value
 *
 * Return: the length (a multiple of 4), or 0 for an unknown opcode.
 */
unsigned int mrc_wire_hdr_len(unsigned int opcode)
{
	const struct mrc_op_info *op = mrc_op_info(opcode);

	return op ? op->len : 0U;
}

/**
 * mrc_opcode_is_request() - does the opcode travel requester to responder?
 * @opcode: an enum mrc_opcode value
 *
 * Requests take PSNs from the requester's space and are tracked by the
 * responder's window; responses reuse their request's PSNs.
 *
 * Return: true for SEND*, WRITE*, READ_REQ and the atomics.
 */
bool mrc_opcode_is_request(unsigned int opcode)
{
	const struct mrc_op_info *op = mrc_op_info(opcode);

	return op && op->request;
}

/**
 * mrc_opcode_has_payload() - may packets of the opcode carry a payload?
 * @opcode: an enum mrc_opcode value
 *
 * Return: true for SEND*, WRITE* and READ_RESP.
 */
bool mrc_opcode_has_payload(unsigned int opcode)
{
	const struct mrc_op_info *op = mrc_op_info(opcode);

	return op && op->payload;
}

/**
 * mrc_opcode_is_datagram() - is the opcode a UD QP's datagram?
 * @opcode: an enum mrc_opcode value
 *
 * Datagrams are neither requests nor responses: no PSN window tracks them
 * and nothing acknowledges them.
 *
 * Return: true for UD_SEND and UD_SEND_IMM.
 */
bool mrc_opcode_is_datagram(unsigned int opcode)
{
	const struct mrc_op_info *op = mrc_op_info(opcode);

	return op && (op->sh & MRC_SH_DETH);
}

/*
 * Message geometry: @len bytes at msg->offset must lie inside the message,
 * and only a zero-length message may be described by zero bytes.
 */
static enum mrc_wire_err mrc_wire_check_span(const struct mrc_wire_msg *msg, uint32_t len)
{
	if (msg->msg_len > MRC_MAX_MSG_LEN)
		return MRC_WIRE_ERR_LENGTH;
	if (msg->msg_len == 0)
		return msg->offset == 0 && len == 0 ? MRC_WIRE_OK : MRC_WIRE_ERR_LENGTH;
	if (len == 0 || msg->offset >= msg->msg_len || len > msg->msg_len - msg->offset)
		return MRC_WIRE_ERR_LENGTH;
	return MRC_WIRE_OK;
}

/* A SACK must describe PSNs at or after cum_psn, within a window of it. */
static enum mrc_wire_err mrc_wire_check_sack(const struct mrc_sack *sack)
{
	uint32_t ahead = sack->sack_base - sack->cum_psn;

	if (ahead >= MRC_WINDOW_MAX)
		return MRC_WIRE_ERR_SACK;
	/* cum_psn is by definition not received. */
	if (ahead == 0 && (sack->bitmap[0] & 1U))
		return MRC_WIRE_ERR_SACK;
	return MRC_WIRE_OK;
}

static enum mrc_wire_err mrc_wire_check_nak(const struct mrc_wire_ack *ack)
{
	switch (ack->nak_code) {
	case MRC_NAK_RNR:
		return ack->nak_value <= MRC_NAK_RNR_TIMER_MAX ? MRC_WIRE_OK :
								  MRC_WIRE_ERR_RESERVED;
	case MRC_NAK_OUT_OF_WINDOW:
	case MRC_NAK_INVALID_REQUEST:
	case MRC_NAK_REMOTE_ACCESS:
	case MRC_NAK_REMOTE_OP:
		return ack->nak_value == 0 ? MRC_WIRE_OK : MRC_WIRE_ERR_RESERVED;
	}
	return MRC_WIRE_ERR_NAK_CODE;
}

/**
 * mrc_wire_check() - validate a header's field values.
 * @hdr: the header in host form (its hdr_len and payload_len are ignored)
 * @payload_len: bytes of payload that follow it
 *
 * Every rule on field values lives here; build refuses and parse drops
 * what this refuses.  The caller still checks what depends on the QP (the
 * payload against the path MTU, PSNs against windows, rkeys, alignment).
 *
 * Return: MRC_WIRE_OK or the first rule broken.
 */
enum mrc_wire_err mrc_wire_check(const struct mrc_pkt_hdr *hdr, uint32_t payload_len)
{
	const struct mrc_op_info *op = mrc_op_info(hdr->opcode);
	enum mrc_wire_err err;

	if (!op)
		return MRC_WIRE_ERR_OPCODE;
	if (hdr->flags & ~MRC_WIRE_F_ALL)
		return MRC_WIRE_ERR_RESERVED;
	if (hdr->flags & ~op->flags)
		return MRC_WIRE_ERR_FLAGS;
	if (op->sh & MRC_SH_PROBE) {
		/* Probes address the device, not a QP, and take no PSN. */
		if (hdr->dest_qpn != 0)
			return MRC_WIRE_ERR_QPN;
		if (hdr->psn != 0)
			return MRC_WIRE_ERR_RESERVED;
	} else if (hdr->dest_qpn == 0 || hdr->dest_qpn > MRC_WIRE_QPN_MAX) {
		return MRC_WIRE_ERR_QPN;
	}
	if (!op->payload && payload_len != 0)
		return MRC_WIRE_ERR_PAYLOAD;
	/* a datagram names its sender; 0 is no QP (the GSI QP is 1) */
	if ((op->sh & MRC_SH_DETH) &&
	    (hdr->ud.src_qpn == 0 || hdr->ud.src_qpn > MRC_WIRE_QPN_MAX))
		return MRC_WIRE_ERR_QPN;

	switch (hdr->opcode) {
	case MRC_OP_READ_REQ:
		return mrc_wire_check_span(&hdr->msg, hdr->msg.read_len);
	case MRC_OP_ATOMIC_FADD:
		return hdr->atomic.compare == 0 ? MRC_WIRE_OK : MRC_WIRE_ERR_RESERVED;
	case MRC_OP_NAK:
		err = mrc_wire_check_nak(&hdr->ack);
		return err != MRC_WIRE_OK ? err : mrc_wire_check_sack(&hdr->ack.sack);
	case MRC_OP_ACK:
		return mrc_wire_check_sack(&hdr->ack.sack);
	case MRC_OP_PROBE:
		return hdr->probe.service_time == 0 ? MRC_WIRE_OK : MRC_WIRE_ERR_RESERVED;
	}
	if (op->sh & MRC_SH_MSG)
		return mrc_wire_check_span(&hdr->msg, payload_len);
	return MRC_WIRE_OK;
}

static uint8_t *mrc_put_sack(uint8_t *p, const struct mrc_sack *sack)
{
	unsigned int i;

	mrc_put_be32(p, sack->cum_psn);
	mrc_put_be32(p + 4, sack->sack_base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		mrc_put_be64(p + 8 + 8 * i, sack->bitmap[i]);
	return p + 8 + 8 * MRC_SACK_WORDS;
}

static const uint8_t *mrc_get_sack(const uint8_t *p, struct mrc_sack *sack)
{
	unsigned int i;

	sack->cum_psn = mrc_get_be32(p);
	sack->sack_base = mrc_get_be32(p + 4);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		sack->bitmap[i] = mrc_get_be64(p + 8 + 8 * i);
	return p + 8 + 8 * MRC_SACK_WORDS;
}

/**
 * mrc_wire_build() - write a header in wire form.
 * @hdr: the header; only the fields its opcode carries are read
 * @payload_len: bytes of payload the caller puts after the header
 * @buf: where the header goes
 * @size: bytes available at @buf
 *
 * Return: the header length written (mrc_wire_hdr_len() of the opcode),
 * -MRC_EINVAL when mrc_wire_check() refuses @hdr, or -MRC_ENOSPC when
 * @size is too small.
 */
int mrc_wire_build(const struct mrc_pkt_hdr *hdr, uint32_t payload_len, void *buf,
		   uint32_t size)
{
	const struct mrc_op_info *op;
	uint8_t *p = buf;

	if (mrc_wire_check(hdr, payload_len) != MRC_WIRE_OK)
		return -MRC_EINVAL;
	op = mrc_op_info(hdr->opcode);
	if (size < op->len)
		return -MRC_ENOSPC;

	p[0] = MRC_WIRE_VERSION << 4;
	p[1] = hdr->opcode;
	p[2] = op->len / 4U;
	p[3] = hdr->flags;
	mrc_put_be32(p + 4, hdr->dest_qpn);	/* byte 4 reserved: QPN < 2^24 */
	mrc_put_be32(p + 8, hdr->psn);
	p += MRC_WIRE_BASE_LEN;

	if (op->sh & MRC_SH_DETH) {
		mrc_put_be32(p, hdr->ud.qkey);
		mrc_put_be32(p + 4, hdr->ud.src_qpn);	/* byte 4 reserved: QPN < 2^24 */
		p += MRC_WIRE_DETH_LEN;
	}
	if (op->sh & MRC_SH_MSG) {
		mrc_put_be32(p, hdr->msg.msn);
		mrc_put_be32(p + 4, hdr->msg.offset);
		mrc_put_be32(p + 8, hdr->msg.msg_len);
		p += MRC_WIRE_MSG_LEN;
	}
	if (op->sh & MRC_SH_RETH) {
		mrc_put_be64(p, hdr->msg.va);
		mrc_put_be32(p + 8, hdr->msg.rkey);
		p += MRC_WIRE_RETH_LEN;
	}
	if (op->sh & MRC_SH_RQ) {
		mrc_put_be32(p, hdr->msg.rsn);
		p += MRC_WIRE_RQ_LEN;
	}
	if (op->sh & MRC_SH_IMM) {
		mrc_put_be32(p, op->sh & MRC_SH_DETH ? hdr->ud.imm : hdr->msg.imm);
		p += MRC_WIRE_IMM_LEN;
	}
	if (op->sh & MRC_SH_READ) {
		mrc_put_be32(p, hdr->msg.read_len);
		p += MRC_WIRE_READ_LEN;
	}
	if (op->sh & MRC_SH_ATOM) {
		mrc_put_be32(p, hdr->atomic.msn);
		mrc_put_be32(p + 4, hdr->atomic.rkey);
		mrc_put_be64(p + 8, hdr->atomic.va);
		mrc_put_be64(p + 16, hdr->atomic.swap_add);
		mrc_put_be64(p + 24, hdr->atomic.compare);
		p += MRC_WIRE_ATOM_LEN;
	}
	if (op->sh & MRC_SH_ATOMR) {
		mrc_put_be32(p, hdr->atomic_resp.msn);
		mrc_put_be64(p + 4, hdr->atomic_resp.orig);
		p += MRC_WIRE_ATOMR_LEN;
	}
	if (op->sh & MRC_SH_ACK) {
		mrc_put_be32(p, hdr->ack.msn);
		mrc_put_be32(p + 4, hdr->ack.ev_port);
		p = mrc_put_sack(p + 8, &hdr->ack.sack);
	}
	if (op->sh & MRC_SH_NAK) {
		p[0] = hdr->ack.nak_code;
		p[1] = hdr->ack.nak_value;
		mrc_put_be16(p + 2, 0);
		p += MRC_WIRE_NAK_LEN;
	}
	if (op->sh & MRC_SH_PROBE) {
		mrc_put_be32(p, hdr->probe.probe_id);
		mrc_put_be32(p + 4, hdr->probe.ev);
		mrc_put_be32(p + 8, hdr->probe.reply_port);
		mrc_put_be32(p + 12, hdr->probe.service_time);
		mrc_put_be64(p + 16, hdr->probe.timestamp);
		p += MRC_WIRE_PROBE_LEN;
	}
	return (int)(p - (uint8_t *)buf);
}

/*
 * Decode the sub-headers of @op from @p (all of them readable) into @hdr.
 * Return: MRC_WIRE_OK, or MRC_WIRE_ERR_RESERVED for a reserved field that
 * has no place in the host form.
 */
static enum mrc_wire_err mrc_wire_decode(const struct mrc_op_info *op, const uint8_t *p,
					 struct mrc_pkt_hdr *hdr)
{
	if (op->sh & MRC_SH_DETH) {
		hdr->ud.qkey = mrc_get_be32(p);
		hdr->ud.src_qpn = mrc_get_be32(p + 4);	/* a reserved byte set: too wide */
		p += MRC_WIRE_DETH_LEN;
	}
	if (op->sh & MRC_SH_MSG) {
		hdr->msg.msn = mrc_get_be32(p);
		hdr->msg.offset = mrc_get_be32(p + 4);
		hdr->msg.msg_len = mrc_get_be32(p + 8);
		p += MRC_WIRE_MSG_LEN;
	}
	if (op->sh & MRC_SH_RETH) {
		hdr->msg.va = mrc_get_be64(p);
		hdr->msg.rkey = mrc_get_be32(p + 8);
		p += MRC_WIRE_RETH_LEN;
	}
	if (op->sh & MRC_SH_RQ) {
		hdr->msg.rsn = mrc_get_be32(p);
		p += MRC_WIRE_RQ_LEN;
	}
	if (op->sh & MRC_SH_IMM) {
		if (op->sh & MRC_SH_DETH)
			hdr->ud.imm = mrc_get_be32(p);
		else
			hdr->msg.imm = mrc_get_be32(p);
		p += MRC_WIRE_IMM_LEN;
	}
	if (op->sh & MRC_SH_READ) {
		hdr->msg.read_len = mrc_get_be32(p);
		p += MRC_WIRE_READ_LEN;
	}
	if (op->sh & MRC_SH_ATOM) {
		hdr->atomic.msn = mrc_get_be32(p);
		hdr->atomic.rkey = mrc_get_be32(p + 4);
		hdr->atomic.va = mrc_get_be64(p + 8);
		hdr->atomic.swap_add = mrc_get_be64(p + 16);
		hdr->atomic.compare = mrc_get_be64(p + 24);
		p += MRC_WIRE_ATOM_LEN;
	}
	if (op->sh & MRC_SH_ATOMR) {
		hdr->atomic_resp.msn = mrc_get_be32(p);
		hdr->atomic_resp.orig = mrc_get_be64(p + 4);
		p += MRC_WIRE_ATOMR_LEN;
	}
	if (op->sh & MRC_SH_ACK) {
		hdr->ack.msn = mrc_get_be32(p);
		hdr->ack.ev_port = mrc_get_be32(p + 4);
		p = mrc_get_sack(p + 8, &hdr->ack.sack);
	}
	if (op->sh & MRC_SH_NAK) {
		hdr->ack.nak_code = p[0];
		hdr->ack.nak_value = p[1];
		if (mrc_get_be16(p + 2) != 0)
			return MRC_WIRE_ERR_RESERVED;
		p += MRC_WIRE_NAK_LEN;
	}
	if (op->sh & MRC_SH_PROBE) {
		hdr->probe.probe_id = mrc_get_be32(p);
		hdr->probe.ev = mrc_get_be32(p + 4);
		hdr->probe.reply_port = mrc_get_be32(p + 8);
		hdr->probe.service_time = mrc_get_be32(p + 12);
		hdr->probe.timestamp = mrc_get_be64(p + 16);
	}
	return MRC_WIRE_OK;
}

/**
 * mrc_wire_parse() - read and validate a header from the wire.
 * @buf: the packet: the UDP payload
 * @buf_len: bytes readable at @buf, at least min(@pkt_len, MRC_WIRE_HDR_MAX)
 * @pkt_len: the whole packet's length (headers and payload)
 * @hdr: filled in on success; zero or partial on failure
 *
 * Reads at most min(@buf_len, @pkt_len) bytes, and never the extensions
 * between the opcode's headers and hdr_len, which v1 skips.  Accepting a
 * packet means: version 1, known opcode, every header present, reserved
 * bits zero and mrc_wire_check() satisfied.  The payload starts at
 * @buf + @hdr->hdr_len and is @hdr->payload_len bytes long.
 *
 * Return: MRC_WIRE_OK, or why the packet must be dropped.
 */
enum mrc_wire_err mrc_wire_parse(const void *buf, uint32_t buf_len, uint32_t pkt_len,
				 struct mrc_pkt_hdr *hdr)
{
	const struct mrc_op_info *op;
	const uint8_t *p = buf;
	enum mrc_wire_err err;
	uint32_t hdr_len;

	memset(hdr, 0, sizeof(*hdr));
	if (buf_len > pkt_len)
		buf_len = pkt_len;
	if (buf_len < 1)
		return MRC_WIRE_ERR_TRUNCATED;
	if (p[0] >> 4 != MRC_WIRE_VERSION)
		return MRC_WIRE_ERR_VERSION;
	if (buf_len < MRC_WIRE_BASE_LEN)
		return MRC_WIRE_ERR_TRUNCATED;
	if (p[0] & 0x0fU || p[4] != 0)
		return MRC_WIRE_ERR_RESERVED;
	op = mrc_op_info(p[1]);
	if (!op)
		return MRC_WIRE_ERR_OPCODE;
	hdr_len = p[2] * 4U;
	if (hdr_len < op->len)
		return MRC_WIRE_ERR_HDR_LEN;
	if (hdr_len > pkt_len || op->len > buf_len)
		return MRC_WIRE_ERR_TRUNCATED;

	hdr->opcode = p[1];
	hdr->flags = p[3];
	hdr->hdr_len = (uint16_t)hdr_len;
	hdr->payload_len = pkt_len - hdr_len;
	hdr->dest_qpn = mrc_get_be32(p + 4);
	hdr->psn = mrc_get_be32(p + 8);
	err = mrc_wire_decode(op, p + MRC_WIRE_BASE_LEN, hdr);
	if (err != MRC_WIRE_OK)
		return err;
	return mrc_wire_check(hdr, hdr->payload_len);
}

/* For traces: the opcode's name, "unknown" for anything else. */
const char *mrc_opcode_name(unsigned int opcode)
{
	const struct mrc_op_info *op = mrc_op_info(opcode);

	return op ? op->name : "unknown";
}

/* For traces and counters: the NAK code's name. */
const char *mrc_nak_code_name(unsigned int code)
{
	switch (code) {
	case MRC_NAK_RNR:
		return "rnr";
	case MRC_NAK_OUT_OF_WINDOW:
		return "out_of_window";
	case MRC_NAK_INVALID_REQUEST:
		return "invalid_request";
	case MRC_NAK_REMOTE_ACCESS:
		return "remote_access";
	case MRC_NAK_REMOTE_OP:
		return "remote_op";
	}
	return "unknown";
}

/* For counters: a printable name for each parse result. */
const char *mrc_wire_err_name(enum mrc_wire_err err)
{
	switch (err) {
	case MRC_WIRE_OK:
		return "ok";
	case MRC_WIRE_ERR_TRUNCATED:
		return "truncated";
	case MRC_WIRE_ERR_VERSION:
		return "bad_version";
	case MRC_WIRE_ERR_OPCODE:
		return "bad_opcode";
	case MRC_WIRE_ERR_HDR_LEN:
		return "bad_hdr_len";
	case MRC_WIRE_ERR_RESERVED:
		return "reserved_not_zero";
	case MRC_WIRE_ERR_FLAGS:
		return "bad_flags";
	case MRC_WIRE_ERR_QPN:
		return "bad_qpn";
	case MRC_WIRE_ERR_PAYLOAD:
		return "unexpected_payload";
	case MRC_WIRE_ERR_LENGTH:
		return "bad_length";
	case MRC_WIRE_ERR_NAK_CODE:
		return "bad_nak_code";
	case MRC_WIRE_ERR_SACK:
		return "bad_sack";
	case MRC_WIRE_ERR_COUNT:
		break;
	}
	return "unknown";
}
