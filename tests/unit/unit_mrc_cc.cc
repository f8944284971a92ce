// Unit tests for core/mrc_cc.c: the rules one by one, then a bottleneck
// simulation that shows the window keeps the queue near the target delay.
extern "C" {
#include "mrc_cc.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>

namespace {

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;

mrc_cc_params params(uint32_t init = 64, uint32_t min = 8, uint32_t max = 1024,
                     uint32_t target = 1 * kMs) {
    return {init, min, max, target};
}

class Cc : public ::testing::Test {
protected:
    void SetUp() override {
        const mrc_cc_params p = params();
        ASSERT_EQ(0, mrc_cc_init(&cc, &p, now));
    }

    mrc_cc cc{};
    uint64_t now = 5 * kMs;
};

TEST(CcInit, RefusesInconsistentParameters) {
    mrc_cc cc{};
    mrc_cc_params p = params();

    p.min_cwnd = 0;
    EXPECT_EQ(-MRC_EINVAL, mrc_cc_init(&cc, &p, 0));
    p = params(64, 128, 1024);
    EXPECT_EQ(-MRC_EINVAL, mrc_cc_init(&cc, &p, 0));
    p = params(2048, 8, 1024);
    EXPECT_EQ(-MRC_EINVAL, mrc_cc_init(&cc, &p, 0));
    p = params(64, 8, 1U << 21);
    EXPECT_EQ(-MRC_EINVAL, mrc_cc_init(&cc, &p, 0));
    p = params(64, 8, 1U << 20);
    EXPECT_EQ(0, mrc_cc_init(&cc, &p, 0));
}

TEST_F(Cc, StartsAtTheInitialWindowWithoutABaseRtt) {
    EXPECT_EQ(64U, mrc_cc_cwnd(&cc));
    EXPECT_EQ(0U, mrc_cc_base_rtt(&cc));
    EXPECT_TRUE(mrc_cc_in_slow_start(&cc));
}

TEST_F(Cc, MaySendOneBatchWhenNothingIsInFlight) {
    EXPECT_TRUE(mrc_cc_may_send(&cc, 0, 500));
    EXPECT_TRUE(mrc_cc_may_send(&cc, 63, 1));
    EXPECT_FALSE(mrc_cc_may_send(&cc, 64, 1));
    EXPECT_FALSE(mrc_cc_may_send(&cc, 1, 64));
}

TEST_F(Cc, SlowStartGrowsByEveryAckedPacket) {
    mrc_cc_on_ack(&cc, 16, 100 * kUs, now);
    EXPECT_EQ(80U, mrc_cc_cwnd(&cc));
    mrc_cc_on_ack(&cc, 4, 0, now); // no sample: still an increase
    EXPECT_EQ(84U, mrc_cc_cwnd(&cc));
}

TEST_F(Cc, GrowthStopsAtTheMaximum) {
    for (int i = 0; i < 100; i++)
        mrc_cc_on_ack(&cc, 100, 100 * kUs, now);
    EXPECT_EQ(1024U, mrc_cc_cwnd(&cc));
}

// A loss on a path that failed is the bypass's business: the window keeps its size and its
// growth, and the loss is counted apart.
TEST_F(Cc, LossOnAFailedPathKeepsTheWindow) {
    for (int i = 0; i < 10; i++)
        mrc_cc_on_loss(&cc, now + static_cast<uint64_t>(i) * kMs, true);
    EXPECT_EQ(64U, mrc_cc_cwnd(&cc));
    EXPECT_TRUE(mrc_cc_in_slow_start(&cc));
    EXPECT_EQ(0U, cc.loss_decreases);
    EXPECT_EQ(10U, cc.path_losses);
}

// After the first congestion signal the window grows by a packet per window, plus up to
// MRC_CC_PROP_GAIN more the further the delay is below the target.
TEST_F(Cc, AfterTheFirstSignalGrowsByAPacketPerWindowAndMoreWithoutAQueue) {
    mrc_cc_on_loss(&cc, now, false);
    EXPECT_EQ(48U, mrc_cc_cwnd(&cc)); // a quarter off
    EXPECT_FALSE(mrc_cc_in_slow_start(&cc));
    // a window's worth of ACKs with no queue (the RTT is the base), give or take the fixed
    // point's rounding
    for (int i = 0; i < 50; i++)
        mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    EXPECT_EQ(48U + 1U + MRC_CC_PROP_GAIN, mrc_cc_cwnd(&cc));
    // with the queue at nearly the (absolute, 1 ms) target: a packet per window
    mrc_cc queued{};
    const mrc_cc_params p = params();

    ASSERT_EQ(0, mrc_cc_init(&queued, &p, now));
    mrc_cc_on_loss(&queued, now, false);
    mrc_cc_on_ack(&queued, 0, 100 * kUs, now); // the base
    for (int i = 0; i < 48; i++)
        mrc_cc_on_ack(&queued, 1, 1099 * kUs, now); // smoothed towards 999 us of queue
    queued.cwnd = 48U << MRC_CC_SHIFT;
    for (int i = 0; i < 50; i++)
        mrc_cc_on_ack(&queued, 1, 1099 * kUs, now);
    EXPECT_EQ(49U, mrc_cc_cwnd(&queued));
}

// A loss with no queue beyond the target is corruption or bad luck: the window keeps its
// size (counted apart); with the queue beyond it, congestion: a quarter off.
TEST_F(Cc, ALossWithoutAQueueKeepsTheWindow) {
    mrc_cc_on_ack(&cc, 0, 100 * kUs, now);
    mrc_cc_on_loss(&cc, now, false);
    EXPECT_EQ(64U, mrc_cc_cwnd(&cc));
    EXPECT_EQ(1U, cc.quiet_losses);
    EXPECT_EQ(0U, cc.loss_decreases);
    for (int i = 0; i < 40; i++)
        mrc_cc_on_ack(&cc, 0, 20 * kMs, now); // far beyond the target: decreases once
    const uint32_t before = mrc_cc_cwnd(&cc);

    mrc_cc_on_loss(&cc, now + 100 * kMs, false);
    EXPECT_EQ(1U, cc.loss_decreases);
    EXPECT_LT(mrc_cc_cwnd(&cc), before);
}

TEST_F(Cc, BaseRttIsTheLowestSample) {
    mrc_cc_on_ack(&cc, 1, 300 * kUs, now);
    mrc_cc_on_ack(&cc, 1, 200 * kUs, now);
    mrc_cc_on_ack(&cc, 1, 250 * kUs, now);
    EXPECT_EQ(200 * kUs, mrc_cc_base_rtt(&cc));
}

TEST_F(Cc, BaseRttForgetsAMinimumTwoEpochsOld) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    now += MRC_CC_BASE_EPOCH_NS;
    mrc_cc_on_ack(&cc, 1, 400 * kUs, now);
    EXPECT_EQ(100 * kUs, mrc_cc_base_rtt(&cc)); // previous epoch still counts
    now += MRC_CC_BASE_EPOCH_NS;
    mrc_cc_on_ack(&cc, 1, 500 * kUs, now);
    EXPECT_EQ(400 * kUs, mrc_cc_base_rtt(&cc));
}

TEST_F(Cc, DelayWithinTheTargetIsNoSignal) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    mrc_cc_on_ack(&cc, 1, 100 * kUs + 1 * kMs, now);
    EXPECT_EQ(66U, mrc_cc_cwnd(&cc));
    EXPECT_EQ(0U, cc.delay_decreases);
}

TEST_F(Cc, OneLateSampleIsNoQueue) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    mrc_cc_on_ack(&cc, 1, 8 * kMs, now); // smoothed: 1.09 ms, 0.99 ms of queue
    EXPECT_EQ(0U, cc.delay_decreases);
    EXPECT_EQ(66U, mrc_cc_cwnd(&cc));
}

TEST(CcDelay, ShrinksInProportionToTheExcess) {
    const mrc_cc_params p = params();
    mrc_cc some{};
    mrc_cc much{};

    ASSERT_EQ(0, mrc_cc_init(&some, &p, 0));
    ASSERT_EQ(0, mrc_cc_init(&much, &p, 0));
    mrc_cc_on_ack(&some, 1, 100 * kUs, 0); // base and srtt 100 us, cwnd 65
    mrc_cc_on_ack(&much, 1, 100 * kUs, 0);
    mrc_cc_on_ack(&some, 1, 10 * kMs, 0);  // srtt 1.34 ms: a fifth is excess
    mrc_cc_on_ack(&much, 1, 100 * kMs, 0); // srtt 12.6 ms: nearly all of it
    EXPECT_EQ(1U, some.delay_decreases);
    EXPECT_EQ(1U, much.delay_decreases);
    EXPECT_GE(mrc_cc_cwnd(&some), 57U);
    EXPECT_LE(mrc_cc_cwnd(&some), 60U);
    EXPECT_GE(mrc_cc_cwnd(&much), 33U);
    EXPECT_LE(mrc_cc_cwnd(&much), 36U);
    EXPECT_FALSE(mrc_cc_in_slow_start(&some));
}

TEST_F(Cc, FarBeyondTheTargetHalvesAtMost) {
    mrc_cc_on_ack(&cc, 1, 10 * kUs, now);
    mrc_cc_on_ack(&cc, 1, MRC_CC_MAX_RTT_NS * 2U, now);
    EXPECT_GE(mrc_cc_cwnd(&cc), 32U);
    EXPECT_LE(mrc_cc_cwnd(&cc), 33U);
}

TEST_F(Cc, OneDecreasePerSmoothedRtt) {
    mrc_cc_on_ack(&cc, 1, 1 * kMs, now);
    mrc_cc_on_ack(&cc, 1, 20 * kMs, now);
    const uint32_t after_first = mrc_cc_cwnd(&cc);
    EXPECT_EQ(1U, cc.delay_decreases);
    mrc_cc_on_ack(&cc, 1, 20 * kMs, now + 100 * kUs);
    mrc_cc_on_loss(&cc, now + 200 * kUs, false);
    EXPECT_EQ(after_first, mrc_cc_cwnd(&cc)); // held: same queue
    EXPECT_EQ(1U, cc.delay_decreases);
    EXPECT_EQ(0U, cc.loss_decreases);
    mrc_cc_on_loss(&cc, now + cc.srtt_ns + 1, false);
    EXPECT_LT(mrc_cc_cwnd(&cc), after_first);
    EXPECT_EQ(1U, cc.loss_decreases);
}

// A decrease is sized by the queue as the latest sample finds it: the smoothed RTT still
// remembers the queue the last decrease drained. A sample within the target cuts nothing.
TEST(CcDelay, ADecreaseIsSizedByTheQueueAsItStandsNow) {
    const mrc_cc_params p = params();
    mrc_cc standing{};
    mrc_cc draining{};
    mrc_cc drained{};

    for (mrc_cc *cc : {&standing, &draining, &drained}) {
        ASSERT_EQ(0, mrc_cc_init(cc, &p, 0));
        mrc_cc_on_ack(cc, 1, 100 * kUs, 0); // base and srtt 100 us
        mrc_cc_on_ack(cc, 1, 20 * kMs, 0);  // srtt 2.59 ms: the first decrease, to ~45.6
        ASSERT_EQ(1U, cc->delay_decreases);
    }
    const uint32_t after_first = mrc_cc_cwnd(&drained);
    const uint64_t later = 3 * kMs;                 // past the hold of a smoothed RTT
    mrc_cc_on_ack(&standing, 1, 20 * kMs, later);   // srtt 4.76 ms: cut by the smoothed 4.66
    mrc_cc_on_ack(&draining, 1, 1500 * kUs, later); // srtt 2.45 ms, the sample 1.4 ms of queue
    mrc_cc_on_ack(&drained, 1, 500 * kUs, later);   // the sample within the 1 ms target
    EXPECT_EQ(2U, standing.delay_decreases);
    EXPECT_GE(mrc_cc_cwnd(&standing), 27U);
    EXPECT_LE(mrc_cc_cwnd(&standing), 29U);
    EXPECT_EQ(2U, draining.delay_decreases);
    EXPECT_GE(mrc_cc_cwnd(&draining), 38U) << "sized by the smoothed RTT it would be ~32";
    EXPECT_LE(mrc_cc_cwnd(&draining), 40U);
    EXPECT_EQ(1U, drained.delay_decreases);
    EXPECT_EQ(after_first, mrc_cc_cwnd(&drained)) << "neither cut nor grown: srtt is beyond";
}

TEST_F(Cc, ShrinksNoFurtherThanTheMinimum) {
    for (int i = 0; i < 50; i++)
        mrc_cc_on_loss(&cc, now + static_cast<uint64_t>(i) * kMs, false);
    EXPECT_EQ(8U, mrc_cc_cwnd(&cc));
}

TEST_F(Cc, TimeoutFallsToTheMinimumAndSlowStartsToHalf) {
    mrc_cc_on_timeout(&cc);
    EXPECT_EQ(8U, mrc_cc_cwnd(&cc));
    EXPECT_EQ(1U, cc.timeouts);
    EXPECT_TRUE(mrc_cc_in_slow_start(&cc));
    mrc_cc_on_ack(&cc, 16, 100 * kUs, now);
    EXPECT_EQ(24U, mrc_cc_cwnd(&cc));
    mrc_cc_on_ack(&cc, 16, 100 * kUs, now);
    EXPECT_EQ(40U, mrc_cc_cwnd(&cc));
    EXPECT_FALSE(mrc_cc_in_slow_start(&cc)); // past 32, half of 64
    mrc_cc_on_ack(&cc, 40, 100 * kUs, now);  // a window's worth, no queue
    EXPECT_EQ(41U + MRC_CC_PROP_GAIN, mrc_cc_cwnd(&cc));
}

TEST_F(Cc, TimeoutAtTheMinimumStaysThere) {
    for (int i = 0; i < 3; i++)
        mrc_cc_on_timeout(&cc);
    EXPECT_EQ(8U, mrc_cc_cwnd(&cc));
    EXPECT_FALSE(mrc_cc_in_slow_start(&cc));
}

struct BottleneckRun {
    uint64_t delivered_last_second = 0;
    uint32_t max_queue = 0;
    uint32_t cwnd = 0;
    uint32_t delay_decreases = 0;
    uint64_t queue_sum_last_second = 0; // queue length summed over the last second's us
};

// One flow through a bottleneck of one packet per @service behind @base_rtt, for 2 s.
BottleneckRun run_bottleneck(const mrc_cc_params &p, uint64_t service, uint64_t base_rtt) {
    BottleneckRun r;
    mrc_cc cc{};
    std::deque<uint64_t> queue;                     // send times of packets waiting at the link
    std::deque<std::pair<uint64_t, uint64_t>> acks; // (arrival, send time)
    uint64_t link_free = 0;
    uint32_t in_flight = 0;

    EXPECT_EQ(0, mrc_cc_init(&cc, &p, 0));
    for (uint64_t now = 0; now < 2000 * kMs; now += kUs) {
        while (mrc_cc_may_send(&cc, in_flight, 1)) {
            queue.push_back(now);
            in_flight++;
        }
        r.max_queue = std::max<uint32_t>(r.max_queue, static_cast<uint32_t>(queue.size()));
        if (now > 1000 * kMs)
            r.queue_sum_last_second += queue.size();
        if (!queue.empty() && now >= link_free) {
            acks.emplace_back(now + base_rtt, queue.front());
            queue.pop_front();
            link_free = now + service;
            if (now > 1000 * kMs)
                r.delivered_last_second++;
        }
        while (!acks.empty() && acks.front().first <= now) {
            mrc_cc_on_ack(&cc, 1, static_cast<uint32_t>(now - acks.front().second), now);
            acks.pop_front();
            in_flight--;
        }
    }
    r.cwnd = mrc_cc_cwnd(&cc);
    r.delay_decreases = cc.delay_decreases;
    return r;
}

// One flow through a bottleneck of one packet per 10 us behind a 200 us base
// RTT, with an absolute target of 1 ms: the window must settle near BDP +
// target worth of queue (20 + 100 packets), never fill its 1024-packet
// maximum, and keep the link busy.
TEST(CcBottleneck, KeepsTheQueueNearAnAbsoluteTarget) {
    const BottleneckRun r = run_bottleneck(params(64, 8, 1024, 1 * kMs), 10 * kUs, 200 * kUs);

    // the last second: link busy at least 90% of the time
    EXPECT_GE(r.delivered_last_second, 90000U);
    EXPECT_LT(r.cwnd, 400U);
    EXPECT_GT(r.cwnd, 20U);
    EXPECT_GT(r.delay_decreases, 0U);
    // slow start overshoots once; the standing queue is what stays bounded
    EXPECT_LT(r.max_queue, 1024U);
}

// The default, relative target: half the base RTT, at least MRC_CC_TARGET_PKTS delivery
// intervals. A fast path (100 us RTT, 1 us per packet) keeps a queue of about half a
// round trip, not a millisecond; a slow one (2 ms per packet behind 1 ms) keeps
// MRC_CC_TARGET_PKTS packets queued rather than holding the window at its floor; both stay
// busy.
TEST(CcBottleneck, KeepsTheQueueNearARelativeTarget) {
    const BottleneckRun fast = run_bottleneck(params(64, 8, 1024, 0), kUs, 100 * kUs);
    const BottleneckRun slow = run_bottleneck(params(64, 8, 1024, 0), 2 * kMs, 1 * kMs);

    EXPECT_GE(fast.delivered_last_second, 900'000U); // of a million
    // the mean standing queue: within a round trip's worth of packets (100), not 1000
    EXPECT_LT(fast.queue_sum_last_second / 1'000'000U, 100U);
    EXPECT_GT(fast.delay_decreases, 0U);
    EXPECT_GE(slow.delivered_last_second, 450U); // of 500 the link can carry
    EXPECT_GE(slow.cwnd, 2U + MRC_CC_TARGET_PKTS / 2);
    // the mean standing queue: about the target's packets; slow start overshoots once
    EXPECT_LT(slow.queue_sum_last_second / 1'000'000U, 2U * MRC_CC_TARGET_PKTS);
    EXPECT_LT(slow.max_queue, 8U * MRC_CC_TARGET_PKTS);
}

TEST_F(Cc, TheRelativeTargetFollowsTheBaseRttAndTheDeliveryInterval) {
    mrc_cc rel{};
    const mrc_cc_params p = params(64, 8, 1024, 0);
    uint64_t t = 0;

    ASSERT_EQ(0, mrc_cc_init(&rel, &p, t));
    EXPECT_EQ(0U, mrc_cc_target_delay(&rel)); // nothing known yet
    mrc_cc_on_ack(&rel, 0, 400 * kUs, t);
    EXPECT_EQ(200U * kUs, mrc_cc_target_delay(&rel));
    EXPECT_EQ(0U, mrc_cc_delivery_interval(&rel));
    // 16 packets per 400 us, measured over a round trip: 25 us each, x 16 = 400 us
    for (int i = 0; i < 16; i++) {
        t += 25 * kUs;
        mrc_cc_on_ack(&rel, 1, 0, t);
    }
    EXPECT_EQ(25U * kUs, mrc_cc_delivery_interval(&rel));
    EXPECT_EQ(uint64_t{MRC_CC_TARGET_PKTS} * 25 * kUs, mrc_cc_target_delay(&rel));
    // an absolute target overrides both
    EXPECT_EQ(1U * kMs, mrc_cc_target_delay(&cc));
}

} // namespace

// ECN (mrc_cc_on_ce): the first mark of a round trip, with a queue beyond the target behind the
// marked packet, cuts by the share of the marks a round trip brought of late; until the first
// round trips are counted, by half.
TEST_F(Cc, TheFirstMarkOfARoundTripCutsTheOthersCount) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now); // base and srtt 100 us, cwnd 65
    const uint32_t before = cc.cwnd;

    mrc_cc_on_ce(&cc, 100 * kUs + 2 * kMs, now); // 2 ms of queue, the target 1 ms
    EXPECT_EQ(before - before / 2, cc.cwnd);
    EXPECT_EQ(1U, cc.ecn_decreases);
    EXPECT_FALSE(mrc_cc_in_slow_start(&cc));
    for (uint64_t i = 1; i < 100; i++)
        mrc_cc_on_ce(&cc, 3 * kMs, now + i); // the same round trip: counted, no cut
    EXPECT_EQ(before - before / 2, cc.cwnd);
    EXPECT_EQ(1U, cc.ecn_decreases);
    EXPECT_EQ(100U, cc.round_marks);
}

// Round trips of 2 marks each bring the cut to 2/32 of the window; a hundred marks in a round
// trip still cut by half at most.
TEST_F(Cc, TheCutFollowsTheMarksOfTheLastRoundTrips) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    for (int round = 0; round < 200; round++) {
        now += cc.srtt_ns;
        mrc_cc_on_ack(&cc, 1, 100 * kUs, now); // the round trip before ends: counted
        mrc_cc_on_ce(&cc, 3 * kMs, now);
        mrc_cc_on_ce(&cc, 3 * kMs, now);
        cc.cwnd = 64U << MRC_CC_SHIFT; // keep it off its floor
    }
    EXPECT_NEAR(2.0, static_cast<double>(cc.marks_avg) / (1U << MRC_CC_SHIFT), 0.05);
    now += cc.srtt_ns;
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    uint32_t before = cc.cwnd;
    mrc_cc_on_ce(&cc, 3 * kMs, now);
    EXPECT_NEAR(before * (1.0 - 2.0 / (1U << MRC_CC_ECN_CUT_SHIFT)), cc.cwnd, before / 256.0);

    for (int round = 0; round < 200; round++) {
        now += cc.srtt_ns;
        mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
        for (int i = 0; i < 100; i++)
            mrc_cc_on_ce(&cc, 3 * kMs, now);
        cc.cwnd = 64U << MRC_CC_SHIFT; // keep it off its floor
    }
    now += cc.srtt_ns;
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    before = cc.cwnd;
    mrc_cc_on_ce(&cc, 3 * kMs, now);
    EXPECT_EQ(before - before / 2, cc.cwnd);
}

// Quiet round trips average the marks down, but a round trip with a mark cuts for one at least;
// and after a second without any, the next congestion halves the window as the first did.
TEST_F(Cc, AfterQuietRoundTripsAMarkStillCuts) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    mrc_cc_on_ce(&cc, 3 * kMs, now); // the first congestion: half
    for (int round = 0; round < 200; round++) {
        now += cc.srtt_ns;
        mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    }
    EXPECT_LT(cc.marks_avg, 1U << MRC_CC_SHIFT);
    cc.cwnd = 64U << MRC_CC_SHIFT;
    mrc_cc_on_ce(&cc, 3 * kMs, now);
    EXPECT_EQ((64U << MRC_CC_SHIFT) - ((64U << MRC_CC_SHIFT) >> MRC_CC_ECN_CUT_SHIFT), cc.cwnd);

    now += MRC_CC_ECN_EPOCH_NS;
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    cc.cwnd = 64U << MRC_CC_SHIFT;
    mrc_cc_on_ce(&cc, 3 * kMs, now);
    EXPECT_EQ(32U << MRC_CC_SHIFT, cc.cwnd);
    EXPECT_EQ(3U, cc.ecn_decreases);
}

TEST_F(Cc, AMarkWithinTheTargetIsOneEvsQueueNotTheWindows) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    const uint32_t before = cc.cwnd;

    mrc_cc_on_ce(&cc, 600 * kUs, now); // half a millisecond of queue: within the target
    EXPECT_EQ(before, cc.cwnd);
    EXPECT_EQ(1U, cc.ecn_path_marks);
    EXPECT_EQ(0U, cc.ecn_decreases);
}

TEST_F(Cc, AMarkThatNamesNoPacketIsJudgedByTheLatestSample) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    mrc_cc_on_ce(&cc, 0, now); // the latest sample had no queue
    EXPECT_EQ(1U, cc.ecn_path_marks);
    mrc_cc_on_ack(&cc, 1, 3 * kMs, now); // smoothed: 0.46 ms, within the target
    EXPECT_EQ(0U, cc.delay_decreases);
    mrc_cc_on_ce(&cc, 0, now); // the latest sample waited 2.9 ms
    EXPECT_EQ(1U, cc.ecn_decreases);
}

// Once the fabric marked, delay beyond the target without a mark is a queue that does not
// mark (a host, a longer route): the window grows by its packet per round trip. A second
// later without a mark, the delay rules are back.
TEST_F(Cc, WhereTheFabricMarksDelayAloneDoesNotShrinkTheWindow) {
    mrc_cc_on_ack(&cc, 1, 100 * kUs, now);
    mrc_cc_on_ce(&cc, 600 * kUs, now);
    const uint32_t before = mrc_cc_cwnd(&cc);

    for (uint64_t i = 1; i <= 20; i++)
        mrc_cc_on_ack(&cc, 1, 20 * kMs, now + i * kUs);
    EXPECT_EQ(0U, cc.delay_decreases);
    EXPECT_FALSE(mrc_cc_in_slow_start(&cc));
    EXPECT_GE(mrc_cc_cwnd(&cc), before);
    EXPECT_LE(mrc_cc_cwnd(&cc), before + 1);
    mrc_cc_on_ack(&cc, 1, 20 * kMs, now + MRC_CC_ECN_EPOCH_NS + kMs);
    EXPECT_EQ(1U, cc.delay_decreases);
}

// Two QPs through one bottleneck that marks packets finding @mark_at or more ahead of them,
// one starting at the maximum window, one at the minimum, for a second of 1 us packets
// behind 100 us: each ACK answers one packet and echoes its mark.
struct SharedRun {
    uint64_t delivered[2] = {};
    uint32_t max_queue = 0;
};

SharedRun run_shared(uint32_t mark_at) {
    struct Pkt {
        int flow;
        uint64_t sent;
        bool ce;
    };
    struct Ack {
        uint64_t at;
        Pkt pkt;
    };
    SharedRun r;
    mrc_cc cc[2]{};
    uint32_t in_flight[2] = {};
    std::deque<Pkt> queue;
    std::deque<Ack> acks;
    uint64_t link_free = 0;
    const mrc_cc_params big = params(1000, 8, 1024, 0);
    const mrc_cc_params small = params(8, 8, 1024, 0);

    EXPECT_EQ(0, mrc_cc_init(&cc[0], &big, 0));
    EXPECT_EQ(0, mrc_cc_init(&cc[1], &small, 0));
    for (uint64_t now = 0; now < 1000 * kMs; now += 250) {
        for (int f = 0; f < 2; f++) {
            while (mrc_cc_may_send(&cc[f], in_flight[f], 1)) {
                queue.push_back({f, now, queue.size() >= mark_at});
                in_flight[f]++;
            }
        }
        r.max_queue = std::max<uint32_t>(r.max_queue, static_cast<uint32_t>(queue.size()));
        if (!queue.empty() && now >= link_free) {
            acks.push_back({now + 100 * kUs, queue.front()});
            if (now > 500 * kMs)
                r.delivered[queue.front().flow]++;
            queue.pop_front();
            link_free = now + kUs;
        }
        while (!acks.empty() && acks.front().at <= now) {
            const Pkt &p = acks.front().pkt;
            const auto rtt = static_cast<uint32_t>(now - p.sent);

            mrc_cc_on_ack(&cc[p.flow], 1, rtt, now);
            if (p.ce)
                mrc_cc_on_ce(&cc[p.flow], rtt, now);
            in_flight[p.flow]--;
            acks.pop_front();
        }
    }
    return r;
}

// Marks from a queue beyond the target share the link fairly within 10%, whichever window
// each QP started with, and keep the queue near where marking starts.
TEST(CcEcn, TwoQpsThroughAMarkingQueueShareItFairly) {
    const SharedRun r = run_shared(80); // 80 us of queue: beyond the 50 us target

    const auto a = static_cast<double>(r.delivered[0]);
    const auto b = static_cast<double>(r.delivered[1]);
    EXPECT_GT(a + b, 0.9 * 500'000); // the link stays busy
    EXPECT_LT(std::abs(a - b) / (a + b), 0.1);
    EXPECT_LT(r.max_queue, 1100U);
}
