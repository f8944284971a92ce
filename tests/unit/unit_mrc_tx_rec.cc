// Unit tests for core/mrc_tx_rec.c: the requester's per-PSN verdicts, shared by the module and
// the fabric simulator.
extern "C" {
#include "mrc_tx_rec.h"
}

#include <gtest/gtest.h>

#include <cstdint>

namespace {

constexpr uint64_t kUs = 1000;

class TxRec : public ::testing::Test {
protected:
    void SetUp() override {
        const mrc_loss_params p = {20 * kUs, 2 * kUs, 10 * kUs};

        ASSERT_EQ(0, mrc_loss_init(&loss, &p, 0));
    }

    mrc_loss loss{};
    uint64_t deadline = 0;
};

TEST_F(TxRec, SentRecordsTheCopy) {
    mrc_tx_rec rec{};

    rec.acked = 1;
    rec.dup_heard = 1;
    mrc_tx_rec_sent(&rec, 5 * kUs, 7, 3, true, false, 0);
    EXPECT_EQ(5 * kUs, rec.sent_ns);
    EXPECT_EQ(7, rec.ev);
    EXPECT_EQ(3U, rec.seq);
    EXPECT_EQ(1, rec.account); // the first PSN of a packet speaks for it
    EXPECT_EQ(0, rec.acked);
    EXPECT_EQ(0, rec.dup_heard);
    EXPECT_EQ(0, rec.fallback);
    mrc_tx_rec_sent(&rec, 6 * kUs, 7, 3, false, true, 1);
    EXPECT_EQ(0, rec.account);
    EXPECT_EQ(1, rec.fallback);
    EXPECT_EQ(1, rec.resent);
}

// An ACK that covers a resend sooner than a round trip after it left is for the earlier copy:
// the resend's EV must not be credited, or a dead EV that carried the resend would look alive
// and its own losses would count as older than that acknowledgement.
TEST_F(TxRec, AckTooSoonForTheResendCreditsNoEv) {
    mrc_tx_rec rec{};

    mrc_loss_on_acked(&loss, 1, 0, 20 * kUs, false); // min RTT 20 us
    mrc_tx_rec_sent(&rec, 100 * kUs, 3, 9, true, true, 0);
    EXPECT_FALSE(mrc_tx_rec_credits_ev(&rec, &loss, 105 * kUs));
    EXPECT_TRUE(mrc_tx_rec_credits_ev(&rec, &loss, 120 * kUs));
    mrc_tx_rec_sent(&rec, 100 * kUs, 3, 9, true, false, 0); // a first copy: always its own
    EXPECT_TRUE(mrc_tx_rec_credits_ev(&rec, &loss, 105 * kUs));
    mrc_tx_rec_sent(&rec, 100 * kUs, 3, 9, true, false, 1); // not the packet's first PSN
    EXPECT_FALSE(mrc_tx_rec_credits_ev(&rec, &loss, 120 * kUs));
}

// A copy on an EV that fell (no longer carries data) is lost at once, before any evidence of
// time.
TEST_F(TxRec, FallenEvIsLostAtOnce) {
    mrc_tx_rec rec{};

    mrc_tx_rec_sent(&rec, 0, 1, 0, true, false, 0);
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE,
              mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_STANDS, 1 * kUs, &deadline));
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE,
              mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_ON_TRIAL, 1 * kUs, &deadline));
    EXPECT_EQ(MRC_LOSS_LOST, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_FELL, 1 * kUs, &deadline));
}

// While its EV is on trial, a copy overtaken by a later one waits three quarters of the
// reordering window, not all of it: sooner than on an EV that stands, later than on one that
// fell.
TEST_F(TxRec, OnTrialEvWaitsPartOfTheWindow) {
    mrc_tx_rec rec{};
    uint64_t stands = 0;
    uint64_t trial = 0;

    mrc_tx_rec_sent(&rec, 0, 1, 0, true, false, 0);
    mrc_loss_on_acked(&loss, 11, 1 * kUs, 21 * kUs, false); // a later packet arrived
    ASSERT_EQ(MRC_LOSS_WAIT, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_STANDS, 21 * kUs, &stands));
    ASSERT_EQ(MRC_LOSS_WAIT, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_ON_TRIAL, 21 * kUs, &trial));
    const uint32_t reo = mrc_loss_reo_wnd(&loss);

    ASSERT_GE(reo, 4U);
    EXPECT_EQ(stands - trial, reo / 4);
    EXPECT_EQ(MRC_LOSS_LOST, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_ON_TRIAL, trial, &deadline));
    EXPECT_EQ(MRC_LOSS_WAIT, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_STANDS, trial, &deadline));
    EXPECT_EQ(MRC_LOSS_LOST, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_STANDS, stands, &deadline));
}

// A copy sent while no EV was usable is judged by time like any other: resent at once, it
// would go out again on every pass.
TEST_F(TxRec, FallbackCopyIsJudgedByTime) {
    mrc_tx_rec rec{};

    mrc_tx_rec_sent(&rec, 0, 1, 0, false, false, 0);
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE,
              mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_FELL, 1 * kUs, &deadline));
    mrc_loss_on_acked(&loss, 11, 1 * kUs, 21 * kUs, false); // a later packet arrived
    EXPECT_EQ(MRC_LOSS_LOST, mrc_tx_rec_judge(&rec, &loss, 10, MRC_EV_FELL, 200 * kUs, &deadline));
}

TEST_F(TxRec, AckedCountsOnceAndPicksTheNewestSingleCopy) {
    mrc_tx_rec a{};
    mrc_tx_rec b{};
    mrc_tx_rec c{};
    mrc_tx_acked acked{};

    mrc_tx_rec_sent(&a, 10 * kUs, 1, 0, true, false, 0);
    mrc_tx_rec_sent(&b, 30 * kUs, 2, 0, true, true, 0); // resent: ambiguous, no sample
    mrc_tx_rec_sent(&c, 20 * kUs, 3, 0, true, false, 0);
    EXPECT_EQ(0U, mrc_tx_acked_rtt(&acked, 50 * kUs)); // nothing yet
    EXPECT_TRUE(mrc_tx_rec_acked(&a, 100, &acked));
    EXPECT_TRUE(mrc_tx_rec_acked(&b, 101, &acked));
    EXPECT_TRUE(mrc_tx_rec_acked(&c, 102, &acked));
    EXPECT_FALSE(mrc_tx_rec_acked(&c, 102, &acked)); // a second ACK of it
    EXPECT_EQ(3U, acked.pkts);
    EXPECT_EQ(102U, acked.newest_psn);
    EXPECT_EQ(3U, acked.newest_ev);
    EXPECT_EQ(30 * kUs, mrc_tx_acked_rtt(&acked, 50 * kUs));
    EXPECT_EQ(0U, mrc_tx_acked_rtt(&acked, 10 * kUs)); // a clock before the send: none
    EXPECT_EQ(
            MRC_LOSS_MAX_RTT_NS,
            mrc_tx_acked_rtt(&acked, 20 * kUs + 5ULL * static_cast<uint64_t>(MRC_LOSS_MAX_RTT_NS)));
}

// Loss detection hears of the newest copy: a resend newer than every single copy counts, when
// its ACK came at least a minimum RTT after it.
TEST_F(TxRec, AckedResendMovesTheSendOrderClock) {
    mrc_tx_rec once{};
    mrc_tx_rec again{};
    mrc_tx_acked acked{};

    mrc_loss_on_acked(&loss, 1, 0, 10 * kUs, false); // min RTT 10 us
    mrc_tx_rec_sent(&once, 100 * kUs, 1, 0, true, false, 0);
    mrc_tx_rec_sent(&again, 200 * kUs, 2, 0, true, true, 0);
    ASSERT_TRUE(mrc_tx_rec_acked(&once, 10, &acked));
    ASSERT_TRUE(mrc_tx_rec_acked(&again, 11, &acked));
    EXPECT_EQ(200 * kUs, acked.newest_resent_ns);
    mrc_tx_acked_to_loss(&acked, &loss, 215 * kUs);
    EXPECT_EQ(11U, loss.rack_psn);
    EXPECT_EQ(200 * kUs, loss.rack_sent_ns);
}

TEST_F(TxRec, ResendAckedTooSoonIsTheOriginals) {
    mrc_tx_rec again{};
    mrc_tx_acked acked{};

    mrc_loss_on_acked(&loss, 1, 0, 10 * kUs, false);
    mrc_tx_rec_sent(&again, 200 * kUs, 2, 0, true, true, 0);
    ASSERT_TRUE(mrc_tx_rec_acked(&again, 11, &acked));
    mrc_tx_acked_to_loss(&acked, &loss, 205 * kUs); // 5 us: no round trip is that short
    EXPECT_EQ(1U, loss.rack_psn);
}

TEST_F(TxRec, DuplicateReportCountsOnlyResendsOnce) {
    mrc_tx_rec rec{};

    mrc_tx_rec_sent(&rec, 0, 1, 0, true, false, 0);
    EXPECT_FALSE(mrc_tx_rec_dup_heard(&rec)); // sent once: the peer's duplicate is its own affair
    mrc_tx_rec_sent(&rec, 1 * kUs, 2, 0, true, true, 0);
    EXPECT_TRUE(mrc_tx_rec_dup_heard(&rec));
    EXPECT_FALSE(mrc_tx_rec_dup_heard(&rec));
}

} // namespace
