// Unit tests for core/mrc_psn.h, in the order of its functions.
extern "C" {
#include "mrc_psn.h"
}

#include <gtest/gtest.h>

namespace {

TEST(mrc_psn_diff, forward) {
    EXPECT_EQ(5, mrc_psn_diff(15U, 10U));
}

TEST(mrc_psn_diff, backward) {
    EXPECT_EQ(-5, mrc_psn_diff(10U, 15U));
}

TEST(mrc_psn_diff, wraps_at_0xffffffff) {
    EXPECT_EQ(1, mrc_psn_diff(0U, 0xffffffffU));
    EXPECT_EQ(-1, mrc_psn_diff(0xffffffffU, 0U));
    EXPECT_EQ(17, mrc_psn_diff(0x10U, 0xffffffffU));
}

TEST(mrc_psn_diff, largest_forward_distance) {
    EXPECT_EQ(INT32_MAX, mrc_psn_diff(0x7fffffffU, 0U));
    EXPECT_EQ(INT32_MIN, mrc_psn_diff(0x80000000U, 0U));
}

TEST(mrc_psn_before, simple) {
    EXPECT_TRUE(mrc_psn_before(1U, 2U));
    EXPECT_FALSE(mrc_psn_before(2U, 1U));
}

TEST(mrc_psn_before, equal_is_not_before) {
    EXPECT_FALSE(mrc_psn_before(7U, 7U));
}

TEST(mrc_psn_before, across_wrap) {
    EXPECT_TRUE(mrc_psn_before(0xffffffffU, 0U));
    EXPECT_TRUE(mrc_psn_before(0xfffffff0U, 0x10U));
    EXPECT_FALSE(mrc_psn_before(0U, 0xffffffffU));
}

TEST(mrc_psn_after, simple) {
    EXPECT_TRUE(mrc_psn_after(2U, 1U));
    EXPECT_FALSE(mrc_psn_after(1U, 2U));
    EXPECT_FALSE(mrc_psn_after(3U, 3U));
}

TEST(mrc_psn_after, across_wrap) {
    EXPECT_TRUE(mrc_psn_after(0U, 0xffffffffU));
    EXPECT_FALSE(mrc_psn_after(0xffffffffU, 0U));
}

TEST(mrc_psn_add, simple) {
    EXPECT_EQ(12U, mrc_psn_add(10U, 2U));
}

TEST(mrc_psn_add, wraps_at_0xffffffff) {
    EXPECT_EQ(0U, mrc_psn_add(0xffffffffU, 1U));
    EXPECT_EQ(9U, mrc_psn_add(0xfffffff0U, 25U));
}

TEST(mrc_psn_max, picks_later) {
    EXPECT_EQ(5U, mrc_psn_max(5U, 3U));
    EXPECT_EQ(5U, mrc_psn_max(3U, 5U));
}

TEST(mrc_psn_max, across_wrap) {
    EXPECT_EQ(2U, mrc_psn_max(0xfffffffeU, 2U));
    EXPECT_EQ(2U, mrc_psn_max(2U, 0xfffffffeU));
}

TEST(mrc_psn_in_range, inside) {
    EXPECT_TRUE(mrc_psn_in_range(100U, 100U, 10U));
    EXPECT_TRUE(mrc_psn_in_range(109U, 100U, 10U));
}

TEST(mrc_psn_in_range, end_excluded) {
    EXPECT_FALSE(mrc_psn_in_range(110U, 100U, 10U));
}

TEST(mrc_psn_in_range, before_base) {
    EXPECT_FALSE(mrc_psn_in_range(99U, 100U, 10U));
}

TEST(mrc_psn_in_range, across_wrap) {
    EXPECT_TRUE(mrc_psn_in_range(0xffffffffU, 0xfffffffcU, 8U));
    EXPECT_TRUE(mrc_psn_in_range(3U, 0xfffffffcU, 8U));
    EXPECT_FALSE(mrc_psn_in_range(4U, 0xfffffffcU, 8U));
    EXPECT_FALSE(mrc_psn_in_range(0xfffffffbU, 0xfffffffcU, 8U));
}

TEST(mrc_psn_in_range, empty_range) {
    EXPECT_FALSE(mrc_psn_in_range(5U, 5U, 0U));
}

} // namespace
