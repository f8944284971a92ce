// Unit tests for core/mrc_sack.h.
extern "C" {
#include "mrc_sack.h"
}

#include <gtest/gtest.h>

namespace {

mrc_sack make_sack(uint32_t cum, uint32_t base) {
    mrc_sack sack{};
    sack.cum_psn = cum;
    sack.sack_base = base;
    return sack;
}

TEST(mrc_sack_test, before_cum_is_received) {
    const mrc_sack sack = make_sack(100U, 100U);

    EXPECT_TRUE(mrc_sack_test(&sack, 99U));
    EXPECT_TRUE(mrc_sack_test(&sack, 0U));
}

TEST(mrc_sack_test, cum_is_not_received) {
    const mrc_sack sack = make_sack(100U, 100U);

    EXPECT_FALSE(mrc_sack_test(&sack, 100U));
}

TEST(mrc_sack_test, bitmap_bits) {
    mrc_sack sack = make_sack(100U, 100U);

    sack.bitmap[0] = 1ULL << 5U;
    sack.bitmap[3] = 1ULL << 63U;
    EXPECT_TRUE(mrc_sack_test(&sack, 105U));
    EXPECT_FALSE(mrc_sack_test(&sack, 106U));
    EXPECT_TRUE(mrc_sack_test(&sack, 100U + 255U));
}

TEST(mrc_sack_test, past_bitmap_is_not_received) {
    mrc_sack sack = make_sack(100U, 100U);

    sack.bitmap[3] = ~0ULL;
    EXPECT_FALSE(mrc_sack_test(&sack, 100U + 256U));
}

TEST(mrc_sack_test, base_after_cum) {
    mrc_sack sack = make_sack(100U, 400U);

    sack.bitmap[0] = 1ULL;
    EXPECT_FALSE(mrc_sack_test(&sack, 200U));
    EXPECT_TRUE(mrc_sack_test(&sack, 400U));
}

TEST(mrc_sack_test, across_wrap) {
    mrc_sack sack = make_sack(0xfffffff0U, 0xfffffff0U);

    sack.bitmap[0] = 1ULL << 20U;
    EXPECT_TRUE(mrc_sack_test(&sack, 4U));
    EXPECT_TRUE(mrc_sack_test(&sack, 0xffffffefU));
    EXPECT_FALSE(mrc_sack_test(&sack, 3U));
}

} // namespace
