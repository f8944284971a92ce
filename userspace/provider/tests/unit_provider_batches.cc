// SPDX-License-Identifier: BSD-2-Clause
// Unit tests for the extended verbs of mrc_queues.h: the post API's batches (ibv_wr_start ..
// ibv_wr_complete) and the polling API (ibv_start_poll .. ibv_end_poll). As in
// unit_provider_queues.cc, the test plays mrc.ko on rings laid out as <rdma/mrc-abi.h> says.
#include "mrc_queues.h"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fake_kernel.h"

namespace {

using mrc_test::consume_send;
using mrc_test::FakeRing;
using mrc_test::make_cqe;
using mrc_test::produce_cqe;
using mrc_test::SendEntry;

struct CqFree {
    void operator()(mrc_cq_ring *cq) const { mrc_cq_ring_free(cq); }
};
struct SqFree {
    void operator()(mrc_send_ring *sq) const { mrc_send_ring_free(sq); }
};
using Cq = std::unique_ptr<mrc_cq_ring, CqFree>;
using Sq = std::unique_ptr<mrc_send_ring, SqFree>;

constexpr std::uint32_t kSlot = 128; // a header and 6 SGEs, or 96 bytes inline

// What the C glue builds from the ibv_qp_ex before each ibv_wr_* call.
ibv_send_wr wr_of(ibv_wr_opcode opcode, std::uint64_t wr_id, unsigned int flags = 0) {
    ibv_send_wr wr{};
    wr.opcode = opcode;
    wr.wr_id = wr_id;
    wr.send_flags = flags;
    return wr;
}

ibv_send_wr rdma_of(ibv_wr_opcode opcode, std::uint64_t wr_id, std::uint32_t rkey,
                    std::uint64_t addr) {
    ibv_send_wr wr = wr_of(opcode, wr_id);
    wr.wr.rdma.rkey = rkey;
    wr.wr.rdma.remote_addr = addr;
    return wr;
}

void sge(mrc_send_ring *sq, std::uint64_t addr, std::uint32_t length, std::uint32_t lkey) {
    const ibv_sge one = {.addr = addr, .length = length, .lkey = lkey};
    mrc_send_ring_batch_sges(sq, 1, &one);
}

int complete(mrc_send_ring *sq, unsigned int *posted) {
    return mrc_send_ring_batch_complete(sq, posted);
}

class Batch : public ::testing::Test {
protected:
    FakeRing ring{8, kSlot};
    Sq sq{mrc_send_ring_new(ring.map(), &ring.info(), false)};
};

TEST_F(Batch, publishes_nothing_before_complete_and_every_wr_at_it) {
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1, IBV_SEND_SIGNALED);
    mrc_send_ring_batch_wr(sq.get(), &send);
    sge(sq.get(), 0x1000, 64, 7);
    const ibv_send_wr write = rdma_of(IBV_WR_RDMA_WRITE, 2, 0x55, 0xabc000);
    mrc_send_ring_batch_wr(sq.get(), &write);
    const std::array<ibv_sge, 2> two = {ibv_sge{.addr = 0x2000, .length = 10, .lkey = 8},
                                        ibv_sge{.addr = 0x3000, .length = 20, .lkey = 9}};
    mrc_send_ring_batch_sges(sq.get(), two.size(), two.data());
    const ibv_send_wr read = rdma_of(IBV_WR_RDMA_READ, 3, 0x66, 0xdef000);
    mrc_send_ring_batch_wr(sq.get(), &read);
    sge(sq.get(), 0x4000, 4096, 10);
    EXPECT_EQ(0U, ring.producer()) << "nothing is the kernel's before complete";

    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    EXPECT_EQ(3U, posted);
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(3U, got.size());
    EXPECT_EQ(1U, got[0].wqe.wr_id);
    EXPECT_EQ(IBV_WR_SEND, got[0].wqe.opcode);
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_SEND_SIGNALED), got[0].wqe.send_flags);
    ASSERT_EQ(1U, got[0].sges.size());
    EXPECT_EQ(0x1000U, got[0].sges[0].addr);
    EXPECT_EQ(64U, got[0].sges[0].length);
    EXPECT_EQ(7U, got[0].sges[0].lkey);
    EXPECT_EQ(IBV_WR_RDMA_WRITE, got[1].wqe.opcode);
    EXPECT_EQ(0x55U, got[1].wqe.wr.rdma.rkey);
    EXPECT_EQ(0xabc000U, got[1].wqe.wr.rdma.remote_addr);
    ASSERT_EQ(2U, got[1].sges.size());
    EXPECT_EQ(0x3000U, got[1].sges[1].addr);
    EXPECT_EQ(20U, got[1].sges[1].length);
    EXPECT_EQ(IBV_WR_RDMA_READ, got[2].wqe.opcode);
    EXPECT_EQ(0xdef000U, got[2].wqe.wr.rdma.remote_addr);
    EXPECT_EQ(4096U, got[2].sges[0].length);
}

TEST_F(Batch, carries_immediates_and_atomics) {
    mrc_send_ring_batch_start(sq.get());
    ibv_send_wr send_imm = wr_of(IBV_WR_SEND_WITH_IMM, 1);
    send_imm.imm_data = htobe32(0x11223344);
    mrc_send_ring_batch_wr(sq.get(), &send_imm);
    sge(sq.get(), 0x1000, 8, 1);
    ibv_send_wr write_imm = rdma_of(IBV_WR_RDMA_WRITE_WITH_IMM, 2, 3, 0x9000);
    write_imm.imm_data = htobe32(0x55667788);
    mrc_send_ring_batch_wr(sq.get(), &write_imm);
    sge(sq.get(), 0x1000, 8, 1);
    ibv_send_wr cas = wr_of(IBV_WR_ATOMIC_CMP_AND_SWP, 3);
    cas.wr.atomic = {.remote_addr = 0x8000, .compare_add = 5, .swap = 6, .rkey = 4};
    mrc_send_ring_batch_wr(sq.get(), &cas);
    sge(sq.get(), 0x1000, 8, 1);
    ibv_send_wr fadd = wr_of(IBV_WR_ATOMIC_FETCH_AND_ADD, 4);
    fadd.wr.atomic = {.remote_addr = 0x8008, .compare_add = 9, .swap = 0, .rkey = 4};
    mrc_send_ring_batch_wr(sq.get(), &fadd);
    sge(sq.get(), 0x1008, 8, 1);

    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(4U, got.size());
    EXPECT_EQ(htobe32(0x11223344), got[0].wqe.ex);
    EXPECT_EQ(htobe32(0x55667788), got[1].wqe.ex);
    EXPECT_EQ(0x9000U, got[1].wqe.wr.rdma.remote_addr);
    EXPECT_EQ(IBV_WR_ATOMIC_CMP_AND_SWP, got[2].wqe.opcode);
    EXPECT_EQ(5U, got[2].wqe.wr.atomic.compare_add);
    EXPECT_EQ(6U, got[2].wqe.wr.atomic.swap);
    EXPECT_EQ(4U, got[2].wqe.wr.atomic.rkey);
    EXPECT_EQ(IBV_WR_ATOMIC_FETCH_AND_ADD, got[3].wqe.opcode);
    EXPECT_EQ(9U, got[3].wqe.wr.atomic.compare_add);
    EXPECT_EQ(0x8008U, got[3].wqe.wr.atomic.remote_addr);
}

// The API lets the caller reuse inline bytes once the setter returns: they are in the slot.
TEST_F(Batch, inline_data_is_copied_at_the_setter) {
    std::string first = "hello, ";
    std::string second = "world";
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1);
    mrc_send_ring_batch_wr(sq.get(), &send);
    const std::array<ibv_data_buf, 2> bufs = {ibv_data_buf{first.data(), first.size()},
                                              ibv_data_buf{second.data(), second.size()}};
    mrc_send_ring_batch_inline(sq.get(), bufs.size(), bufs.data());
    const ibv_send_wr write = rdma_of(IBV_WR_RDMA_WRITE, 2, 1, 0x100);
    mrc_send_ring_batch_wr(sq.get(), &write);
    const ibv_data_buf one = {first.data(), 5};
    mrc_send_ring_batch_inline(sq.get(), 1, &one);
    first.assign(first.size(), 'x');
    second.assign(second.size(), 'x');

    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(2U, got.size());
    EXPECT_TRUE(got[0].wqe.send_flags & IBV_SEND_INLINE);
    EXPECT_EQ("hello, world", std::string(got[0].inline_data.begin(), got[0].inline_data.end()));
    EXPECT_EQ("hello", std::string(got[1].inline_data.begin(), got[1].inline_data.end()));
}

// IBV_SEND_INLINE in wr_flags with SGEs given: the SGEs are what the WR carries.
TEST_F(Batch, sges_override_an_inline_flag) {
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1, IBV_SEND_INLINE);
    mrc_send_ring_batch_wr(sq.get(), &send);
    sge(sq.get(), 0x1000, 64, 7);
    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(1U, got.size());
    EXPECT_FALSE(got[0].wqe.send_flags & IBV_SEND_INLINE);
    ASSERT_EQ(1U, got[0].sges.size());
}

TEST_F(Batch, a_wr_with_no_data_setter_carries_nothing) {
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1);
    mrc_send_ring_batch_wr(sq.get(), &send);
    const ibv_send_wr write = rdma_of(IBV_WR_RDMA_WRITE, 2, 1, 0x100);
    mrc_send_ring_batch_wr(sq.get(), &write);
    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    EXPECT_EQ(2U, posted);
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(2U, got.size());
    EXPECT_EQ(0U, got[0].wqe.num_sge);
    EXPECT_EQ(2U, got[1].wqe.wr_id);
    EXPECT_EQ(0U, got[1].wqe.num_sge);
}

// A bad WR anywhere spoils its batch: none of it reaches the kernel, and the next batch takes
// the same slots.
TEST_F(Batch, a_bad_wr_publishes_none_of_the_batch) {
    struct Case {
        const char *what;
        void (*build)(mrc_send_ring *);
    };
    const Case cases[] = {
            {"inline READ",
             [](mrc_send_ring *q) {
                 const ibv_send_wr read = rdma_of(IBV_WR_RDMA_READ, 9, 1, 0x100);
                 mrc_send_ring_batch_wr(q, &read);
                 const ibv_data_buf b = {nullptr, 0};
                 mrc_send_ring_batch_inline(q, 1, &b);
             }},
            {"atomic into 4 bytes",
             [](mrc_send_ring *q) {
                 const ibv_send_wr fadd = wr_of(IBV_WR_ATOMIC_FETCH_AND_ADD, 9);
                 mrc_send_ring_batch_wr(q, &fadd);
                 sge(q, 0x1000, 4, 1);
             }},
            {"unknown flag",
             [](mrc_send_ring *q) {
                 const ibv_send_wr send = wr_of(IBV_WR_SEND, 9, 1U << 20);
                 mrc_send_ring_batch_wr(q, &send);
                 sge(q, 0x1000, 4, 1);
             }},
            {"unsupported opcode",
             [](mrc_send_ring *q) {
                 const ibv_send_wr inv = wr_of(IBV_WR_SEND_WITH_INV, 9);
                 mrc_send_ring_batch_wr(q, &inv);
             }},
            {"setter before any WR",
             [](mrc_send_ring *q) {
                 sge(q, 0x1000, 4, 1);
             }},
            {"two setters for one WR",
             [](mrc_send_ring *q) {
                 const ibv_send_wr send = wr_of(IBV_WR_SEND, 9);
                 mrc_send_ring_batch_wr(q, &send);
                 sge(q, 0x1000, 4, 1);
                 sge(q, 0x1000, 4, 1);
             }},
            {"SGE list with no list",
             [](mrc_send_ring *q) {
                 const ibv_send_wr send = wr_of(IBV_WR_SEND, 9);
                 mrc_send_ring_batch_wr(q, &send);
                 mrc_send_ring_batch_sges(q, 2, nullptr);
             }},
            {"more SGEs than a slot holds",
             [](mrc_send_ring *q) {
                 const ibv_send_wr send = wr_of(IBV_WR_SEND, 9);
                 mrc_send_ring_batch_wr(q, &send);
                 const std::array<ibv_sge, 7> many{};
                 mrc_send_ring_batch_sges(q, many.size(), many.data());
             }},
            {"inline beyond the slot",
             [](mrc_send_ring *q) {
                 const ibv_send_wr send = wr_of(IBV_WR_SEND, 9);
                 mrc_send_ring_batch_wr(q, &send);
                 static std::array<char, kSlot> big{};
                 const ibv_data_buf b = {big.data(), big.size()};
                 mrc_send_ring_batch_inline(q, 1, &b);
             }},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        mrc_send_ring_batch_start(sq.get());
        const ibv_send_wr good = wr_of(IBV_WR_SEND, 1);
        mrc_send_ring_batch_wr(sq.get(), &good);
        sge(sq.get(), 0x1000, 4, 1);
        c.build(sq.get());
        const ibv_send_wr after = wr_of(IBV_WR_SEND, 2);
        mrc_send_ring_batch_wr(sq.get(), &after);
        unsigned int posted = 7;
        EXPECT_EQ(EINVAL, complete(sq.get(), &posted));
        EXPECT_EQ(0U, posted);
        EXPECT_EQ(0U, ring.producer());
    }
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr good = wr_of(IBV_WR_SEND, 3);
    mrc_send_ring_batch_wr(sq.get(), &good);
    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(1U, got.size());
    EXPECT_EQ(3U, got[0].wqe.wr_id);
}

TEST_F(Batch, more_wrs_than_free_slots_is_enomem_and_publishes_none) {
    for (std::uint64_t i = 0; i <= ring.info().num_slots; i++) {
        if (i == 0)
            mrc_send_ring_batch_start(sq.get());
        const ibv_send_wr send = wr_of(IBV_WR_SEND, i);
        mrc_send_ring_batch_wr(sq.get(), &send);
    }
    unsigned int posted = 0;
    EXPECT_EQ(ENOMEM, complete(sq.get(), &posted));
    EXPECT_EQ(0U, ring.producer());
    // exactly a ring's worth fits
    mrc_send_ring_batch_start(sq.get());
    for (std::uint64_t i = 0; i < ring.info().num_slots; i++) {
        const ibv_send_wr send = wr_of(IBV_WR_SEND, i);
        mrc_send_ring_batch_wr(sq.get(), &send);
    }
    ASSERT_EQ(0, complete(sq.get(), &posted));
    EXPECT_EQ(ring.info().num_slots, posted);
}

TEST_F(Batch, abort_publishes_nothing_and_frees_the_queue) {
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1);
    mrc_send_ring_batch_wr(sq.get(), &send);
    sge(sq.get(), 0x1000, 4, 1);
    mrc_send_ring_batch_abort(sq.get());
    EXPECT_EQ(0U, ring.producer());
    // the lock is free again: a plain post goes through
    ibv_send_wr wr = wr_of(IBV_WR_SEND, 2);
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    ASSERT_EQ(0, mrc_send_ring_post(sq.get(), &wr, &bad, &posted));
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(1U, got.size());
    EXPECT_EQ(2U, got[0].wqe.wr_id);
}

TEST_F(Batch, batches_and_posts_interleave_in_order) {
    for (std::uint64_t round = 0; round < 20; round++) {
        mrc_send_ring_batch_start(sq.get());
        const ibv_send_wr send = wr_of(IBV_WR_SEND, 2 * round);
        mrc_send_ring_batch_wr(sq.get(), &send);
        unsigned int posted = 0;
        ASSERT_EQ(0, complete(sq.get(), &posted));
        ibv_send_wr wr = wr_of(IBV_WR_SEND, 2 * round + 1);
        ibv_send_wr *bad = nullptr;
        ASSERT_EQ(0, mrc_send_ring_post(sq.get(), &wr, &bad, &posted));
        const std::vector<SendEntry> got = consume_send(ring);
        ASSERT_EQ(2U, got.size());
        EXPECT_EQ(2 * round, got[0].wqe.wr_id);
        EXPECT_EQ(2 * round + 1, got[1].wqe.wr_id);
    }
}

class Poll : public ::testing::Test {
protected:
    FakeRing ring{8, sizeof(mrc_cqe)};
    Cq cq{mrc_cq_ring_new(ring.map(), &ring.info())};
};

TEST_F(Poll, empty_ring_is_enoent_and_leaves_the_ring_unlocked) {
    ibv_wc wc{};
    EXPECT_EQ(ENOENT, mrc_cq_ring_start_poll(cq.get(), &wc));
    EXPECT_EQ(ENOENT, mrc_cq_ring_start_poll(cq.get(), &wc)); // would deadlock if locked
    EXPECT_EQ(0, mrc_cq_ring_poll(cq.get(), 1, &wc));
}

TEST_F(Poll, hands_out_completions_in_order_and_consumes_them_at_end) {
    for (std::uint64_t i = 0; i < 3; i++)
        ASSERT_TRUE(produce_cqe(ring, make_cqe(100 + i, IBV_WC_RDMA_WRITE)));
    ibv_wc wc{};
    ASSERT_EQ(0, mrc_cq_ring_start_poll(cq.get(), &wc));
    EXPECT_EQ(100U, wc.wr_id);
    EXPECT_EQ(IBV_WC_RDMA_WRITE, wc.opcode);
    EXPECT_EQ(17U, wc.qp_num);
    ASSERT_EQ(0, mrc_cq_ring_next_poll(cq.get(), &wc));
    EXPECT_EQ(101U, wc.wr_id);
    EXPECT_EQ(0U, ring.consumer()) << "slots are the application's until end_poll";
    ASSERT_EQ(0, mrc_cq_ring_next_poll(cq.get(), &wc));
    EXPECT_EQ(102U, wc.wr_id);
    EXPECT_EQ(ENOENT, mrc_cq_ring_next_poll(cq.get(), &wc));
    mrc_cq_ring_end_poll(cq.get());
    EXPECT_EQ(3U, ring.consumer());
}

TEST_F(Poll, what_end_poll_left_is_the_next_polls) {
    for (std::uint64_t i = 0; i < 2; i++)
        ASSERT_TRUE(produce_cqe(ring, make_cqe(i)));
    ibv_wc wc{};
    ASSERT_EQ(0, mrc_cq_ring_start_poll(cq.get(), &wc));
    mrc_cq_ring_end_poll(cq.get());
    EXPECT_EQ(1U, ring.consumer());
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 4, &wc));
    EXPECT_EQ(1U, wc.wr_id);
    ASSERT_TRUE(produce_cqe(ring, make_cqe(2)));
    ASSERT_EQ(0, mrc_cq_ring_start_poll(cq.get(), &wc));
    EXPECT_EQ(2U, wc.wr_id);
    mrc_cq_ring_end_poll(cq.get());
}

TEST_F(Poll, wraps_around_the_ring) {
    ibv_wc wc{};
    for (std::uint64_t i = 0; i < 50; i++) {
        ASSERT_TRUE(produce_cqe(ring, make_cqe(i)));
        ASSERT_EQ(0, mrc_cq_ring_start_poll(cq.get(), &wc));
        EXPECT_EQ(i, wc.wr_id);
        mrc_cq_ring_end_poll(cq.get());
    }
    EXPECT_EQ(50U, ring.consumer());
}

TEST_F(Poll, a_producer_beyond_the_ring_is_eio_and_reads_nothing) {
    ring.set_producer(ring.info().num_slots + 1);
    ibv_wc wc{};
    wc.wr_id = 77;
    EXPECT_EQ(EIO, mrc_cq_ring_start_poll(cq.get(), &wc));
    EXPECT_EQ(77U, wc.wr_id);
    EXPECT_EQ(0U, ring.consumer());
    EXPECT_EQ(-1, mrc_cq_ring_poll(cq.get(), 1, &wc)) << "unlocked, and still broken";
}

TEST_F(Poll, error_completions_convert_as_poll_cq_does) {
    ASSERT_TRUE(produce_cqe(ring, make_cqe(5, IBV_WC_RECV, IBV_WC_REM_ACCESS_ERR)));
    ASSERT_TRUE(produce_cqe(ring, make_cqe(6, 0xdead, IBV_WC_SUCCESS)));
    ibv_wc wc{};
    ASSERT_EQ(0, mrc_cq_ring_start_poll(cq.get(), &wc));
    EXPECT_EQ(IBV_WC_REM_ACCESS_ERR, wc.status);
    ASSERT_EQ(0, mrc_cq_ring_next_poll(cq.get(), &wc));
    EXPECT_EQ(IBV_WC_GENERAL_ERR, wc.status) << "an opcode no consumer knows";
    mrc_cq_ring_end_poll(cq.get());
}

// A UD QP's batch: ibv_wr_set_ud_addr comes between the WR and its data.
TEST(DatagramBatch, carries_each_wrs_address) {
    FakeRing ring{8, kSlot};
    Sq sq{mrc_send_ring_new(ring.map(), &ring.info(), true)};
    mrc_ah one{};
    one.ah_num = 1;
    mrc_ah two{};
    two.ah_num = 2;
    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 10);
    mrc_send_ring_batch_wr(sq.get(), &send);
    mrc_send_ring_batch_ud_addr(sq.get(), &one.ibv_ah, 100, 0x1111);
    sge(sq.get(), 0x1000, 64, 7);
    ibv_send_wr send_imm = wr_of(IBV_WR_SEND_WITH_IMM, 11);
    send_imm.imm_data = htobe32(5);
    mrc_send_ring_batch_wr(sq.get(), &send_imm);
    mrc_send_ring_batch_ud_addr(sq.get(), &two.ibv_ah, 200, 0x2222);
    const ibv_data_buf buf = {.addr = const_cast<char *>("hi"), .length = 2};
    mrc_send_ring_batch_inline(sq.get(), 1, &buf);
    unsigned int posted = 0;
    ASSERT_EQ(0, complete(sq.get(), &posted));
    ASSERT_EQ(2U, posted);
    const std::vector<SendEntry> got = consume_send(ring);
    ASSERT_EQ(2U, got.size());
    EXPECT_EQ(1U, got[0].wqe.wr.ud.ah_num);
    EXPECT_EQ(100U, got[0].wqe.wr.ud.remote_qpn);
    EXPECT_EQ(0x1111U, got[0].wqe.wr.ud.remote_qkey);
    EXPECT_EQ(2U, got[1].wqe.wr.ud.ah_num);
    EXPECT_EQ(200U, got[1].wqe.wr.ud.remote_qpn);
    EXPECT_EQ(0x2222U, got[1].wqe.wr.ud.remote_qkey);
    EXPECT_EQ(2U, got[1].wqe.inline_len);
}

TEST(DatagramBatch, a_wr_without_address_or_an_rdma_opcode_spoils_the_batch) {
    FakeRing ring{8, kSlot};
    Sq sq{mrc_send_ring_new(ring.map(), &ring.info(), true)};
    mrc_ah ah{};
    unsigned int posted = 0;

    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr send = wr_of(IBV_WR_SEND, 1);
    mrc_send_ring_batch_wr(sq.get(), &send);
    sge(sq.get(), 0x1000, 8, 7);
    EXPECT_EQ(EINVAL, complete(sq.get(), &posted)) << "no ibv_wr_set_ud_addr";
    EXPECT_EQ(0U, ring.producer());

    mrc_send_ring_batch_start(sq.get());
    const ibv_send_wr write = rdma_of(IBV_WR_RDMA_WRITE, 2, 3, 0x9000);
    mrc_send_ring_batch_wr(sq.get(), &write);
    mrc_send_ring_batch_ud_addr(sq.get(), &ah.ibv_ah, 5, 6);
    sge(sq.get(), 0x1000, 8, 7);
    EXPECT_EQ(EINVAL, complete(sq.get(), &posted));

    mrc_send_ring_batch_start(sq.get());
    mrc_send_ring_batch_ud_addr(sq.get(), &ah.ibv_ah, 5, 6);
    EXPECT_EQ(EINVAL, complete(sq.get(), &posted)) << "an address with no WR";
    EXPECT_EQ(0U, ring.producer());
}

} // namespace
