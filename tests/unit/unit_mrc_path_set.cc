// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// EV path sets: selection, per-EV loss bookkeeping, the state machine, ev_min_active; and a
// small fabric in which one path dies and comes back.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

extern "C" {
#include "mrc_path_set.h"
}

namespace {

// A path set with its own storage.
class PathSet {
public:
    explicit PathSet(uint32_t nr_ev, uint32_t min_active = 0,
                     uint8_t policy = MRC_SPRAY_ROUND_ROBIN)
        : ev_(nr_ev), good_(MRC_PATH_SET_WORDS(nr_ev)) {
        init_result_ =
                mrc_path_set_init(&ps_, ev_.data(), good_.data(),
                                  static_cast<uint32_t>(good_.size()), nr_ev, min_active, policy);
        // every EV proven at kProvenNs, as on a fabric that carried traffic: a loss sent before
        // (kLostNs) alarms the set with every EV vetted already (the alarm's own tests lose
        // later)
        for (uint32_t e = 0; e < nr_ev && !init_result_; e++)
            ev_[e].proven_ns = kProvenNs;
    }
    static constexpr uint64_t kLostNs = 1;
    static constexpr uint64_t kProvenNs = 2;
    [[nodiscard]] int init_result() const { return init_result_; }
    mrc_path_set *get() { return &ps_; }
    mrc_path_set *operator->() { return &ps_; }

    // The next pick; -1 when there is none.
    int64_t pick(uint32_t avoid = MRC_PROFILE_EV_MAX) {
        uint32_t ev = 0;
        const int r = mrc_path_set_pick(&ps_, &cur_, avoid, &ev);
        last_rc_ = r;
        return r < 0 ? int64_t{-1} : int64_t{ev};
    }
    [[nodiscard]] int last_rc() const { return last_rc_; }

    // Lose one transmission on @ev; whether that made the EV suspect.
    bool lose(uint32_t ev, uint64_t sent_ns = kLostNs) {
        return mrc_path_set_lost(&ps_, ev, mrc_path_set_sent(&ps_, ev), sent_ns, 0);
    }

    // One tick at @now: the probes it asks for, and the changes it made (appended).
    std::vector<mrc_ev_probe> tick(uint64_t now) {
        std::vector<mrc_ev_probe> probes(8);
        std::vector<mrc_ev_change> changes(8);
        mrc_path_tick t{probes.data(), 8, 0, changes.data(), 8, 0};
        mrc_path_set_tick(&ps_, now, &t);
        probes.resize(t.nr_probes);
        changes_.insert(changes_.end(), changes.begin(), changes.begin() + t.nr_changes);
        return probes;
    }
    std::vector<mrc_ev_change> &changes() { return changes_; }

    // The id of the probe on @ev among @probes; 0 if there is none.
    static uint32_t probe_on(const std::vector<mrc_ev_probe> &probes, uint32_t ev) {
        for (const mrc_ev_probe &p : probes)
            if (p.ev == ev)
                return p.probe_id;
        return 0;
    }
    // Answer every probe of @probes but those on @lost, at @now.
    void answer(const std::vector<mrc_ev_probe> &probes, uint64_t now, uint32_t lost) {
        mrc_ev_change change{};
        for (const mrc_ev_probe &p : probes)
            if (p.ev != lost && mrc_path_set_probe_answered(&ps_, p.ev, p.probe_id, now, &change))
                changes_.push_back(change);
    }

    // Lose on @ev and leave its probes unanswered until it is judged, from time @now on.
    // Returns the time after the verdict.
    uint64_t condemn(uint32_t ev, uint64_t now) {
        lose(ev);
        for (uint32_t i = 0; i <= MRC_EV_SUSPECT_PROBES; i++, now += MRC_EV_PROBE_TIMEOUT_NS)
            tick(now);
        return now;
    }

private:
    std::vector<mrc_ev_health> ev_;
    std::vector<uint64_t> good_;
    mrc_path_set ps_{};
    mrc_ev_cursor cur_{};
    std::vector<mrc_ev_change> changes_;
    int init_result_ = 0;
    int last_rc_ = 0;
};

// A set of 256 EVs, each sent on once, for the pick of a packet that asks for an ACK.
class PathSetProven : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(0, ps.init_result());
        for (uint32_t e = 0; e < 256; e++)
            mrc_path_set_sent(ps.get(), e);
    }

    PathSet ps{256};
    mrc_ev_cursor cur{};
    uint32_t ev = 0;
};

// A resend takes the next usable EV proven since the given instant, among the next
// MRC_PICK_PROVEN_SCAN; with none proven, the plain pick.
TEST_F(PathSetProven, PickProvenSkipsEvsNothingLatelyCrossed) {
    mrc_path_set_acked(ps.get(), 5, 0, 1000, 0);  // proven at 1000
    mrc_path_set_acked(ps.get(), 9, 0, 3000, 0);  // proven at 3000
    mrc_path_set_acked(ps.get(), 90, 0, 5000, 0); // beyond the scan from 0
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, true, &ev));
    EXPECT_EQ(9U, ev); // 5 was proven too long ago
    EXPECT_EQ(10U, cur.answer);
    EXPECT_EQ(0U, cur.next); // the spray's own walk stays where it was
    cur = {};
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, 9, 2000, true, &ev));
    EXPECT_EQ(0U, ev); // 9 avoided, 90 out of reach: the plain round robin
    cur.answer = 60;
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, true, &ev));
    EXPECT_EQ(90U, ev);
    mrc_path_set_lost(ps.get(), 90, mrc_path_set_sent(ps.get(), 90), PathSet::kLostNs,
                      0); // suspect: not usable
    cur.answer = 60;
    cur.next = 60;
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, true, &ev));
    EXPECT_EQ(60U, ev);
}

// A packet that asks for an ACK prefers an EV whose ACKs came back as well: on an ECMP
// fabric an EV may deliver while its way back is dead.
TEST_F(PathSetProven, PickProvenPrefersEvsWhoseAcksCameBack) {
    mrc_path_set_acked(ps.get(), 3, 0, 3000, 0); // delivers; no ACK came back on it
    mrc_path_set_acked(ps.get(), 7, 0, 3000, 0); // delivers, and ACKs come back on it
    mrc_path_set_returned(ps.get(), 7, 3500);
    mrc_path_set_returned(ps.get(), 11, 3600); // an ACK alone proves only the way back
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, true, &ev));
    EXPECT_EQ(7U, ev);
    EXPECT_EQ(8U, cur.answer);
    cur = {};
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, 7, 2000, true, &ev));
    EXPECT_EQ(3U, ev); // 7 avoided: the one proven
    // nothing since the instant: the EV the last ACK came on, old as it is, over a guess
    mrc_path_set_returned(ps.get(), 7, 3700);
    cur = {};
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 9000, true, &ev));
    EXPECT_EQ(7U, ev);
    // unless it is not usable
    mrc_path_set_lost(ps.get(), 7, mrc_path_set_sent(ps.get(), 7), PathSet::kLostNs, 0);
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 9000, true, &ev));
    EXPECT_EQ(0U, ev);
    mrc_path_set_returned(ps.get(), 4096, 9999); // out of range: ignored
    EXPECT_EQ(7U, ps.get()->returned_ev);
}

// Another packet asking for an ACK keeps to the spray's policy while nothing in the set is
// suspect or ASSUMED_BAD, on a walk of its own; once something is, it takes an EV that round
// trips.
TEST_F(PathSetProven, PickProvenKeepsTheSprayWhileTheSetIsSettled) {
    mrc_path_set_acked(ps.get(), 7, 0, 3000, 0);
    mrc_path_set_returned(ps.get(), 7, 3500);
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, false, &ev));
    EXPECT_EQ(0U, ev); // the walk of answers' first
    EXPECT_EQ(1U, cur.answer);
    EXPECT_EQ(0U, cur.next); // the data's walk untouched
    mrc_path_set_lost(ps.get(), 200, mrc_path_set_sent(ps.get(), 200), PathSet::kLostNs,
                      0); // 200 suspect
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 2000, false, &ev));
    EXPECT_EQ(7U, ev);
    EXPECT_EQ(0U, cur.next);
}

// Messages of a multiple of the spine count, each asking for an ACK with its last packet: on
// a settled set the packets that ask walk every EV (so their ACKs come back over every
// spine, the way they went), not the same place of each round of the data's walk.
TEST(PathSetSpray, PacketsAskingForAckSpreadOverTheSpines) {
    constexpr uint32_t kEvs = 64;
    constexpr uint32_t kSpines = 4; // EV e names spine e % 4, as SRv6 profiles list them
    constexpr uint32_t kMessagePkts = 8;
    PathSet ps(kEvs);
    mrc_ev_cursor cur{};
    std::array<uint32_t, kSpines> asked{};
    uint32_t ev = 0;

    ASSERT_EQ(0, ps.init_result());
    for (uint32_t pkt = 0; pkt < 64 * kMessagePkts; pkt++) {
        if ((pkt + 1) % kMessagePkts) {
            ASSERT_EQ(0, mrc_path_set_pick(ps.get(), &cur, MRC_PROFILE_EV_MAX, &ev));
            continue;
        }
        ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 0, false, &ev));
        asked[ev % kSpines]++;
    }
    for (uint32_t spine = 0; spine < kSpines; spine++)
        EXPECT_EQ(64U / kSpines, asked[spine]) << "spine " << spine;
}

// During an alarm a packet that asks for an ACK takes only vetted EVs too: one that round
// trips by what came back before the loss may be of the path that failed.
TEST_F(PathSetProven, PickProvenKeepsToVettedEvsDuringAnAlarm) {
    mrc_path_set_acked(ps.get(), 7, 0, 1000, 0); // delivered before the lost packet left
    mrc_path_set_returned(ps.get(), 7, 3500);
    mrc_path_set_acked(ps.get(), 20, 0, 3000, 0); // delivered, sent after it
    ASSERT_TRUE(ps.lose(200, 2000));
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, MRC_PROFILE_EV_MAX, 500, true, &ev));
    EXPECT_EQ(20U, ev);
    ASSERT_EQ(0, mrc_path_set_pick_proven(ps.get(), &cur, 20, 500, true, &ev));
    EXPECT_EQ(20U, ev) << "avoided, but the only vetted one";
}

TEST(PathSet, InitRejectsBadArguments) {
    std::array<mrc_ev_health, 8> ev{};
    std::array<uint64_t, 1> good{};
    mrc_path_set ps{};
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 0, 0, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 8, 9, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 8, 0, MRC_SPRAY_ADAPTIVE + 1),
              -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 0, 8, 0, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, nullptr, good.data(), 1, 8, 0, 0), -MRC_EINVAL);
    std::vector<mrc_ev_health> big(MRC_PROFILE_EV_MAX + 1);
    std::vector<uint64_t> big_good(MRC_PATH_SET_WORDS(MRC_PROFILE_EV_MAX + 1));
    EXPECT_EQ(mrc_path_set_init(&ps, big.data(), big_good.data(),
                                static_cast<uint32_t>(big_good.size()), MRC_PROFILE_EV_MAX + 1, 0,
                                0),
              -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 8, 8, 0), 0);
    EXPECT_EQ(ps.nr_good, 8U);
}

TEST(PathSet, RoundRobinVisitsEveryGoodEvEvenly) {
    for (const uint32_t n : {1U, 7U, 64U, 100U, 256U, MRC_PROFILE_EV_MAX}) {
        PathSet ps(n);
        ASSERT_EQ(ps.init_result(), 0);
        std::vector<int> hits(n);
        for (uint32_t i = 0; i < 3 * n; i++) {
            const int64_t ev = ps.pick();
            ASSERT_GE(ev, 0);
            ASSERT_EQ(ps.last_rc(), 0);
            hits[static_cast<size_t>(ev)]++;
        }
        for (uint32_t i = 0; i < n; i++)
            EXPECT_EQ(hits[i], 3) << "EV " << i << " of " << n;
    }
}

TEST(PathSet, RoundRobinSkipsEvsThatAreNotGood) {
    PathSet ps(100);
    mrc_ev_change change{};
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 63, true, 1, &change), 1);
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 64, true, 1, &change), 1);
    ps.condemn(99, 0);
    ASSERT_EQ(ps.changes().size(), 1U);
    EXPECT_EQ(ps.changes()[0].ev, 99U);
    EXPECT_EQ(ps.changes()[0].from, MRC_EV_GOOD);
    EXPECT_EQ(ps.changes()[0].to, MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(ps.changes()[0].reason, MRC_EV_CAUSE_LOSS);
    EXPECT_EQ(ps->nr_good, 97U);
    ASSERT_TRUE(ps.lose(98)); // suspect: GOOD, but no data
    EXPECT_EQ(ps->nr_good, 97U);
    EXPECT_EQ(ps->nr_usable, 96U);
    for (int i = 0; i < 1000; i++) {
        const int64_t ev = ps.pick();
        EXPECT_NE(ev, 63);
        EXPECT_NE(ev, 64);
        EXPECT_NE(ev, 99);
        EXPECT_NE(ev, 98);
    }
}

TEST(PathSet, AvoidTakesAnotherEvWhenThereIsOne) {
    PathSet ps(4);
    EXPECT_EQ(ps.pick(0), 1); // the cursor was at 0
    EXPECT_EQ(ps.pick(2), 3);
    mrc_ev_change change{};
    for (const uint32_t ev : {1U, 2U, 3U})
        ASSERT_EQ(mrc_path_set_deny(ps.get(), ev, true, 1, &change), 1);
    EXPECT_EQ(ps.pick(0), 0); // the only GOOD one, even if avoided
}

TEST(PathSet, WeightedSharesFollowWeights) {
    PathSet ps(4, 0, MRC_SPRAY_WEIGHTED);
    ASSERT_EQ(mrc_path_set_set_weight(ps.get(), 1, 3), 0);
    ASSERT_EQ(mrc_path_set_set_weight(ps.get(), 3, 5), 0);
    EXPECT_EQ(mrc_path_set_set_weight(ps.get(), 3, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_set_weight(ps.get(), 3, 256), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_set_weight(ps.get(), 4, 1), -MRC_EINVAL);
    std::array<int, 4> hits{};
    for (int i = 0; i < 10 * (1 + 3 + 1 + 5); i++)
        hits[static_cast<size_t>(ps.pick())]++;
    EXPECT_EQ(hits[0], 10);
    EXPECT_EQ(hits[1], 30);
    EXPECT_EQ(hits[2], 10);
    EXPECT_EQ(hits[3], 50);
}

TEST(PathSet, WeightedLeavesAnEvThatGoesBad) {
    PathSet ps(2, 0, MRC_SPRAY_WEIGHTED);
    ASSERT_EQ(mrc_path_set_set_weight(ps.get(), 0, 10), 0);
    EXPECT_EQ(ps.pick(), 0);
    mrc_ev_change change{};
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 1);
    for (int i = 0; i < 5; i++)
        EXPECT_EQ(ps.pick(), 1);
}

TEST(PathSet, AdaptiveIsRoundRobinWithoutRttSamples) {
    PathSet ps(4, 0, MRC_SPRAY_ADAPTIVE);
    ASSERT_EQ(ps.init_result(), 0);
    std::array<int, 4> hits{};
    for (int i = 0; i < 40; i++)
        hits[static_cast<size_t>(ps.pick())]++;
    EXPECT_EQ(hits, (std::array<int, 4>{10, 10, 10, 10}));
}

TEST(PathSet, AdaptiveRestsAnEvInProportionToItsExtraDelay) {
    PathSet ps(4, 0, MRC_SPRAY_ADAPTIVE);
    // floor 100 us, so a quantum is 50 us; EV 2 runs 160 us slower: rests 3 rounds of 4
    for (const uint32_t ev : {0U, 1U, 3U})
        mrc_path_set_rtt_sample(ps.get(), ev, 100000);
    mrc_path_set_rtt_sample(ps.get(), 2, 260000);
    EXPECT_LT(ps->rtt_floor_ns, 100100U); // up slowly
    EXPECT_EQ(ps->ev[2].rest, 3U);
    EXPECT_EQ(ps->ev[0].rest, 0U);
    std::array<int, 4> hits{};
    for (int i = 0; i < 3 * 40 + 10; i++)
        hits[static_cast<size_t>(ps.pick())]++;
    EXPECT_EQ(hits[0], 40);
    EXPECT_EQ(hits[1], 40);
    EXPECT_EQ(hits[2], 10);
    EXPECT_EQ(hits[3], 40);
}

TEST(PathSet, AdaptiveRestIsBoundedAndFollowsTheEvBack) {
    PathSet ps(2, 0, MRC_SPRAY_ADAPTIVE);
    mrc_path_set_rtt_sample(ps.get(), 0, 100000);
    mrc_path_set_rtt_sample(ps.get(), 1, 900000000); // far slower: rests the most
    EXPECT_EQ(ps->ev[1].rest, MRC_SPRAY_MAX_REST);
    EXPECT_LT(ps->rtt_floor_ns, 102000U); // one wild sample hardly moves the floor
    for (int i = 0; i < 128; i++)
        mrc_path_set_rtt_sample(ps.get(), 1, 100000); // its queue drains
    EXPECT_EQ(ps->ev[1].rest, 0U);
    // a resting EV still carries some, so its RTT keeps being measured
    mrc_path_set_rtt_sample(ps.get(), 1, 900000000);
    int on_1 = 0;
    for (int i = 0; i < 64; i++)
        on_1 += ps.pick() == 1 ? 1 : 0;
    EXPECT_GT(on_1, 0);
    EXPECT_LT(on_1, 64 / 4);
}

TEST(PathSet, AdaptiveQuantumHasAFloorAgainstNoise) {
    PathSet ps(2, 0, MRC_SPRAY_ADAPTIVE);
    mrc_path_set_rtt_sample(ps.get(), 0, 2000); // 2 us floor: the quantum is 20 us, not 1
    mrc_path_set_rtt_sample(ps.get(), 1, 15000);
    EXPECT_EQ(ps->ev[1].rest, 0U);
    mrc_path_set_rtt_sample(ps.get(), 1, 0); // no sample: nothing changes
    mrc_path_set_rtt_sample(ps.get(), 7, 1); // no such EV
    EXPECT_EQ(ps->ev[1].srtt_ns, 15000U);
}

TEST(PathSet, AdaptiveCongestionMarkRestsTheEvUntilLaterSamples) {
    PathSet ps(4, 0, MRC_SPRAY_ADAPTIVE);
    for (const uint32_t ev : {0U, 1U, 2U, 3U})
        mrc_path_set_rtt_sample(ps.get(), ev, 100000);
    // same RTT as the others, but its queue marked it
    mrc_path_set_ce_mark(ps.get(), 1);
    EXPECT_EQ(ps->ev[1].rest, MRC_SPRAY_CE_REST);
    EXPECT_EQ(ps->ev[1].ce_marks, 1U);
    EXPECT_EQ(ps->ev[0].rest, 0U);
    std::array<int, 4> hits{};
    for (int i = 0; i < 3 * 40 + 10; i++)
        hits[static_cast<size_t>(ps.pick())]++;
    EXPECT_EQ(hits[1], 10); // one round of MRC_SPRAY_CE_REST + 1
    EXPECT_EQ(hits[0], 40);
    // each later sample takes a round of rest off; a mark puts it all back
    for (uint32_t left = MRC_SPRAY_CE_REST; left > 0; left--) {
        mrc_path_set_rtt_sample(ps.get(), 1, 100000);
        EXPECT_EQ(ps->ev[1].rest, left - 1U);
    }
    mrc_path_set_ce_mark(ps.get(), 1);
    EXPECT_EQ(ps->ev[1].rest, MRC_SPRAY_CE_REST);
    // an RTT far above the floor rests it longer than a mark does
    mrc_path_set_rtt_sample(ps.get(), 2, 900000000);
    mrc_path_set_ce_mark(ps.get(), 2);
    EXPECT_EQ(ps->ev[2].rest, MRC_SPRAY_MAX_REST);
    mrc_path_set_ce_mark(ps.get(), 9); // no such EV: nothing
}

TEST(PathSet, CongestionMarksAreCountedButRestNothingOutsideAdaptive) {
    PathSet ps(2, 0, MRC_SPRAY_ROUND_ROBIN);
    mrc_path_set_ce_mark(ps.get(), 1);
    EXPECT_EQ(ps->ev[1].ce_marks, 1U);
    EXPECT_EQ(ps->ev[1].rest, 0U);
    std::array<int, 2> hits{};
    for (int i = 0; i < 10; i++)
        hits[static_cast<size_t>(ps.pick())]++;
    EXPECT_EQ(hits, (std::array<int, 2>{5, 5}));
}

TEST(PathSet, AdaptiveWhenAllRestTakesTheNextAnyway) {
    PathSet ps(2, 0, MRC_SPRAY_ADAPTIVE);
    ps->ev[0].rest = 1;
    ps->ev[1].rest = 1;
    for (int i = 0; i < 6; i++)
        EXPECT_GE(ps.pick(), 0);
}

TEST(PathSet, SameEvGapNeedsReorderLaterAcks) {
    PathSet ps(2);
    std::array<uint32_t, 6> seq{};
    for (uint32_t &s : seq)
        s = mrc_path_set_sent(ps.get(), 1);
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[0])); // nothing acked yet
    for (uint32_t k = 1; k <= MRC_EV_REORDER; k++) {
        EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[0])) << k;
        mrc_path_set_acked(ps.get(), 1, seq[k], 1, 0);
    }
    EXPECT_TRUE(mrc_path_set_gap_lost(ps.get(), 1, seq[0]));
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[1])); // acked itself: not after it
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 0, 0));      // another EV knows nothing
    // an old acknowledgement does not move acked_seq back
    mrc_path_set_acked(ps.get(), 1, seq[1], 1, 0);
    EXPECT_TRUE(mrc_path_set_gap_lost(ps.get(), 1, seq[0]));
}

TEST(PathSet, SameEvGapAcrossSequenceWrap) {
    PathSet ps(1);
    ps->ev[0].tx_seq = 0xfffffffeU;
    const uint32_t first = mrc_path_set_sent(ps.get(), 0);
    std::array<uint32_t, 4> later{};
    for (uint32_t &s : later)
        s = mrc_path_set_sent(ps.get(), 0);
    for (const uint32_t s : later)
        mrc_path_set_acked(ps.get(), 0, s, 1, 0);
    EXPECT_TRUE(mrc_path_set_gap_lost(ps.get(), 0, first));
}

// A responder hears of its READ responses' loss only when they are asked for again, which a
// misjudged reordering causes too: a second request for one of an EV's responses within the
// window makes it suspect, a lone one or one outside the window does not.
TEST(PathSet, ResponsesAskedAgainTwiceInTheWindowMakeTheEvSuspect) {
    PathSet ps(4);
    ASSERT_EQ(ps.init_result(), 0);
    constexpr uint64_t kWindow = 1000;
    EXPECT_FALSE(mrc_path_set_response_lost(ps.get(), 1, 10, 100, kWindow)) << "one strike";
    EXPECT_FALSE(mrc_path_set_response_lost(ps.get(), 1, 10, 100 + kWindow + 1, kWindow))
            << "the second outside the window starts over";
    EXPECT_FALSE(ps->ev[1].flags & MRC_EV_F_SUSPECT);
    EXPECT_TRUE(mrc_path_set_response_lost(ps.get(), 1, 10, 200 + kWindow, kWindow));
    EXPECT_TRUE(ps->ev[1].flags & MRC_EV_F_SUSPECT);
    EXPECT_FALSE(mrc_path_set_usable(ps.get(), 1)) << "a suspect carries no data";
    EXPECT_EQ(ps->ev[1].losses, 1U);
    EXPECT_FALSE(mrc_path_set_response_lost(ps.get(), 1, 10, 300 + kWindow, kWindow))
            << "suspect already";
    EXPECT_FALSE(ps->ev[2].flags & MRC_EV_F_SUSPECT) << "strikes are per EV";
}

// A response sent before a send on the EV that arrived since says nothing against the EV.
TEST(PathSet, ResponseAskedAgainAfterTheEvWasProvenIsNoStrike) {
    PathSet ps(4);
    ASSERT_EQ(ps.init_result(), 0);
    const uint64_t sent = PathSet::kProvenNs - 1; // before the EV's latest proven send
    EXPECT_FALSE(mrc_path_set_response_lost(ps.get(), 2, sent, 100, 1000));
    EXPECT_FALSE(mrc_path_set_response_lost(ps.get(), 2, sent, 101, 1000));
    EXPECT_FALSE(ps->ev[2].flags & MRC_EV_F_SUSPECT);
    EXPECT_EQ(ps->ev[2].strikes, 0U);
}

TEST(PathSet, ALossMakesAGoodEvSuspectOnce) {
    PathSet ps(4);
    EXPECT_TRUE(ps.lose(2));
    EXPECT_EQ(ps->nr_suspect, 1U);
    EXPECT_FALSE(mrc_path_set_usable(ps.get(), 2));
    EXPECT_TRUE(mrc_path_set_needs_tick(ps.get()));
    EXPECT_FALSE(ps.lose(2)); // already suspect
    EXPECT_EQ(ps->nr_suspect, 1U);
    EXPECT_EQ(ps->ev[2].losses, 2U);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 2), MRC_EV_GOOD);
}

TEST(PathSet, ALossAfterWhichLaterSendsWereAckedIsNoSuspicion) {
    PathSet ps(2);
    const uint32_t lost = mrc_path_set_sent(ps.get(), 0);
    mrc_path_set_acked(ps.get(), 0, mrc_path_set_sent(ps.get(), 0), 1, 0);
    EXPECT_FALSE(mrc_path_set_lost(ps.get(), 0, lost, PathSet::kLostNs, 0));
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 0));
    EXPECT_EQ(ps->ev[0].losses, 1U);
}

TEST(PathSet, AckOfALaterSendClearsSuspicion) {
    PathSet ps(2);
    const uint32_t before = mrc_path_set_sent(ps.get(), 1);
    ASSERT_TRUE(ps.lose(1));
    mrc_path_set_acked(ps.get(), 1, before, 1, 0); // sent before the loss: proves nothing
    EXPECT_FALSE(mrc_path_set_usable(ps.get(), 1));
    mrc_path_set_acked(ps.get(), 1, mrc_path_set_sent(ps.get(), 1), 1, 0);
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 1));
    EXPECT_EQ(ps->nr_suspect, 0U);
    EXPECT_EQ(ps->alarm_ns, 0U) << "a false alarm: nothing went ASSUMED_BAD";
    EXPECT_FALSE(mrc_path_set_needs_tick(ps.get()));
}

// From the first suspicion on, new data takes only EVs proven by a send after the lost one:
// the EVs of a dead path that have lost nothing yet get no more either.
TEST(PathSet, AnAlarmKeepsNewDataOnEvsProvenSinceTheLoss) {
    PathSet ps(16);
    std::set<int64_t> seen;

    mrc_path_set_acked(ps.get(), 2, mrc_path_set_sent(ps.get(), 2), 2000, 0);
    mrc_path_set_acked(ps.get(), 5, mrc_path_set_sent(ps.get(), 5), 2000, 0);
    ASSERT_TRUE(ps.lose(9, 1500));
    EXPECT_EQ(ps->alarm_ns, 1500U);
    for (int i = 0; i < 8; i++)
        seen.insert(ps.pick());
    EXPECT_EQ(seen, (std::set<int64_t>{2, 5}));
    EXPECT_EQ(ps.pick(2), 5) << "avoided while another is vetted";
    mrc_path_set_acked(ps.get(), 7, mrc_path_set_sent(ps.get(), 7), 1600, 0); // vetted now
    seen.clear();
    for (int i = 0; i < 9; i++)
        seen.insert(ps.pick());
    EXPECT_EQ(seen, (std::set<int64_t>{2, 5, 7}));
}

// A send as old as the lost one proves nothing about the time after it: queued ahead of the
// lost packet, it crossed before the failure. Only a send strictly after the loss vets.
TEST(PathSet, ASendAsOldAsTheLostOneVetsNothing) {
    PathSet ps(16);
    std::set<int64_t> seen;

    mrc_path_set_acked(ps.get(), 4, mrc_path_set_sent(ps.get(), 4), 1500, 0); // same instant
    mrc_path_set_acked(ps.get(), 6, mrc_path_set_sent(ps.get(), 6), 1501, 0);
    ASSERT_TRUE(ps.lose(9, 1500));
    for (int i = 0; i < 4; i++)
        seen.insert(ps.pick());
    EXPECT_EQ(seen, (std::set<int64_t>{6}));
    mrc_path_set_acked(ps.get(), 4, mrc_path_set_sent(ps.get(), 4), 1500, 0);
    EXPECT_EQ(ps.pick(), 6) << "acknowledged during the alarm, but sent with the lost one";
}

// A vetting probe of an earlier alarm, answered during the next one, was sent before the
// new loss: it vets nothing.
TEST(PathSet, AVettingProbeOfAnEarlierAlarmVetsNothingInTheNext) {
    PathSet ps(4);

    ASSERT_TRUE(ps.lose(3, 1500));
    const auto probes = ps.tick(2000);
    ASSERT_NE(PathSet::probe_on(probes, 1), 0U);
    mrc_path_set_acked(ps.get(), 3, mrc_path_set_sent(ps.get(), 3), 2500, 0);
    ASSERT_EQ(ps->alarm_ns, 0U) << "a false alarm, over; the vetting probes are still out";
    ASSERT_TRUE(ps.lose(0, 5000));
    ps.answer(probes, 6000, MRC_PROFILE_EV_MAX);
    EXPECT_FALSE(ps->vetted[0] & (1ULL << 1U));
    EXPECT_FALSE(ps->vetted[0] & (1ULL << 2U));
}

// Each tick vets EVs not vetted yet with a probe; the alarm ends once every usable EV is
// vetted and no suspect is left, and the spray has the whole set again.
TEST(PathSet, AnAlarmVetsTheRestWithProbesAndEndsWhenNothingIsLeftToJudge) {
    PathSet ps(8);
    std::set<int64_t> seen;

    for (uint32_t e = 0; e < 4; e++)
        mrc_path_set_acked(ps.get(), e, mrc_path_set_sent(ps.get(), e), 2000, 0);
    ASSERT_TRUE(ps.lose(7, 1500));
    auto probes = ps.tick(10'000);
    EXPECT_NE(PathSet::probe_on(probes, 7), 0U);
    for (uint32_t e : {4U, 5U, 6U})
        EXPECT_NE(PathSet::probe_on(probes, e), 0U) << "vetting probe of " << e;
    EXPECT_EQ(probes.size(), 5U) << "and a control: 0 ... 3 are vetted already";
    ps.answer(probes, 20'000, 7);
    for (int i = 0; i < 14; i++)
        seen.insert(ps.pick());
    EXPECT_EQ(seen, (std::set<int64_t>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_NE(ps->alarm_ns, 0U) << "the suspect is not judged yet";
    for (uint64_t now = 20'000 + MRC_EV_PROBE_TIMEOUT_NS;
         ps->ev[7].state != MRC_EV_ASSUMED_BAD && now < 8 * MRC_EV_PROBE_TIMEOUT_NS;
         now += MRC_EV_PROBE_TIMEOUT_NS)
        ps.answer(ps.tick(now), now + 1000, 7);
    EXPECT_EQ(ps->ev[7].state, MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(ps->alarm_ns, 0U);
}

// The last suspect going ASSUMED_BAD is no false alarm: EVs not vetted yet still get no data.
TEST(PathSet, TheLastSuspectGoingBadKeepsTheAlarm) {
    PathSet ps(64);
    uint64_t now = 10'000;

    for (uint32_t e = 0; e < 4; e++)
        mrc_path_set_acked(ps.get(), e, mrc_path_set_sent(ps.get(), e), 2000, 0);
    ASSERT_TRUE(ps.lose(63, 1500));
    for (; ps->ev[63].state != MRC_EV_ASSUMED_BAD && now < 8 * MRC_EV_PROBE_TIMEOUT_NS;
         now += MRC_EV_PROBE_TIMEOUT_NS)
        ps.answer(ps.tick(now), now + 1000, 63); // vetting answered, the suspect's not
    ASSERT_EQ(ps->ev[63].state, MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(ps->nr_suspect, 0U);
    EXPECT_NE(ps->alarm_ns, 0U) << "EVs not vetted yet are left";
    for (int i = 0; i < 64; i++) {
        const int64_t ev = ps.pick();
        EXPECT_TRUE(ev < 4 || ps->ev[ev].probes_answered) << ev << " not vetted";
    }
}

// A vetting probe that goes unanswered makes its EV suspect, its first probe missed: one more
// miss and it is ASSUMED_BAD.
TEST(PathSet, AnUnansweredVettingProbeMakesItsEvSuspect) {
    PathSet ps(4);
    uint64_t now = 10'000;
    auto answer_others = [&](const std::vector<mrc_ev_probe> &probes) {
        mrc_ev_change change{};
        for (const mrc_ev_probe &p : probes)
            if (p.ev != 2 && p.ev != 3)
                mrc_path_set_probe_answered(ps.get(), p.ev, p.probe_id, now + 1000, &change);
    };

    mrc_path_set_acked(ps.get(), 0, mrc_path_set_sent(ps.get(), 0), 2000, 0);
    mrc_path_set_acked(ps.get(), 1, mrc_path_set_sent(ps.get(), 1), 2000, 0);
    ASSERT_TRUE(ps.lose(3, 1500));
    auto probes = ps.tick(now);
    ASSERT_NE(PathSet::probe_on(probes, 2), 0U);
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 2)) << "vetting takes nothing out of the spray";
    answer_others(probes);
    now += MRC_EV_PROBE_TIMEOUT_NS;
    probes = ps.tick(now);
    EXPECT_TRUE(ps->ev[2].flags & MRC_EV_F_SUSPECT);
    EXPECT_FALSE(mrc_path_set_usable(ps.get(), 2));
    ASSERT_NE(PathSet::probe_on(probes, 2), 0U) << "probed again at once, as a suspect";
    answer_others(probes);
    now += MRC_EV_PROBE_TIMEOUT_NS;
    ps.tick(now);
    EXPECT_EQ(ps->ev[2].state, MRC_EV_ASSUMED_BAD);
}

// A probe asks its answer back on the way the latest ACK came: a reply on a way the peer
// chooses may die on a dead path and condemn a forward path that works.
TEST(PathSet, ProbesAskForTheirAnswerOnTheWayTheLatestAckCameBack) {
    PathSet ps(4);

    ASSERT_TRUE(ps.lose(3));
    for (const mrc_ev_probe &p : ps.tick(1000))
        EXPECT_EQ(p.reply_ev, 4U) << "no ACK came back yet: the peer chooses";
    mrc_path_set_returned(ps.get(), 2, 1500);
    ASSERT_TRUE(ps.lose(1));
    const auto probes = ps.tick(2000);
    ASSERT_NE(PathSet::probe_on(probes, 1), 0U);
    for (const mrc_ev_probe &p : probes)
        EXPECT_EQ(p.reply_ev, 2U);
}

TEST(PathSet, SuspectIsProbedAtOnceWithAControlAndAnAnswerClearsIt) {
    PathSet ps(4);
    ASSERT_TRUE(ps.lose(3));
    const auto probes = ps.tick(1000);
    ASSERT_EQ(probes.size(), 2U) << "the suspect's probe and a control on a usable EV";
    const uint32_t id = PathSet::probe_on(probes, 3);
    ASSERT_NE(id, 0U);
    EXPECT_NE(probes[1].ev, 3U);
    EXPECT_TRUE(ps.tick(2000).empty()) << "one probe out at a time";
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 3, id + 7, 3000, &change))
            << "not the probe that is out";
    EXPECT_FALSE(mrc_path_set_usable(ps.get(), 3));
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 3, id, 5000, &change));
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 3));
    EXPECT_EQ(ps->ev[3].rtt_ns, 4000U);
    EXPECT_EQ(ps->ev[3].probes_answered, 1U);
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 3, id, 6000, &change))
            << "a duplicate answer counts for nothing";
    EXPECT_TRUE(ps.changes().empty()) << "no state change, no event";
}

// What the set last heard from the peer: an ACK back on an EV, or a probe answered (of any EV:
// the answer came over some way that works), never a probe that is not out.
TEST(PathSet, HeardFromThePeerByAnAckOrAProbeAnswered) {
    PathSet ps(4);
    EXPECT_EQ(mrc_path_set_heard_ns(ps.get()), 0U);
    mrc_path_set_returned(ps.get(), 2, 1500);
    EXPECT_EQ(mrc_path_set_heard_ns(ps.get()), 1500U);
    ASSERT_TRUE(ps.lose(3));
    const uint32_t id = PathSet::probe_on(ps.tick(2000), 3);
    ASSERT_NE(id, 0U);
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 3, id + 7, 2500, &change));
    EXPECT_EQ(mrc_path_set_heard_ns(ps.get()), 1500U) << "a forged answer says nothing";
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 3, id, 3000, &change));
    EXPECT_EQ(mrc_path_set_heard_ns(ps.get()), 3000U);
}

// With every EV suspect (a retransmit timeout blamed them all: every way died) the control goes
// on a suspect EV: without it no probe out could ever be judged, and the answer once a way is
// back is what the QPs wait to hear.
TEST(PathSet, WithNoEvUsableTheControlTakesASuspect) {
    PathSet ps(4);
    for (uint32_t ev = 0; ev < 4; ev++)
        ASSERT_TRUE(ps.lose(ev));
    ASSERT_EQ(ps->nr_usable, 0U);
    (void)ps.tick(1000);
    ASSERT_NE(ps->control_id, 0U) << "a control with no EV usable";
    const uint32_t ev = ps->control_ev;
    ASSERT_LT(ev, 4U);
    EXPECT_EQ(ps->ev[ev].state, MRC_EV_GOOD);
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), ev, ps->control_id, 5000, &change));
    EXPECT_EQ(mrc_path_set_heard_ns(ps.get()), 5000U);
}

// A new suspect's first probe goes out when the loss is found, not at the next tick (which is
// milliseconds away): an answer a round trip later clears an EV whose packet was only late. Its
// copies in flight stand on trial until a probe of it is missed, then they fell.
TEST(PathSet, ASuspectIsProbedWhenItsLossIsFoundAndStandsOnTrialUntilAMiss) {
    PathSet ps(4);
    mrc_ev_probe probe{};

    EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_STANDS);
    EXPECT_FALSE(mrc_path_set_probe_suspect(ps.get(), 2, 100, &probe)) << "not suspect";
    ASSERT_TRUE(ps.lose(2));
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_ON_TRIAL);
    ASSERT_TRUE(mrc_path_set_probe_suspect(ps.get(), 2, 100, &probe));
    EXPECT_EQ(probe.ev, 2U);
    EXPECT_NE(probe.probe_id, 0U);
    EXPECT_EQ(ps->ev[2].probe_ns, 100U);
    EXPECT_EQ(ps->ev[2].probes, 1U);
    mrc_ev_probe again{};
    EXPECT_FALSE(mrc_path_set_probe_suspect(ps.get(), 2, 101, &again)) << "one probe out";
    EXPECT_FALSE(mrc_path_set_probe_suspect(ps.get(), 9, 101, &again)) << "no such EV";
    // the tick sends no second probe for it, only the control that will judge it
    const auto probes = ps.tick(200);
    EXPECT_EQ(PathSet::probe_on(probes, 2), 0U);
    ASSERT_EQ(probes.size(), 1U);
    ps.answer(probes, 300, 2);
    ps.tick(300 + MRC_EV_PROBE_GRACE_NS);
    EXPECT_EQ(ps->ev[2].probes_missed, 1U);
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_FELL);
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 9), MRC_EV_STANDS) << "outside the set";

    // another suspect whose answer comes back a round trip later carries data again
    ASSERT_TRUE(ps.lose(1));
    ASSERT_TRUE(mrc_path_set_probe_suspect(ps.get(), 1, 5000, &probe));
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 1, probe.probe_id, 5010, &change));
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 1));
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 1), MRC_EV_STANDS);
    EXPECT_TRUE(ps.changes().empty());
}

// Two spines, EVs alternating: group 1 (even EVs) and group 2 (odd EVs); every EV's send at
// 1000 acknowledged at 2000, an RTT of 1000.
class Spines {
public:
    static constexpr uint32_t kRtt = 1000;

    explicit Spines(uint32_t nr_ev) : ps_(nr_ev) {
        for (uint32_t e = 0; e < nr_ev; e++) {
            EXPECT_EQ(mrc_path_set_set_group(ps_.get(), e, 1 + e % 2), 0);
            mrc_path_set_acked(ps_.get(), e, mrc_path_set_sent(ps_.get(), e), 1000, 2000);
        }
    }
    PathSet &ps() { return ps_; }
    bool lose(uint32_t ev) {
        return mrc_path_set_lost(ps_.get(), ev, mrc_path_set_sent(ps_.get(), ev), 2500, kRtt);
    }
    // what group 2 delivers is acknowledged at @now
    void group2_heard(uint64_t now) {
        for (uint32_t e = 1; e < ps_->nr_ev; e += 2)
            mrc_path_set_acked(ps_.get(), e, mrc_path_set_sent(ps_.get(), e), now - kRtt, now);
    }

private:
    PathSet ps_;
};

TEST(PathSet, TwoSuspectsOfASilentGroupCondemnItsSiblings) {
    Spines f(8);
    PathSet &ps = f.ps();

    f.group2_heard(3600); // group 1 silent since 2000, more than a round trip before
    ASSERT_TRUE(f.lose(0));
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_STANDS) << "one suspect condemns none";
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 0), MRC_EV_ON_TRIAL);
    ASSERT_TRUE(f.lose(4));
    for (uint32_t e = 0; e < 8; e += 2) {
        EXPECT_EQ(mrc_path_set_standing(ps.get(), e), MRC_EV_FELL) << e;
        EXPECT_FALSE(mrc_path_set_usable(ps.get(), e)) << e;
    }
    for (uint32_t e = 1; e < 8; e += 2)
        EXPECT_TRUE(mrc_path_set_usable(ps.get(), e)) << "the other spine carries on: " << e;
    EXPECT_EQ(ps->nr_suspect, 4U);
    EXPECT_EQ(ps->nr_usable, 4U);

    // a condemned sibling is probed like any suspect, and stands as one that missed a probe:
    // its next miss makes it ASSUMED_BAD
    const auto probes = ps.tick(4000);
    mrc_ev_change change{};

    EXPECT_NE(PathSet::probe_on(probes, 2), 0U);
    for (const mrc_ev_probe &p : probes)
        if (p.ev % 2) // the live spine answers, the dead one does not
            mrc_path_set_probe_answered(ps.get(), p.ev, p.probe_id, 4100, &change);
    ps.tick(4100 + MRC_EV_PROBE_GRACE_NS);
    for (uint32_t e = 0; e < 8; e += 2)
        EXPECT_EQ(mrc_path_set_state(ps.get(), e), MRC_EV_ASSUMED_BAD) << e;
    EXPECT_EQ(ps->nr_suspect, 0U);
}

TEST(PathSet, AGroupStillHeardOfIsNotCondemned) {
    Spines f(8);
    PathSet &ps = f.ps();

    // the suspects' own group delivered within a round trip of the latest ACK: a queue, not
    // a dead spine
    f.group2_heard(2900);
    ASSERT_TRUE(f.lose(1));
    ASSERT_TRUE(f.lose(3));
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 5), MRC_EV_STANDS);
    EXPECT_EQ(mrc_path_set_standing(ps.get(), 1), MRC_EV_ON_TRIAL);
    EXPECT_EQ(ps->nr_suspect, 2U);
}

TEST(PathSet, NoGroupsOrNoRoundTripOrNothingElseUsableCondemnsNothing) {
    {
        PathSet ps(8); // no groups
        for (uint32_t e : {0U, 2U, 4U})
            ASSERT_TRUE(mrc_path_set_lost(ps.get(), e, mrc_path_set_sent(ps.get(), e), 1, 1000));
        EXPECT_EQ(mrc_path_set_standing(ps.get(), 6), MRC_EV_STANDS);
    }
    {
        Spines f(8); // no round trip known yet
        f.group2_heard(3600);
        for (uint32_t e : {0U, 2U, 4U})
            ASSERT_TRUE(
                    mrc_path_set_lost(f.ps().get(), e, mrc_path_set_sent(f.ps().get(), e), 1, 0));
        EXPECT_EQ(mrc_path_set_standing(f.ps().get(), 6), MRC_EV_STANDS);
    }
    {
        PathSet ps(4); // one spine: it is all there is
        for (uint32_t e = 0; e < 4; e++)
            ASSERT_EQ(mrc_path_set_set_group(ps.get(), e, 7), 0);
        ASSERT_TRUE(mrc_path_set_lost(ps.get(), 0, mrc_path_set_sent(ps.get(), 0), 1, 1000));
        ASSERT_TRUE(mrc_path_set_lost(ps.get(), 1, mrc_path_set_sent(ps.get(), 1), 1, 1000));
        EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_STANDS);
    }
    PathSet ps(2);
    EXPECT_EQ(mrc_path_set_set_group(ps.get(), 2, 1), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_set_group(ps.get(), 1, 0x10000), -MRC_EINVAL);
}

TEST(PathSet, ASignOfLifeFromACondemnedGroupAbsolvesAllItsSiblings) {
    // an acknowledgement of a send on a condemned sibling
    {
        Spines f(8);
        PathSet &ps = f.ps();
        const uint32_t in_flight = mrc_path_set_sent(ps.get(), 6); // sent before condemnation

        f.group2_heard(3600);
        ASSERT_TRUE(f.lose(0));
        ASSERT_TRUE(f.lose(4));
        ASSERT_FALSE(mrc_path_set_usable(ps.get(), 6));
        mrc_path_set_acked(ps.get(), 6, in_flight, 2400, 3700);
        for (uint32_t e = 0; e < 8; e++)
            EXPECT_TRUE(mrc_path_set_usable(ps.get(), e)) << e;
        EXPECT_EQ(ps->nr_suspect, 0U);
    }
    // an answer to the probe of one of the suspects that condemned it
    {
        Spines f(8);
        PathSet &ps = f.ps();
        mrc_ev_probe probe{};
        mrc_ev_change change{};

        f.group2_heard(3600);
        ASSERT_TRUE(f.lose(0));
        ASSERT_TRUE(mrc_path_set_probe_suspect(ps.get(), 0, 3600, &probe));
        ASSERT_TRUE(f.lose(4));
        ASSERT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_FELL);
        EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, probe.probe_id, 3700, &change));
        EXPECT_EQ(ps->nr_suspect, 0U);
        EXPECT_EQ(ps->nr_usable, 8U);
        EXPECT_EQ(mrc_path_set_standing(ps.get(), 2), MRC_EV_STANDS);
    }
}

TEST(PathSet, AProbeIsMissedOnceALaterOneWasAnsweredAndAGracePassed) {
    PathSet ps(4);
    ASSERT_TRUE(ps.lose(1));
    uint64_t now = 10;
    for (uint32_t i = 0; i < MRC_EV_SUSPECT_PROBES; i++) {
        const auto probes = ps.tick(now);
        ASSERT_NE(PathSet::probe_on(probes, 1), 0U) << "probe " << i;
        ps.answer(probes, now + 500, 1); // the control answers, the suspect does not
        // judged only a grace after the control's answer
        EXPECT_TRUE(ps.tick(now + 500 + MRC_EV_PROBE_GRACE_NS - 1).empty());
        EXPECT_EQ(mrc_path_set_state(ps.get(), 1), MRC_EV_GOOD);
        now += 500 + MRC_EV_PROBE_GRACE_NS;
    }
    ps.tick(now);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 1), MRC_EV_ASSUMED_BAD);
    ASSERT_EQ(ps.changes().size(), 1U);
    EXPECT_EQ(ps.changes()[0].reason, MRC_EV_CAUSE_LOSS);
    EXPECT_EQ(ps->ev[1].changed_ns, now);
    EXPECT_EQ(ps->nr_good, 3U);
    EXPECT_EQ(ps->nr_bad, 1U);
    EXPECT_EQ(ps->nr_suspect, 0U);
    // a late answer to an old probe does not bring it back
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 1, ps->ev[1].probe_id, now + 1, &change));
}

// The probes of one tick share a time stamp but leave one after another: the first answer
// of a round judges none of the probes sent after it, the answer of the last (the control)
// judges them all.
TEST(PathSet, LaterAnswersKeepComingAndDoNotPostponeTheVerdict) {
    PathSet ps(8);
    mrc_ev_probe probe{};
    mrc_ev_change change{};

    ASSERT_TRUE(ps.lose(1));
    ASSERT_TRUE(mrc_path_set_probe_suspect(ps.get(), 1, 10, &probe));
    // every millisecond another suspect's first probe is answered (a live EV suspected for a
    // late packet): each is a later reference than EV 1's probe
    uint64_t now = 10;
    for (uint32_t e = 2; e < 8; e++) {
        now += 1000000;
        ASSERT_TRUE(ps.lose(e));
        ASSERT_TRUE(mrc_path_set_probe_suspect(ps.get(), e, now - 500, &probe));
        mrc_path_set_probe_answered(ps.get(), e, probe.probe_id, now - 400, &change);
        ps.tick(now);
    }
    // each of its probes judged a grace after the first later answer a tick saw, not a grace
    // after the latest (always 0.4 ms old here): two misses, well before the last resort
    EXPECT_EQ(mrc_path_set_state(ps.get(), 1), MRC_EV_ASSUMED_BAD);
    EXPECT_LT(now, MRC_EV_PROBE_TIMEOUT_NS);
    for (uint32_t e = 2; e < 8; e++)
        EXPECT_TRUE(mrc_path_set_usable(ps.get(), e)) << "answered: " << e;
}

TEST(PathSet, AnAnswerJudgesOnlyTheProbesSentBeforeIt) {
    PathSet ps(16);
    for (uint32_t ev = 0; ev < 6; ev++)
        ASSERT_TRUE(ps.lose(ev));
    const uint64_t now = 1000;
    auto probes = ps.tick(now);
    ASSERT_EQ(probes.size(), 7U) << "six suspects and a control";
    ASSERT_EQ(probes[0].ev, 0U);
    mrc_ev_change change{};
    ASSERT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, probes[0].probe_id, now + 500, &change));
    // long after the first answer: the others are still out, and nobody was judged
    EXPECT_TRUE(ps.tick(now + 500 + 3 * MRC_EV_PROBE_GRACE_NS).empty());
    for (uint32_t ev = 1; ev < 6; ev++)
        EXPECT_EQ(ps->ev[ev].probes_missed, 0U) << ev;
    // the control answers; EV 3's probe stays out, the rest come in
    for (std::size_t i = 1; i < probes.size(); i++) {
        if (probes[i].ev != 3) {
            ASSERT_FALSE(mrc_path_set_probe_answered(ps.get(), probes[i].ev, probes[i].probe_id,
                                                     now + 4 * MRC_EV_PROBE_GRACE_NS, &change));
        }
    }
    for (uint32_t ev = 0; ev < 6; ev++)
        EXPECT_EQ(mrc_path_set_usable(ps.get(), ev), ev != 3) << ev;
    // the grace is the control's round trip, four of MRC_EV_PROBE_GRACE_NS
    EXPECT_TRUE(ps.tick(now + 8 * MRC_EV_PROBE_GRACE_NS - 1).empty());
    probes = ps.tick(now + 8 * MRC_EV_PROBE_GRACE_NS);
    EXPECT_EQ(ps->ev[3].probes_missed, 1U) << "judged by the control, sent after it";
    EXPECT_NE(PathSet::probe_on(probes, 3), 0U) << "and probed again";
    EXPECT_TRUE(ps.changes().empty());
}

// Answers that took long lately stretch the grace: quick answers (a control's, on a path
// with a short queue) do not condemn a probe on a path as slow as one of the last epoch or
// two (MRC_EV_PROBE_HIGH_EPOCH_NS), however many they are; then the high is forgotten.
TEST(PathSet, TheGraceIsTheRecentHighOfProbeRoundTrips) {
    PathSet ps(8);
    ASSERT_TRUE(ps.lose(1));
    constexpr uint64_t slow = 30'000'000;
    constexpr uint64_t quick = 100'000;
    ps.answer(ps.tick(0), slow, MRC_PROFILE_EV_MAX);
    ASSERT_TRUE(mrc_path_set_usable(ps.get(), 1));
    EXPECT_EQ(ps->probe_rtt_high_ns, slow);
    ASSERT_TRUE(ps.lose(2));
    uint64_t t = 2 * slow;
    ps.answer(ps.tick(t), t + quick, 2); // the control answers in 100 us
    EXPECT_TRUE(ps.tick(t + quick + slow - 1).empty()) << "still in its grace";
    EXPECT_EQ(ps->ev[2].probes_missed, 0U);
    ps.tick(t + quick + slow);
    EXPECT_EQ(ps->ev[2].probes_missed, 1U) << "judged after the whole 30 ms";
    // quick answers in each of the next two epochs: the slow one is forgotten
    for (uint32_t ev = 3; ev < 5; ev++) {
        t += MRC_EV_PROBE_HIGH_EPOCH_NS;
        ASSERT_TRUE(ps.lose(ev));
        ps.answer(ps.tick(t), t + quick, MRC_PROFILE_EV_MAX);
    }
    EXPECT_LT(std::max(ps->probe_rtt_high_ns, ps->probe_rtt_prev_high_ns), slow);
}

TEST(PathSet, AStallThatDelaysEveryAnswerCondemnsNothing) {
    PathSet ps(4);
    ASSERT_TRUE(ps.lose(2));
    const auto probes = ps.tick(0);
    ASSERT_EQ(probes.size(), 2U);
    // nothing comes back for a long while: no verdict before the last resort
    for (uint64_t t = MRC_EV_PROBE_GRACE_NS; t < MRC_EV_PROBE_TIMEOUT_NS; t += 10'000'000) {
        for (const mrc_ev_probe &p : ps.tick(t))
            EXPECT_NE(p.ev, 2U) << "no second probe: the first is not judged";
    }
    EXPECT_TRUE(ps.changes().empty());
    // then both answers arrive together, the suspect's just after the control's
    ps.answer(probes, MRC_EV_PROBE_TIMEOUT_NS - 100, 2);
    mrc_ev_change change{};
    mrc_path_set_probe_answered(ps.get(), 2, PathSet::probe_on(probes, 2),
                                MRC_EV_PROBE_TIMEOUT_NS - 50, &change);
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 2));
    EXPECT_EQ(ps->ev[2].probes_missed, 0U);
}

TEST(PathSet, NothingAnsweredMarksASuspectBadAtTheLastResort) {
    PathSet ps(4);
    const uint64_t now = ps.condemn(0, 0);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(now, (MRC_EV_SUSPECT_PROBES + 1) * MRC_EV_PROBE_TIMEOUT_NS);
}

TEST(PathSet, MinActiveIsNeverUndercut) {
    PathSet ps(4, 3);
    ps.condemn(0, 0);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_ASSUMED_BAD);
    ps.condemn(1, 0);
    EXPECT_EQ(ps->nr_good, 3U);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 1), MRC_EV_GOOD);
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 1)) << "it must carry data again";
    // the controller's word is not bound by it
    mrc_ev_change change{};
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 1, true, 6, &change), 1);
    EXPECT_EQ(ps->nr_good, 2U);
}

TEST(PathSet, AssumedBadIsProbedEveryIntervalAndComesBackAfterAnswersInARow) {
    PathSet ps(2);
    uint64_t now = ps.condemn(0, 0);
    ASSERT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_ASSUMED_BAD);
    const uint64_t marked = ps->ev[0].changed_ns;
    mrc_ev_change change{};
    // its last probe is an interval old: probed now; one answer, then a miss starts over
    auto probes = ps.tick(now);
    uint32_t id = PathSet::probe_on(probes, 0);
    ASSERT_NE(id, 0U);
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, id, now + 10, &change));
    EXPECT_EQ(ps->ev[0].probes_ok, 1U);
    probes = ps.tick(now + 20); // at once after an answer
    ASSERT_NE(PathSet::probe_on(probes, 0), 0U);
    EXPECT_EQ(probes.size(), 1U) << "the first round's control is still out";
    now += 20 + MRC_EV_PROBE_CONTROL_NS;
    probes = ps.tick(now); // which went unanswered: another, to judge the probe by
    ASSERT_EQ(probes.size(), 1U);
    EXPECT_EQ(probes[0].ev, 1U);
    ps.answer(probes, now + 30, 0);
    now += 30 + MRC_EV_PROBE_GRACE_NS;
    EXPECT_EQ(PathSet::probe_on(ps.tick(now), 0), 0U) << "a miss: back to the interval";
    EXPECT_EQ(ps->ev[0].probes_ok, 0U);
    EXPECT_EQ(PathSet::probe_on(ps.tick(now + 10'000'000), 0), 0U);
    now += MRC_EV_PROBE_INTERVAL_NS;
    for (uint32_t i = 0; i < MRC_EV_PROBES_GOOD; i++, now += 100) {
        id = PathSet::probe_on(ps.tick(now), 0);
        ASSERT_NE(id, 0U) << i;
        const bool back = mrc_path_set_probe_answered(ps.get(), 0, id, now + 50, &change);
        EXPECT_EQ(back, i + 1 == MRC_EV_PROBES_GOOD) << i;
    }
    EXPECT_EQ(change.to, MRC_EV_GOOD);
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_PROBE);
    EXPECT_EQ(ps->ev[0].rtt_ns, 50U);
    EXPECT_EQ(ps->nr_good, 2U);
    EXPECT_TRUE(mrc_path_set_usable(ps.get(), 0));
    EXPECT_FALSE(mrc_path_set_needs_tick(ps.get()));
    EXPECT_GT(ps->ev[0].changed_ns, marked);
}

TEST(PathSet, AssumedBadGetsAFreshProbeEachIntervalAndAnyOfThemMayAnswer) {
    PathSet ps(2);
    uint64_t now = ps.condemn(0, 0);
    ASSERT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_ASSUMED_BAD);
    mrc_ev_change change{};
    // the control the condemnation's probes still want, answered
    ps.answer(ps.tick(now), now, 0);
    now += MRC_EV_PROBE_INTERVAL_NS;
    // three interval probes, none answered, and no control sent to judge them by
    std::vector<uint32_t> ids;
    for (int i = 0; i < 3; i++, now += MRC_EV_PROBE_INTERVAL_NS) {
        const auto probes = ps.tick(now);
        ASSERT_EQ(probes.size(), 1U) << i << ": the EV's probe and no control";
        EXPECT_EQ(probes[0].ev, 0U);
        ids.push_back(probes[0].probe_id);
        EXPECT_TRUE(ps.tick(now + MRC_EV_PROBE_INTERVAL_NS / 2).empty())
                << "not before the interval";
    }
    // the round trip was longer than the interval: the first probe's answer counts, once
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, ids[0], now, &change));
    EXPECT_EQ(ps->ev[0].probes_ok, 1U);
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, ids[0], now, &change));
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, ids[2], now, &change))
            << "once one of the probes out has counted, the rest count for nothing";
    EXPECT_EQ(ps->ev[0].probes_ok, 1U);
    EXPECT_EQ(ps->ev[0].probes_answered, 1U);
    // the rest of the confirmation, one probe at a time, at once after each answer
    for (uint32_t i = 1; i < MRC_EV_PROBES_GOOD; i++) {
        const uint32_t id = PathSet::probe_on(ps.tick(now + 1), 0);
        ASSERT_NE(id, 0U) << i;
        EXPECT_EQ(mrc_path_set_probe_answered(ps.get(), 0, id, now + 2, &change),
                  i + 1 == MRC_EV_PROBES_GOOD);
        now += 2;
    }
    EXPECT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_GOOD);
}

TEST(PathSet, ProbeIdsAreUnpredictableAndMatchedExactly) {
    // two sets alike but for their secret: their probes' ids have nothing in common
    PathSet ps(2);
    PathSet other(2);
    mrc_path_set_seed_probe_ids(ps.get(), 0x0123456789abcdefULL);
    mrc_path_set_seed_probe_ids(other.get(), 0xfedcba9876543210ULL);
    uint64_t now = ps.condemn(0, 0);
    ps.answer(ps.tick(now), now, 0);
    other.condemn(0, 0);
    other.answer(other.tick(now), now, 0);
    now += MRC_EV_PROBE_INTERVAL_NS;
    const uint32_t id = PathSet::probe_on(ps.tick(now), 0);
    const uint32_t next = PathSet::probe_on(ps.tick(now + MRC_EV_PROBE_INTERVAL_NS), 0);
    const uint32_t other_id = PathSet::probe_on(other.tick(now), 0);
    ASSERT_NE(id, 0U);
    ASSERT_LE(id, MRC_PATH_PROBE_ID_MAX);
    EXPECT_NE(id, other_id);
    const uint32_t step = next - id;
    EXPECT_GT(std::min(step, 0U - step), 1000U) << "one probe's id does not tell the next";
    // a forger who knows one id out and tries its neighbours, and every id of a sample
    mrc_ev_change change{};
    for (const uint32_t guess : {id - 1, id + 1, next - 1, next + 1, other_id})
        EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, guess, now, &change)) << guess;
    for (uint32_t guess = 1; guess < (1U << 20); guess += 7) {
        if (guess != id && guess != next) {
            ASSERT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, guess, now, &change)) << guess;
        }
    }
    EXPECT_EQ(ps->ev[0].probes_ok, 0U);
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, id, now, &change));
    EXPECT_EQ(ps->ev[0].probes_ok, 1U) << "the exact id counts";
}

TEST(PathSet, ProbeIdsCarryTheSetsTagAndItTakesNoOtherTagsAnswers) {
    EXPECT_EQ(mrc_path_set_set_probe_tag(PathSet(2).get(), MRC_PROBE_TAGS), -MRC_EINVAL);
    // two path sets towards one peer, alike but for their tags, both searching on EV 0
    PathSet one(2);
    PathSet two(2);
    ASSERT_EQ(mrc_path_set_set_probe_tag(one.get(), 1), 0);
    ASSERT_EQ(mrc_path_set_set_probe_tag(two.get(), 2), 0);
    uint64_t now = 0;
    for (PathSet *ps : {&one, &two}) {
        now = ps->condemn(0, 0);
        ps->answer(ps->tick(now), now, 0);
    }
    now += MRC_EV_PROBE_INTERVAL_NS;
    const uint32_t id_one = PathSet::probe_on(one.tick(now), 0);
    const uint32_t id_two = PathSet::probe_on(two.tick(now), 0);
    ASSERT_EQ(id_one >> MRC_PROBE_TAG_SHIFT, 1U);
    ASSERT_EQ(id_two >> MRC_PROBE_TAG_SHIFT, 2U);
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(one.get(), 0, id_two, now, &change));
    EXPECT_FALSE(mrc_path_set_probe_answered(
            one.get(), 0, 2U << MRC_PROBE_TAG_SHIFT | (id_one & MRC_PROBE_SEQ_MAX), now, &change));
    EXPECT_EQ(one->ev[0].probes_ok, 0U) << "the other set's answer, or its tag on ours";
    EXPECT_FALSE(
            mrc_path_set_probe_answered(one.get(), 0, 1U << MRC_PROBE_TAG_SHIFT, now, &change));
    EXPECT_EQ(one->ev[0].probes_ok, 0U) << "sequence 0 is never given out";
    EXPECT_FALSE(mrc_path_set_probe_answered(one.get(), 0, id_one, now, &change));
    EXPECT_EQ(one->ev[0].probes_ok, 1U);
    EXPECT_EQ(two->ev[0].probes_ok, 0U);
}

TEST(PathSet, ASearchingEvsProbesOutAreItsRecentOnesOnly) {
    PathSet ps(2);
    uint64_t now = ps.condemn(0, 0);
    ps.answer(ps.tick(now), now, 0);
    // MRC_PROBE_IDS_OUT + 1 interval probes, none answered
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i <= MRC_PROBE_IDS_OUT; i++) {
        now += MRC_EV_PROBE_INTERVAL_NS;
        ids.push_back(PathSet::probe_on(ps.tick(now), 0));
        ASSERT_NE(ids.back(), 0U) << i;
    }
    mrc_ev_change change{};
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, ids[0], now, &change))
            << "older than the probes kept out";
    EXPECT_EQ(ps->ev[0].probes_ok, 0U);
    EXPECT_FALSE(mrc_path_set_probe_answered(ps.get(), 0, ids[1], now, &change));
    EXPECT_EQ(ps->ev[0].probes_ok, 1U) << "the oldest id still out";
}

TEST(PathSet, IntervalProbesOfAssumedBadEvsKeepToABudget) {
    constexpr uint32_t bad = 3 * MRC_EV_PROBE_BUDGET;
    PathSet ps(256);
    for (uint32_t ev = 0; ev < bad; ev++)
        ASSERT_TRUE(ps.lose(ev));
    // nothing is ever answered: every suspect goes ASSUMED_BAD at the last resort
    uint64_t now = 0;
    for (int i = 0; i < 10'000 && ps->nr_bad < bad; i++, now += MRC_EV_PROBE_TIMEOUT_NS / 4)
        ps.tick(now);
    ASSERT_EQ(ps->nr_bad, bad);
    // An interval's probes of ASSUMED_BAD EVs (unanswered, they stay out: nothing judges a
    // probe of an EV that has had no answer since it was marked).
    mrc_ev_change change{};
    const auto interval = [&](uint64_t start) {
        std::set<uint32_t> probed;
        for (uint64_t i = 0; i < 100; i++) {
            for (const mrc_ev_probe &p : ps.tick(start + i)) {
                if (p.ev < bad)
                    probed.insert(p.ev);
                else
                    mrc_path_set_probe_answered(ps.get(), p.ev, p.probe_id, start + i, &change);
            }
        }
        ps.tick(start + 100 + MRC_EV_PROBE_GRACE_NS);
        return probed;
    };
    now += MRC_EV_PROBE_TIMEOUT_NS + MRC_EV_PROBE_INTERVAL_NS; // every one of them is due
    const std::set<uint32_t> first = interval(now);
    EXPECT_EQ(first.size(), MRC_EV_PROBE_BUDGET) << "one interval's budget";
    for (const uint32_t ev : first)
        EXPECT_NE(ps->ev[ev].flags & MRC_EV_F_PROBING, 0U) << ev << " still out";
    // the next interval begins with those left out, not with the first ones again
    const std::set<uint32_t> second = interval(now + MRC_EV_PROBE_INTERVAL_NS);
    EXPECT_EQ(second.size(), MRC_EV_PROBE_BUDGET);
    for (const uint32_t ev : second)
        EXPECT_FALSE(first.contains(ev)) << ev << " probed in both intervals";
}

TEST(PathSet, TickStopsWhenItsArraysAreFullAndGoesOnNextTime) {
    PathSet ps(32);
    for (uint32_t e = 0; e < 16; e++)
        ASSERT_TRUE(ps.lose(e));
    std::set<uint32_t> probed;
    for (int round = 0; round < 3; round++) {
        const auto probes = ps.tick(0);
        EXPECT_LE(probes.size(), 8U);
        for (const mrc_ev_probe &p : probes)
            if (p.ev < 16)
                probed.insert(p.ev);
    }
    EXPECT_EQ(probed.size(), 16U) << "7 and a control per tick, each tick going on";
}

TEST(PathSet, DeniedEvsAreNeverProbedNorPicked) {
    PathSet ps(3);
    mrc_ev_change change{};
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 3, true, 1, &change), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 0, false, 1, &change), 0); // not denied
    ASSERT_TRUE(ps.lose(0));
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 1);
    EXPECT_EQ(ps->nr_suspect, 0U) << "denied: no longer suspect";
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 0);
    EXPECT_FALSE(ps.lose(0));
    EXPECT_TRUE(ps.tick(5).empty());
    EXPECT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_DENIED);
    for (int i = 0; i < 10; i++)
        EXPECT_NE(ps.pick(), 0);
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, false, 3, &change), 1);
    EXPECT_EQ(change.from, MRC_EV_DENIED);
    EXPECT_EQ(change.to, MRC_EV_GOOD);
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_CONTROLLER);
    EXPECT_EQ(ps->nr_good, 3U);
    EXPECT_EQ(ps->nr_usable, 3U);
}

TEST(PathSet, NothingUsableFallsBackToTheOthersThenNothing) {
    PathSet ps(3);
    ps.condemn(0, 0);
    ASSERT_TRUE(ps.lose(1)); // suspect
    mrc_ev_change change{};
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 2, true, 1, &change), 1);
    ASSERT_EQ(ps->nr_usable, 0U);
    std::map<int64_t, int> hits;
    for (int i = 0; i < 10; i++) {
        hits[ps.pick(1)]++;
        EXPECT_EQ(ps.last_rc(), 1);
    }
    EXPECT_EQ(hits[0], 10); // 1 is avoided while 0 will do, 2 is denied
    // suspect and ASSUMED_BAD in turn: no single suspect EV takes everything
    EXPECT_EQ(ps.pick(), 1);
    EXPECT_EQ(ps.pick(), 0);
    EXPECT_EQ(ps.pick(), 1);
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 1);
    EXPECT_EQ(ps.pick(1), 1); // the avoided one, since nothing else is left
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 1, true, 1, &change), 1);
    EXPECT_EQ(ps.pick(), -1);
    EXPECT_EQ(ps.last_rc(), -MRC_ENOENT);
}

TEST(PathSet, TimeRule) {
    EXPECT_FALSE(mrc_path_time_lost(1000, 1000, 100));
    EXPECT_FALSE(mrc_path_time_lost(1000, 1100, 100));
    EXPECT_TRUE(mrc_path_time_lost(1000, 1101, 100));
    EXPECT_FALSE(mrc_path_time_lost(2000, 1000, 100)); // sent after the newest acked one
}

// A fabric of 8 paths; EV i rides path i % 8. The sender sprays one packet per pick every
// kGap; packets on a dead path vanish, the others are acknowledged one RTT later. Loss
// detection is the pair of rules of Documentation/multipath.rst (same-EV gap and time), and
// every kTick the path set's probes go out; a probe on a live path is answered after an RTT.
class Fabric {
public:
    static constexpr uint32_t kPaths = 8;
    static constexpr uint32_t kEvs = 256;
    static constexpr uint64_t kRtt = 100'000;    // ns
    static constexpr uint64_t kGap = 10'000;     // ns between sends
    static constexpr uint64_t kReorder = 25'000; // a quarter RTT
    static constexpr uint64_t kTick = 1'000'000;

    explicit Fabric(uint32_t min_active = 16) : ps_(kEvs, min_active) {}

    // Send for @ns; return how many packets went on @path.
    uint32_t send_for(uint64_t ns, uint32_t path) {
        uint32_t on_path = 0;
        for (const uint64_t end = now_ + ns; now_ < end;) {
            const int64_t ev = ps_.pick();
            EXPECT_GE(ev, 0);
            const auto e = static_cast<uint32_t>(ev);
            on_path += e % kPaths == path ? 1 : 0;
            const uint32_t seq = mrc_path_set_sent(ps_.get(), e);
            flight_.push_back({e, seq, now_, !dead_[e % kPaths]});
            advance(kGap);
        }
        return on_path;
    }

    // Let time pass with nothing sent.
    void idle(uint64_t ns) {
        for (const uint64_t end = now_ + ns; now_ < end;)
            advance(kGap);
    }

    void set_dead(uint32_t path, bool dead) { dead_[path] = dead; }

    [[nodiscard]] uint32_t bad_on(uint32_t path) {
        uint32_t n = 0;
        for (uint32_t e = path; e < kEvs; e += kPaths)
            n += mrc_path_set_state(ps_.get(), e) == MRC_EV_ASSUMED_BAD ? 1 : 0;
        return n;
    }
    [[nodiscard]] uint32_t good() { return ps_->nr_good; }
    [[nodiscard]] size_t changes() { return ps_.changes().size(); }

private:
    struct Flight {
        uint32_t ev;
        uint32_t seq;
        uint64_t sent;
        bool arrives;
    };
    struct Probe {
        mrc_ev_probe probe;
        uint64_t answer_at;
    };

    void advance(uint64_t ns) {
        now_ += ns;
        if (now_ >= next_tick_) {
            for (const mrc_ev_probe &p : ps_.tick(now_)) {
                if (!dead_[p.ev % kPaths])
                    probes_.push_back({p, now_ + kRtt});
            }
            next_tick_ = now_ + kTick;
        }
        deliver();
    }

    // Acknowledge what has had an RTT to arrive, then judge what is still missing.
    void deliver() {
        for (Flight &f : flight_) {
            if (f.arrives && now_ >= f.sent + kRtt) {
                mrc_path_set_acked(ps_.get(), f.ev, f.seq, 1, 0);
                newest_acked_sent_ = std::max(newest_acked_sent_, f.sent);
                f.ev = kDone;
            }
        }
        for (Flight &f : flight_) {
            if (f.ev == kDone)
                continue;
            if (mrc_path_set_gap_lost(ps_.get(), f.ev, f.seq) ||
                mrc_path_time_lost(f.sent, newest_acked_sent_, kReorder)) {
                mrc_path_set_lost(ps_.get(), f.ev, f.seq, PathSet::kLostNs, 0);
                f.ev = kDone; // resent elsewhere by the QP
            }
        }
        std::erase_if(flight_, [](const Flight &f) { return f.ev == kDone; });
        mrc_ev_change change{};
        for (Probe &p : probes_) {
            if (now_ >= p.answer_at) {
                if (mrc_path_set_probe_answered(ps_.get(), p.probe.ev, p.probe.probe_id, now_,
                                                &change))
                    ps_.changes().push_back(change);
                p.answer_at = kDone;
            }
        }
        std::erase_if(probes_, [](const Probe &p) { return p.answer_at == kDone; });
    }

    static constexpr uint32_t kDone = ~0U;
    PathSet ps_;
    std::vector<Flight> flight_;
    std::vector<Probe> probes_;
    std::array<bool, kPaths> dead_{};
    uint64_t now_ = 0;
    uint64_t next_tick_ = 0;
    uint64_t newest_acked_sent_ = 0;
};

TEST(PathSetFabric, DeadPathIsBypassedAndProbedBack) {
    Fabric f;
    constexpr uint32_t kPerPath = Fabric::kEvs / Fabric::kPaths;
    const uint64_t round = Fabric::kEvs * Fabric::kGap; // one visit of every EV
    EXPECT_EQ(f.send_for(4 * round, 3), 4 * kPerPath);  // even spray
    EXPECT_EQ(f.changes(), 0U);

    f.set_dead(3, true);
    // One loss per EV, then its probes' timeouts.
    f.send_for(round + (MRC_EV_SUSPECT_PROBES + 1) * MRC_EV_PROBE_TIMEOUT_NS, 3);
    EXPECT_EQ(f.bad_on(3), kPerPath) << "every EV of the dead path";
    EXPECT_EQ(f.good(), Fabric::kEvs - kPerPath);
    EXPECT_EQ(f.changes(), kPerPath) << "no live EV was marked on the way";
    EXPECT_EQ(f.send_for(2 * round, 3), 0U) << "nothing more on the dead path";

    // Probes of a dead path fail; once it is back, they restore it within an interval.
    f.send_for(2 * MRC_EV_PROBE_INTERVAL_NS, 3);
    EXPECT_EQ(f.bad_on(3), kPerPath);
    f.set_dead(3, false);
    f.idle(MRC_EV_PROBE_INTERVAL_NS + uint64_t{MRC_EV_PROBES_GOOD} * 2 * Fabric::kTick);
    EXPECT_EQ(f.bad_on(3), 0U);
    EXPECT_EQ(f.good(), Fabric::kEvs);
    EXPECT_EQ(f.send_for(round, 3), kPerPath) << "used again";
    f.idle(2 * Fabric::kRtt);
    EXPECT_EQ(f.bad_on(3), 0U);
}

TEST(PathSetFabric, MinActiveHoldsWhenMostPathsDie) {
    Fabric f(40);
    for (uint32_t p = 0; p < Fabric::kPaths; p++)
        f.set_dead(p, p != 0);
    f.send_for(4 * MRC_EV_PROBE_INTERVAL_NS, 0);
    EXPECT_EQ(f.good(), 40U) << "every dead EV it may mark, and not one more";
}

} // namespace
