// Unit tests for core/mrc_read_track.c: which READ responses a requester has, per chunk.
extern "C" {
#include "mrc_read_track.h"
}

#include <gtest/gtest.h>

#include <cstdint>

namespace {

class ReadTrack : public ::testing::Test {
protected:
    void SetUp() override { mrc_read_track_init(&t); }
    // Every response of chunk @seq, which asks for @n, arrives.
    void fill(uint32_t seq, uint32_t n) {
        for (uint32_t i = 0; i < n; i++)
            ASSERT_EQ(mrc_read_track_mark(&t, seq, i), 1) << seq << " " << i;
    }
    mrc_read_track t{};
};

TEST_F(ReadTrack, chunks_are_numbered_in_order) {
    EXPECT_EQ(mrc_read_track_open(&t, 64), 0U);
    EXPECT_EQ(mrc_read_track_open(&t, 3), 1U);
    EXPECT_FALSE(mrc_read_track_arrived(&t, 0, 0));
    EXPECT_FALSE(mrc_read_track_arrived(&t, 2, 0)) << "not opened yet";
}

TEST_F(ReadTrack, responses_arrive_once) {
    const uint32_t seq = mrc_read_track_open(&t, 64);
    mrc_read_track_open(&t, 64); // a later chunk keeps the first one tracked
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 63), 1);
    EXPECT_TRUE(mrc_read_track_arrived(&t, seq, 63));
    EXPECT_FALSE(mrc_read_track_arrived(&t, seq, 62));
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 63), 0) << "a duplicate";
}

TEST_F(ReadTrack, responses_a_chunk_did_not_ask_for_are_refused) {
    const uint32_t seq = mrc_read_track_open(&t, 3);
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 3), -MRC_EINVAL);
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 64), -MRC_EINVAL);
    EXPECT_EQ(mrc_read_track_mark(&t, seq + 1, 0), -MRC_EINVAL) << "a chunk not sent";
}

TEST_F(ReadTrack, room_for_a_ring_of_incomplete_chunks) {
    for (uint32_t i = 0; i < MRC_READ_TRACK_CHUNKS; i++) {
        ASSERT_TRUE(mrc_read_track_room(&t)) << i;
        mrc_read_track_open(&t, 64);
    }
    EXPECT_FALSE(mrc_read_track_room(&t));
    // the newest complete: still no room, the oldest holds the ring
    fill(MRC_READ_TRACK_CHUNKS - 1, 64);
    EXPECT_FALSE(mrc_read_track_room(&t));
    // the oldest complete: room for one, and its responses count as in
    fill(0, 64);
    EXPECT_TRUE(mrc_read_track_room(&t));
    EXPECT_EQ(t.tail, 1U);
    EXPECT_TRUE(mrc_read_track_arrived(&t, 0, 5));
    EXPECT_EQ(mrc_read_track_mark(&t, 0, 5), 0) << "a late duplicate of a complete chunk";
    // the new chunk takes chunk 0's slot and starts empty
    const uint32_t seq = mrc_read_track_open(&t, 1);
    EXPECT_EQ(seq, MRC_READ_TRACK_CHUNKS);
    EXPECT_FALSE(mrc_read_track_arrived(&t, seq, 0));
    EXPECT_TRUE(mrc_read_track_arrived(&t, 0, 0));
}

TEST_F(ReadTrack, the_oldest_moves_past_every_complete_chunk) {
    for (uint32_t i = 0; i < 4; i++)
        mrc_read_track_open(&t, 2);
    fill(1, 2);
    fill(2, 2);
    EXPECT_EQ(t.tail, 0U);
    fill(0, 2);
    EXPECT_EQ(t.tail, 3U);
    fill(3, 2);
    EXPECT_EQ(t.tail, t.head) << "nothing tracked";
}

TEST_F(ReadTrack, a_read_failing_releases_its_chunks) {
    for (uint32_t i = 0; i < 5; i++)
        mrc_read_track_open(&t, 64);
    mrc_read_track_release(&t, 3);
    EXPECT_EQ(t.tail, 3U);
    EXPECT_TRUE(mrc_read_track_arrived(&t, 1, 0)) << "released: waited for no more";
    mrc_read_track_release(&t, 1);
    EXPECT_EQ(t.tail, 3U) << "never back";
    mrc_read_track_release(&t, 100);
    EXPECT_EQ(t.tail, 3U) << "never past the chunks sent";
}

TEST_F(ReadTrack, numbers_wrap) {
    t.head = t.tail = 0xfffffffeU;
    const uint32_t a = mrc_read_track_open(&t, 1);
    const uint32_t b = mrc_read_track_open(&t, 1);
    const uint32_t c = mrc_read_track_open(&t, 1);
    EXPECT_EQ(c, 0U);
    fill(b, 1);
    fill(c, 1);
    EXPECT_EQ(t.tail, a);
    fill(a, 1);
    EXPECT_EQ(t.tail, 1U);
    EXPECT_TRUE(mrc_read_track_arrived(&t, a, 0));
}

} // namespace
