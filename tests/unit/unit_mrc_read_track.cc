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
            ASSERT_EQ(mrc_read_track_mark(&t, seq, i, 0), 1) << seq << " " << i;
    }
    mrc_read_track t{};
};

TEST_F(ReadTrack, chunks_are_numbered_in_order) {
    EXPECT_EQ(mrc_read_track_open(&t, 64, 0), 0U);
    EXPECT_EQ(mrc_read_track_open(&t, 3, 0), 1U);
    EXPECT_FALSE(mrc_read_track_arrived(&t, 0, 0));
    EXPECT_FALSE(mrc_read_track_arrived(&t, 2, 0)) << "not opened yet";
}

TEST_F(ReadTrack, responses_arrive_once) {
    const uint32_t seq = mrc_read_track_open(&t, 64, 0);
    mrc_read_track_open(&t, 64, 0); // a later chunk keeps the first one tracked
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 63, 0), 1);
    EXPECT_TRUE(mrc_read_track_arrived(&t, seq, 63));
    EXPECT_FALSE(mrc_read_track_arrived(&t, seq, 62));
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 63, 0), 0) << "a duplicate";
}

TEST_F(ReadTrack, responses_a_chunk_did_not_ask_for_are_refused) {
    const uint32_t seq = mrc_read_track_open(&t, 3, 0);
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 3, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_read_track_mark(&t, seq, 64, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_read_track_mark(&t, seq + 1, 0, 0), -MRC_EINVAL) << "a chunk not sent";
}

TEST_F(ReadTrack, room_for_a_ring_of_incomplete_chunks) {
    for (uint32_t i = 0; i < MRC_READ_TRACK_CHUNKS; i++) {
        ASSERT_TRUE(mrc_read_track_room(&t)) << i;
        mrc_read_track_open(&t, 64, 0);
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
    EXPECT_EQ(mrc_read_track_mark(&t, 0, 5, 0), 0) << "a late duplicate of a complete chunk";
    // the new chunk takes chunk 0's slot and starts empty
    const uint32_t seq = mrc_read_track_open(&t, 1, 0);
    EXPECT_EQ(seq, MRC_READ_TRACK_CHUNKS);
    EXPECT_FALSE(mrc_read_track_arrived(&t, seq, 0));
    EXPECT_TRUE(mrc_read_track_arrived(&t, 0, 0));
}

TEST_F(ReadTrack, the_oldest_moves_past_every_complete_chunk) {
    for (uint32_t i = 0; i < 4; i++)
        mrc_read_track_open(&t, 2, 0);
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
        mrc_read_track_open(&t, 64, 0);
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
    const uint32_t a = mrc_read_track_open(&t, 1, 0);
    const uint32_t b = mrc_read_track_open(&t, 1, 0);
    const uint32_t c = mrc_read_track_open(&t, 1, 0);
    EXPECT_EQ(c, 0U);
    fill(b, 1);
    fill(c, 1);
    EXPECT_EQ(t.tail, a);
    fill(a, 1);
    EXPECT_EQ(t.tail, 1U);
    EXPECT_TRUE(mrc_read_track_arrived(&t, a, 0));
}

// The READ window counts the responses asked for and not in: each arrives once, and a READ
// that failed gives back what it still waited for.
TEST_F(ReadTrack, missing_responses_are_what_the_read_window_counts) {
    const uint32_t a = mrc_read_track_open(&t, 16, 0);
    const uint32_t b = mrc_read_track_open(&t, 64, 0);
    mrc_read_track_open(&t, 3, 0);
    EXPECT_EQ(mrc_read_track_missing(&t), 83U);
    ASSERT_EQ(mrc_read_track_mark(&t, b, 5, 0), 1);
    ASSERT_EQ(mrc_read_track_mark(&t, b, 5, 0), 0);
    EXPECT_EQ(mrc_read_track_missing(&t), 82U) << "a duplicate counts once";
    fill(a, 16);
    EXPECT_EQ(mrc_read_track_missing(&t), 66U);
    mrc_read_track_release(&t, b + 1);
    EXPECT_EQ(mrc_read_track_missing(&t), 3U) << "b's 63 missing are waited for no more";
    mrc_read_track_release(&t, b + 100);
    EXPECT_EQ(mrc_read_track_missing(&t), 3U) << "nothing released past the chunks sent";
    fill(b + 1, 3);
    EXPECT_EQ(mrc_read_track_missing(&t), 0U);
    EXPECT_EQ(t.tail, t.head);
}

// A chunk's round trip runs from its READ_REQ to its first response; the rest of its burst
// queued behind that one, and a chunk asked for again times none.
TEST_F(ReadTrack, round_trips_from_the_first_request_to_the_first_response) {
    const uint32_t a = mrc_read_track_open(&t, 4, 1000);
    const uint32_t b = mrc_read_track_open(&t, 4, 1200);
    EXPECT_EQ(mrc_read_track_rtt(&t, a, 1500), 500U);
    EXPECT_EQ(mrc_read_track_rtt(&t, b, 1500), 300U);
    EXPECT_EQ(mrc_read_track_rtt(&t, b, 1100), 0U) << "before it was asked: no sample";
    ASSERT_EQ(mrc_read_track_mark(&t, b, 2, 0), 1);
    EXPECT_EQ(mrc_read_track_rtt(&t, b, 1600), 0U) << "its first response timed it";
    mrc_read_track_again(&t, a);
    EXPECT_EQ(mrc_read_track_rtt(&t, a, 1600), 0U) << "which request it answers is unknown";
    EXPECT_EQ(mrc_read_track_rtt(&t, b + 1, 1600), 0U) << "not opened";
    fill(a, 4);
    ASSERT_EQ(t.tail, b);
    EXPECT_EQ(mrc_read_track_rtt(&t, a, 1600), 0U) << "complete: no longer tracked";
}

// Response @i of chunk @seq arrives at @now, with a reordering window of kWait.
constexpr uint64_t kWait = 100;

class ReadLoss : public ReadTrack {
protected:
    void arrive(uint32_t seq, uint32_t i, uint64_t now) {
        ASSERT_EQ(mrc_read_track_mark(&t, seq, i, now), 1) << seq << " " << i;
        mrc_read_track_overtake(&t, seq, i, now + kWait);
    }
    uint64_t lost(uint32_t seq, uint64_t now) {
        judge = 0;
        return mrc_read_track_lost(&t, seq, now, &judge);
    }
    uint64_t judge = 0;
};

TEST_F(ReadLoss, an_overtaken_response_is_lost_a_window_after_it_was_overtaken) {
    const uint32_t seq = mrc_read_track_open(&t, 64, 0);
    arrive(seq, 0, 1000);
    arrive(seq, 1, 1000);
    arrive(seq, 3, 1010);
    arrive(seq, 4, 1050);
    EXPECT_EQ(lost(seq, 1109), 0U) << "within the window";
    EXPECT_EQ(judge, 1110U) << "from the first arrival that overtook it";
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 1110U);
    EXPECT_EQ(lost(seq, 1110), 1ULL << 2);
    EXPECT_EQ(judge, 0U);
}

// Responses overtaken later get their own window: the chunk's deadline moves out to theirs,
// not the other way round (a response overtaken just before the first deadline would have
// had none).
TEST_F(ReadLoss, a_response_overtaken_later_gets_a_whole_window) {
    const uint32_t seq = mrc_read_track_open(&t, 8, 0);
    arrive(seq, 0, 1000);
    arrive(seq, 2, 1000); // 1 overtaken: judged at 1100
    ASSERT_EQ(mrc_read_track_next_judge(&t, 0), 1100U);
    arrive(seq, 5, 1090); // 3 and 4 overtaken now
    EXPECT_EQ(lost(seq, 1100), 0U) << "3 and 4 overtaken 10 ns ago: not lost yet";
    EXPECT_EQ(judge, 1190U);
    arrive(seq, 3, 1150);
    arrive(seq, 4, 1160);
    EXPECT_EQ(lost(seq, 1190), 1ULL << 1) << "the one missing since 1000";
    arrive(seq, 6, 1200);
    EXPECT_EQ(lost(seq, 1200), 1ULL << 1) << "nothing newly overtaken: the deadline stays";
}

// How far apart one chunk's responses arrive: up at once, down slowly with chunks that
// arrive closer; chunks asked for again say nothing.
TEST_F(ReadLoss, the_spread_of_a_chunk_is_its_recent_high) {
    const uint32_t a = mrc_read_track_open(&t, 2, 0);
    const uint32_t b = mrc_read_track_open(&t, 2, 0);
    const uint32_t c = mrc_read_track_open(&t, 2, 0);
    EXPECT_EQ(mrc_read_track_spread(&t), 0U);
    arrive(a, 0, 1000);
    arrive(a, 1, 1800);
    EXPECT_EQ(mrc_read_track_spread(&t), 800U);
    arrive(b, 0, 2000);
    arrive(b, 1, 2160);
    EXPECT_EQ(mrc_read_track_spread(&t), 800U - (800U - 160U) / 16U) << "decays by 1/16";
    mrc_read_track_again(&t, c);
    ASSERT_EQ(mrc_read_track_mark(&t, c, 0, 3000), 1);
    ASSERT_EQ(mrc_read_track_mark(&t, c, 1, 9000), 1);
    EXPECT_EQ(mrc_read_track_spread(&t), 760U) << "a repeat's spread is a round trip";
}

TEST_F(ReadLoss, a_late_arrival_within_the_window_is_no_loss) {
    const uint32_t seq = mrc_read_track_open(&t, 64, 0);
    arrive(seq, 1, 1000);
    arrive(seq, 0, 1050);
    EXPECT_EQ(lost(seq, 5000), 0U);
    EXPECT_EQ(judge, 0U);
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 0U);
    arrive(seq, 3, 6000);
    EXPECT_EQ(lost(seq, 6100), 1ULL << 2) << "a new hole has its own window";
}

TEST_F(ReadLoss, nothing_overtook_the_tail_of_the_newest_chunk) {
    const uint32_t seq = mrc_read_track_open(&t, 64, 0);
    for (uint32_t i = 0; i < 10; i++)
        arrive(seq, i, 1000);
    EXPECT_EQ(lost(seq, 1'000'000), 0U) << "responses 10..63 may still be on their way";
}

TEST_F(ReadLoss, a_later_chunk_overtakes_every_missing_response_of_earlier_ones) {
    const uint32_t a = mrc_read_track_open(&t, 64, 0);
    const uint32_t b = mrc_read_track_open(&t, 8, 0);
    const uint32_t c = mrc_read_track_open(&t, 64, 0);
    for (uint32_t i = 0; i < 10; i++)
        arrive(a, i, 1000);
    arrive(c, 0, 2000);
    EXPECT_EQ(lost(a, 2100), ~0ULL << 10);
    EXPECT_EQ(lost(b, 2100), 0xffULL) << "no response of b came, all 8 are overtaken";
    EXPECT_EQ(lost(c, 2100), 0U);
}

TEST_F(ReadLoss, asked_again_they_are_judged_again_later) {
    const uint32_t seq = mrc_read_track_open(&t, 4, 0);
    arrive(seq, 0, 1000);
    arrive(seq, 3, 1000);
    ASSERT_EQ(lost(seq, 1100), 0x6ULL);
    mrc_read_track_asked(&t, seq, 1500);
    EXPECT_EQ(lost(seq, 1499), 0U);
    EXPECT_EQ(judge, 1500U);
    arrive(seq, 1, 1200); // a resend's response
    EXPECT_EQ(lost(seq, 1500), 0x4ULL) << "the other one's copy is lost too";
    arrive(seq, 2, 1600);
    EXPECT_EQ(lost(seq, 1'000'000), 0U);
    EXPECT_EQ(t.tail, t.head) << "complete";
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 0U);
}

TEST_F(ReadLoss, chunks_that_are_not_tracked_have_no_losses) {
    const uint32_t seq = mrc_read_track_open(&t, 4, 0);
    arrive(seq, 3, 1000);
    mrc_read_track_release(&t, seq + 1);
    EXPECT_EQ(lost(seq, 1'000'000), 0U) << "released";
    mrc_read_track_overtake(&t, seq + 5, 0, 1); // not opened: ignored
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 0U);
}

// The responder serves repeated requests first: a chunk asked for again is no evidence of
// order either way, and its responses wait for the judgement its asking set.
TEST_F(ReadLoss, a_chunk_asked_for_again_neither_overtakes_nor_is_overtaken) {
    const uint32_t a = mrc_read_track_open(&t, 8, 0);
    const uint32_t b = mrc_read_track_open(&t, 8, 0);
    arrive(a, 0, 1000);
    mrc_read_track_again(&t, b); // say its READ_REQ went again
    arrive(b, 7, 1100);
    EXPECT_EQ(lost(a, 1'000'000), 0U) << "b's repeat may have gone ahead of a's tail";
    arrive(b, 3, 1200);
    EXPECT_EQ(lost(b, 1'000'000), 0U) << "nor does b's order say anything";
    mrc_read_track_again(&t, a);
    mrc_read_track_asked(&t, a, 2000);
    EXPECT_EQ(lost(a, 1999), 0U);
    EXPECT_EQ(lost(a, 2000), 0U) << "nothing of a was overtaken: nothing to ask for";
    const uint32_t c = mrc_read_track_open(&t, 8, 0);
    arrive(c, 0, 3000);
    arrive(c, 2, 3000);
    EXPECT_EQ(lost(c, 3100), 1ULL << 1) << "a chunk not asked again keeps its order";
}

// What nothing overtakes, the newest responses, is asked for again after a silence: the
// oldest incomplete chunk's missing ones, the wait doubling while the silence lasts.
TEST_F(ReadLoss, a_silent_tail_is_probed_with_back_off) {
    uint32_t seq = 0;
    uint64_t missing = 0;
    mrc_read_track_heard(&t, 1000, false); // the first READ_REQ
    const uint32_t a = mrc_read_track_open(&t, 4, 0);
    mrc_read_track_open(&t, 4, 0);
    arrive(a, 0, 1100);
    mrc_read_track_heard(&t, 1100, true);
    EXPECT_EQ(mrc_read_track_next_judge(&t, 500), 1600U);
    EXPECT_FALSE(mrc_read_track_tail_due(&t, 1599, 500, &seq, &missing));
    ASSERT_TRUE(mrc_read_track_tail_due(&t, 1600, 500, &seq, &missing));
    EXPECT_EQ(seq, a);
    EXPECT_EQ(missing, 0xeULL);
    mrc_read_track_again(&t, a); // as the READ_REQ for them goes
    EXPECT_EQ(mrc_read_track_next_judge(&t, 500), 2600U) << "twice the wait from the probe";
    ASSERT_TRUE(mrc_read_track_tail_due(&t, 2600, 500, &seq, &missing));
    EXPECT_EQ(mrc_read_track_next_judge(&t, 500), 4600U);
    arrive(a, 3, 3000);
    mrc_read_track_heard(&t, 3000, true);
    EXPECT_EQ(mrc_read_track_next_judge(&t, 500), 3500U) << "an arrival ends the back-off";
    for (uint32_t i = 1; i < 3; i++)
        arrive(a, i, 3100);
    arrive(a + 1, 0, 3100);
    for (uint32_t i = 1; i < 4; i++)
        arrive(a + 1, i, 3100);
    EXPECT_EQ(t.tail, t.head);
    EXPECT_FALSE(mrc_read_track_tail_due(&t, 1'000'000, 500, &seq, &missing)) << "complete";
    EXPECT_EQ(mrc_read_track_next_judge(&t, 500), 0U);
}

// A failed READ's chunks are judged no more: nothing would ask for them, and a deadline that
// never goes would wake its owner without end.
TEST_F(ReadLoss, a_forgotten_chunk_is_neither_judged_nor_overtaken) {
    const uint32_t a = mrc_read_track_open(&t, 8, 0);
    const uint32_t b = mrc_read_track_open(&t, 8, 0);
    arrive(a, 2, 1000);
    ASSERT_EQ(mrc_read_track_next_judge(&t, 0), 1100U);
    mrc_read_track_forget(&t, a);
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 0U);
    EXPECT_EQ(lost(a, 1'000'000), 0U);
    arrive(b, 0, 2000);
    EXPECT_EQ(lost(a, 1'000'000), 0U) << "not overtaken either";
    EXPECT_EQ(mrc_read_track_next_judge(&t, 0), 0U);
    mrc_read_track_release(&t, b);
    EXPECT_EQ(t.tail, b) << "released as its READ completes in error";
}

} // namespace
