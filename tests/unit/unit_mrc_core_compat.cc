// Unit tests for the bit helpers of core/mrc_core_compat.h (the kernel build maps them to
// __ffs64, hweight64 and fls64, which have these semantics).
extern "C" {
#include "mrc_core_compat.h"
}

#include <gtest/gtest.h>

namespace {

TEST(mrc_ctz64, lowest_set_bit) {
    EXPECT_EQ(0U, mrc_ctz64(1ULL));
    EXPECT_EQ(4U, mrc_ctz64(0xf0ULL));
    EXPECT_EQ(63U, mrc_ctz64(1ULL << 63U));
}

TEST(mrc_popcount64, counts) {
    EXPECT_EQ(0U, mrc_popcount64(0ULL));
    EXPECT_EQ(3U, mrc_popcount64(0x8000000000000101ULL));
    EXPECT_EQ(64U, mrc_popcount64(~0ULL));
}

TEST(mrc_fls64, zero) {
    EXPECT_EQ(0U, mrc_fls64(0ULL));
}

TEST(mrc_fls64, one_based_highest_bit) {
    EXPECT_EQ(1U, mrc_fls64(1ULL));
    EXPECT_EQ(8U, mrc_fls64(0xf0ULL));
    EXPECT_EQ(64U, mrc_fls64(~0ULL));
}

} // namespace
