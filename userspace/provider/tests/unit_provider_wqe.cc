// SPDX-License-Identifier: BSD-2-Clause
// Unit tests for wqe.h, in the order of its functions: what a slot can carry, send and receive
// entries as the kernel reads them back, completions as ibv_poll_cq reports them.
#include "wqe.h"

#include <array>
#include <cstring>
#include <vector>

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "fake_kernel.h"

namespace {

using mrc_test::parse_recv;
using mrc_test::parse_send;

constexpr std::uint32_t kSlot = 128; // header + 4 SGEs, or 64 bytes inline

std::uint64_t addr_of(const void *p) {
    return reinterpret_cast<std::uintptr_t>(p);
}

// A slot-sized buffer, filled with a pattern so that unwritten bytes show.
struct Slot {
    explicit Slot(std::uint32_t size = kSlot) : bytes(size, std::uint8_t{0xa5}) {}
    std::span<std::byte> span() { return std::as_writable_bytes(std::span(bytes)); }
    std::vector<std::uint8_t> bytes;
};

ibv_send_wr send_wr(ibv_wr_opcode opcode, std::span<ibv_sge> sges, unsigned int flags = 0) {
    ibv_send_wr wr{};
    wr.wr_id = 0x1122334455667788ULL;
    wr.opcode = opcode;
    wr.send_flags = flags;
    wr.sg_list = sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    return wr;
}

TEST(send_max_inline, is_what_follows_the_header) {
    EXPECT_EQ(64U, mrc::send_max_inline(128));
    EXPECT_EQ(0U, mrc::send_max_inline(64));
    EXPECT_EQ(0U, mrc::send_max_inline(16));
}

TEST(send_max_sge, counts_whole_sges) {
    EXPECT_EQ(4U, mrc::send_max_sge(128));
    EXPECT_EQ(1U, mrc::send_max_sge(80));
    EXPECT_EQ(0U, mrc::send_max_sge(64));
}

TEST(recv_max_sge, counts_whole_sges) {
    EXPECT_EQ(7U, mrc::recv_max_sge(128));
    EXPECT_EQ(1U, mrc::recv_max_sge(32));
    EXPECT_EQ(0U, mrc::recv_max_sge(16));
}

TEST(format_send_wqe, send_with_sges) {
    std::array<ibv_sge, 2> sges = {{{.addr = 0x1000, .length = 100, .lkey = 7},
                                    {.addr = 0x2000, .length = 200, .lkey = 8}}};
    const ibv_send_wr wr = send_wr(IBV_WR_SEND, sges, IBV_SEND_SIGNALED);
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));

    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(wr.wr_id, e.wqe.wr_id);
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_SEND), e.wqe.opcode);
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_SEND_SIGNALED), e.wqe.send_flags);
    EXPECT_EQ(0U, e.wqe.ex);
    EXPECT_EQ(0U, e.wqe.inline_len);
    EXPECT_EQ(0U, e.wqe.reserved);
    EXPECT_EQ(0U, e.wqe.wr.rdma.remote_addr);
    ASSERT_EQ(2U, e.sges.size());
    EXPECT_EQ(0x1000U, e.sges[0].addr);
    EXPECT_EQ(100U, e.sges[0].length);
    EXPECT_EQ(7U, e.sges[0].lkey);
    EXPECT_EQ(0x2000U, e.sges[1].addr);
    EXPECT_EQ(200U, e.sges[1].length);
    EXPECT_EQ(8U, e.sges[1].lkey);
}

TEST(format_send_wqe, send_without_sges) {
    const ibv_send_wr wr = send_wr(IBV_WR_SEND, {});
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    EXPECT_EQ(0U, parse_send(slot.bytes.data()).wqe.num_sge);
}

TEST(format_send_wqe, send_with_imm_carries_imm_in_network_order) {
    ibv_send_wr wr = send_wr(IBV_WR_SEND_WITH_IMM, {});
    wr.imm_data = htonl(0xdeadbeef);
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    EXPECT_EQ(htonl(0xdeadbeef), parse_send(slot.bytes.data()).wqe.ex);
}

TEST(format_send_wqe, rdma_write_carries_remote_address_and_rkey) {
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 4096, .lkey = 3}}};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE, sges);
    wr.wr.rdma.remote_addr = 0xabcdef0012345678ULL;
    wr.wr.rdma.rkey = 0x4242;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_RDMA_WRITE), e.wqe.opcode);
    EXPECT_EQ(0xabcdef0012345678ULL, e.wqe.wr.rdma.remote_addr);
    EXPECT_EQ(0x4242U, e.wqe.wr.rdma.rkey);
    EXPECT_EQ(0U, e.wqe.ex);
    EXPECT_EQ(1U, e.sges.size());
}

TEST(format_send_wqe, rdma_write_with_imm_carries_both) {
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE_WITH_IMM, {});
    wr.imm_data = htonl(5);
    wr.wr.rdma.remote_addr = 0x7000;
    wr.wr.rdma.rkey = 9;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(htonl(5), e.wqe.ex);
    EXPECT_EQ(0x7000U, e.wqe.wr.rdma.remote_addr);
    EXPECT_EQ(9U, e.wqe.wr.rdma.rkey);
}

TEST(format_send_wqe, rdma_read_carries_remote_address_and_rkey) {
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 64, .lkey = 3}}};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_READ, sges);
    wr.wr.rdma.remote_addr = 0x8000;
    wr.wr.rdma.rkey = 11;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_RDMA_READ), e.wqe.opcode);
    EXPECT_EQ(0x8000U, e.wqe.wr.rdma.remote_addr);
    EXPECT_EQ(11U, e.wqe.wr.rdma.rkey);
}

TEST(format_send_wqe, rdma_read_inline_is_einval) {
    std::array<std::uint8_t, 8> data{};
    std::array<ibv_sge, 1> sges = {{{.addr = addr_of(data.data()), .length = 8, .lkey = 0}}};
    Slot slot;
    EXPECT_EQ(EINVAL,
              mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_RDMA_READ, sges, IBV_SEND_INLINE)));
}

TEST(format_send_wqe, atomic_cmp_and_swp_carries_operands) {
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 8, .lkey = 3}}};
    ibv_send_wr wr = send_wr(IBV_WR_ATOMIC_CMP_AND_SWP, sges, IBV_SEND_SIGNALED);
    wr.wr.atomic.remote_addr = 0x9008;
    wr.wr.atomic.compare_add = 0x1111222233334444ULL;
    wr.wr.atomic.swap = 0x5555666677778888ULL;
    wr.wr.atomic.rkey = 12;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_ATOMIC_CMP_AND_SWP), e.wqe.opcode);
    EXPECT_EQ(0x9008U, e.wqe.wr.atomic.remote_addr);
    EXPECT_EQ(0x1111222233334444ULL, e.wqe.wr.atomic.compare_add);
    EXPECT_EQ(0x5555666677778888ULL, e.wqe.wr.atomic.swap);
    EXPECT_EQ(12U, e.wqe.wr.atomic.rkey);
    ASSERT_EQ(1U, e.sges.size());
    EXPECT_EQ(8U, e.sges[0].length);
}

TEST(format_send_wqe, atomic_fetch_and_add_carries_operand) {
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 8, .lkey = 3}}};
    ibv_send_wr wr = send_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, sges);
    wr.wr.atomic.remote_addr = 0x9010;
    wr.wr.atomic.compare_add = 3;
    wr.wr.atomic.rkey = 13;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_ATOMIC_FETCH_AND_ADD), e.wqe.opcode);
    EXPECT_EQ(0x9010U, e.wqe.wr.atomic.remote_addr);
    EXPECT_EQ(3U, e.wqe.wr.atomic.compare_add);
    EXPECT_EQ(13U, e.wqe.wr.atomic.rkey);
}

TEST(format_send_wqe, atomic_needs_one_8_byte_sge) {
    std::array<ibv_sge, 2> sges = {
            {{.addr = 0x1000, .length = 8, .lkey = 3}, {.addr = 0x2000, .length = 8, .lkey = 3}}};
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, {})));
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_ATOMIC_CMP_AND_SWP, sges)));
    sges[0].length = 4;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(),
                                           send_wr(IBV_WR_ATOMIC_CMP_AND_SWP, {sges.data(), 1})));
}

TEST(format_send_wqe, atomic_inline_is_einval) {
    std::array<std::uint64_t, 1> data{};
    std::array<ibv_sge, 1> sges = {{{.addr = addr_of(data.data()), .length = 8, .lkey = 0}}};
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_ATOMIC_FETCH_AND_ADD, sges,
                                                                IBV_SEND_INLINE)));
}

TEST(format_send_wqe, inline_copies_the_bytes_of_every_sge) {
    const std::array<std::uint8_t, 5> a = {1, 2, 3, 4, 5};
    const std::array<std::uint8_t, 3> b = {6, 7, 8};
    std::array<ibv_sge, 3> sges = {{{.addr = addr_of(a.data()), .length = 5, .lkey = 0},
                                    {.addr = 0xdead, .length = 0, .lkey = 0}, // never read
                                    {.addr = addr_of(b.data()), .length = 3, .lkey = 0}}};
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges,
                                                           IBV_SEND_INLINE | IBV_SEND_FENCE)));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_SEND_INLINE | IBV_SEND_FENCE), e.wqe.send_flags);
    EXPECT_EQ(8U, e.wqe.inline_len);
    EXPECT_EQ(0U, e.wqe.num_sge);
    EXPECT_EQ((std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}), e.inline_data);
}

TEST(format_send_wqe, inline_rdma_write) {
    const std::array<std::uint8_t, 4> a = {9, 8, 7, 6};
    std::array<ibv_sge, 1> sges = {{{.addr = addr_of(a.data()), .length = 4, .lkey = 0}}};
    ibv_send_wr wr = send_wr(IBV_WR_RDMA_WRITE, sges, IBV_SEND_INLINE);
    wr.wr.rdma.remote_addr = 0x5000;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(0x5000U, e.wqe.wr.rdma.remote_addr);
    EXPECT_EQ((std::vector<std::uint8_t>{9, 8, 7, 6}), e.inline_data);
}

TEST(format_send_wqe, inline_exactly_fills_the_slot) {
    std::vector<std::uint8_t> data(kSlot - MRC_SEND_WQE_HDR_SIZE);
    for (std::size_t i = 0; i < data.size(); i++)
        data[i] = static_cast<std::uint8_t>(i);
    std::array<ibv_sge, 1> sges = {{{.addr = addr_of(data.data()),
                                     .length = static_cast<std::uint32_t>(data.size()),
                                     .lkey = 0}}};
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges, IBV_SEND_INLINE)));
    EXPECT_EQ(data, parse_send(slot.bytes.data()).inline_data);
}

TEST(format_send_wqe, inline_one_byte_too_many_is_einval) {
    std::vector<std::uint8_t> data(kSlot - MRC_SEND_WQE_HDR_SIZE + 1);
    std::array<ibv_sge, 2> sges = {{{.addr = addr_of(data.data()), .length = 32, .lkey = 0},
                                    {.addr = addr_of(&data[32]),
                                     .length = static_cast<std::uint32_t>(data.size() - 32),
                                     .lkey = 0}}};
    Slot slot;
    EXPECT_EQ(EINVAL,
              mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges, IBV_SEND_INLINE)));
}

TEST(format_send_wqe, inline_huge_length_does_not_wrap) {
    std::array<std::uint8_t, 1> data{};
    std::array<ibv_sge, 2> sges = {
            {{.addr = addr_of(data.data()), .length = 1, .lkey = 0},
             {.addr = addr_of(data.data()), .length = 0xffffffff, .lkey = 0}}};
    Slot slot;
    EXPECT_EQ(EINVAL,
              mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges, IBV_SEND_INLINE)));
}

TEST(format_send_wqe, most_sges_the_slot_holds) {
    std::vector<ibv_sge> sges(mrc::send_max_sge(kSlot), ibv_sge{.addr = 1, .length = 2, .lkey = 3});
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges)));
    EXPECT_EQ(sges.size(), parse_send(slot.bytes.data()).sges.size());
}

TEST(format_send_wqe, one_sge_too_many_is_einval) {
    std::vector<ibv_sge> sges(mrc::send_max_sge(kSlot) + 1, ibv_sge{});
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges)));
}

TEST(format_send_wqe, negative_num_sge_is_einval) {
    ibv_send_wr wr = send_wr(IBV_WR_SEND, {});
    wr.num_sge = -1;
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), wr));
}

TEST(format_send_wqe, sges_without_a_list_is_einval) {
    ibv_send_wr wr = send_wr(IBV_WR_SEND, {});
    wr.num_sge = 1;
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), wr));
}

TEST(format_send_wqe, unsupported_opcodes_are_einval) {
    Slot slot;
    for (const ibv_wr_opcode op : {IBV_WR_LOCAL_INV, IBV_WR_BIND_MW, IBV_WR_SEND_WITH_INV,
                                   IBV_WR_TSO, IBV_WR_DRIVER1, IBV_WR_ATOMIC_WRITE})
        EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(op, {}))) << op;
}

TEST(format_send_wqe, unknown_send_flag_is_einval) {
    Slot slot;
    EXPECT_EQ(EINVAL,
              mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, {}, IBV_SEND_IP_CSUM)));
}

TEST(format_send_wqe, slot_smaller_than_header_is_einval) {
    Slot slot(32);
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, {})));
}

// A UD QP's send: the AH's number (the provider's mrc_ah), the remote QP and its Q_Key.
TEST(format_send_wqe, datagram_send_carries_its_address) {
    mrc_ah ah{};
    ah.ah_num = 0x1234;
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 100, .lkey = 7}}};
    ibv_send_wr wr = send_wr(IBV_WR_SEND_WITH_IMM, sges, IBV_SEND_SIGNALED);
    wr.imm_data = htonl(0x01020304);
    wr.wr.ud.ah = &ah.ibv_ah;
    wr.wr.ud.remote_qpn = 0xabcdef;
    wr.wr.ud.remote_qkey = 0x11111111;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), wr, mrc::SendKind::datagram));

    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_SEND_WITH_IMM), e.wqe.opcode);
    EXPECT_EQ(htonl(0x01020304), e.wqe.ex);
    EXPECT_EQ(0x1234U, e.wqe.wr.ud.ah_num);
    EXPECT_EQ(0xabcdefU, e.wqe.wr.ud.remote_qpn);
    EXPECT_EQ(0x11111111U, e.wqe.wr.ud.remote_qkey);
    EXPECT_EQ(0U, e.wqe.wr.ud.reserved);
    ASSERT_EQ(1U, e.sges.size());
    EXPECT_EQ(100U, e.sges[0].length);
}

TEST(format_send_wqe, datagram_inline_send_carries_its_address_and_bytes) {
    mrc_ah ah{};
    ah.ah_num = 9;
    const std::array<ibv_data_buf, 1> bufs = {
            {{.addr = const_cast<char *>("datagram"), .length = 8}}};
    ibv_send_wr wr = send_wr(IBV_WR_SEND, {});
    wr.wr.ud.ah = &ah.ibv_ah;
    wr.wr.ud.remote_qpn = 17;
    Slot slot;
    ASSERT_EQ(0, mrc::format_send_wqe_inline(slot.span(), wr, bufs, mrc::SendKind::datagram));
    const auto e = parse_send(slot.bytes.data());
    EXPECT_EQ(9U, e.wqe.wr.ud.ah_num);
    EXPECT_EQ(17U, e.wqe.wr.ud.remote_qpn);
    EXPECT_EQ(8U, e.wqe.inline_len);
    EXPECT_EQ(0, std::memcmp(slot.bytes.data() + MRC_SEND_WQE_HDR_SIZE, "datagram", 8));
}

// A UD QP carries SENDs only, each with an AH; an RC QP never reads wr.ud (it may be junk).
TEST(format_send_wqe, datagram_refuses_other_opcodes_and_a_missing_ah) {
    mrc_ah ah{};
    std::array<ibv_sge, 1> sges = {{{.addr = 0x1000, .length = 8, .lkey = 7}}};
    for (const ibv_wr_opcode op : {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
                                   IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD}) {
        ibv_send_wr wr = send_wr(op, sges);
        wr.wr.ud.ah = &ah.ibv_ah;
        Slot slot;
        EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), wr, mrc::SendKind::datagram)) << op;
    }
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_send_wqe(slot.span(), send_wr(IBV_WR_SEND, sges),
                                           mrc::SendKind::datagram));

    ibv_send_wr rc = send_wr(IBV_WR_SEND, sges);
    ah.ah_num = 77;
    rc.wr.ud.ah = &ah.ibv_ah; // what an RC SEND leaves in the union is never read
    ASSERT_EQ(0, mrc::format_send_wqe(slot.span(), rc));
    EXPECT_EQ(0U, parse_send(slot.bytes.data()).wqe.wr.ud.ah_num);
}

TEST(format_recv_wqe, header_and_sges) {
    std::array<ibv_sge, 2> sges = {
            {{.addr = 0x1000, .length = 10, .lkey = 1}, {.addr = 0x3000, .length = 30, .lkey = 2}}};
    ibv_recv_wr wr{};
    wr.wr_id = 77;
    wr.sg_list = sges.data();
    wr.num_sge = 2;
    Slot slot;
    ASSERT_EQ(0, mrc::format_recv_wqe(slot.span(), wr));
    const auto e = parse_recv(slot.bytes.data());
    EXPECT_EQ(77U, e.wqe.wr_id);
    EXPECT_EQ(0U, e.wqe.reserved);
    ASSERT_EQ(2U, e.sges.size());
    EXPECT_EQ(0x3000U, e.sges[1].addr);
    EXPECT_EQ(30U, e.sges[1].length);
    EXPECT_EQ(2U, e.sges[1].lkey);
}

TEST(format_recv_wqe, most_sges_the_slot_holds) {
    std::vector<ibv_sge> sges(mrc::recv_max_sge(kSlot), ibv_sge{});
    ibv_recv_wr wr{};
    wr.sg_list = sges.data();
    wr.num_sge = static_cast<int>(sges.size());
    Slot slot;
    EXPECT_EQ(0, mrc::format_recv_wqe(slot.span(), wr));
    wr.num_sge++;
    sges.emplace_back();
    wr.sg_list = sges.data();
    EXPECT_EQ(EINVAL, mrc::format_recv_wqe(slot.span(), wr));
}

TEST(format_recv_wqe, negative_num_sge_is_einval) {
    ibv_recv_wr wr{};
    wr.num_sge = -3;
    Slot slot;
    EXPECT_EQ(EINVAL, mrc::format_recv_wqe(slot.span(), wr));
}

TEST(cqe_to_wc, copies_every_field) {
    mrc_cqe cqe{};
    cqe.wr_id = 0xfeedfacecafebeefULL;
    cqe.status = IBV_WC_SUCCESS;
    cqe.opcode = IBV_WC_RECV_RDMA_WITH_IMM;
    cqe.vendor_err = 3;
    cqe.byte_len = 4096;
    cqe.imm_data = htonl(0x01020304);
    cqe.qp_num = 0x123;
    cqe.src_qp = 0x456;
    cqe.wc_flags = IBV_WC_WITH_IMM | IBV_WC_GRH;
    cqe.pkey_index = 1;
    cqe.slid = 2;
    cqe.sl = 3;
    cqe.dlid_path_bits = 4;
    ibv_wc wc;
    std::memset(&wc, 0xff, sizeof(wc));
    mrc::cqe_to_wc(cqe, wc);
    EXPECT_EQ(cqe.wr_id, wc.wr_id);
    EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
    EXPECT_EQ(IBV_WC_RECV_RDMA_WITH_IMM, wc.opcode);
    EXPECT_EQ(3U, wc.vendor_err);
    EXPECT_EQ(4096U, wc.byte_len);
    EXPECT_EQ(htonl(0x01020304), wc.imm_data);
    EXPECT_EQ(0x123U, wc.qp_num);
    EXPECT_EQ(0x456U, wc.src_qp);
    EXPECT_EQ(static_cast<unsigned int>(IBV_WC_WITH_IMM | IBV_WC_GRH), wc.wc_flags);
    EXPECT_EQ(1, wc.pkey_index);
    EXPECT_EQ(2, wc.slid);
    EXPECT_EQ(3, wc.sl);
    EXPECT_EQ(4, wc.dlid_path_bits);
}

TEST(cqe_to_wc, every_send_side_opcode) {
    for (const ibv_wc_opcode op : {IBV_WC_SEND, IBV_WC_RDMA_WRITE, IBV_WC_RDMA_READ,
                                   IBV_WC_COMP_SWAP, IBV_WC_FETCH_ADD, IBV_WC_RECV}) {
        ibv_wc wc{};
        mrc::cqe_to_wc(mrc_test::make_cqe(1, op), wc);
        EXPECT_EQ(op, wc.opcode);
        EXPECT_EQ(IBV_WC_SUCCESS, wc.status);
    }
}

TEST(cqe_to_wc, error_status_is_kept) {
    ibv_wc wc{};
    mrc::cqe_to_wc(mrc_test::make_cqe(9, IBV_WC_SEND, IBV_WC_RETRY_EXC_ERR), wc);
    EXPECT_EQ(IBV_WC_RETRY_EXC_ERR, wc.status);
    EXPECT_EQ(9U, wc.wr_id);
    EXPECT_EQ(17U, wc.qp_num);
    mrc::cqe_to_wc(mrc_test::make_cqe(9, IBV_WC_RECV, IBV_WC_WR_FLUSH_ERR), wc);
    EXPECT_EQ(IBV_WC_WR_FLUSH_ERR, wc.status);
}

TEST(cqe_to_wc, unknown_status_is_general_error) {
    ibv_wc wc{};
    mrc::cqe_to_wc(mrc_test::make_cqe(1, IBV_WC_SEND, 1000), wc);
    EXPECT_EQ(IBV_WC_GENERAL_ERR, wc.status);
    EXPECT_EQ(1U, wc.wr_id);
}

TEST(cqe_to_wc, unknown_opcode_is_general_error) {
    ibv_wc wc{};
    mrc::cqe_to_wc(mrc_test::make_cqe(1, 77), wc);
    EXPECT_EQ(IBV_WC_GENERAL_ERR, wc.status);
    mrc::cqe_to_wc(mrc_test::make_cqe(1, IBV_WC_TSO), wc);
    EXPECT_EQ(IBV_WC_GENERAL_ERR, wc.status);
}

} // namespace
