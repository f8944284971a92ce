// Unit tests for core/mrc_ring_bitmap.c, in the order of its functions.
extern "C" {
#include "mrc_ring_bitmap.h"
}

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace {

constexpr uint32_t kMaxWords = 8;

// A ring over caller storage, the way the windows use it.
class RingBitmap : public ::testing::Test {
protected:
    void init(uint32_t nbits) {
        ASSERT_EQ(0, mrc_ring_bitmap_init(&rb, words.data(), kMaxWords, nbits));
    }

    // Move the head to @pos by sliding over clear bits.
    void move_head(uint32_t pos) {
        mrc_ring_bitmap_advance(&rb, pos);
        ASSERT_EQ(pos, rb.head);
    }

    std::array<uint64_t, kMaxWords> words{};
    mrc_ring_bitmap rb{};
};

TEST_F(RingBitmap, mrc_ring_bitmap_init__clears_storage) {
    words.fill(~0ULL);
    init(256);
    for (uint32_t i = 0; i < 4; i++)
        EXPECT_EQ(0ULL, words.at(i));
    EXPECT_EQ(~0ULL, words.at(4)) << "wrote past nbits / 64 words";
    EXPECT_EQ(0U, rb.head);
    EXPECT_EQ(256U, rb.nbits);
}

TEST_F(RingBitmap, mrc_ring_bitmap_init__rejects_zero_bits) {
    EXPECT_EQ(-MRC_EINVAL, mrc_ring_bitmap_init(&rb, words.data(), kMaxWords, 0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_init__rejects_partial_word) {
    EXPECT_EQ(-MRC_EINVAL, mrc_ring_bitmap_init(&rb, words.data(), kMaxWords, 100));
}

TEST_F(RingBitmap, mrc_ring_bitmap_init__rejects_short_storage) {
    EXPECT_EQ(-MRC_EINVAL, mrc_ring_bitmap_init(&rb, words.data(), 3, 256));
}

TEST_F(RingBitmap, mrc_ring_bitmap_init__rejects_null) {
    EXPECT_EQ(-MRC_EINVAL, mrc_ring_bitmap_init(&rb, nullptr, kMaxWords, 64));
    EXPECT_EQ(-MRC_EINVAL, mrc_ring_bitmap_init(nullptr, words.data(), kMaxWords, 64));
}

TEST_F(RingBitmap, mrc_ring_bitmap_test__follows_head) {
    init(128);
    move_head(100);
    words.at(1) = 1ULL << 36U; // position 100
    EXPECT_TRUE(mrc_ring_bitmap_test(&rb, 0));
    EXPECT_FALSE(mrc_ring_bitmap_test(&rb, 1));
}

TEST_F(RingBitmap, mrc_ring_bitmap_test_and_set__returns_old_value) {
    init(64);
    EXPECT_FALSE(mrc_ring_bitmap_test_and_set(&rb, 9));
    EXPECT_TRUE(mrc_ring_bitmap_test_and_set(&rb, 9));
    EXPECT_EQ(1ULL << 9U, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_test_and_set__wraps_ring_end) {
    init(128);
    move_head(120);
    EXPECT_FALSE(mrc_ring_bitmap_test_and_set(&rb, 8)); // position 0
    EXPECT_EQ(1ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_get64__aligned) {
    init(128);
    words.at(0) = 0x1234ULL;
    EXPECT_EQ(0x1234ULL, mrc_ring_bitmap_get64(&rb, 0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_get64__spans_two_words) {
    init(256);
    words.at(0) = 0xf000000000000000ULL;
    words.at(1) = 0x5ULL;
    EXPECT_EQ(0x5fULL, mrc_ring_bitmap_get64(&rb, 60));
}

TEST_F(RingBitmap, mrc_ring_bitmap_get64__wraps_ring_end) {
    init(128);
    move_head(100);
    words.at(1) = 1ULL << 63U; // offset 27
    words.at(0) = 1ULL;        // offset 28
    EXPECT_EQ(3ULL << 27U, mrc_ring_bitmap_get64(&rb, 0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_get64__past_nbits_reads_zero) {
    init(128);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    // Offsets 100..127 exist; 128..163 would wrap onto offset 0 and must not.
    EXPECT_EQ((1ULL << 28U) - 1U, mrc_ring_bitmap_get64(&rb, 100));
}

TEST_F(RingBitmap, mrc_ring_bitmap_get64__single_word_ring) {
    init(64);
    move_head(40);
    words.at(0) = (1ULL << 40U) | 1ULL; // offsets 0 and 24
    EXPECT_EQ((1ULL << 24U) | 1ULL, mrc_ring_bitmap_get64(&rb, 0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_or64__returns_fresh_bits) {
    init(128);
    words.at(0) = 0x3ULL;
    EXPECT_EQ(0x4ULL, mrc_ring_bitmap_or64(&rb, 0, 0x6ULL));
    EXPECT_EQ(0x7ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_or64__spans_two_words) {
    init(128);
    EXPECT_EQ(0x3ULL, mrc_ring_bitmap_or64(&rb, 63, 0x3ULL));
    EXPECT_EQ(1ULL << 63U, words.at(0));
    EXPECT_EQ(1ULL, words.at(1));
}

TEST_F(RingBitmap, mrc_ring_bitmap_or64__wraps_ring_end) {
    init(128);
    move_head(100);
    EXPECT_EQ(0x3ULL, mrc_ring_bitmap_or64(&rb, 27, 0x3ULL));
    EXPECT_EQ(1ULL << 63U, words.at(1));
    EXPECT_EQ(1ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_or64__ignores_bits_past_nbits) {
    init(128);
    EXPECT_EQ(1ULL, mrc_ring_bitmap_or64(&rb, 127, ~0ULL));
    EXPECT_EQ(0ULL, words.at(0)) << "bit past nbits wrapped onto offset 0";
    EXPECT_EQ(1ULL << 63U, words.at(1));
}

TEST_F(RingBitmap, mrc_ring_bitmap_or64__single_word_ring_wrap) {
    init(64);
    move_head(40);
    EXPECT_EQ(0x7ULL, mrc_ring_bitmap_or64(&rb, 23, 0x7ULL)); // positions 63, 0, 1
    EXPECT_EQ((1ULL << 63U) | 0x3ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_advance__counts_and_clears) {
    init(256);
    words.at(0) = 0xf0ULL;
    EXPECT_EQ(2U, mrc_ring_bitmap_advance(&rb, 6));
    EXPECT_EQ(6U, rb.head);
    EXPECT_EQ(0xc0ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_advance__across_words) {
    init(256);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    words.at(2) = 0x1ULL;
    EXPECT_EQ(129U, mrc_ring_bitmap_advance(&rb, 140));
    EXPECT_EQ(0ULL, words.at(0));
    EXPECT_EQ(0ULL, words.at(1));
    EXPECT_EQ(0ULL, words.at(2));
    EXPECT_EQ(140U, rb.head);
}

TEST_F(RingBitmap, mrc_ring_bitmap_advance__wraps_head) {
    init(128);
    move_head(120);
    words.at(1) = 1ULL << 63U;
    words.at(0) = 0x3ULL;
    EXPECT_EQ(3U, mrc_ring_bitmap_advance(&rb, 10));
    EXPECT_EQ(2U, rb.head);
    EXPECT_EQ(0ULL, words.at(0));
    EXPECT_EQ(0ULL, words.at(1));
}

TEST_F(RingBitmap, mrc_ring_bitmap_advance__whole_ring) {
    init(128);
    move_head(70);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    EXPECT_EQ(128U, mrc_ring_bitmap_advance(&rb, 128));
    EXPECT_EQ(70U, rb.head);
    EXPECT_EQ(0ULL, words.at(0));
    EXPECT_EQ(0ULL, words.at(1));
}

TEST_F(RingBitmap, mrc_ring_bitmap_advance__zero) {
    init(64);
    words.at(0) = 1ULL;
    EXPECT_EQ(0U, mrc_ring_bitmap_advance(&rb, 0));
    EXPECT_EQ(1ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_pop_ones__offset_0_clear) {
    init(128);
    words.at(0) = 0x6ULL;
    EXPECT_EQ(0U, mrc_ring_bitmap_pop_ones(&rb));
    EXPECT_EQ(0U, rb.head);
    EXPECT_EQ(0x6ULL, words.at(0));
}

TEST_F(RingBitmap, mrc_ring_bitmap_pop_ones__run_across_words) {
    init(256);
    move_head(10);
    words.at(0) = ~0ULL << 10U;
    words.at(1) = ~0ULL;
    words.at(2) = 0x2fULL; // run stops at position 132
    EXPECT_EQ(122U, mrc_ring_bitmap_pop_ones(&rb));
    EXPECT_EQ(132U, rb.head);
    EXPECT_EQ(0ULL, words.at(0));
    EXPECT_EQ(0ULL, words.at(1));
    EXPECT_EQ(0x20ULL, words.at(2));
}

TEST_F(RingBitmap, mrc_ring_bitmap_pop_ones__run_wraps_ring_end) {
    init(128);
    move_head(126);
    words.at(1) = 3ULL << 62U;
    words.at(0) = 0x7ULL;
    EXPECT_EQ(5U, mrc_ring_bitmap_pop_ones(&rb));
    EXPECT_EQ(3U, rb.head);
}

TEST_F(RingBitmap, mrc_ring_bitmap_pop_ones__all_set) {
    init(192);
    move_head(5);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    words.at(2) = ~0ULL;
    EXPECT_EQ(192U, mrc_ring_bitmap_pop_ones(&rb));
    EXPECT_EQ(5U, rb.head);
    EXPECT_EQ(0ULL, words.at(0) | words.at(1) | words.at(2));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__first_clear) {
    init(128);
    words.at(0) = 0x7ULL;
    EXPECT_EQ(3U, mrc_ring_bitmap_find_zero(&rb, 0, 128));
    EXPECT_EQ(5U, mrc_ring_bitmap_find_zero(&rb, 5, 128));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__across_words) {
    init(256);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    words.at(2) = 0xffULL;
    EXPECT_EQ(136U, mrc_ring_bitmap_find_zero(&rb, 1, 256));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__none_returns_limit) {
    init(128);
    words.at(0) = ~0ULL;
    words.at(1) = ~0ULL;
    EXPECT_EQ(128U, mrc_ring_bitmap_find_zero(&rb, 0, 128));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__clamps_to_limit) {
    init(128);
    words.at(0) = 0xffULL;
    EXPECT_EQ(6U, mrc_ring_bitmap_find_zero(&rb, 2, 6));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__empty_range) {
    init(128);
    EXPECT_EQ(7U, mrc_ring_bitmap_find_zero(&rb, 7, 7));
    EXPECT_EQ(7U, mrc_ring_bitmap_find_zero(&rb, 9, 7));
}

TEST_F(RingBitmap, mrc_ring_bitmap_find_zero__wraps_ring_end) {
    init(128);
    move_head(120);
    words.at(1) = 0xffULL << 56U; // offsets 0..7
    words.at(0) = 0x1ULL;         // offset 8
    EXPECT_EQ(9U, mrc_ring_bitmap_find_zero(&rb, 0, 128));
}

} // namespace
