// Unit tests for core/mrc_seg.c, in the order of its functions.
extern "C" {
#include "mrc_core_param.h"
#include "mrc_seg.h"
}

#include <gtest/gtest.h>

#include <cstdint>

namespace {

TEST(mrc_seg_mtu_valid, ib_mtus) {
    for (const uint32_t mtu : {256U, 512U, 1024U, 2048U, 4096U})
        EXPECT_TRUE(mrc_seg_mtu_valid(mtu)) << mtu;
}

TEST(mrc_seg_mtu_valid, others) {
    for (const uint32_t mtu : {0U, 1U, 128U, 255U, 257U, 1500U, 3072U, 8192U, 0x80000000U})
        EXPECT_FALSE(mrc_seg_mtu_valid(mtu)) << mtu;
}

TEST(mrc_seg_count, zero_length_is_one_packet) {
    EXPECT_EQ(1U, mrc_seg_count(0, 1024));
}

TEST(mrc_seg_count, around_mtu_multiples) {
    EXPECT_EQ(1U, mrc_seg_count(1, 1024));
    EXPECT_EQ(1U, mrc_seg_count(1024, 1024));
    EXPECT_EQ(2U, mrc_seg_count(1025, 1024));
    EXPECT_EQ(2U, mrc_seg_count(2048, 1024));
    EXPECT_EQ(3U, mrc_seg_count(2049, 1024));
}

TEST(mrc_seg_count, longest_message) {
    EXPECT_EQ(MRC_MAX_MSG_LEN / 256U, mrc_seg_count(MRC_MAX_MSG_LEN, 256));
    EXPECT_EQ(0x100000U, mrc_seg_count(0xffffffffU, 4096)); // no overflow at the top
}

TEST(mrc_seg_count, invalid_mtu) {
    EXPECT_EQ(0U, mrc_seg_count(100, 1000));
}

TEST(mrc_seg_get, full_packets_then_the_rest) {
    uint32_t off = 1;
    uint32_t len = 1;

    ASSERT_EQ(0, mrc_seg_get(5000, 2048, 0, &off, &len));
    EXPECT_EQ(0U, off);
    EXPECT_EQ(2048U, len);
    ASSERT_EQ(0, mrc_seg_get(5000, 2048, 1, &off, &len));
    EXPECT_EQ(2048U, off);
    EXPECT_EQ(2048U, len);
    ASSERT_EQ(0, mrc_seg_get(5000, 2048, 2, &off, &len));
    EXPECT_EQ(4096U, off);
    EXPECT_EQ(904U, len);
}

TEST(mrc_seg_get, last_packet_full) {
    uint32_t off = 0;
    uint32_t len = 0;

    ASSERT_EQ(0, mrc_seg_get(4096, 1024, 3, &off, &len));
    EXPECT_EQ(3072U, off);
    EXPECT_EQ(1024U, len);
}

TEST(mrc_seg_get, zero_length_message) {
    uint32_t off = 1;
    uint32_t len = 1;

    ASSERT_EQ(0, mrc_seg_get(0, 256, 0, &off, &len));
    EXPECT_EQ(0U, off);
    EXPECT_EQ(0U, len);
}

TEST(mrc_seg_get, index_past_last) {
    uint32_t off = 0;
    uint32_t len = 0;

    EXPECT_EQ(-MRC_EINVAL, mrc_seg_get(4096, 1024, 4, &off, &len));
    EXPECT_EQ(-MRC_EINVAL, mrc_seg_get(0, 1024, 1, &off, &len));
}

TEST(mrc_seg_get, invalid_mtu) {
    uint32_t off = 0;
    uint32_t len = 0;

    EXPECT_EQ(-MRC_EINVAL, mrc_seg_get(4096, 1000, 0, &off, &len));
}

TEST(mrc_seg_get, packets_tile_the_message) {
    for (const uint32_t mtu : {256U, 4096U}) {
        for (const uint32_t msg : {1U, 255U, 256U, 257U, 4095U, 4096U, 4097U, 100000U}) {
            const uint32_t n = mrc_seg_count(msg, mtu);
            uint32_t next = 0;

            for (uint32_t i = 0; i < n; i++) {
                uint32_t off = 0;
                uint32_t len = 0;

                ASSERT_EQ(0, mrc_seg_get(msg, mtu, i, &off, &len));
                EXPECT_EQ(next, off);
                EXPECT_GT(len, 0U);
                EXPECT_LE(len, mtu);
                next = off + len;
            }
            EXPECT_EQ(msg, next) << msg << " at " << mtu;
        }
    }
}

} // namespace
