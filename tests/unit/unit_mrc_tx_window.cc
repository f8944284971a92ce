// Unit tests for core/mrc_tx_window.c, in the order of its functions.
extern "C" {
#include "mrc_rx_window.h"
#include "mrc_tx_window.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

class TxWindow : public ::testing::Test {
protected:
    void init(uint32_t window, uint32_t initial_psn) {
        ASSERT_EQ(0, mrc_tx_window_init(&tx, window, storage.data(),
                                        static_cast<uint32_t>(storage.size()), initial_psn));
    }

    void send(uint32_t n) {
        uint32_t psn = 0;

        for (uint32_t i = 0; i < n; i++)
            ASSERT_EQ(0, mrc_tx_window_alloc(&tx, &psn));
    }

    // An ACK with base == cum and the given PSNs SACKed.
    static mrc_sack make_ack(uint32_t cum, std::initializer_list<uint32_t> sacked = {}) {
        mrc_sack ack{};

        ack.cum_psn = cum;
        ack.sack_base = cum;
        for (const uint32_t psn : sacked) {
            const uint32_t off = psn - cum;

            ack.bitmap[off / 64U] |= 1ULL << (off % 64U);
        }
        return ack;
    }

    int ack(const mrc_sack &sack) { return mrc_tx_window_ack(&tx, &sack, &result); }

    std::vector<uint32_t> holes() {
        std::vector<uint32_t> found;
        uint32_t psn = 0;

        mrc_tx_window_for_each_hole(&tx, psn)
            found.push_back(psn);
        return found;
    }

    // Everything an ACK must leave alone when it is rejected.
    void expect_unchanged(const mrc_tx_window &before,
                          const std::array<uint64_t, MRC_WINDOW_WORDS(MRC_WINDOW_MAX)> &bits) {
        EXPECT_EQ(before.una, tx.una);
        EXPECT_EQ(before.nxt, tx.nxt);
        EXPECT_EQ(before.sack_next, tx.sack_next);
        EXPECT_EQ(before.nr_sacked, tx.nr_sacked);
        EXPECT_EQ(before.sacked.head, tx.sacked.head);
        EXPECT_EQ(0, std::memcmp(bits.data(), storage.data(), sizeof(bits)));
        EXPECT_EQ(0U, result.una_advance);
        EXPECT_EQ(0U, result.newly_acked);
    }

    std::array<uint64_t, MRC_WINDOW_WORDS(MRC_WINDOW_MAX)> storage{};
    mrc_tx_window tx{};
    mrc_tx_ack_result result{};
};

TEST_F(TxWindow, mrc_tx_window_init__starts_empty) {
    init(256, 77);
    EXPECT_EQ(77U, mrc_tx_window_una(&tx));
    EXPECT_EQ(77U, mrc_tx_window_nxt(&tx));
    EXPECT_EQ(256U, mrc_tx_window_size(&tx));
    EXPECT_EQ(256U, mrc_tx_window_space(&tx));
    EXPECT_EQ(0U, mrc_tx_window_outstanding(&tx));
    EXPECT_EQ(0U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_init__rejects_bad_window) {
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(&tx, 32, storage.data(), 128, 0));
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(&tx, 96, storage.data(), 128, 0));
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(&tx, MRC_WINDOW_MAX * 2, storage.data(),
                                              static_cast<uint32_t>(storage.size()), 0));
}

TEST_F(TxWindow, mrc_tx_window_init__rejects_short_storage) {
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(&tx, 256, storage.data(), 3, 0));
}

TEST_F(TxWindow, mrc_tx_window_init__rejects_null) {
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(&tx, 256, nullptr, 4, 0));
    EXPECT_EQ(-MRC_EINVAL, mrc_tx_window_init(nullptr, 256, storage.data(), 4, 0));
}

TEST_F(TxWindow, mrc_tx_window_alloc__consecutive_psns) {
    uint32_t psn = 0;

    init(64, 0xfffffffeU);
    ASSERT_EQ(0, mrc_tx_window_alloc(&tx, &psn));
    EXPECT_EQ(0xfffffffeU, psn);
    ASSERT_EQ(0, mrc_tx_window_alloc(&tx, &psn));
    EXPECT_EQ(0xffffffffU, psn);
    ASSERT_EQ(0, mrc_tx_window_alloc(&tx, &psn));
    EXPECT_EQ(0U, psn);
    EXPECT_EQ(3U, mrc_tx_window_outstanding(&tx));
}

TEST_F(TxWindow, mrc_tx_window_alloc__full_window) {
    uint32_t psn = 1234;

    init(64, 0);
    send(64);
    EXPECT_EQ(0U, mrc_tx_window_space(&tx));
    EXPECT_EQ(-MRC_ENOSPC, mrc_tx_window_alloc(&tx, &psn));
    EXPECT_EQ(1234U, psn);
    EXPECT_EQ(64U, mrc_tx_window_nxt(&tx));
}

TEST_F(TxWindow, mrc_tx_window_alloc__sack_does_not_open_window) {
    uint32_t psn = 0;

    init(64, 0);
    send(64);
    ASSERT_EQ(0, ack(make_ack(0, {5, 6})));
    EXPECT_EQ(-MRC_ENOSPC, mrc_tx_window_alloc(&tx, &psn))
            << "the receiver's window starts at cum, not at the SACKs";
    ASSERT_EQ(0, ack(make_ack(1)));
    EXPECT_EQ(0, mrc_tx_window_alloc(&tx, &psn));
    EXPECT_EQ(64U, psn);
}

TEST_F(TxWindow, mrc_tx_window_ack__cumulative) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(104)));
    EXPECT_EQ(104U, mrc_tx_window_una(&tx));
    EXPECT_EQ(4U, result.una_advance);
    EXPECT_EQ(4U, result.newly_acked);
    EXPECT_FALSE(result.stale);
}

TEST_F(TxWindow, mrc_tx_window_ack__everything) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(110)));
    EXPECT_EQ(0U, mrc_tx_window_outstanding(&tx));
    EXPECT_EQ(256U, mrc_tx_window_space(&tx));
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_marks_psns) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(100, {102, 105})));
    EXPECT_EQ(0U, result.una_advance);
    EXPECT_EQ(2U, result.newly_acked);
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 102));
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 105));
    EXPECT_FALSE(mrc_tx_window_is_acked(&tx, 103));
    EXPECT_EQ(4U, mrc_tx_window_holes(&tx)); // 100, 101, 103, 104
}

TEST_F(TxWindow, mrc_tx_window_ack__sacked_psn_not_counted_again_by_cum) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(100, {102, 105})));
    ASSERT_EQ(0, ack(make_ack(103, {105})));
    EXPECT_EQ(3U, result.una_advance);
    EXPECT_EQ(2U, result.newly_acked); // 100 and 101; 102 was news before
    ASSERT_EQ(0, ack(make_ack(107)));
    EXPECT_EQ(4U, result.una_advance);
    EXPECT_EQ(3U, result.newly_acked); // 103, 104, 106
    EXPECT_EQ(0U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_ack__duplicate_changes_nothing) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(102, {104})));
    ASSERT_EQ(0, ack(make_ack(102, {104})));
    EXPECT_EQ(0U, result.una_advance);
    EXPECT_EQ(0U, result.newly_acked);
    EXPECT_FALSE(result.stale);
    EXPECT_EQ(102U, mrc_tx_window_una(&tx));
}

TEST_F(TxWindow, mrc_tx_window_ack__stale_cum_ignored) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(105)));
    const mrc_tx_window before = tx;
    const auto bits = storage;
    ASSERT_EQ(0, ack(make_ack(103)));
    EXPECT_TRUE(result.stale);
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__stale_sack_bits_applied) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(105)));
    // Overtaken by the ACK above, but 106 is news; 104 is old news.
    ASSERT_EQ(0, ack(make_ack(103, {104, 106})));
    EXPECT_TRUE(result.stale);
    EXPECT_EQ(0U, result.una_advance);
    EXPECT_EQ(1U, result.newly_acked);
    EXPECT_EQ(105U, mrc_tx_window_una(&tx));
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 106));
    EXPECT_EQ(1U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_ack__stale_sack_far_behind_dropped) {
    init(256, 0);
    send(200);
    ASSERT_EQ(0, ack(make_ack(150)));
    const mrc_tx_window before = tx;
    const auto bits = storage;
    ASSERT_EQ(0, ack(make_ack(10, {11, 70, 149})));
    EXPECT_TRUE(result.stale);
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__stale_sack_beyond_nxt_rejected) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(105)));
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(make_ack(103, {106, 110})));
    EXPECT_FALSE(result.stale);
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__cum_beyond_nxt_rejected) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(100, {103})));
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(make_ack(111)));
    EXPECT_FALSE(result.stale);
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__cum_at_nxt_accepted) {
    init(64, 0xfffffffaU);
    send(10);
    EXPECT_EQ(0, ack(make_ack(4U)));
    EXPECT_EQ(10U, result.una_advance);
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_beyond_nxt_rejected) {
    init(256, 100);
    send(10);
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(make_ack(101, {103, 110})));
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_of_last_sent_accepted) {
    init(256, 100);
    send(10);
    EXPECT_EQ(0, ack(make_ack(101, {109})));
    EXPECT_EQ(1U, result.una_advance);
    EXPECT_EQ(2U, result.newly_acked);
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_bit_of_cum_rejected) {
    init(256, 100);
    send(10);
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(make_ack(102, {102})));
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_base_before_cum_rejected) {
    init(256, 100);
    send(10);
    mrc_sack sack = make_ack(102);
    sack.sack_base = 101;
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(sack));
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__garbage_far_ahead_rejected) {
    init(256, 100);
    send(10);
    const mrc_tx_window before = tx;
    const auto bits = storage;
    EXPECT_EQ(-MRC_EPROTO, ack(make_ack(100U + 0x7fffffffU)));
    expect_unchanged(before, bits);
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_base_later_region) {
    init(1024, 0);
    send(700);
    mrc_sack sack = make_ack(0);
    sack.sack_base = 600;
    sack.bitmap[1] = 1ULL << 35U; // PSN 699, the last one sent
    sack.bitmap[0] = 1ULL;        // PSN 600
    ASSERT_EQ(0, ack(sack));
    EXPECT_EQ(2U, result.newly_acked);
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 600));
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 699));
    EXPECT_EQ(698U, mrc_tx_window_holes(&tx));
    sack.bitmap[1] = 1ULL << 36U; // PSN 700, never sent
    EXPECT_EQ(-MRC_EPROTO, ack(sack));
}

TEST_F(TxWindow, mrc_tx_window_ack__una_slides_over_sacked_run) {
    init(256, 100);
    send(10);
    ASSERT_EQ(0, ack(make_ack(100, {102, 103, 104, 106})));
    // A later ACK whose cum is a PSN SACKed before: slide past what was SACKed.
    ASSERT_EQ(0, ack(make_ack(102)));
    EXPECT_EQ(105U, mrc_tx_window_una(&tx));
    EXPECT_EQ(5U, result.una_advance);
    EXPECT_EQ(2U, result.newly_acked);
    EXPECT_EQ(1U, mrc_tx_window_holes(&tx)); // 105
}

TEST_F(TxWindow, mrc_tx_window_ack__sack_across_ring_wrap) {
    init(128, 0xffffff80U);
    send(100);
    ASSERT_EQ(0, ack(make_ack(0xffffff80U + 90U)));
    send(100); // PSNs 0xffffffe4 .. 0x47, ring positions wrap
    const uint32_t una = mrc_tx_window_una(&tx);
    ASSERT_EQ(0, ack(make_ack(una, {una + 1U, una + 70U, una + 109U})));
    EXPECT_EQ(3U, result.newly_acked);
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, una + 70U));
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, una + 109U));
    EXPECT_FALSE(mrc_tx_window_is_acked(&tx, una + 108U));
    EXPECT_EQ(107U, mrc_tx_window_holes(&tx));
}

// Random sends, deliveries and ACKs (fresh, far-region, stale, and corrupted) against a model
// built from what the ACKs claim, across the 2^32 PSN wrap.
TEST_F(TxWindow, mrc_tx_window_ack__matches_reference_model) {
    constexpr uint32_t kWindow = 256;
    const uint32_t start = 0xffffff00U;
    std::array<uint64_t, MRC_WINDOW_WORDS(kWindow)> rx_bits{};
    mrc_rx_window rx{};
    std::mt19937 rng(7);
    std::vector<uint8_t> claimed; // by index from start: some valid ACK acknowledged it
    std::vector<mrc_sack> history;
    uint32_t claimed_next = 0; // one past the highest index claimed
    uint32_t model_una = 0;

    init(kWindow, start);
    ASSERT_EQ(0, mrc_rx_window_init(&rx, kWindow, rx_bits.data(), rx_bits.size(), start));
    const auto claim = [&](const mrc_sack &sack) {
        for (uint32_t i = model_una; mrc_psn_before(start + i, sack.cum_psn); i++)
            claimed.at(i) = 1;
        for (uint32_t bit = 0; bit < MRC_SACK_BITS; bit++) {
            if (((sack.bitmap[bit / 64U] >> (bit % 64U)) & 1U) == 0)
                continue;
            const uint32_t i = sack.sack_base + bit - start;
            if (!mrc_psn_before(start + i, start + model_una))
                claimed.at(i) = 1;
            claimed_next = std::max(claimed_next, i + 1);
        }
        while (model_una < claimed.size() && claimed.at(model_una))
            model_una++;
    };

    for (int step = 0; step < 20000; step++) {
        const uint32_t nxt = mrc_tx_window_nxt(&tx) - start;
        mrc_sack sack{};

        switch (rng() % 6) {
        case 0: { // send a burst
            uint32_t psn = 0;
            for (uint32_t n = rng() % 8; n > 0; n--) {
                if (mrc_tx_window_alloc(&tx, &psn) != 0) {
                    ASSERT_EQ(0U, mrc_tx_window_space(&tx));
                    break;
                }
                claimed.push_back(0);
            }
            break;
        }
        case 1: // the network delivers some sent PSN, maybe again
        case 2:
            if (nxt > model_una)
                mrc_rx_window_accept(&rx, start + model_una + rng() % (nxt - model_una), nullptr);
            break;
        case 3: // a fresh ACK, sometimes describing a region further ahead
            if (rng() % 4 == 0) {
                const uint32_t base = mrc_rx_window_cum(&rx) + rng() % 200;
                ASSERT_EQ(0, mrc_rx_window_sack_from(&rx, base, &sack));
            } else {
                mrc_rx_window_sack(&rx, &sack);
            }
            history.push_back(sack);
            ASSERT_EQ(0, ack(sack));
            claim(sack);
            break;
        case 4: // an old ACK, overtaken on a slower path
            if (history.empty())
                break;
            sack = history.at(history.size() - 1 - rng() % std::min<size_t>(history.size(), 50));
            ASSERT_EQ(0, ack(sack));
            claim(sack);
            break;
        case 5: { // a corrupted ACK: rejected, nothing changes
            mrc_rx_window_sack(&rx, &sack);
            const uint32_t bad = start + nxt + rng() % 300;
            switch (rng() % 3) {
            case 0:
                sack.cum_psn = bad + 1U;
                sack.sack_base = sack.cum_psn;
                break;
            case 1:
                if (bad - sack.sack_base >= MRC_SACK_BITS)
                    continue;
                sack.bitmap[(bad - sack.sack_base) / 64U] |= 1ULL << ((bad - sack.sack_base) % 64U);
                break;
            default:
                sack.sack_base = sack.cum_psn - 1U - rng() % 100;
                break;
            }
            const mrc_tx_window before = tx;
            const auto bits = storage;
            ASSERT_EQ(-MRC_EPROTO, ack(sack)) << "step " << step;
            expect_unchanged(before, bits);
            break;
        }
        }

        ASSERT_EQ(start + model_una, mrc_tx_window_una(&tx)) << "step " << step;
        if (step % 16 != 0)
            continue;
        std::vector<uint32_t> want_holes;
        for (uint32_t i = model_una; i < claimed.size(); i++) {
            ASSERT_EQ(claimed.at(i) != 0, mrc_tx_window_is_acked(&tx, start + i)) << "index " << i;
            if (i < claimed_next && !claimed.at(i))
                want_holes.push_back(start + i);
        }
        ASSERT_EQ(want_holes, holes()) << "step " << step;
        ASSERT_EQ(want_holes.size(), mrc_tx_window_holes(&tx));
    }
    EXPECT_GT(model_una, 0x100U) << "never crossed the 2^32 PSN wrap";
}

TEST_F(TxWindow, mrc_tx_window_is_acked__states) {
    init(64, 10);
    send(5);
    ASSERT_EQ(0, ack(make_ack(12, {13})));
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 11));     // cumulative
    EXPECT_FALSE(mrc_tx_window_is_acked(&tx, 12));    // in flight
    EXPECT_TRUE(mrc_tx_window_is_acked(&tx, 13));     // SACKed
    EXPECT_FALSE(mrc_tx_window_is_acked(&tx, 15));    // never sent
    EXPECT_FALSE(mrc_tx_window_is_acked(&tx, 10000)); // never sent, far
}

TEST_F(TxWindow, mrc_tx_window_next_hole__none_without_sack) {
    uint32_t psn = 0;

    init(64, 10);
    send(5);
    EXPECT_FALSE(mrc_tx_window_next_hole(&tx, 10, &psn));
}

TEST_F(TxWindow, mrc_tx_window_next_hole__below_highest_sack_only) {
    init(256, 0);
    send(20);
    ASSERT_EQ(0, ack(make_ack(2, {4, 5, 9})));
    EXPECT_EQ((std::vector<uint32_t>{2, 3, 6, 7, 8}), holes());
    EXPECT_EQ(5U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_next_hole__from_before_una_clamps) {
    uint32_t psn = 0;

    init(256, 50);
    send(20);
    ASSERT_EQ(0, ack(make_ack(55, {60})));
    ASSERT_TRUE(mrc_tx_window_next_hole(&tx, 3, &psn));
    EXPECT_EQ(55U, psn);
    ASSERT_TRUE(mrc_tx_window_next_hole(&tx, 58, &psn));
    EXPECT_EQ(58U, psn);
    EXPECT_FALSE(mrc_tx_window_next_hole(&tx, 60, &psn));
    EXPECT_FALSE(mrc_tx_window_next_hole(&tx, 61, &psn));
}

TEST_F(TxWindow, mrc_tx_window_next_hole__skips_long_sacked_runs) {
    init(1024, 0xffffff00U);
    send(1000);
    mrc_sack sack = make_ack(0xffffff00U);
    sack.bitmap[0] = ~1ULL;
    sack.bitmap[1] = ~0ULL;
    sack.bitmap[2] = ~(1ULL << 10U); // hole at offset 138
    sack.bitmap[3] = ~0ULL;
    ASSERT_EQ(0, ack(sack));
    EXPECT_EQ((std::vector<uint32_t>{0xffffff00U, 0xffffff00U + 138U}), holes());
    EXPECT_EQ(2U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_next_hole__none_after_everything_acked) {
    uint32_t psn = 0;

    init(64, 0);
    send(10);
    ASSERT_EQ(0, ack(make_ack(0, {5})));
    ASSERT_EQ(0, ack(make_ack(10)));
    EXPECT_FALSE(mrc_tx_window_next_hole(&tx, 0, &psn));
    EXPECT_EQ(0U, mrc_tx_window_holes(&tx));
}

TEST_F(TxWindow, mrc_tx_window_next_unacked__includes_tail) {
    std::vector<uint32_t> found;
    uint32_t psn = 0;

    init(64, 0);
    send(8);
    ASSERT_EQ(0, ack(make_ack(1, {3, 4})));
    for (bool more = mrc_tx_window_next_unacked(&tx, 0, &psn); more;
         more = mrc_tx_window_next_unacked(&tx, psn + 1U, &psn))
        found.push_back(psn);
    EXPECT_EQ((std::vector<uint32_t>{1, 2, 5, 6, 7}), found);
}

TEST_F(TxWindow, mrc_tx_window_next_unacked__nothing_outstanding) {
    uint32_t psn = 0;

    init(64, 0);
    EXPECT_FALSE(mrc_tx_window_next_unacked(&tx, 0, &psn));
}

} // namespace
