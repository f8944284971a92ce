// Unit tests for core/mrc_rx_window.c, in the order of its functions.
extern "C" {
#include "mrc_rx_window.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <set>

namespace {

class RxWindow : public ::testing::Test {
protected:
    void init(uint32_t window, uint32_t initial_psn) {
        ASSERT_EQ(0, mrc_rx_window_init(&rx, window, storage.data(),
                                        static_cast<uint32_t>(storage.size()), initial_psn));
    }

    mrc_rx_result accept(uint32_t psn) { return mrc_rx_window_accept(&rx, psn, &advance); }

    std::array<uint64_t, MRC_WINDOW_WORDS(MRC_WINDOW_MAX)> storage{};
    mrc_rx_window rx{};
    uint32_t advance = 0;
};

TEST_F(RxWindow, mrc_rx_window_init__starts_empty) {
    init(256, 1000);
    EXPECT_EQ(1000U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(256U, mrc_rx_window_size(&rx));
    EXPECT_EQ(999U, mrc_rx_window_highest(&rx));
    EXPECT_EQ(0U, mrc_rx_window_holes(&rx));
    EXPECT_FALSE(mrc_rx_window_has_ooo(&rx));
}

TEST_F(RxWindow, mrc_rx_window_init__accepts_min_and_max) {
    init(MRC_WINDOW_MIN, 0);
    init(MRC_WINDOW_MAX, 0);
}

TEST_F(RxWindow, mrc_rx_window_init__rejects_window_below_min) {
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(&rx, 0, storage.data(), 128, 0));
}

TEST_F(RxWindow, mrc_rx_window_init__rejects_window_above_max) {
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(&rx, MRC_WINDOW_MAX + 64, storage.data(), 1000, 0));
}

TEST_F(RxWindow, mrc_rx_window_init__rejects_window_not_multiple_of_64) {
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(&rx, 100, storage.data(), 128, 0));
}

TEST_F(RxWindow, mrc_rx_window_init__rejects_short_storage) {
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(&rx, 256, storage.data(), 3, 0));
}

TEST_F(RxWindow, mrc_rx_window_init__rejects_null) {
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(&rx, 256, nullptr, 4, 0));
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_init(nullptr, 256, storage.data(), 4, 0));
}

TEST_F(RxWindow, mrc_rx_window_accept__in_order_advances_by_one) {
    init(64, 10);
    EXPECT_EQ(MRC_RX_NEW, accept(10));
    EXPECT_EQ(1U, advance);
    EXPECT_EQ(11U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(10U, mrc_rx_window_highest(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__out_of_order_does_not_advance) {
    init(64, 10);
    EXPECT_EQ(MRC_RX_NEW, accept(12));
    EXPECT_EQ(0U, advance);
    EXPECT_EQ(10U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(12U, mrc_rx_window_highest(&rx));
    EXPECT_EQ(2U, mrc_rx_window_holes(&rx));
    EXPECT_TRUE(mrc_rx_window_has_ooo(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__filling_cum_advances_over_run) {
    init(64, 10);
    accept(11);
    accept(12);
    accept(14);
    EXPECT_EQ(MRC_RX_NEW, accept(10));
    EXPECT_EQ(3U, advance);
    EXPECT_EQ(13U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(1U, mrc_rx_window_holes(&rx));
    EXPECT_TRUE(mrc_rx_window_has_ooo(&rx));
    EXPECT_EQ(MRC_RX_NEW, accept(13));
    EXPECT_EQ(2U, advance);
    EXPECT_EQ(15U, mrc_rx_window_cum(&rx));
    EXPECT_FALSE(mrc_rx_window_has_ooo(&rx));
    EXPECT_EQ(0U, mrc_rx_window_holes(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__duplicate_below_cum) {
    init(64, 10);
    accept(10);
    EXPECT_EQ(MRC_RX_DUPLICATE, accept(10));
    EXPECT_EQ(0U, advance);
    EXPECT_EQ(MRC_RX_DUPLICATE, accept(3));
    EXPECT_EQ(11U, mrc_rx_window_cum(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__duplicate_out_of_order) {
    init(64, 10);
    accept(20);
    EXPECT_EQ(MRC_RX_DUPLICATE, accept(20));
    EXPECT_EQ(10U, mrc_rx_window_holes(&rx)) << "duplicate counted twice";
}

TEST_F(RxWindow, mrc_rx_window_accept__far_before_cum_is_duplicate) {
    init(64, 0x80000000U);
    EXPECT_EQ(MRC_RX_DUPLICATE, accept(0x00000001U));
    EXPECT_EQ(0x80000000U, mrc_rx_window_cum(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__last_psn_of_window_accepted) {
    init(128, 1000);
    EXPECT_EQ(MRC_RX_NEW, accept(1000 + 127));
    EXPECT_EQ(1127U, mrc_rx_window_highest(&rx));
    EXPECT_EQ(127U, mrc_rx_window_holes(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__cum_plus_window_rejected) {
    init(128, 1000);
    EXPECT_EQ(MRC_RX_BEYOND_WINDOW, accept(1000 + 128));
    EXPECT_EQ(0U, advance);
    EXPECT_EQ(1000U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(999U, mrc_rx_window_highest(&rx));
    EXPECT_FALSE(mrc_rx_window_has_ooo(&rx));
    EXPECT_EQ(MRC_RX_NEW, accept(1000)) << "rejection must not touch the ring";
    EXPECT_EQ(1U, advance);
}

TEST_F(RxWindow, mrc_rx_window_accept__window_edge_moves_with_cum) {
    init(64, 0);
    accept(0);
    EXPECT_EQ(MRC_RX_NEW, accept(64));
    EXPECT_EQ(MRC_RX_BEYOND_WINDOW, accept(65));
}

TEST_F(RxWindow, mrc_rx_window_accept__wraparound_at_0xffffffff) {
    init(64, 0xfffffffeU);
    EXPECT_EQ(MRC_RX_NEW, accept(0xffffffffU));
    EXPECT_EQ(MRC_RX_NEW, accept(1U));
    EXPECT_EQ(1U, mrc_rx_window_highest(&rx));
    EXPECT_EQ(2U, mrc_rx_window_holes(&rx));
    EXPECT_EQ(MRC_RX_NEW, accept(0xfffffffeU));
    EXPECT_EQ(2U, advance);
    EXPECT_EQ(0U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(MRC_RX_NEW, accept(0U));
    EXPECT_EQ(2U, advance);
    EXPECT_EQ(2U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(MRC_RX_DUPLICATE, accept(0xffffffffU));
}

// With a window that is not a power of two, psn % window jumps at the 2^32 wrap; the ring
// must not care.
TEST_F(RxWindow, mrc_rx_window_accept__non_power_of_two_window_across_wrap) {
    const uint32_t start = 0xffffffffU - 100U;

    init(192, start);
    for (uint32_t i = 191; i > 0; i--)
        ASSERT_EQ(MRC_RX_NEW, accept(start + i));
    EXPECT_EQ(MRC_RX_NEW, accept(start));
    EXPECT_EQ(192U, advance);
    EXPECT_EQ(start + 192U, mrc_rx_window_cum(&rx));
    EXPECT_EQ(0U, mrc_rx_window_holes(&rx));
    EXPECT_FALSE(mrc_rx_window_test(&rx, start + 192U));
    EXPECT_FALSE(mrc_rx_window_test(&rx, start + 383U));
}

TEST_F(RxWindow, mrc_rx_window_accept__ring_wraps_many_times) {
    init(128, 0);
    // Receive in pairs, second first, so every PSN goes through the ring out of order.
    for (uint32_t psn = 0; psn < 128U * 40U; psn += 2) {
        ASSERT_EQ(MRC_RX_NEW, accept(psn + 1));
        ASSERT_EQ(0U, advance);
        ASSERT_EQ(MRC_RX_NEW, accept(psn));
        ASSERT_EQ(2U, advance);
    }
    EXPECT_EQ(128U * 40U, mrc_rx_window_cum(&rx));
    EXPECT_FALSE(mrc_rx_window_has_ooo(&rx));
}

TEST_F(RxWindow, mrc_rx_window_accept__advances_across_whole_max_window) {
    init(MRC_WINDOW_MAX, 5);
    for (uint32_t i = 1; i < MRC_WINDOW_MAX; i++)
        ASSERT_EQ(MRC_RX_NEW, accept(5 + i));
    EXPECT_EQ(1U, mrc_rx_window_holes(&rx));
    EXPECT_EQ(MRC_RX_NEW, accept(5));
    EXPECT_EQ(MRC_WINDOW_MAX, advance);
    EXPECT_EQ(5U + MRC_WINDOW_MAX, mrc_rx_window_cum(&rx));
    EXPECT_FALSE(mrc_rx_window_has_ooo(&rx));
    // The whole ring was recycled: the next window starts empty.
    for (uint32_t i = 0; i < MRC_WINDOW_MAX; i++)
        ASSERT_FALSE(mrc_rx_window_test(&rx, 5U + MRC_WINDOW_MAX + i));
}

// Random arrivals (duplicates, in window, past it) against a set, with a window that is not a
// power of two, across the 2^32 PSN wrap.
TEST_F(RxWindow, mrc_rx_window_accept__matches_reference_model) {
    constexpr uint32_t kWindow = 192;
    const uint32_t start = 0xffffffffU - 3000U;
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> offset(-40, static_cast<int>(kWindow) + 20);
    std::set<uint32_t> received; // indices relative to start, at or after cum
    uint32_t cum = 0;            // index of the reference cum
    uint32_t max_next = 0;

    init(kWindow, start);
    for (int step = 0; step < 30000; step++) {
        const uint32_t idx = cum + static_cast<uint32_t>(offset(rng));
        mrc_rx_result want = MRC_RX_NEW;
        uint32_t want_advance = 0;

        if (static_cast<int32_t>(idx - cum) < 0 || received.contains(idx)) {
            want = MRC_RX_DUPLICATE;
        } else if (idx - cum >= kWindow) {
            want = MRC_RX_BEYOND_WINDOW;
        } else {
            received.insert(idx);
            max_next = std::max(max_next, idx + 1);
            while (received.erase(cum) != 0) {
                cum++;
                want_advance++;
            }
        }
        ASSERT_EQ(want, accept(start + idx)) << "step " << step;
        ASSERT_EQ(want_advance, advance) << "step " << step;
        ASSERT_EQ(start + cum, mrc_rx_window_cum(&rx));
        ASSERT_EQ(start + max_next - 1U, mrc_rx_window_highest(&rx));
        ASSERT_EQ(max_next - cum - received.size(), mrc_rx_window_holes(&rx));
        ASSERT_EQ(!received.empty(), mrc_rx_window_has_ooo(&rx));
        if (step % 64 != 0)
            continue;
        mrc_sack sack{};
        mrc_rx_window_sack(&rx, &sack);
        for (uint32_t off = 0; off < MRC_SACK_BITS; off++) {
            const bool want_bit = off < kWindow && received.contains(cum + off);
            ASSERT_EQ(want_bit, mrc_sack_test(&sack, start + cum + off)) << "offset " << off;
        }
    }
    EXPECT_GT(cum, 3001U) << "never crossed the 2^32 PSN wrap";
}

TEST_F(RxWindow, mrc_rx_window_accept__null_advance) {
    init(64, 0);
    EXPECT_EQ(MRC_RX_NEW, mrc_rx_window_accept(&rx, 0, nullptr));
    EXPECT_EQ(1U, mrc_rx_window_cum(&rx));
}

TEST_F(RxWindow, mrc_rx_window_test__below_cum_received) {
    init(64, 10);
    accept(10);
    EXPECT_TRUE(mrc_rx_window_test(&rx, 10));
    EXPECT_TRUE(mrc_rx_window_test(&rx, 0));
}

TEST_F(RxWindow, mrc_rx_window_test__inside_window) {
    init(64, 10);
    accept(15);
    EXPECT_TRUE(mrc_rx_window_test(&rx, 15));
    EXPECT_FALSE(mrc_rx_window_test(&rx, 14));
    EXPECT_FALSE(mrc_rx_window_test(&rx, 10));
}

TEST_F(RxWindow, mrc_rx_window_test__past_window) {
    init(64, 10);
    EXPECT_FALSE(mrc_rx_window_test(&rx, 10 + 64));
}

TEST_F(RxWindow, mrc_rx_window_sack_from__later_region) {
    mrc_sack sack{};

    init(1024, 0);
    accept(300);
    accept(555);
    ASSERT_EQ(0, mrc_rx_window_sack_from(&rx, 300, &sack));
    EXPECT_EQ(0U, sack.cum_psn);
    EXPECT_EQ(300U, sack.sack_base);
    EXPECT_EQ(1ULL, sack.bitmap[0]);
    EXPECT_EQ(0ULL, sack.bitmap[1]);
    EXPECT_EQ(0ULL, sack.bitmap[2]);
    EXPECT_EQ(1ULL << 63U, sack.bitmap[3]);
}

TEST_F(RxWindow, mrc_rx_window_sack_from__last_psn_of_window) {
    mrc_sack sack{};

    init(128, 0);
    accept(1);
    accept(127);
    ASSERT_EQ(0, mrc_rx_window_sack_from(&rx, 127, &sack));
    // Bits past the window must not wrap around the ring onto PSN 1.
    EXPECT_EQ(1ULL, sack.bitmap[0]);
    EXPECT_EQ(0ULL, sack.bitmap[1] | sack.bitmap[2] | sack.bitmap[3]);
}

// Near cum the summary starts at cum; far past a cum that has not moved since the last ACK, it
// ends with the packet answered.
TEST_F(RxWindow, mrc_rx_window_sack_for__describes_the_region_answered) {
    mrc_sack sack{};

    init(1024, 0);
    accept(5);
    accept(700);
    accept(900);
    mrc_rx_window_sack_for(&rx, 5, 0, &sack);
    EXPECT_EQ(0U, sack.sack_base);
    EXPECT_EQ(1ULL << 5U, sack.bitmap[0]);
    mrc_rx_window_sack_for(&rx, 255, 0, &sack); // the last PSN the usual summary covers
    EXPECT_EQ(0U, sack.sack_base);
    mrc_rx_window_sack_for(&rx, 900, 0, &sack);
    EXPECT_EQ(0U, sack.cum_psn);
    EXPECT_EQ(900U - (MRC_SACK_BITS - 1), sack.sack_base);
    EXPECT_TRUE(mrc_sack_test(&sack, 700));
    EXPECT_TRUE(mrc_sack_test(&sack, 900));
    EXPECT_FALSE(mrc_sack_test(&sack, 5)); // not described by this one
    EXPECT_FALSE(mrc_sack_test(&sack, 899));
    accept(0); // cum moves: the next ACK's news is near it again
    mrc_rx_window_sack_for(&rx, 900, 0, &sack);
    EXPECT_EQ(1U, sack.sack_base);
}

// A PSN the window cannot hold (a forged or stale one) gets the usual summary.
TEST_F(RxWindow, mrc_rx_window_sack_for__outside_the_window_starts_at_cum) {
    mrc_sack sack{};

    init(1024, 2000);
    mrc_rx_window_sack_for(&rx, 2000 + 1024, 2000, &sack);
    EXPECT_EQ(2000U, sack.sack_base);
    mrc_rx_window_sack_for(&rx, 1000, 2000, &sack);
    EXPECT_EQ(2000U, sack.sack_base);
    mrc_rx_window_sack_for(&rx, 2000 + 1023, 2000, &sack);
    EXPECT_EQ(2000U + 1023 - (MRC_SACK_BITS - 1), sack.sack_base);
}

TEST_F(RxWindow, mrc_rx_window_sack_from__rejects_base_before_cum) {
    mrc_sack sack{};

    init(128, 100);
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_sack_from(&rx, 99, &sack));
}

TEST_F(RxWindow, mrc_rx_window_sack_from__rejects_base_past_window) {
    mrc_sack sack{};

    init(128, 100);
    EXPECT_EQ(-MRC_EINVAL, mrc_rx_window_sack_from(&rx, 228, &sack));
}

TEST_F(RxWindow, mrc_rx_window_sack__base_is_cum) {
    mrc_sack sack{};

    init(512, 7);
    accept(7);
    accept(8);
    mrc_rx_window_sack(&rx, &sack);
    EXPECT_EQ(9U, sack.cum_psn);
    EXPECT_EQ(9U, sack.sack_base);
    EXPECT_EQ(0ULL, sack.bitmap[0] | sack.bitmap[1] | sack.bitmap[2] | sack.bitmap[3]);
}

TEST_F(RxWindow, mrc_rx_window_sack__bits_match_arrivals) {
    mrc_sack sack{};

    init(512, 0xffffff00U);
    // Offsets from cum: 1, 63, 64, 130, 255 arrive; 256 arrives but is past the summary.
    for (const uint32_t off : {1U, 63U, 64U, 130U, 255U, 256U})
        accept(0xffffff00U + off);
    mrc_rx_window_sack(&rx, &sack);
    EXPECT_EQ(0xffffff00U, sack.cum_psn);
    EXPECT_EQ((1ULL << 63U) | (1ULL << 1U), sack.bitmap[0]);
    EXPECT_EQ(1ULL, sack.bitmap[1]);
    EXPECT_EQ(1ULL << 2U, sack.bitmap[2]);
    EXPECT_EQ(1ULL << 63U, sack.bitmap[3]);
    for (uint32_t off = 0; off < 300; off++) {
        EXPECT_EQ(mrc_rx_window_test(&rx, 0xffffff00U + off) && off < 256,
                  mrc_sack_test(&sack, 0xffffff00U + off))
                << "offset " << off;
    }
}

TEST_F(RxWindow, mrc_rx_window_sack__window_smaller_than_summary) {
    mrc_sack sack{};

    init(64, 0);
    for (uint32_t psn = 1; psn < 64; psn++)
        accept(psn);
    mrc_rx_window_sack(&rx, &sack);
    EXPECT_EQ(~1ULL, sack.bitmap[0]);
    EXPECT_EQ(0ULL, sack.bitmap[1] | sack.bitmap[2] | sack.bitmap[3])
            << "ring contents leaked past the window";
}

TEST_F(RxWindow, mrc_rx_window_sack__after_ring_wrap) {
    mrc_sack sack{};

    init(128, 0);
    for (uint32_t psn = 0; psn < 100; psn++)
        accept(psn);
    accept(101);
    accept(150);
    accept(227);
    mrc_rx_window_sack(&rx, &sack);
    EXPECT_EQ(100U, sack.cum_psn);
    EXPECT_EQ((1ULL << 50U) | (1ULL << 1U), sack.bitmap[0]);
    EXPECT_EQ(1ULL << 63U, sack.bitmap[1]);
    EXPECT_EQ(0ULL, sack.bitmap[2] | sack.bitmap[3]);
}

TEST(mrc_rx_result_name, known) {
    EXPECT_STREQ("new", mrc_rx_result_name(MRC_RX_NEW));
    EXPECT_STREQ("duplicate", mrc_rx_result_name(MRC_RX_DUPLICATE));
    EXPECT_STREQ("beyond_window", mrc_rx_result_name(MRC_RX_BEYOND_WINDOW));
}

TEST(mrc_rx_result_name, unknown) {
    EXPECT_STREQ("unknown", mrc_rx_result_name(static_cast<mrc_rx_result>(3)));
}

} // namespace
