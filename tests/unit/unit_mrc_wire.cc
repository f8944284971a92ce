// Unit tests for core/mrc_wire.c, in the order of its functions.
extern "C" {
#include "mrc_wire.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr uint8_t kAllOpcodes[] = {
        MRC_OP_SEND,        MRC_OP_SEND_IMM,  MRC_OP_WRITE,        MRC_OP_WRITE_IMM,
        MRC_OP_READ_REQ,    MRC_OP_READ_RESP, MRC_OP_ATOMIC_CSWAP, MRC_OP_ATOMIC_FADD,
        MRC_OP_ATOMIC_RESP, MRC_OP_ACK,       MRC_OP_NAK,          MRC_OP_PROBE,
        MRC_OP_PROBE_REPLY, MRC_OP_UD_SEND,   MRC_OP_UD_SEND_IMM,
};

constexpr uint8_t kDataOpcodes[] = {MRC_OP_SEND,       MRC_OP_SEND_IMM,  MRC_OP_WRITE,
                                    MRC_OP_WRITE_IMM,  MRC_OP_READ_RESP, MRC_OP_UD_SEND,
                                    MRC_OP_UD_SEND_IMM};

bool is_datagram(uint8_t opcode) {
    return opcode == MRC_OP_UD_SEND || opcode == MRC_OP_UD_SEND_IMM;
}

bool is_data(uint8_t opcode) {
    return std::ranges::any_of(kDataOpcodes, [opcode](uint8_t op) { return op == opcode; });
}

// A valid header of @opcode with every field at an extreme; @payload_len bytes of payload fit
// (data opcodes get a message that ends with this packet).
mrc_pkt_hdr extreme_hdr(uint8_t opcode, uint32_t payload_len = 100) {
    mrc_pkt_hdr hdr{};

    hdr.opcode = opcode;
    hdr.dest_qpn = MRC_WIRE_QPN_MAX;
    hdr.psn = 0xffffffffU;
    switch (opcode) {
    case MRC_OP_SEND:
    case MRC_OP_SEND_IMM:
    case MRC_OP_WRITE:
    case MRC_OP_WRITE_IMM:
    case MRC_OP_READ_RESP:
        hdr.msg.msn = 0xffffffffU;
        hdr.msg.msg_len = MRC_MAX_MSG_LEN;
        hdr.msg.offset = MRC_MAX_MSG_LEN - payload_len;
        break;
    case MRC_OP_READ_REQ:
        hdr.msg.msn = 0xffffffffU;
        hdr.msg.msg_len = MRC_MAX_MSG_LEN;
        hdr.msg.offset = 0;
        hdr.msg.read_len = MRC_MAX_MSG_LEN;
        break;
    case MRC_OP_ATOMIC_CSWAP:
    case MRC_OP_ATOMIC_FADD:
        hdr.atomic.msn = 0xffffffffU;
        hdr.atomic.rkey = 0xffffffffU;
        hdr.atomic.va = ~0ULL;
        hdr.atomic.swap_add = ~0ULL;
        hdr.atomic.compare = opcode == MRC_OP_ATOMIC_CSWAP ? ~0ULL : 0;
        break;
    case MRC_OP_ATOMIC_RESP:
        hdr.atomic_resp.msn = 0xffffffffU;
        hdr.atomic_resp.orig = ~0ULL;
        break;
    case MRC_OP_ACK:
    case MRC_OP_NAK:
        hdr.ack.msn = 0xffffffffU;
        hdr.ack.ev_port = 0xffffffffU;
        hdr.ack.sack.cum_psn = 0xffffffffU;
        hdr.ack.sack.sack_base = 0xffffffffU + MRC_WINDOW_MAX - 1U; // wraps
        for (uint64_t &word : hdr.ack.sack.bitmap)
            word = ~0ULL;
        if (opcode == MRC_OP_NAK) {
            hdr.ack.nak_code = MRC_NAK_RNR;
            hdr.ack.nak_value = MRC_NAK_RNR_TIMER_MAX;
        }
        break;
    case MRC_OP_PROBE:
    case MRC_OP_PROBE_REPLY:
        hdr.dest_qpn = 0;
        hdr.psn = 0;
        hdr.probe.probe_id = 0xffffffffU;
        hdr.probe.ev = 0xffffffffU;
        hdr.probe.reply_port = 0xffffffffU;
        hdr.probe.service_time = opcode == MRC_OP_PROBE_REPLY ? 0xffffffffU : 0;
        hdr.probe.timestamp = ~0ULL;
        break;
    case MRC_OP_UD_SEND:
    case MRC_OP_UD_SEND_IMM:
        hdr.flags = MRC_WIRE_F_SOLICITED;
        hdr.ud.qkey = 0xffffffffU;
        hdr.ud.src_qpn = MRC_WIRE_QPN_MAX;
        hdr.ud.imm = opcode == MRC_OP_UD_SEND_IMM ? 0xffffffffU : 0;
        break;
    }
    if (opcode == MRC_OP_SEND || opcode == MRC_OP_SEND_IMM || opcode == MRC_OP_WRITE_IMM) {
        hdr.flags = MRC_WIRE_F_ACK_REQ | MRC_WIRE_F_SOLICITED;
        hdr.msg.rsn = 0xffffffffU;
    } else if (mrc_opcode_is_request(opcode)) {
        hdr.flags = MRC_WIRE_F_ACK_REQ;
    }
    if (opcode == MRC_OP_SEND_IMM || opcode == MRC_OP_WRITE_IMM)
        hdr.msg.imm = 0xffffffffU;
    if (opcode == MRC_OP_WRITE || opcode == MRC_OP_WRITE_IMM || opcode == MRC_OP_READ_REQ) {
        hdr.msg.va = ~0ULL;
        hdr.msg.rkey = 0xffffffffU;
    }
    return hdr;
}

// The same header with every field at its smallest valid value.
mrc_pkt_hdr minimal_hdr(uint8_t opcode) {
    mrc_pkt_hdr hdr{};

    hdr.opcode = opcode;
    hdr.dest_qpn = opcode == MRC_OP_PROBE || opcode == MRC_OP_PROBE_REPLY ? 0 : 1;
    if (is_datagram(opcode))
        hdr.ud.src_qpn = 1; // the GSI QP
    if (opcode == MRC_OP_NAK)
        hdr.ack.nak_code = MRC_NAK_OUT_OF_WINDOW;
    return hdr;
}

uint32_t payload_of(uint8_t opcode) {
    return is_data(opcode) ? 100U : 0U;
}

// Header + payload, built; the payload is a byte pattern.
std::vector<uint8_t> build_pkt(const mrc_pkt_hdr &hdr, uint32_t payload_len) {
    std::vector<uint8_t> pkt(MRC_WIRE_HDR_MAX + payload_len);
    const int len = mrc_wire_build(&hdr, payload_len, pkt.data(), MRC_WIRE_HDR_MAX);

    EXPECT_GT(len, 0) << mrc_opcode_name(hdr.opcode);
    if (len <= 0)
        return {};
    pkt.resize(static_cast<size_t>(len) + payload_len);
    for (uint32_t i = 0; i < payload_len; i++)
        pkt[static_cast<size_t>(len) + i] = static_cast<uint8_t>(i * 7U + 1U);
    return pkt;
}

// Parses the first @n bytes of @pkt from a heap buffer of exactly @n bytes, so ASan flags any
// read past them.
mrc_wire_err parse_prefix(const std::vector<uint8_t> &pkt, size_t n, mrc_pkt_hdr *hdr) {
    std::unique_ptr<uint8_t[]> exact(new uint8_t[n]);

    if (n)
        memcpy(exact.get(), pkt.data(), n);
    return mrc_wire_parse(exact.get(), static_cast<uint32_t>(n), static_cast<uint32_t>(n), hdr);
}

mrc_wire_err parse(const std::vector<uint8_t> &pkt, mrc_pkt_hdr *hdr) {
    return parse_prefix(pkt, pkt.size(), hdr);
}

mrc_wire_err parse(const std::vector<uint8_t> &pkt) {
    mrc_pkt_hdr hdr;

    return parse(pkt, &hdr);
}

// The fields @opcode carries must survive build + parse.
void expect_same_fields(const mrc_pkt_hdr &a, const mrc_pkt_hdr &b) {
    EXPECT_EQ(a.opcode, b.opcode);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.dest_qpn, b.dest_qpn);
    EXPECT_EQ(a.psn, b.psn);
    switch (a.opcode) {
    case MRC_OP_ATOMIC_CSWAP:
    case MRC_OP_ATOMIC_FADD:
        EXPECT_EQ(0, memcmp(&a.atomic, &b.atomic, sizeof(a.atomic)));
        return;
    case MRC_OP_ATOMIC_RESP:
        EXPECT_EQ(a.atomic_resp.msn, b.atomic_resp.msn);
        EXPECT_EQ(a.atomic_resp.orig, b.atomic_resp.orig);
        return;
    case MRC_OP_ACK:
    case MRC_OP_NAK:
        EXPECT_EQ(a.ack.msn, b.ack.msn);
        EXPECT_EQ(a.ack.ev_port, b.ack.ev_port);
        EXPECT_EQ(0, memcmp(&a.ack.sack, &b.ack.sack, sizeof(a.ack.sack)));
        if (a.opcode == MRC_OP_NAK) {
            EXPECT_EQ(a.ack.nak_code, b.ack.nak_code);
            EXPECT_EQ(a.ack.nak_value, b.ack.nak_value);
        }
        return;
    case MRC_OP_PROBE:
    case MRC_OP_PROBE_REPLY:
        EXPECT_EQ(0, memcmp(&a.probe, &b.probe, sizeof(a.probe)));
        return;
    default:
        EXPECT_EQ(a.msg.msn, b.msg.msn);
        EXPECT_EQ(a.msg.offset, b.msg.offset);
        EXPECT_EQ(a.msg.msg_len, b.msg.msg_len);
        EXPECT_EQ(a.msg.rsn, b.msg.rsn);
        EXPECT_EQ(a.msg.imm, b.msg.imm);
        EXPECT_EQ(a.msg.rkey, b.msg.rkey);
        EXPECT_EQ(a.msg.va, b.msg.va);
        EXPECT_EQ(a.msg.read_len, b.msg.read_len);
    }
}

mrc_wire_err check(const mrc_pkt_hdr &hdr, uint32_t payload_len = 0) {
    return mrc_wire_check(&hdr, payload_len);
}

// --- mrc_wire_hdr_len ---------------------------------------------------------------------------

TEST(mrc_wire_hdr_len, every_opcode_as_documented) {
    EXPECT_EQ(28U, mrc_wire_hdr_len(MRC_OP_SEND));
    EXPECT_EQ(32U, mrc_wire_hdr_len(MRC_OP_SEND_IMM));
    EXPECT_EQ(36U, mrc_wire_hdr_len(MRC_OP_WRITE));
    EXPECT_EQ(44U, mrc_wire_hdr_len(MRC_OP_WRITE_IMM));
    EXPECT_EQ(40U, mrc_wire_hdr_len(MRC_OP_READ_REQ));
    EXPECT_EQ(24U, mrc_wire_hdr_len(MRC_OP_READ_RESP));
    EXPECT_EQ(44U, mrc_wire_hdr_len(MRC_OP_ATOMIC_CSWAP));
    EXPECT_EQ(44U, mrc_wire_hdr_len(MRC_OP_ATOMIC_FADD));
    EXPECT_EQ(24U, mrc_wire_hdr_len(MRC_OP_ATOMIC_RESP));
    EXPECT_EQ(60U, mrc_wire_hdr_len(MRC_OP_ACK));
    EXPECT_EQ(64U, mrc_wire_hdr_len(MRC_OP_NAK));
    EXPECT_EQ(36U, mrc_wire_hdr_len(MRC_OP_PROBE));
    EXPECT_EQ(36U, mrc_wire_hdr_len(MRC_OP_PROBE_REPLY));
    EXPECT_EQ(20U, mrc_wire_hdr_len(MRC_OP_UD_SEND));
    EXPECT_EQ(24U, mrc_wire_hdr_len(MRC_OP_UD_SEND_IMM));
}

TEST(mrc_wire_hdr_len, unknown_opcode) {
    EXPECT_EQ(0U, mrc_wire_hdr_len(0));
    EXPECT_EQ(0U, mrc_wire_hdr_len(MRC_OP_SEND_INV));
    EXPECT_EQ(0U, mrc_wire_hdr_len(0x06));
    EXPECT_EQ(0U, mrc_wire_hdr_len(0x32));
    EXPECT_EQ(0U, mrc_wire_hdr_len(0xff));
    EXPECT_EQ(0U, mrc_wire_hdr_len(0x1000));
}

TEST(mrc_wire_hdr_len, data_headers_fit_the_budget) {
    for (const uint8_t op : kDataOpcodes)
        EXPECT_LE(mrc_wire_hdr_len(op), MRC_WIRE_DATA_HDR_BUDGET) << mrc_opcode_name(op);
    // The device's MTU leaves exactly this much for MRC headers (../mrc_param.h).
    EXPECT_EQ(64U, MRC_WIRE_DATA_HDR_BUDGET);
}

TEST(mrc_wire_hdr_len, every_header_within_max_and_word_aligned) {
    unsigned int longest = 0;

    for (const uint8_t op : kAllOpcodes) {
        EXPECT_LE(mrc_wire_hdr_len(op), MRC_WIRE_HDR_MAX) << mrc_opcode_name(op);
        EXPECT_EQ(0U, mrc_wire_hdr_len(op) % 4U) << mrc_opcode_name(op);
        longest = std::max(longest, mrc_wire_hdr_len(op));
    }
    EXPECT_EQ(MRC_WIRE_HDR_MAX, longest);
}

// --- mrc_opcode_is_request / mrc_opcode_has_payload ---------------------------------------------

TEST(mrc_opcode_is_request, requests_and_others) {
    const std::set<uint8_t> requests = {MRC_OP_SEND,       MRC_OP_SEND_IMM, MRC_OP_WRITE,
                                        MRC_OP_WRITE_IMM,  MRC_OP_READ_REQ, MRC_OP_ATOMIC_CSWAP,
                                        MRC_OP_ATOMIC_FADD};

    for (const uint8_t op : kAllOpcodes)
        EXPECT_EQ(requests.count(op) == 1, mrc_opcode_is_request(op)) << mrc_opcode_name(op);
    EXPECT_FALSE(mrc_opcode_is_request(MRC_OP_SEND_INV));
    EXPECT_FALSE(mrc_opcode_is_request(0xff));
}

TEST(mrc_opcode_is_datagram, the_ud_sends_only) {
    for (const uint8_t op : kAllOpcodes)
        EXPECT_EQ(is_datagram(op), mrc_opcode_is_datagram(op)) << mrc_opcode_name(op);
    EXPECT_FALSE(mrc_opcode_is_datagram(0x0a));
    EXPECT_FALSE(mrc_opcode_is_datagram(0x1000));
}

TEST(mrc_opcode_has_payload, data_opcodes_only) {
    for (const uint8_t op : kAllOpcodes)
        EXPECT_EQ(is_data(op), mrc_opcode_has_payload(op)) << mrc_opcode_name(op);
    EXPECT_FALSE(mrc_opcode_has_payload(0));
    EXPECT_FALSE(mrc_opcode_has_payload(0x1000));
}

// --- mrc_wire_check -----------------------------------------------------------------------------

TEST(mrc_wire_check, extreme_and_minimal_headers_pass) {
    for (const uint8_t op : kAllOpcodes) {
        EXPECT_EQ(MRC_WIRE_OK, check(extreme_hdr(op), payload_of(op))) << mrc_opcode_name(op);
        EXPECT_EQ(MRC_WIRE_OK, check(minimal_hdr(op))) << mrc_opcode_name(op);
    }
}

TEST(mrc_wire_check, unknown_opcode) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND);

    for (const uint8_t op : {0x00, 0x03, 0x06, 0x07, 0x0a, 0x0f, 0x12, 0x1b, 0x22, 0x32, 0xff}) {
        hdr.opcode = op;
        EXPECT_EQ(MRC_WIRE_ERR_OPCODE, check(hdr)) << op;
    }
}

TEST(mrc_wire_check, reserved_flag_bits) {
    for (unsigned int bit = 0; bit < 3; bit++) {
        mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND);

        hdr.flags = static_cast<uint8_t>(1U << bit);
        EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr)) << bit;
    }
}

TEST(mrc_wire_check, solicited_only_on_receive_consuming_opcodes) {
    for (const uint8_t op : kAllOpcodes) {
        mrc_pkt_hdr hdr = minimal_hdr(op);
        const bool allowed = op == MRC_OP_SEND || op == MRC_OP_SEND_IMM || op == MRC_OP_WRITE_IMM ||
                             is_datagram(op);

        hdr.flags = MRC_WIRE_F_SOLICITED;
        EXPECT_EQ(allowed ? MRC_WIRE_OK : MRC_WIRE_ERR_FLAGS, check(hdr)) << mrc_opcode_name(op);
    }
}

TEST(mrc_wire_check, ack_req_only_on_requests) {
    for (const uint8_t op : kAllOpcodes) {
        mrc_pkt_hdr hdr = minimal_hdr(op);

        hdr.flags = MRC_WIRE_F_ACK_REQ;
        EXPECT_EQ(mrc_opcode_is_request(op) ? MRC_WIRE_OK : MRC_WIRE_ERR_FLAGS, check(hdr))
                << mrc_opcode_name(op);
    }
}

// Each flag that belongs to one opcode is refused on every other.
TEST(mrc_wire_check, opcode_specific_flags) {
    struct FlagOwner {
        uint8_t flag;
        uint8_t opcode;
    };
    constexpr FlagOwner kOwners[] = {
            {MRC_WIRE_F_CE_ECHO, MRC_OP_ACK},
            {MRC_WIRE_F_DUP, MRC_OP_ACK},
            {MRC_WIRE_F_REPLY_COPIES, MRC_OP_PROBE},
    };
    for (const FlagOwner &f : kOwners) {
        for (const uint8_t op : kAllOpcodes) {
            mrc_pkt_hdr hdr = minimal_hdr(op);

            hdr.flags = f.flag;
            EXPECT_EQ(op == f.opcode ? MRC_WIRE_OK : MRC_WIRE_ERR_FLAGS, check(hdr))
                    << mrc_opcode_name(op) << " flag " << unsigned{f.flag};
        }
    }
}

TEST(mrc_wire_check, probe_with_qpn) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_PROBE);

    hdr.dest_qpn = 1;
    EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr));
}

TEST(mrc_wire_check, probe_with_psn) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_PROBE_REPLY);

    hdr.psn = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr));
}

TEST(mrc_wire_check, qpn_zero) {
    for (const uint8_t op : kAllOpcodes) {
        mrc_pkt_hdr hdr = minimal_hdr(op);

        if (op == MRC_OP_PROBE || op == MRC_OP_PROBE_REPLY)
            continue;
        hdr.dest_qpn = 0;
        EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr)) << mrc_opcode_name(op);
    }
}

TEST(mrc_wire_check, qpn_wider_than_24_bits) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ACK);

    hdr.dest_qpn = MRC_WIRE_QPN_MAX + 1U;
    EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr));
    hdr.dest_qpn = 0xffffffffU;
    EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr));
}

// A datagram names its sender: QPN 0 is none, and QPNs have 24 bits.
TEST(mrc_wire_check, datagram_source_qpn) {
    for (const uint8_t op : {MRC_OP_UD_SEND, MRC_OP_UD_SEND_IMM}) {
        mrc_pkt_hdr hdr = minimal_hdr(op);

        EXPECT_EQ(MRC_WIRE_OK, check(hdr, 0)) << "an empty datagram";
        hdr.ud.src_qpn = 0;
        EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr)) << mrc_opcode_name(op);
        hdr.ud.src_qpn = MRC_WIRE_QPN_MAX + 1U;
        EXPECT_EQ(MRC_WIRE_ERR_QPN, check(hdr)) << mrc_opcode_name(op);
        hdr.ud.src_qpn = MRC_WIRE_QPN_MAX;
        EXPECT_EQ(MRC_WIRE_OK, check(hdr, MRC_MAX_MSG_LEN)) << "its size is the QP's to check";
    }
}

TEST(mrc_wire_check, payload_on_opcode_without_one) {
    for (const uint8_t op : kAllOpcodes) {
        if (is_data(op))
            continue;
        EXPECT_EQ(MRC_WIRE_ERR_PAYLOAD, check(minimal_hdr(op), 1)) << mrc_opcode_name(op);
    }
}

TEST(mrc_wire_check, msg_len_too_long) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_WRITE);

    hdr.msg.msg_len = MRC_MAX_MSG_LEN + 1U;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 1));
}

TEST(mrc_wire_check, zero_length_message) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND);

    EXPECT_EQ(MRC_WIRE_OK, check(hdr, 0));
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 1)); // payload past the end
    hdr.msg.offset = 1;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 0));
}

TEST(mrc_wire_check, empty_packet_of_nonempty_message) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_WRITE_IMM);

    hdr.msg.msg_len = 10;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 0));
}

TEST(mrc_wire_check, offset_at_or_past_end) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_READ_RESP);

    hdr.msg.msg_len = 4096;
    hdr.msg.offset = 4096;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 1));
    hdr.msg.offset = 0xffffffffU;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 1));
}

TEST(mrc_wire_check, payload_past_end) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND_IMM);

    hdr.msg.msg_len = 5000;
    hdr.msg.offset = 4096;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr, 904));
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 905));
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr, 0xffffffffU)); // no wrap-around
}

TEST(mrc_wire_check, read_req_span) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_READ_REQ);

    EXPECT_EQ(MRC_WIRE_OK, check(hdr)); // zero-length READ
    hdr.msg.read_len = 1;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr)); // asks past a zero-length message
    hdr.msg.msg_len = 8192;
    hdr.msg.offset = 4096;
    hdr.msg.read_len = 4096;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr)); // a re-request of the tail
    hdr.msg.read_len = 0;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr));
    hdr.msg.read_len = 4097;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr));
    hdr.msg.offset = 8192;
    hdr.msg.read_len = 1;
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, check(hdr));
}

TEST(mrc_wire_check, fadd_with_compare) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ATOMIC_FADD);

    hdr.atomic.compare = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr));
    hdr.opcode = MRC_OP_ATOMIC_CSWAP;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr));
}

TEST(mrc_wire_check, nak_codes) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_NAK);

    for (const uint8_t code : {MRC_NAK_RNR, MRC_NAK_OUT_OF_WINDOW, MRC_NAK_INVALID_REQUEST,
                               MRC_NAK_REMOTE_ACCESS, MRC_NAK_REMOTE_OP}) {
        hdr.ack.nak_code = code;
        EXPECT_EQ(MRC_WIRE_OK, check(hdr)) << static_cast<int>(code);
    }
    for (const uint8_t code : {0, 6, 0xff}) {
        hdr.ack.nak_code = code;
        EXPECT_EQ(MRC_WIRE_ERR_NAK_CODE, check(hdr)) << static_cast<int>(code);
    }
}

TEST(mrc_wire_check, nak_rnr_timer_too_big) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_NAK);

    hdr.ack.nak_code = MRC_NAK_RNR;
    hdr.ack.nak_value = MRC_NAK_RNR_TIMER_MAX + 1U;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr));
}

TEST(mrc_wire_check, nak_value_on_other_codes) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_NAK);

    hdr.ack.nak_code = MRC_NAK_REMOTE_ACCESS;
    hdr.ack.nak_value = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr));
}

TEST(mrc_wire_check, nak_fields_ignored_on_ack) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ACK);

    hdr.ack.nak_code = 0xff;
    hdr.ack.nak_value = 0xff;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr));
}

TEST(mrc_wire_check, sack_base_before_cum) {
    for (const uint8_t op : {MRC_OP_ACK, MRC_OP_NAK}) {
        mrc_pkt_hdr hdr = minimal_hdr(op);

        hdr.ack.sack.cum_psn = 100;
        hdr.ack.sack.sack_base = 99;
        EXPECT_EQ(MRC_WIRE_ERR_SACK, check(hdr)) << mrc_opcode_name(op);
    }
}

TEST(mrc_wire_check, sack_base_beyond_any_window) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ACK);

    hdr.ack.sack.cum_psn = 0xfffffff0U;
    hdr.ack.sack.sack_base = 0xfffffff0U + MRC_WINDOW_MAX - 1U;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr));
    hdr.ack.sack.sack_base++;
    EXPECT_EQ(MRC_WIRE_ERR_SACK, check(hdr));
}

TEST(mrc_wire_check, sack_claims_cum_received) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ACK);

    hdr.ack.sack.cum_psn = 7;
    hdr.ack.sack.sack_base = 7;
    hdr.ack.sack.bitmap[0] = 1;
    EXPECT_EQ(MRC_WIRE_ERR_SACK, check(hdr));
    hdr.ack.sack.sack_base = 8; // bit 0 is PSN 8 now
    EXPECT_EQ(MRC_WIRE_OK, check(hdr));
}

TEST(mrc_wire_check, probe_service_time) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_PROBE);

    hdr.probe.service_time = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, check(hdr));
    hdr.opcode = MRC_OP_PROBE_REPLY;
    EXPECT_EQ(MRC_WIRE_OK, check(hdr));
}

// --- mrc_wire_build -----------------------------------------------------------------------------

TEST(mrc_wire_build, round_trip_every_opcode_extreme) {
    for (const uint8_t op : kAllOpcodes) {
        const mrc_pkt_hdr hdr = extreme_hdr(op);
        const std::vector<uint8_t> pkt = build_pkt(hdr, payload_of(op));
        mrc_pkt_hdr out;

        ASSERT_EQ(MRC_WIRE_OK, parse(pkt, &out)) << mrc_opcode_name(op);
        expect_same_fields(hdr, out);
        EXPECT_EQ(mrc_wire_hdr_len(op), out.hdr_len);
        EXPECT_EQ(payload_of(op), out.payload_len);
    }
}

TEST(mrc_wire_build, round_trip_every_opcode_minimal) {
    for (const uint8_t op : kAllOpcodes) {
        const mrc_pkt_hdr hdr = minimal_hdr(op);
        const std::vector<uint8_t> pkt = build_pkt(hdr, 0);
        mrc_pkt_hdr out;

        ASSERT_EQ(MRC_WIRE_OK, parse(pkt, &out)) << mrc_opcode_name(op);
        expect_same_fields(hdr, out);
        EXPECT_EQ(0U, out.payload_len);
    }
}

TEST(mrc_wire_build, parse_zeroes_fields_the_opcode_lacks) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND);
    mrc_pkt_hdr out;

    hdr.msg.va = 42; // SEND carries no RETH: ignored by build
    hdr.msg.imm = 42;
    hdr.hdr_len = 999;
    hdr.payload_len = 999;
    ASSERT_EQ(MRC_WIRE_OK, parse(build_pkt(hdr, 0), &out));
    EXPECT_EQ(0U, out.msg.va);
    EXPECT_EQ(0U, out.msg.imm);
    EXPECT_EQ(28U, out.hdr_len);
}

TEST(mrc_wire_build, golden_write_imm) {
    mrc_pkt_hdr hdr{};
    uint8_t buf[MRC_WIRE_HDR_MAX];
    const uint8_t want[] = {
            0x10, 0x05, 0x0b, 0xc0, 0x00, 0x12, 0x34, 0x56, 0x89, 0xab, 0xcd, 0xef, // base
            0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x23, 0x45, // MSG
            0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0xde, 0xad, 0xbe, 0xef, // RETH
            0x0a, 0x0b, 0x0c, 0x0d,                                                 // RQ
            0xca, 0xfe, 0xf0, 0x0d,                                                 // IMM
    };

    hdr.opcode = MRC_OP_WRITE_IMM;
    hdr.flags = MRC_WIRE_F_ACK_REQ | MRC_WIRE_F_SOLICITED;
    hdr.dest_qpn = 0x123456;
    hdr.psn = 0x89abcdef;
    hdr.msg.msn = 0x01020304;
    hdr.msg.offset = 0x1000;
    hdr.msg.msg_len = 0x2345;
    hdr.msg.va = 0x1122334455667788ULL;
    hdr.msg.rkey = 0xdeadbeef;
    hdr.msg.rsn = 0x0a0b0c0d;
    hdr.msg.imm = 0xcafef00d;
    ASSERT_EQ(static_cast<int>(sizeof(want)), mrc_wire_build(&hdr, 0x1345, buf, sizeof(buf)));
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_wire_build, golden_nak) {
    mrc_pkt_hdr hdr{};
    uint8_t buf[MRC_WIRE_HDR_MAX];
    const uint8_t want[] = {
            0x10, 0x21, 0x10, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x64, // base
            0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0xc0, 0x01,                         // msn, ev
            0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x64,                         // cum, base
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,                         // bitmap[0]
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,                         // bitmap[1]
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,                         // bitmap[2]
            0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,                         // bitmap[3]
            0x01, 0x0e, 0x00, 0x00,                                                 // NAK
    };

    hdr.opcode = MRC_OP_NAK;
    hdr.dest_qpn = 1;
    hdr.psn = 100;
    hdr.ack.msn = 7;
    hdr.ack.ev_port = 0xc001;
    hdr.ack.sack.cum_psn = 100;
    hdr.ack.sack.sack_base = 100;
    hdr.ack.sack.bitmap[0] = 0x2;                   // PSN 101 arrived
    hdr.ack.sack.bitmap[3] = 0x8000000000000000ULL; // PSN 100 + 255 arrived
    hdr.ack.nak_code = MRC_NAK_RNR;
    hdr.ack.nak_value = 14;
    ASSERT_EQ(static_cast<int>(sizeof(want)), mrc_wire_build(&hdr, 0, buf, sizeof(buf)));
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_wire_build, golden_probe_reply) {
    mrc_pkt_hdr hdr{};
    uint8_t buf[MRC_WIRE_HDR_MAX];
    const uint8_t want[] = {
            0x10, 0x31, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // base
            0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0xc0, 0x07, 0x00, 0x00, 0xd0, 0x00, // id, ev, rev
            0x00, 0x00, 0x03, 0xe8,                                                 // svc time
            0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,                         // timestamp
    };

    hdr.opcode = MRC_OP_PROBE_REPLY;
    hdr.probe.probe_id = 42;
    hdr.probe.ev = 0xc007;
    hdr.probe.reply_port = 0xd000;
    hdr.probe.service_time = 1000;
    hdr.probe.timestamp = 0x0123456789abcdefULL;
    ASSERT_EQ(static_cast<int>(sizeof(want)), mrc_wire_build(&hdr, 0, buf, sizeof(buf)));
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_wire_build, golden_ud_send_imm) {
    mrc_pkt_hdr hdr{};
    uint8_t buf[MRC_WIRE_HDR_MAX];
    const uint8_t want[] = {
            0x10, 0x09, 0x06, 0x40, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, // base
            0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34,                         // DETH
            0xca, 0xfe, 0xba, 0xbe,                                                 // IMM
    };

    hdr.opcode = MRC_OP_UD_SEND_IMM;
    hdr.flags = MRC_WIRE_F_SOLICITED;
    hdr.dest_qpn = 1;
    hdr.psn = 7;
    hdr.ud.qkey = 0x80010000U; // the GSI QP's well-known Q_Key
    hdr.ud.src_qpn = 0x1234;
    hdr.ud.imm = 0xcafebabeU;
    ASSERT_EQ(static_cast<int>(sizeof(want)), mrc_wire_build(&hdr, 256, buf, sizeof(buf)));
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_wire_build, refuses_what_check_refuses) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_ACK);
    uint8_t buf[MRC_WIRE_HDR_MAX];

    memset(buf, 0xa5, sizeof(buf));
    hdr.dest_qpn = MRC_WIRE_QPN_MAX + 1U;
    EXPECT_EQ(-MRC_EINVAL, mrc_wire_build(&hdr, 0, buf, sizeof(buf)));
    hdr = minimal_hdr(MRC_OP_SEND);
    EXPECT_EQ(-MRC_EINVAL, mrc_wire_build(&hdr, 1, buf, sizeof(buf))); // past a 0-byte message
    hdr.opcode = MRC_OP_SEND_INV;
    EXPECT_EQ(-MRC_EINVAL, mrc_wire_build(&hdr, 0, buf, sizeof(buf)));
    for (const uint8_t byte : buf)
        EXPECT_EQ(0xa5, byte);
}

TEST(mrc_wire_build, buffer_too_small) {
    for (const uint8_t op : kAllOpcodes) {
        const mrc_pkt_hdr hdr = minimal_hdr(op);
        const uint32_t len = mrc_wire_hdr_len(op);
        std::vector<uint8_t> buf(len + 1U, 0xa5);

        EXPECT_EQ(-MRC_ENOSPC, mrc_wire_build(&hdr, 0, buf.data(), len - 1U));
        EXPECT_EQ(0xa5, buf[0]);
        // Exactly enough: writes the header and not a byte more.
        EXPECT_EQ(static_cast<int>(len), mrc_wire_build(&hdr, 0, buf.data(), len));
        EXPECT_EQ(0xa5, buf[len]);
    }
}

// --- mrc_wire_parse -----------------------------------------------------------------------------

class WireParse : public ::testing::Test {
protected:
    // A valid SEND of 8 payload bytes that ends its message.
    void SetUp() override {
        hdr = minimal_hdr(MRC_OP_SEND);
        hdr.msg.msg_len = 8;
        pkt = build_pkt(hdr, 8);
    }

    mrc_pkt_hdr hdr{};
    std::vector<uint8_t> pkt;
};

TEST_F(WireParse, accepts_valid) {
    mrc_pkt_hdr out;

    ASSERT_EQ(MRC_WIRE_OK, parse(pkt, &out));
    EXPECT_EQ(28U, out.hdr_len);
    EXPECT_EQ(8U, out.payload_len);
    EXPECT_EQ(pkt[28], 1); // the payload pattern starts at hdr_len
}

TEST_F(WireParse, empty) {
    EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, parse_prefix(pkt, 0, &hdr));
}

TEST_F(WireParse, bad_version) {
    for (const uint8_t version : {0, 2, 15}) {
        pkt[0] = static_cast<uint8_t>(version << 4);
        EXPECT_EQ(MRC_WIRE_ERR_VERSION, parse(pkt)) << static_cast<int>(version);
        // The version is judged from the first byte alone.
        EXPECT_EQ(MRC_WIRE_ERR_VERSION, parse_prefix(pkt, 1, &hdr));
    }
}

TEST_F(WireParse, shorter_than_base_header) {
    for (size_t n = 1; n < MRC_WIRE_BASE_LEN; n++)
        EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, parse_prefix(pkt, n, &hdr)) << n;
}

TEST_F(WireParse, reserved_low_nibble_of_version_byte) {
    pkt[0] |= 0x01;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(pkt));
}

TEST_F(WireParse, reserved_byte_before_qpn) {
    pkt[4] = 0x80;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(pkt));
}

TEST_F(WireParse, reserved_flag_bit) {
    pkt[3] |= 0x01;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(pkt));
}

TEST_F(WireParse, unknown_opcode) {
    pkt[1] = MRC_OP_SEND_INV;
    EXPECT_EQ(MRC_WIRE_ERR_OPCODE, parse(pkt));
    pkt[1] = 0xff;
    EXPECT_EQ(MRC_WIRE_ERR_OPCODE, parse(pkt));
}

TEST_F(WireParse, hdr_len_shorter_than_opcode_headers) {
    pkt[2] = 28 / 4 - 1;
    EXPECT_EQ(MRC_WIRE_ERR_HDR_LEN, parse(pkt));
    pkt[2] = 0;
    EXPECT_EQ(MRC_WIRE_ERR_HDR_LEN, parse(pkt));
}

TEST_F(WireParse, hdr_len_past_packet) {
    pkt[2] = static_cast<uint8_t>((pkt.size() + 4U) / 4U);
    EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, parse(pkt));
    pkt[2] = 0xff;
    EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, parse(pkt));
}

TEST_F(WireParse, extensions_are_skipped) {
    mrc_pkt_hdr out;

    // 8 bytes of a future extension between the SEND headers and the payload.
    pkt.insert(pkt.begin() + 28, {0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xff});
    pkt[2] = 36 / 4;
    ASSERT_EQ(MRC_WIRE_OK, parse(pkt, &out));
    EXPECT_EQ(36U, out.hdr_len);
    EXPECT_EQ(8U, out.payload_len);
}

TEST_F(WireParse, extension_not_read_past_buf_len) {
    std::vector<uint8_t> big(MRC_WIRE_HDR_MAX + 200U, 0);
    std::unique_ptr<uint8_t[]> head(new uint8_t[MRC_WIRE_HDR_MAX]);
    mrc_pkt_hdr out;

    // 100 bytes of extensions: hdr_len 128, beyond the 64 bytes a receiver pulls.
    memcpy(big.data(), pkt.data(), 28);
    big[2] = 128 / 4;
    memcpy(head.get(), big.data(), MRC_WIRE_HDR_MAX);
    ASSERT_EQ(MRC_WIRE_OK,
              mrc_wire_parse(head.get(), MRC_WIRE_HDR_MAX, static_cast<uint32_t>(128U + 8U), &out));
    EXPECT_EQ(128U, out.hdr_len);
    EXPECT_EQ(8U, out.payload_len);
}

TEST_F(WireParse, buf_len_shorter_than_opcode_headers) {
    mrc_pkt_hdr out;

    // The caller pulled too little: refused, not read past.
    std::unique_ptr<uint8_t[]> head(new uint8_t[20]);
    memcpy(head.get(), pkt.data(), 20);
    EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED,
              mrc_wire_parse(head.get(), 20, static_cast<uint32_t>(pkt.size()), &out));
}

TEST_F(WireParse, buf_len_beyond_pkt_len_is_clamped) {
    mrc_pkt_hdr out;

    ASSERT_EQ(MRC_WIRE_OK, mrc_wire_parse(pkt.data(), static_cast<uint32_t>(pkt.size()),
                                          static_cast<uint32_t>(pkt.size()) - 1U, &out));
    EXPECT_EQ(7U, out.payload_len);
    EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, mrc_wire_parse(pkt.data(), 100, 27, &out));
}

TEST_F(WireParse, qpn_zero) {
    pkt[7] = 0;
    EXPECT_EQ(MRC_WIRE_ERR_QPN, parse(pkt));
}

TEST_F(WireParse, flag_not_allowed) {
    mrc_pkt_hdr ack = minimal_hdr(MRC_OP_ACK);
    std::vector<uint8_t> bytes = build_pkt(ack, 0);

    bytes[3] = MRC_WIRE_F_ACK_REQ;
    EXPECT_EQ(MRC_WIRE_ERR_FLAGS, parse(bytes));
}

TEST_F(WireParse, payload_on_ack) {
    std::vector<uint8_t> bytes = build_pkt(minimal_hdr(MRC_OP_ACK), 0);

    bytes.push_back(0);
    EXPECT_EQ(MRC_WIRE_ERR_PAYLOAD, parse(bytes));
}

TEST_F(WireParse, payload_past_message_end) {
    pkt.push_back(0);
    EXPECT_EQ(MRC_WIRE_ERR_LENGTH, parse(pkt));
}

// The byte before a datagram's source QPN is reserved: set, the QPN reads too wide.
TEST(mrc_wire_parse, datagram_reserved_byte_before_source_qpn) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_UD_SEND);
    std::vector<uint8_t> pkt = build_pkt(hdr, 8);
    mrc_pkt_hdr got{};

    ASSERT_EQ(MRC_WIRE_OK, mrc_wire_parse(pkt.data(), static_cast<uint32_t>(pkt.size()),
                                          static_cast<uint32_t>(pkt.size()), &got));
    EXPECT_EQ(1U, got.ud.src_qpn);
    EXPECT_EQ(8U, got.payload_len);
    pkt[MRC_WIRE_BASE_LEN + 4] = 0x01;
    EXPECT_EQ(MRC_WIRE_ERR_QPN, mrc_wire_parse(pkt.data(), static_cast<uint32_t>(pkt.size()),
                                               static_cast<uint32_t>(pkt.size()), &got));
}

TEST_F(WireParse, nak_reserved_bytes) {
    mrc_pkt_hdr nak = minimal_hdr(MRC_OP_NAK);
    std::vector<uint8_t> bytes = build_pkt(nak, 0);

    bytes[62] = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(bytes));
    bytes[62] = 0;
    bytes[63] = 0x80;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(bytes));
}

TEST_F(WireParse, nak_unknown_code) {
    std::vector<uint8_t> bytes = build_pkt(minimal_hdr(MRC_OP_NAK), 0);

    bytes[60] = 0x7f;
    EXPECT_EQ(MRC_WIRE_ERR_NAK_CODE, parse(bytes));
}

TEST_F(WireParse, bad_sack) {
    std::vector<uint8_t> bytes = build_pkt(minimal_hdr(MRC_OP_ACK), 0);

    bytes[35] = 1; // bitmap[0] bit 0: cum_psn itself received
    EXPECT_EQ(MRC_WIRE_ERR_SACK, parse(bytes));
}

TEST_F(WireParse, fadd_compare_not_zero) {
    std::vector<uint8_t> bytes = build_pkt(minimal_hdr(MRC_OP_ATOMIC_FADD), 0);

    bytes[43] = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(bytes));
}

TEST_F(WireParse, probe_psn_not_zero) {
    std::vector<uint8_t> bytes = build_pkt(minimal_hdr(MRC_OP_PROBE), 0);

    bytes[11] = 1;
    EXPECT_EQ(MRC_WIRE_ERR_RESERVED, parse(bytes));
}

// Every prefix of every valid packet: a prefix that cuts a header is refused as truncated; one
// that cuts only the payload is a shorter packet, valid unless it leaves a non-empty message's
// packet with no payload at all (a datagram states no length: each of its prefixes is one).
TEST(mrc_wire_parse, every_truncation_of_valid_packets) {
    for (const uint8_t op : kAllOpcodes) {
        const std::vector<uint8_t> pkt = build_pkt(extreme_hdr(op), payload_of(op));
        const size_t hdr_len = mrc_wire_hdr_len(op);

        ASSERT_FALSE(pkt.empty());
        for (size_t n = 0; n < pkt.size(); n++) {
            mrc_pkt_hdr out;
            const mrc_wire_err err = parse_prefix(pkt, n, &out);

            if (n < hdr_len)
                EXPECT_EQ(MRC_WIRE_ERR_TRUNCATED, err) << mrc_opcode_name(op) << " " << n;
            else if (n == hdr_len && !is_datagram(op))
                EXPECT_EQ(MRC_WIRE_ERR_LENGTH, err) << mrc_opcode_name(op);
            else
                EXPECT_EQ(MRC_WIRE_OK, err) << mrc_opcode_name(op) << " " << n;
        }
    }
}

// Random bytes, most of them shaped like a v1 header so they get past the first checks. Under
// ASan any read past the exact-size buffer aborts the test; whatever is accepted must re-encode
// to the very same header bytes.
TEST(mrc_wire_parse, random_bytes_never_read_out_of_bounds) {
    std::mt19937 rng(20240601);
    size_t accepted = 0;

    for (int iter = 0; iter < 200000; iter++) {
        const size_t n = rng() % (MRC_WIRE_HDR_MAX + 40U);
        std::vector<uint8_t> pkt(n);
        mrc_pkt_hdr out;

        for (uint8_t &byte : pkt)
            byte = static_cast<uint8_t>(rng() % 4U == 0 ? 0 : rng());
        if (n >= 12 && rng() % 4U != 0) {
            const uint8_t op = kAllOpcodes[rng() % std::size(kAllOpcodes)];

            pkt[0] = MRC_WIRE_VERSION << 4;
            pkt[1] = op;
            pkt[2] = static_cast<uint8_t>(mrc_wire_hdr_len(op) / 4U + (rng() % 8U == 0 ? 1U : 0U));
            pkt[3] &= MRC_WIRE_F_ALL;
            pkt[4] = 0;
        }
        const mrc_wire_err err = parse(pkt, &out);
        if (err != MRC_WIRE_OK)
            continue;
        accepted++;
        ASSERT_LE(out.hdr_len + out.payload_len, n);
        ASSERT_EQ(n, out.hdr_len + out.payload_len);
        if (out.hdr_len == mrc_wire_hdr_len(out.opcode)) {
            std::vector<uint8_t> again(MRC_WIRE_HDR_MAX);

            ASSERT_EQ(static_cast<int>(out.hdr_len),
                      mrc_wire_build(&out, out.payload_len, again.data(), MRC_WIRE_HDR_MAX));
            ASSERT_EQ(0, memcmp(again.data(), pkt.data(), out.hdr_len));
        }
    }
    EXPECT_GT(accepted, 100U); // the generator does reach the deep checks
}

// Valid packets of every opcode with a few random bits flipped: whatever still parses must
// re-encode to the same header bytes, so no field is dropped or misplaced by either direction.
TEST(mrc_wire_parse, bit_flips_of_valid_packets) {
    std::mt19937 rng(4791);
    size_t accepted = 0;

    for (int iter = 0; iter < 100000; iter++) {
        const uint8_t op = kAllOpcodes[rng() % std::size(kAllOpcodes)];
        const bool extreme = rng() % 2U != 0;
        const mrc_pkt_hdr hdr = extreme ? extreme_hdr(op) : minimal_hdr(op);
        std::vector<uint8_t> pkt = build_pkt(hdr, extreme ? payload_of(op) : 0U);
        mrc_pkt_hdr out;

        for (unsigned int flips = 1 + rng() % 3U; flips > 0; flips--)
            pkt[rng() % pkt.size()] ^= static_cast<uint8_t>(1U << (rng() % 8U));
        if (parse(pkt, &out) != MRC_WIRE_OK)
            continue;
        accepted++;
        ASSERT_EQ(pkt.size(), out.hdr_len + out.payload_len);
        if (out.hdr_len == mrc_wire_hdr_len(out.opcode)) {
            std::vector<uint8_t> again(MRC_WIRE_HDR_MAX);

            ASSERT_EQ(static_cast<int>(out.hdr_len),
                      mrc_wire_build(&out, out.payload_len, again.data(), MRC_WIRE_HDR_MAX));
            ASSERT_EQ(0, memcmp(again.data(), pkt.data(), out.hdr_len));
        }
    }
    EXPECT_GT(accepted, 10000U);
}

// --- mrc_pkt_is_first / mrc_pkt_is_last ---------------------------------------------------------

TEST(mrc_pkt_is_first, offset_zero) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_WRITE);

    hdr.msg.msg_len = 5000;
    EXPECT_TRUE(mrc_pkt_is_first(&hdr));
    hdr.msg.offset = 4096;
    EXPECT_FALSE(mrc_pkt_is_first(&hdr));
}

TEST(mrc_pkt_is_last, payload_ends_message) {
    mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_WRITE);

    hdr.msg.msg_len = 5000;
    EXPECT_FALSE(mrc_pkt_is_last(&hdr, 4096));
    hdr.msg.offset = 4096;
    EXPECT_TRUE(mrc_pkt_is_last(&hdr, 904));
}

TEST(mrc_pkt_is_last, zero_length_message_is_first_and_last) {
    const mrc_pkt_hdr hdr = minimal_hdr(MRC_OP_SEND);

    EXPECT_TRUE(mrc_pkt_is_first(&hdr));
    EXPECT_TRUE(mrc_pkt_is_last(&hdr, 0));
}

// --- names --------------------------------------------------------------------------------------

TEST(mrc_opcode_name, known_and_unknown) {
    EXPECT_STREQ("WRITE_IMM", mrc_opcode_name(MRC_OP_WRITE_IMM));
    EXPECT_STREQ("PROBE_REPLY", mrc_opcode_name(MRC_OP_PROBE_REPLY));
    EXPECT_STREQ("unknown", mrc_opcode_name(MRC_OP_SEND_INV));
    EXPECT_STREQ("unknown", mrc_opcode_name(0x1000));
}

TEST(mrc_nak_code_name, known_and_unknown) {
    EXPECT_STREQ("rnr", mrc_nak_code_name(MRC_NAK_RNR));
    EXPECT_STREQ("remote_op", mrc_nak_code_name(MRC_NAK_REMOTE_OP));
    EXPECT_STREQ("unknown", mrc_nak_code_name(0));
}

TEST(mrc_wire_err_name, every_error_has_its_own_name) {
    std::set<std::string> names;

    for (int err = MRC_WIRE_OK; err < MRC_WIRE_ERR_COUNT; err++) {
        const std::string name = mrc_wire_err_name(static_cast<mrc_wire_err>(err));

        EXPECT_NE("unknown", name) << err;
        names.insert(name);
    }
    EXPECT_EQ(static_cast<size_t>(MRC_WIRE_ERR_COUNT), names.size());
    EXPECT_STREQ("unknown", mrc_wire_err_name(MRC_WIRE_ERR_COUNT));
}

} // namespace
