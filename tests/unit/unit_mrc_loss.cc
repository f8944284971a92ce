// Unit tests for core/mrc_loss.c: loss by send time (RACK) with an adaptive reordering window,
// the rules one by one, then packets sprayed over paths of different lengths, one of which dies.
extern "C" {
#include "mrc_loss.h"
}

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;

mrc_loss_params params(uint32_t initial_rtt = 20 * kUs, uint32_t min_reo = 2 * kUs,
                       uint32_t tlp_min = 10 * kUs) {
    return {initial_rtt, min_reo, tlp_min};
}

class Loss : public ::testing::Test {
protected:
    void SetUp() override {
        const mrc_loss_params p = params();
        ASSERT_EQ(0, mrc_loss_init(&l, &p, 0));
    }

    // PSN @psn sent at @sent is acknowledged @rtt later (sent once)
    void acked(uint32_t psn, uint64_t sent, uint64_t rtt) {
        mrc_loss_on_acked(&l, psn, sent, sent + rtt, false);
    }

    mrc_loss_verdict check(uint32_t psn, uint64_t sent, uint64_t now) {
        deadline = 0;
        return mrc_loss_check(&l, psn, sent, now, &deadline);
    }

    mrc_loss l{};
    uint64_t deadline = 0;
};

TEST(LossInit, RefusesInconsistentParameters) {
    mrc_loss l{};
    mrc_loss_params p = params(0);
    EXPECT_EQ(-MRC_EINVAL, mrc_loss_init(&l, &p, 0));
    p = params(MRC_LOSS_MAX_RTT_NS + 1);
    EXPECT_EQ(-MRC_EINVAL, mrc_loss_init(&l, &p, 0));
    p = params(100 * kUs, MRC_LOSS_MAX_RTT_NS + 1);
    EXPECT_EQ(-MRC_EINVAL, mrc_loss_init(&l, &p, 0));
    p = params(100 * kUs, 0, MRC_LOSS_MAX_RTT_NS + 1);
    EXPECT_EQ(-MRC_EINVAL, mrc_loss_init(&l, &p, 0));
    p = params();
    EXPECT_EQ(0, mrc_loss_init(&l, &p, 0));
    EXPECT_EQ(20 * kUs, mrc_loss_min_rtt(&l));
    EXPECT_EQ(20 * kUs, l.rtt_hi_ns); // the long paths are as long as the guess, at first
}

TEST_F(Loss, NothingIsLostBeforeSomethingSentLaterArrives) {
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE, check(1, 0, 10 * kMs));
    acked(1, 0, 20 * kUs); // the packet itself, or one sent before it, says nothing of it
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE, check(2, 5 * kUs, 10 * kMs));
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE, check(1, 0, 10 * kMs));
}

TEST_F(Loss, LostOneReorderingWindowAfterItShouldHaveArrived) {
    acked(5, 10 * kUs, 20 * kUs); // PSN 5 sent at 10 us, acked at 30 us
    const uint32_t reo = mrc_loss_reo_wnd(&l);
    EXPECT_EQ(5 * kUs, reo); // a quarter of the 20 us minimum RTT
    // PSN 4 left at 8 us: expected by 28 us, lost from 28 + 5 us
    EXPECT_EQ(MRC_LOSS_WAIT, check(4, 8 * kUs, 30 * kUs));
    EXPECT_EQ(8 * kUs + 20 * kUs + reo, deadline);
    EXPECT_EQ(MRC_LOSS_WAIT, check(4, 8 * kUs, deadline - 1));
    EXPECT_EQ(MRC_LOSS_LOST, check(4, 8 * kUs, deadline));
    // one sent after PSN 5 has no evidence against it
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE, check(6, 11 * kUs, 1 * kMs));
}

TEST_F(Loss, PsnOrderBreaksTiesOfTheClock) {
    acked(7, 10 * kUs, 20 * kUs);
    EXPECT_EQ(MRC_LOSS_WAIT, check(6, 10 * kUs, 30 * kUs));
    EXPECT_EQ(MRC_LOSS_NO_EVIDENCE, check(8, 10 * kUs, 30 * kUs));
    // and across the 2^32 wrap
    Loss::SetUp();
    acked(2, 10 * kUs, 20 * kUs);
    EXPECT_EQ(MRC_LOSS_WAIT, check(0xfffffffeU, 10 * kUs, 30 * kUs));
}

TEST_F(Loss, TheNewestSendWinsNotTheNewestAck) {
    acked(9, 50 * kUs, 20 * kUs);                        // sent at 50, acked at 70
    mrc_loss_on_acked(&l, 3, 10 * kUs, 80 * kUs, false); // an older send acked later
    EXPECT_EQ(MRC_LOSS_WAIT, check(8, 40 * kUs, 61 * kUs));
    EXPECT_EQ(40 * kUs + 20 * kUs + mrc_loss_reo_wnd(&l), deadline);
}

TEST_F(Loss, AResentPacketGivesNoRttSampleAndAnEarlyAckNoClock) {
    acked(1, 0, 20 * kUs);
    const uint32_t srtt = l.srtt_ns;
    // PSN 2 resent at 100 us; an ACK 5 us later is for its first copy
    mrc_loss_on_acked(&l, 2, 100 * kUs, 105 * kUs, true);
    EXPECT_EQ(1U, l.rack_psn);
    EXPECT_EQ(srtt, l.srtt_ns);
    // one a round trip later is for the resend: the clock moves, the RTT estimate does not
    mrc_loss_on_acked(&l, 2, 100 * kUs, 130 * kUs, true);
    EXPECT_EQ(2U, l.rack_psn);
    EXPECT_EQ(100 * kUs, l.rack_sent_ns);
    EXPECT_EQ(srtt, l.srtt_ns);
}

TEST_F(Loss, TheWindowFollowsTheSpreadOfRtts) {
    for (uint32_t i = 0; i < 64; i++)
        acked(i, 100 * kUs * i, i % 2 ? 20 * kUs : 60 * kUs); // two path lengths
    EXPECT_EQ(20 * kUs, mrc_loss_min_rtt(&l));
    // the spread (up to 40 us) on top of a quarter of the minimum (5 us), within the
    // longest path's RTT
    EXPECT_GT(mrc_loss_reo_wnd(&l), 30 * kUs);
    EXPECT_LE(mrc_loss_reo_wnd(&l), l.rtt_hi_ns);
    // a packet on the short path, sent 1 us before one on the long path that was acked, is
    // not lost before the long path's RTT has passed
    acked(100, 10 * kMs + 1 * kUs, 60 * kUs);
    EXPECT_EQ(MRC_LOSS_WAIT, check(99, 10 * kMs, 10 * kMs + 61 * kUs));
}

TEST_F(Loss, TheWindowHasAFloorAndACap) {
    const mrc_loss_params p = params(4 * kUs);
    ASSERT_EQ(0, mrc_loss_init(&l, &p, 0));
    acked(1, 0, 4 * kUs);
    EXPECT_EQ(2 * kUs, mrc_loss_reo_wnd(&l)); // min_reo, not 1 us
    for (int i = 0; i < 10; i++)
        mrc_loss_on_spurious(&l);
    EXPECT_EQ(MRC_LOSS_REO_MAX_MULT, l.reo_mult);
    EXPECT_LE(mrc_loss_reo_wnd(&l), l.srtt_ns > 2 * kUs ? l.srtt_ns : 2 * kUs);
}

TEST_F(Loss, SpuriousResendsWidenTheWindowCleanRecoveriesNarrowIt) {
    for (uint32_t i = 0; i < 16; i++)
        acked(i, 100 * kUs * i, 100 * kUs);
    const uint32_t base = mrc_loss_reo_wnd(&l);
    EXPECT_EQ(25 * kUs, base);
    mrc_loss_on_spurious(&l);
    EXPECT_EQ(2 * base, mrc_loss_reo_wnd(&l));
    mrc_loss_on_spurious(&l);
    EXPECT_EQ(4 * base, mrc_loss_reo_wnd(&l));
    EXPECT_EQ(2U, l.spurious);
    for (uint32_t i = 0; i < MRC_LOSS_REO_DECAY - 1; i++)
        mrc_loss_on_recovered(&l);
    EXPECT_EQ(4 * base, mrc_loss_reo_wnd(&l));
    mrc_loss_on_recovered(&l);
    EXPECT_EQ(2 * base, mrc_loss_reo_wnd(&l));
    for (uint32_t i = 0; i < 4 * MRC_LOSS_REO_DECAY; i++)
        mrc_loss_on_recovered(&l);
    EXPECT_EQ(base, mrc_loss_reo_wnd(&l));
}

TEST_F(Loss, TheMinimumRttForgetsAfterTwoEpochs) {
    acked(1, 0, 10 * kUs);
    const uint64_t e = MRC_LOSS_MIN_RTT_EPOCH_NS;
    acked(2, e, 50 * kUs); // a new epoch: the old minimum is still remembered
    EXPECT_EQ(10 * kUs, mrc_loss_min_rtt(&l));
    acked(3, 2 * e + 100 * kUs, 50 * kUs); // two epochs on: the route got longer
    EXPECT_EQ(50 * kUs, mrc_loss_min_rtt(&l));
}

TEST_F(Loss, TailLossProbeTwoSmoothedRttsAfterTheLastSend) {
    EXPECT_EQ(1 * kMs + 40 * kUs, mrc_loss_tlp_deadline(&l, 1 * kMs)); // the initial RTT
    acked(1, 0, 10 * kUs);
    EXPECT_EQ(1 * kMs + 20 * kUs, mrc_loss_tlp_deadline(&l, 1 * kMs));
    Loss::SetUp();
    acked(1, 0, 20 * kUs);
    EXPECT_EQ(1 * kMs + 40 * kUs, mrc_loss_tlp_deadline(&l, 1 * kMs));
    acked(2, 1 * kMs, 2 * kUs);
    for (uint32_t i = 3; i < 64; i++)
        acked(i, kMs * i, 2 * kUs);
    EXPECT_EQ(100 * kMs + 10 * kUs, mrc_loss_tlp_deadline(&l, 100 * kMs)); // the floor
}

// READ responses asked for again wait a round trip and the reordering window; a READ's tail
// is asked for after two round trips and the window, never under MRC_READ_TAIL_MIN_NS.
TEST_F(Loss, ReadResponseWaitsFollowTheRoundTrip) {
    const mrc_read_rtt none{};
    EXPECT_EQ(mrc_loss_read_again_ns(&l, &none, 7 * kMs), 7 * kMs) << "no round trip: the RTO";
    EXPECT_EQ(mrc_loss_read_tail_ns(&l, &none, 7 * kMs), 7 * kMs);
    acked(1, 0, 10 * kMs);
    EXPECT_EQ(mrc_loss_read_again_ns(&l, &none, 7 * kMs), 10 * kMs + mrc_loss_reo_wnd(&l));
    EXPECT_EQ(mrc_loss_read_tail_ns(&l, &none, 7 * kMs), 20 * kMs + mrc_loss_reo_wnd(&l));
    Loss::SetUp();
    acked(1, 0, 10 * kUs);
    EXPECT_EQ(mrc_loss_read_tail_ns(&l, &none, 7 * kMs), MRC_READ_TAIL_MIN_NS) << "the floor";
}

// The responses cross queues this side's ACKs may never meet: their own round trips, as the
// READ window measured them, stretch the waits, and how far apart they arrive the reordering
// window.
TEST_F(Loss, ReadResponseWaitsFollowTheResponsesOwnQueue) {
    acked(1, 0, 1 * kMs);
    const uint32_t wnd = mrc_loss_reo_wnd(&l);
    const mrc_read_rtt close{.srtt_ns = static_cast<uint32_t>(1 * kMs), .spread_ns = wnd / 2};
    EXPECT_EQ(mrc_loss_read_reo_ns(&l, &close), wnd) << "within the window: the window";
    const mrc_read_rtt queued{.srtt_ns = static_cast<uint32_t>(12 * kMs),
                              .spread_ns = static_cast<uint32_t>(10 * kMs)};
    ASSERT_GT(10 * kMs, wnd);
    EXPECT_EQ(mrc_loss_read_reo_ns(&l, &queued), 10 * kMs) << "the responses' spread";
    EXPECT_EQ(mrc_loss_read_again_ns(&l, &queued, 7 * kMs), 22 * kMs);
    EXPECT_EQ(mrc_loss_read_tail_ns(&l, &queued, 7 * kMs), 34 * kMs);
    Loss::SetUp();
    EXPECT_EQ(mrc_loss_read_again_ns(&l, &queued, 7 * kMs), 22 * kMs)
            << "the READ window's round trip stands in for the ACKs' yet to come";
}

// At most MRC_LOSS_TLP_MAX probes, each after twice the wait of the one before.
TEST_F(Loss, TailLossProbesAreDueAfterTheQuietAndBackOff) {
    uint64_t deadline = 0;

    acked(1, 0, 10 * kUs); // PTO: two smoothed RTTs, 20 us
    EXPECT_FALSE(mrc_loss_tlp_due(&l, 1 * kMs, 0, 1 * kMs + 19 * kUs, &deadline));
    EXPECT_EQ(1 * kMs + 20 * kUs, deadline);
    EXPECT_TRUE(mrc_loss_tlp_due(&l, 1 * kMs, 0, 1 * kMs + 20 * kUs, &deadline));
    EXPECT_FALSE(mrc_loss_tlp_due(&l, 1 * kMs, 1, 1 * kMs + 20 * kUs, &deadline));
    EXPECT_EQ(1 * kMs + 40 * kUs, deadline); // the second waits twice as long
    EXPECT_TRUE(mrc_loss_tlp_due(&l, 1 * kMs, 1, 1 * kMs + 40 * kUs, &deadline));
    EXPECT_FALSE(mrc_loss_tlp_due(&l, 1 * kMs, MRC_LOSS_TLP_MAX, 1 * kMs + 10 * kMs, &deadline));
    EXPECT_EQ(0U, deadline); // then the retransmit timeout decides
}

// After a retransmit timeout the oldest PSN goes again as soon as the path set hears from the
// peer a tail-loss probe's wait (two smoothed RTTs) after it -- when the resend's own ACK is
// overdue; until then the requester looks every MRC_LOSS_RETURN_POLL_NS from that wait on, and
// without a timeout it never looks.
TEST_F(Loss, TheFirstNewsAfterATimeoutsResendResendsAtOnce) {
    uint64_t deadline = 7;

    acked(1, 0, 10 * kUs); // two smoothed RTTs: 20 us
    EXPECT_FALSE(mrc_loss_return_due(&l, 0, 5 * kMs, 6 * kMs, &deadline));
    EXPECT_EQ(0U, deadline) << "no timeout: nothing to look for";
    EXPECT_FALSE(
            mrc_loss_return_due(&l, 10 * kMs, 10 * kMs + 19 * kUs, 10 * kMs + 19 * kUs, &deadline))
            << "heard before the resend could have been acknowledged";
    EXPECT_EQ(10 * kMs + 20 * kUs + MRC_LOSS_RETURN_POLL_NS, deadline);
    EXPECT_FALSE(mrc_loss_return_due(&l, 10 * kMs, 9 * kMs, 11 * kMs, &deadline))
            << "heard before the timeout: that way died since";
    EXPECT_EQ(11 * kMs + MRC_LOSS_RETURN_POLL_NS, deadline);
    EXPECT_TRUE(mrc_loss_return_due(&l, 10 * kMs, 10 * kMs + 20 * kUs, 12 * kMs, &deadline));
    EXPECT_EQ(0U, deadline);
}

TEST_F(Loss, ProvenSinceIsTwoSmoothedRttsBack) {
    EXPECT_EQ(1U, mrc_loss_proven_since(&l, 10 * kUs, 0)); // never 0, even at the clock's start
    EXPECT_EQ(1 * kMs - 40 * kUs, mrc_loss_proven_since(&l, 1 * kMs, 0)); // the initial RTT
    acked(1, 0, 10 * kUs);
    EXPECT_EQ(1 * kMs - 20 * kUs, mrc_loss_proven_since(&l, 1 * kMs, 0));
}

// A resend wants an EV that worked after the copy it replaces left, not merely lately.
TEST_F(Loss, ProvenSinceForAResendIsAfterTheLostCopy) {
    acked(1, 0, 10 * kUs);
    EXPECT_EQ(1 * kMs - 5 * kUs + 1, mrc_loss_proven_since(&l, 1 * kMs, 1 * kMs - 5 * kUs));
    EXPECT_EQ(1 * kMs - 20 * kUs, mrc_loss_proven_since(&l, 1 * kMs, 1 * kMs - 30 * kUs));
}

TEST_F(Loss, RttsClampToASecondAndACausalityViolationToZero) {
    mrc_loss_on_acked(&l, 1, 0, 5ULL * 1000 * kMs, false);
    EXPECT_EQ(MRC_LOSS_MAX_RTT_NS, l.srtt_ns);
    Loss::SetUp();
    mrc_loss_on_acked(&l, 1, 10 * kUs, 5 * kUs, false); // "acked" before it left
    EXPECT_EQ(0U, l.rack_rtt_ns);
    EXPECT_EQ(1U, l.srtt_ns);
}

// Sprayed over 8 paths of 10..17 us one way (ACKs come back on the same path), one packet
// every 0.5 us; path 5 dies at 1 ms, both ways. Every packet on a healthy path is acknowledged
// before any verdict against it; every packet lost on path 5 is found within 2 RTTs of its own
// send, i.e. a round trip or so after the first ACK of a packet sent after it.
TEST(LossSpray, ADeadPathIsFoundWithinTwoRoundTripsAndNothingElseIsBlamed) {
    constexpr uint32_t kPaths = 8;
    constexpr uint64_t kGap = 500;
    constexpr uint64_t kDeath = 1 * kMs;
    constexpr uint32_t kPkts = 4000;
    mrc_loss l{};
    // a conservative first guess of the RTT, as the kernel makes from the QP's timeout
    const mrc_loss_params p = params(100 * kUs, 1 * kUs, 10 * kUs);
    ASSERT_EQ(0, mrc_loss_init(&l, &p, 0));

    struct Pkt {
        uint64_t sent;
        uint64_t acked_at; // 0: never
        uint32_t path;
    };
    std::vector<Pkt> pkts;
    std::multimap<uint64_t, uint32_t> acks; // arrival time of each ACK -> PSN
    for (uint32_t psn = 0; psn < kPkts; psn++) {
        const uint64_t sent = psn * kGap;
        const uint32_t path = psn % kPaths;
        const uint64_t rtt = kUs * 2 * (10 + path);
        const bool lost = path == 5 && sent + rtt / 2 >= kDeath;
        pkts.push_back({sent, lost ? 0 : sent + rtt, path});
        if (!lost)
            acks.emplace(sent + rtt, psn);
    }

    std::vector<uint64_t> found(kPkts, 0);
    uint32_t false_losses = 0;
    uint32_t first = 0; // PSNs before it are acknowledged or found lost
    auto resolved = [&](uint32_t q, uint64_t at) {
        return found[q] != 0 || (pkts[q].acked_at != 0 && pkts[q].acked_at <= at);
    };
    for (const auto &[at, psn] : acks) {
        mrc_loss_on_acked(&l, psn, pkts[psn].sent, at, false);
        while (first < kPkts && resolved(first, at))
            first++;
        // the caller's pass after each ACK: every unacknowledged PSN sent so far
        for (uint32_t q = first; q < kPkts && pkts[q].sent <= at; q++) {
            uint64_t deadline = 0;
            if (resolved(q, at))
                continue;
            const mrc_loss_verdict v = mrc_loss_check(&l, q, pkts[q].sent, at, &deadline);
            if (v == MRC_LOSS_NO_EVIDENCE)
                continue;
            // the timer the caller would arm fires at the deadline, or this ACK is late
            const uint64_t when = v == MRC_LOSS_LOST ? at : deadline;
            if (pkts[q].acked_at && pkts[q].acked_at <= when)
                continue; // its ACK comes first
            found[q] = when;
            if (pkts[q].acked_at) {
                false_losses++;
                ADD_FAILURE() << "PSN " << q << " on path " << pkts[q].path << ", sent at "
                              << pkts[q].sent << " and acked at " << pkts[q].acked_at
                              << ", declared lost at " << when << " (reordering window "
                              << mrc_loss_reo_wnd(&l) << " ns)";
            }
        }
    }
    EXPECT_EQ(0U, false_losses);
    uint32_t lost = 0;
    for (uint32_t q = 0; q < kPkts; q++) {
        if (pkts[q].acked_at || pkts[q].sent > kPkts * kGap - 100 * kUs)
            continue; // the tail has no later packet: the tail-loss probe's job
        lost++;
        ASSERT_NE(0U, found[q]) << "PSN " << q << " never found lost";
        EXPECT_LE(found[q] - pkts[q].sent, kUs * 2 * 2 * 17) << "PSN " << q;
    }
    EXPECT_GT(lost, 200U); // path 5's share of the 0.9 ms after its death
}

} // namespace
