// Unit tests for core/mrc_be.h.
extern "C" {
#include "mrc_be.h"
}

#include <gtest/gtest.h>

#include <cstdint>

namespace {

TEST(mrc_put_be16, most_significant_byte_first) {
    uint8_t buf[3] = {0xaa, 0xaa, 0xaa};

    mrc_put_be16(buf, 0x1234);
    EXPECT_EQ(0x12, buf[0]);
    EXPECT_EQ(0x34, buf[1]);
    EXPECT_EQ(0xaa, buf[2]);
}

TEST(mrc_put_be32, most_significant_byte_first) {
    uint8_t buf[5] = {0xaa, 0xaa, 0xaa, 0xaa, 0xaa};
    const uint8_t want[5] = {0x89, 0xab, 0xcd, 0xef, 0xaa};

    mrc_put_be32(buf, 0x89abcdefU);
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_put_be64, most_significant_byte_first) {
    uint8_t buf[9] = {};
    const uint8_t want[9] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x00};

    mrc_put_be64(buf, 0x0123456789abcdefULL);
    EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
}

TEST(mrc_get_be16, reads_what_put_wrote) {
    uint8_t buf[2];

    mrc_put_be16(buf, 0xfffe);
    EXPECT_EQ(0xfffe, mrc_get_be16(buf));
}

TEST(mrc_get_be32, reads_what_put_wrote_at_any_alignment) {
    uint8_t buf[11] = {};

    for (int off = 0; off < 7; off++) {
        mrc_put_be32(buf + off, 0xf00dcafeU + static_cast<uint32_t>(off));
        EXPECT_EQ(0xf00dcafeU + static_cast<uint32_t>(off), mrc_get_be32(buf + off));
    }
}

TEST(mrc_get_be64, reads_what_put_wrote_at_any_alignment) {
    uint8_t buf[15] = {};

    for (int off = 0; off < 7; off++) {
        const uint64_t v = 0xfedcba9876543210ULL ^ static_cast<uint64_t>(off);

        mrc_put_be64(buf + off, v);
        EXPECT_EQ(v, mrc_get_be64(buf + off));
    }
}

TEST(mrc_get_be64, high_bits_of_each_byte) {
    const uint8_t buf[8] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

    EXPECT_EQ(0x8080808080808080ULL, mrc_get_be64(buf));
    EXPECT_EQ(0x80808080U, mrc_get_be32(buf));
    EXPECT_EQ(0x8080, mrc_get_be16(buf));
}

} // namespace
