// SPDX-License-Identifier: BSD-2-Clause
// Unit tests for mrc_queues.h, in the order of its functions, through the extern "C" interface
// the C glue uses. The test plays mrc.ko: it consumes what the provider posts and produces the
// completions the provider polls, on rings laid out as <rdma/mrc-abi.h> says.
#include "mrc_queues.h"

#include <array>
#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "fake_kernel.h"

namespace {

using mrc_test::FakeRing;
using mrc_test::make_cqe;
using mrc_test::produce_cqe;

struct CqFree {
    void operator()(mrc_cq_ring *cq) const { mrc_cq_ring_free(cq); }
};
struct SqFree {
    void operator()(mrc_send_ring *sq) const { mrc_send_ring_free(sq); }
};
struct RqFree {
    void operator()(mrc_recv_ring *rq) const { mrc_recv_ring_free(rq); }
};
using Cq = std::unique_ptr<mrc_cq_ring, CqFree>;
using Sq = std::unique_ptr<mrc_send_ring, SqFree>;
using Rq = std::unique_ptr<mrc_recv_ring, RqFree>;

Cq make_cq(const FakeRing &ring) {
    return Cq(mrc_cq_ring_new(ring.map(), &ring.info()));
}
Sq make_sq(const FakeRing &ring) {
    return Sq(mrc_send_ring_new(ring.map(), &ring.info(), false));
}
Rq make_rq(const FakeRing &ring) {
    return Rq(mrc_recv_ring_new(ring.map(), &ring.info()));
}

// A list of @n linked send WRs with wr_id first, first + 1, ...
struct SendList {
    explicit SendList(std::size_t n, std::uint64_t first = 0, ibv_wr_opcode op = IBV_WR_SEND)
        : wrs(n) {
        for (std::size_t i = 0; i < n; i++) {
            wrs[i].wr_id = first + i;
            wrs[i].opcode = op;
            wrs[i].next = i + 1 < n ? &wrs[i + 1] : nullptr;
        }
    }
    ibv_send_wr *head() { return wrs.empty() ? nullptr : wrs.data(); }
    std::vector<ibv_send_wr> wrs;
};

struct RecvList {
    explicit RecvList(std::size_t n, std::uint64_t first = 0) : wrs(n) {
        for (std::size_t i = 0; i < n; i++) {
            wrs[i].wr_id = first + i;
            wrs[i].next = i + 1 < n ? &wrs[i + 1] : nullptr;
        }
    }
    ibv_recv_wr *head() { return wrs.data(); }
    std::vector<ibv_recv_wr> wrs;
};

// Post @list, expecting every WR to go in.
void post_all(mrc_send_ring *sq, SendList &list) {
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    ASSERT_EQ(0, mrc_send_ring_post(sq, list.head(), &bad, &posted));
    EXPECT_EQ(nullptr, bad);
    EXPECT_EQ(list.wrs.size(), posted);
}

mrc_ring_info info(std::uint32_t num_slots, std::uint32_t slot_size, std::uint32_t mmap_size) {
    return {.mmap_offset = 0,
            .mmap_size = mmap_size,
            .num_slots = num_slots,
            .slot_size = slot_size,
            .reserved = 0};
}

TEST(mrc_ring_info_check, accepts_an_exact_fit) {
    const mrc_ring_info i = info(8, 64, MRC_RING_SLOTS_OFFSET + 8 * 64);
    EXPECT_EQ(0, mrc_ring_info_check(&i, 64));
}

TEST(mrc_ring_info_check, accepts_a_page_rounded_mapping) {
    const mrc_ring_info i = info(8, 64, 4096);
    EXPECT_EQ(0, mrc_ring_info_check(&i, 48));
}

TEST(mrc_ring_info_check, rejects_zero_slots) {
    const mrc_ring_info i = info(0, 64, 4096);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 48));
}

TEST(mrc_ring_info_check, rejects_slots_not_a_power_of_two) {
    const mrc_ring_info i = info(6, 64, 4096);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 48));
}

TEST(mrc_ring_info_check, rejects_slot_size_not_a_multiple_of_16) {
    const mrc_ring_info i = info(8, 72, 4096);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 48));
}

TEST(mrc_ring_info_check, rejects_slots_smaller_than_an_entry) {
    const mrc_ring_info i = info(8, 32, 4096);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 48));
}

TEST(mrc_ring_info_check, rejects_slots_beyond_the_mapping) {
    const mrc_ring_info i = info(8, 64, MRC_RING_SLOTS_OFFSET + 8 * 64 - 1);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 64));
}

TEST(mrc_ring_info_check, rejects_sizes_that_would_overflow_32_bits) {
    const mrc_ring_info i = info(1U << 31, 1U << 4, 4096);
    EXPECT_EQ(EINVAL, mrc_ring_info_check(&i, 16));
}

TEST(mrc_cq_ring_poll, empty_ring_gives_nothing) {
    const FakeRing ring(8, 64);
    const Cq cq = make_cq(ring);
    std::array<ibv_wc, 4> wc{};
    EXPECT_EQ(0, mrc_cq_ring_poll(cq.get(), 4, wc.data()));
    EXPECT_EQ(0U, ring.consumer());
}

TEST(mrc_cq_ring_poll, returns_completions_in_order_and_releases_slots) {
    const FakeRing ring(8, 64);
    const Cq cq = make_cq(ring);
    for (std::uint64_t id = 1; id <= 3; id++)
        ASSERT_TRUE(produce_cqe(ring, make_cqe(id)));
    std::array<ibv_wc, 2> wc{};
    ASSERT_EQ(2, mrc_cq_ring_poll(cq.get(), 2, wc.data()));
    EXPECT_EQ(1U, wc[0].wr_id);
    EXPECT_EQ(2U, wc[1].wr_id);
    EXPECT_EQ(2U, ring.consumer());
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 2, wc.data()));
    EXPECT_EQ(3U, wc[0].wr_id);
    EXPECT_EQ(17U, wc[0].qp_num);
    EXPECT_EQ(3U, ring.consumer());
    EXPECT_EQ(0, mrc_cq_ring_poll(cq.get(), 2, wc.data()));
}

TEST(mrc_cq_ring_poll, zero_entries_asked_reads_nothing) {
    const FakeRing ring(8, 64);
    const Cq cq = make_cq(ring);
    ASSERT_TRUE(produce_cqe(ring, make_cqe(1)));
    ibv_wc wc{};
    EXPECT_EQ(0, mrc_cq_ring_poll(cq.get(), 0, &wc));
    EXPECT_EQ(0U, ring.consumer());
}

TEST(mrc_cq_ring_poll, full_ring_drains_completely) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    for (std::uint64_t id = 0; id < 4; id++)
        ASSERT_TRUE(produce_cqe(ring, make_cqe(id)));
    EXPECT_FALSE(produce_cqe(ring, make_cqe(4))); // the kernel sees it full
    std::array<ibv_wc, 8> wc{};
    ASSERT_EQ(4, mrc_cq_ring_poll(cq.get(), 8, wc.data()));
    EXPECT_EQ(3U, wc[3].wr_id);
    EXPECT_TRUE(produce_cqe(ring, make_cqe(4)));
}

TEST(mrc_cq_ring_poll, wraps_around_many_times) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    std::uint64_t next_produced = 0;
    std::uint64_t next_polled = 0;
    std::array<ibv_wc, 3> wc{};
    while (next_polled < 50) {
        while (produce_cqe(ring, make_cqe(next_produced)))
            next_produced++;
        const int n = mrc_cq_ring_poll(cq.get(), 3, wc.data());
        ASSERT_GT(n, 0);
        for (int i = 0; i < n; i++)
            ASSERT_EQ(next_polled++, wc.at(static_cast<std::size_t>(i)).wr_id);
    }
    EXPECT_EQ(next_polled, ring.consumer());
}

TEST(mrc_cq_ring_poll, free_running_indexes_wrap_at_2_to_the_32) {
    const FakeRing ring(4, 48);
    ring.set_producer(0xfffffffe);
    ring.set_consumer(0xfffffffe);
    const Cq cq = make_cq(ring);
    for (std::uint64_t id = 0; id < 4; id++)
        ASSERT_TRUE(produce_cqe(ring, make_cqe(id)));
    EXPECT_EQ(2U, ring.producer());
    std::array<ibv_wc, 4> wc{};
    ASSERT_EQ(4, mrc_cq_ring_poll(cq.get(), 4, wc.data()));
    EXPECT_EQ(3U, wc[3].wr_id);
    EXPECT_EQ(2U, ring.consumer());
}

TEST(mrc_cq_ring_poll, producer_beyond_the_ring_is_an_error) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    ring.set_producer(5);
    std::array<ibv_wc, 8> wc{};
    EXPECT_EQ(-1, mrc_cq_ring_poll(cq.get(), 8, wc.data()));
    EXPECT_EQ(0U, ring.consumer());
}

TEST(mrc_cq_ring_poll, converts_error_completions) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    ASSERT_TRUE(produce_cqe(ring, make_cqe(5, IBV_WC_RECV, IBV_WC_WR_FLUSH_ERR)));
    ibv_wc wc{};
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 1, &wc));
    EXPECT_EQ(IBV_WC_WR_FLUSH_ERR, wc.status);
    EXPECT_EQ(5U, wc.wr_id);
}

// The remap callbacks of the resize tests: @arg is what they do.
struct Remap {
    const FakeRing *next = nullptr; // the ring to switch to, or
    int err = 0;                    // the error to fail with,
    bool lose_old = false;          // having lost the old ring
    bool called = false;
};

int remap(void *arg, void **map, mrc_ring_info *ring_info) {
    auto *r = static_cast<Remap *>(arg);
    r->called = true;
    if (r->err) {
        if (r->lose_old)
            *map = nullptr;
        return r->err;
    }
    *map = r->next->map();
    *ring_info = r->next->info();
    return 0;
}

TEST(mrc_cq_ring_resize, switches_to_the_new_ring_with_its_pending_completions) {
    const FakeRing old_ring(4, 48);
    const FakeRing new_ring(16, 48);
    const Cq cq = make_cq(old_ring);
    ASSERT_TRUE(produce_cqe(old_ring, make_cqe(1)));
    ibv_wc wc{};
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 1, &wc));
    // the kernel copied two unconsumed completions into the new ring
    ASSERT_TRUE(produce_cqe(new_ring, make_cqe(2)));
    ASSERT_TRUE(produce_cqe(new_ring, make_cqe(3)));
    Remap r{.next = &new_ring};
    ASSERT_EQ(0, mrc_cq_ring_resize(cq.get(), remap, &r));
    std::array<ibv_wc, 4> wcs{};
    ASSERT_EQ(2, mrc_cq_ring_poll(cq.get(), 4, wcs.data()));
    EXPECT_EQ(2U, wcs[0].wr_id);
    EXPECT_EQ(3U, wcs[1].wr_id);
    EXPECT_EQ(2U, new_ring.consumer());
    EXPECT_EQ(1U, old_ring.consumer());
}

TEST(mrc_cq_ring_resize, new_ring_may_start_at_any_index) {
    const FakeRing old_ring(4, 48);
    const FakeRing new_ring(8, 48);
    new_ring.set_producer(100);
    new_ring.set_consumer(100);
    const Cq cq = make_cq(old_ring);
    Remap r{.next = &new_ring};
    ASSERT_EQ(0, mrc_cq_ring_resize(cq.get(), remap, &r));
    ASSERT_TRUE(produce_cqe(new_ring, make_cqe(9)));
    ibv_wc wc{};
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 1, &wc));
    EXPECT_EQ(9U, wc.wr_id);
    EXPECT_EQ(101U, new_ring.consumer());
}

TEST(mrc_cq_ring_resize, failure_keeps_the_old_ring) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    ASSERT_TRUE(produce_cqe(ring, make_cqe(4)));
    Remap r{.err = EINVAL};
    EXPECT_EQ(EINVAL, mrc_cq_ring_resize(cq.get(), remap, &r));
    EXPECT_TRUE(r.called);
    ibv_wc wc{};
    ASSERT_EQ(1, mrc_cq_ring_poll(cq.get(), 1, &wc));
    EXPECT_EQ(4U, wc.wr_id);
}

TEST(mrc_cq_ring_resize, losing_the_ring_makes_poll_fail) {
    const FakeRing ring(4, 48);
    const Cq cq = make_cq(ring);
    Remap r{.err = ENOMEM, .lose_old = true};
    EXPECT_EQ(ENOMEM, mrc_cq_ring_resize(cq.get(), remap, &r));
    ibv_wc wc{};
    EXPECT_EQ(-1, mrc_cq_ring_poll(cq.get(), 1, &wc));
}

TEST(mrc_send_ring_post, publishes_entries_for_the_kernel) {
    const FakeRing ring(8, 128);
    const Sq sq = make_sq(ring);
    SendList list(3, 10, IBV_WR_RDMA_WRITE);
    list.wrs[1].wr.rdma.remote_addr = 0x4000;
    list.wrs[1].wr.rdma.rkey = 99;
    post_all(sq.get(), list);
    EXPECT_EQ(3U, ring.producer());
    const auto got = mrc_test::consume_send(ring);
    ASSERT_EQ(3U, got.size());
    EXPECT_EQ(10U, got[0].wqe.wr_id);
    EXPECT_EQ(12U, got[2].wqe.wr_id);
    EXPECT_EQ(0x4000U, got[1].wqe.wr.rdma.remote_addr);
    EXPECT_EQ(99U, got[1].wqe.wr.rdma.rkey);
    EXPECT_EQ(3U, ring.consumer());
}

TEST(mrc_send_ring_post, empty_list_posts_nothing) {
    const FakeRing ring(8, 128);
    const Sq sq = make_sq(ring);
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 1;
    EXPECT_EQ(0, mrc_send_ring_post(sq.get(), nullptr, &bad, &posted));
    EXPECT_EQ(0U, posted);
    EXPECT_EQ(0U, ring.producer());
}

TEST(mrc_send_ring_post, full_ring_is_enomem_at_the_first_wr_that_does_not_fit) {
    const FakeRing ring(4, 128);
    const Sq sq = make_sq(ring);
    SendList list(6);
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    EXPECT_EQ(ENOMEM, mrc_send_ring_post(sq.get(), list.head(), &bad, &posted));
    EXPECT_EQ(4U, posted);
    EXPECT_EQ(&list.wrs[4], bad);
    EXPECT_EQ(4U, ring.producer()); // the four that fit are published
    EXPECT_EQ(4U, mrc_test::consume_send(ring).size());
}

TEST(mrc_send_ring_post, space_returns_when_the_kernel_consumes) {
    const FakeRing ring(4, 128);
    const Sq sq = make_sq(ring);
    SendList first(4);
    post_all(sq.get(), first);
    SendList more(1, 100);
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    EXPECT_EQ(ENOMEM, mrc_send_ring_post(sq.get(), more.head(), &bad, &posted));
    EXPECT_EQ(0U, posted);
    EXPECT_EQ(more.head(), bad);
    EXPECT_EQ(1U, mrc_test::consume_send(ring, 1).size());
    post_all(sq.get(), more);
    const auto got = mrc_test::consume_send(ring);
    ASSERT_EQ(4U, got.size());
    EXPECT_EQ(100U, got[3].wqe.wr_id);
}

TEST(mrc_send_ring_post, bad_wr_in_the_middle_publishes_those_before_it) {
    const FakeRing ring(8, 128);
    const Sq sq = make_sq(ring);
    SendList list(4);
    list.wrs[2].opcode = IBV_WR_BIND_MW;
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    EXPECT_EQ(EINVAL, mrc_send_ring_post(sq.get(), list.head(), &bad, &posted));
    EXPECT_EQ(2U, posted);
    EXPECT_EQ(&list.wrs[2], bad);
    EXPECT_EQ(2U, ring.producer());
    // the failed slot is reused by the next post
    list.wrs[2].opcode = IBV_WR_SEND;
    post_all(sq.get(), list);
    const auto got = mrc_test::consume_send(ring);
    ASSERT_EQ(6U, got.size());
    EXPECT_EQ(0U, got[2].wqe.wr_id);
    EXPECT_EQ(static_cast<std::uint32_t>(IBV_WR_SEND), got[4].wqe.opcode);
}

TEST(mrc_send_ring_post, inline_too_long_for_the_slot_is_einval) {
    const FakeRing ring(8, 96); // 32 bytes inline
    const Sq sq = make_sq(ring);
    std::array<std::uint8_t, 33> data{};
    ibv_sge sge{.addr = reinterpret_cast<std::uintptr_t>(data.data()), .length = 33, .lkey = 0};
    SendList list(1);
    list.wrs[0].send_flags = IBV_SEND_INLINE;
    list.wrs[0].sg_list = &sge;
    list.wrs[0].num_sge = 1;
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    EXPECT_EQ(EINVAL, mrc_send_ring_post(sq.get(), list.head(), &bad, &posted));
    EXPECT_EQ(0U, posted);
    sge.length = 32;
    post_all(sq.get(), list);
    const auto got = mrc_test::consume_send(ring);
    ASSERT_EQ(1U, got.size());
    EXPECT_EQ(32U, got[0].inline_data.size());
}

TEST(mrc_send_ring_post, wraps_around_many_times) {
    const FakeRing ring(4, 128);
    const Sq sq = make_sq(ring);
    std::uint64_t next_id = 0;
    std::uint64_t next_seen = 0;
    for (int round = 0; round < 40; round++) {
        SendList list(3, next_id);
        post_all(sq.get(), list);
        next_id += 3;
        for (const auto &e : mrc_test::consume_send(ring))
            ASSERT_EQ(next_seen++, e.wqe.wr_id);
    }
    EXPECT_EQ(120U, ring.producer());
}

TEST(mrc_send_ring_post, consumer_ahead_of_producer_reads_as_full) {
    const FakeRing ring(4, 128);
    const Sq sq = make_sq(ring);
    ring.set_consumer(2); // a confused kernel
    SendList list(1);
    ibv_send_wr *bad = nullptr;
    unsigned int posted = 0;
    EXPECT_EQ(ENOMEM, mrc_send_ring_post(sq.get(), list.head(), &bad, &posted));
    EXPECT_EQ(0U, ring.producer());
}

// A QP in ERR (the kernel's MRC_RING_F_FLUSH): WRs published then ask for the doorbell that
// flushes them; none published, or no flag, ask for nothing.
TEST(mrc_recv_ring_post, in_err_published_wrs_ask_for_the_flush_doorbell) {
    const FakeRing ring(2, 32);
    const Rq rq = make_rq(ring);
    ibv_recv_wr *bad = nullptr;
    bool flush = true;
    RecvList one(1);
    ASSERT_EQ(0, mrc_recv_ring_post(rq.get(), one.head(), &bad, &flush));
    EXPECT_FALSE(flush);
    ring.set_consumer_flags(MRC_RING_F_FLUSH);
    RecvList two(1);
    ASSERT_EQ(0, mrc_recv_ring_post(rq.get(), two.head(), &bad, &flush));
    EXPECT_TRUE(flush);
    RecvList three(1); // the ring is full: nothing published, nothing to tell
    EXPECT_EQ(ENOMEM, mrc_recv_ring_post(rq.get(), three.head(), &bad, &flush));
    EXPECT_FALSE(flush);
}

// An SRQ asks nothing of the flag (no QP's ERR flushes its WRs): NULL, and the WRs still post.
TEST(mrc_recv_ring_post, an_srq_passes_no_flush_doorbell) {
    const FakeRing ring(4, 32);
    const Rq rq = make_rq(ring);
    ring.set_consumer_flags(MRC_RING_F_FLUSH);
    RecvList list(2, 7);
    ibv_recv_wr *bad = nullptr;
    ASSERT_EQ(0, mrc_recv_ring_post(rq.get(), list.head(), &bad, nullptr));
    EXPECT_EQ(nullptr, bad);
    EXPECT_EQ(2U, ring.producer());
}

TEST(mrc_recv_ring_post, publishes_entries_for_the_kernel) {
    const FakeRing ring(8, 64);
    const Rq rq = make_rq(ring);
    std::array<ibv_sge, 2> sges = {
            {{.addr = 0x1000, .length = 10, .lkey = 1}, {.addr = 0x3000, .length = 30, .lkey = 2}}};
    RecvList list(2, 40);
    list.wrs[1].sg_list = sges.data();
    list.wrs[1].num_sge = 2;
    ibv_recv_wr *bad = nullptr;
    bool flush = false;
    ASSERT_EQ(0, mrc_recv_ring_post(rq.get(), list.head(), &bad, &flush));
    EXPECT_EQ(nullptr, bad);
    const auto got = mrc_test::consume_recv(ring);
    ASSERT_EQ(2U, got.size());
    EXPECT_EQ(40U, got[0].wqe.wr_id);
    EXPECT_EQ(0U, got[0].wqe.num_sge);
    EXPECT_EQ(41U, got[1].wqe.wr_id);
    ASSERT_EQ(2U, got[1].sges.size());
    EXPECT_EQ(0x3000U, got[1].sges[1].addr);
}

TEST(mrc_recv_ring_post, full_ring_is_enomem) {
    const FakeRing ring(2, 32);
    const Rq rq = make_rq(ring);
    RecvList list(3);
    ibv_recv_wr *bad = nullptr;
    bool flush = false;
    EXPECT_EQ(ENOMEM, mrc_recv_ring_post(rq.get(), list.head(), &bad, &flush));
    EXPECT_EQ(&list.wrs[2], bad);
    EXPECT_EQ(2U, ring.producer());
}

TEST(mrc_recv_ring_post, too_many_sges_is_einval) {
    const FakeRing ring(2, 32); // one SGE per slot
    const Rq rq = make_rq(ring);
    std::array<ibv_sge, 2> sges{};
    RecvList list(1);
    list.wrs[0].sg_list = sges.data();
    list.wrs[0].num_sge = 2;
    ibv_recv_wr *bad = nullptr;
    bool flush = false;
    EXPECT_EQ(EINVAL, mrc_recv_ring_post(rq.get(), list.head(), &bad, &flush));
    EXPECT_EQ(list.head(), bad);
    EXPECT_EQ(0U, ring.producer());
}

TEST(mrc_recv_ring_post, wraps_around_many_times) {
    const FakeRing ring(4, 32);
    const Rq rq = make_rq(ring);
    std::uint64_t next_seen = 0;
    for (std::uint64_t round = 0; round < 30; round++) {
        RecvList list(4, round * 4);
        ibv_recv_wr *bad = nullptr;
        bool flush = false;
        ASSERT_EQ(0, mrc_recv_ring_post(rq.get(), list.head(), &bad, &flush));
        for (const auto &e : mrc_test::consume_recv(ring))
            ASSERT_EQ(next_seen++, e.wqe.wr_id);
    }
    EXPECT_EQ(120U, next_seen);
}

// Several posting threads against a consuming "kernel" thread: every WR arrives exactly once.
TEST(mrc_send_ring_post, concurrent_posters_lose_nothing) {
    const FakeRing ring(16, 128);
    const Sq sq = make_sq(ring);
    constexpr std::uint64_t kPerThread = 2000;
    constexpr std::uint64_t kThreads = 3;
    std::atomic<bool> done{false};
    std::set<std::uint64_t> seen;
    std::thread kernel([&] {
        while (!done.load() || ring.producer() != ring.consumer())
            for (const auto &e : mrc_test::consume_send(ring))
                seen.insert(e.wqe.wr_id);
    });
    std::vector<std::thread> posters;
    posters.reserve(kThreads);
    for (std::uint64_t t = 0; t < kThreads; t++) {
        posters.emplace_back([&sq, t] {
            for (std::uint64_t i = 0; i < kPerThread;) {
                SendList list(1, t * kPerThread + i);
                ibv_send_wr *bad = nullptr;
                unsigned int posted = 0;
                const int err = mrc_send_ring_post(sq.get(), list.head(), &bad, &posted);
                if (err == ENOMEM)
                    std::this_thread::yield();
                else
                    i++;
            }
        });
    }
    for (auto &p : posters)
        p.join();
    done = true;
    kernel.join();
    EXPECT_EQ(kThreads * kPerThread, seen.size());
}

// Several polling threads against a producing "kernel" thread: every CQE is polled exactly once.
TEST(mrc_cq_ring_poll, concurrent_pollers_lose_nothing) {
    const FakeRing ring(16, 48);
    const Cq cq = make_cq(ring);
    constexpr std::uint64_t kTotal = 6000;
    std::atomic<std::uint64_t> polled{0};
    std::vector<std::atomic<int>> hits(kTotal);
    std::thread kernel([&] {
        for (std::uint64_t id = 0; id < kTotal;) {
            if (produce_cqe(ring, make_cqe(id)))
                id++;
            else
                std::this_thread::yield();
        }
    });
    std::vector<std::thread> pollers;
    pollers.reserve(3);
    for (int t = 0; t < 3; t++) {
        pollers.emplace_back([&] {
            std::array<ibv_wc, 4> wc{};
            while (polled.load() < kTotal) {
                const int n = mrc_cq_ring_poll(cq.get(), 4, wc.data());
                ASSERT_GE(n, 0);
                for (int i = 0; i < n; i++)
                    hits.at(wc.at(static_cast<std::size_t>(i)).wr_id)++;
                polled += static_cast<std::uint64_t>(n);
            }
        });
    }
    kernel.join();
    for (auto &p : pollers)
        p.join();
    for (std::uint64_t id = 0; id < kTotal; id++)
        ASSERT_EQ(1, hits[id].load()) << id;
}

} // namespace
