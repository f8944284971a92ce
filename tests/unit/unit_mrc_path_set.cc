// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// EV path sets: selection, per-EV loss bookkeeping, the state machine, ev_min_active; and a
// small fabric in which one path dies and comes back.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
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
    }
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

    // Lose @n transmissions on @ev in a row; whether the EV changed state.
    bool lose(uint32_t ev, int n, mrc_ev_change *change) {
        bool changed = false;
        for (int i = 0; i < n; i++) {
            mrc_path_set_sent(&ps_, ev);
            changed = mrc_path_set_lost(&ps_, ev, 1000, change) || changed;
        }
        return changed;
    }

private:
    std::vector<mrc_ev_health> ev_;
    std::vector<uint64_t> good_;
    mrc_path_set ps_{};
    mrc_ev_cursor cur_{};
    int init_result_ = 0;
    int last_rc_ = 0;
};

TEST(PathSet, InitRejectsBadArguments) {
    std::array<mrc_ev_health, 8> ev{};
    std::array<uint64_t, 1> good{};
    mrc_path_set ps{};
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 0, 0, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 8, 9, 0), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_init(&ps, ev.data(), good.data(), 1, 8, 0, 7), -MRC_EINVAL);
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
    ASSERT_TRUE(ps.lose(99, MRC_EV_BAD_LOSSES, &change));
    EXPECT_EQ(change.ev, 99U);
    EXPECT_EQ(change.from, MRC_EV_GOOD);
    EXPECT_EQ(change.to, MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_LOSS);
    EXPECT_EQ(ps->nr_good, 97U);
    for (int i = 0; i < 1000; i++) {
        const int64_t ev = ps.pick();
        EXPECT_NE(ev, 63);
        EXPECT_NE(ev, 64);
        EXPECT_NE(ev, 99);
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

TEST(PathSet, SameEvGapNeedsReorderLaterAcks) {
    PathSet ps(2);
    std::array<uint32_t, 6> seq{};
    for (uint32_t &s : seq)
        s = mrc_path_set_sent(ps.get(), 1);
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[0])); // nothing acked yet
    for (uint32_t k = 1; k <= MRC_EV_REORDER; k++) {
        EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[0])) << k;
        mrc_path_set_acked(ps.get(), 1, seq[k]);
    }
    EXPECT_TRUE(mrc_path_set_gap_lost(ps.get(), 1, seq[0]));
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 1, seq[1])); // acked itself: not after it
    EXPECT_FALSE(mrc_path_set_gap_lost(ps.get(), 0, 0));      // another EV knows nothing
    // an old acknowledgement does not move acked_seq back
    mrc_path_set_acked(ps.get(), 1, seq[1]);
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
        mrc_path_set_acked(ps.get(), 0, s);
    EXPECT_TRUE(mrc_path_set_gap_lost(ps.get(), 0, first));
}

TEST(PathSet, LossesMustBeRecentToMarkBad) {
    PathSet ps(4);
    mrc_ev_change change{};
    EXPECT_FALSE(ps.lose(2, MRC_EV_BAD_LOSSES - 1, &change));
    // enough good news pushes the old losses out of the history
    for (uint32_t i = 0; i < MRC_EV_HISTORY; i++)
        mrc_path_set_acked(ps.get(), 2, mrc_path_set_sent(ps.get(), 2));
    EXPECT_FALSE(ps.lose(2, MRC_EV_BAD_LOSSES - 1, &change));
    EXPECT_EQ(mrc_path_set_state(ps.get(), 2), MRC_EV_GOOD);
    EXPECT_TRUE(ps.lose(2, 1, &change));
    EXPECT_EQ(mrc_path_set_state(ps.get(), 2), MRC_EV_ASSUMED_BAD);
    EXPECT_EQ(ps->ev[2].losses, 2ULL * (MRC_EV_BAD_LOSSES - 1) + 1);
}

TEST(PathSet, MinActiveIsNeverUndercut) {
    PathSet ps(4, 3);
    mrc_ev_change change{};
    EXPECT_TRUE(ps.lose(0, MRC_EV_BAD_LOSSES, &change));
    EXPECT_FALSE(ps.lose(1, 10, &change));
    EXPECT_FALSE(mrc_path_set_timed_out(ps.get(), 2, 5, &change));
    EXPECT_EQ(ps->nr_good, 3U);
    EXPECT_EQ(mrc_path_set_state(ps.get(), 1), MRC_EV_GOOD);
    // the controller's word is not bound by it
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 1, true, 6, &change), 1);
    EXPECT_EQ(ps->nr_good, 2U);
}

TEST(PathSet, TimeoutMarksGoodEvsOnly) {
    PathSet ps(3);
    mrc_ev_change change{};
    EXPECT_TRUE(mrc_path_set_timed_out(ps.get(), 1, 77, &change));
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_TIMEOUT);
    EXPECT_EQ(ps->ev[1].changed_ns, 77U);
    EXPECT_FALSE(mrc_path_set_timed_out(ps.get(), 1, 78, &change)); // already bad
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 2, true, 1, &change), 1);
    EXPECT_FALSE(mrc_path_set_timed_out(ps.get(), 2, 79, &change));
    EXPECT_EQ(mrc_path_set_state(ps.get(), 2), MRC_EV_DENIED);
}

TEST(PathSet, ProbesInARowBringAnEvBack) {
    PathSet ps(2);
    mrc_ev_change change{};
    ASSERT_TRUE(ps.lose(0, MRC_EV_BAD_LOSSES, &change));
    for (uint32_t i = 1; i < MRC_EV_PROBES_GOOD; i++)
        EXPECT_FALSE(mrc_path_set_probed(ps.get(), 0, true, 5000, 10, &change));
    EXPECT_FALSE(mrc_path_set_probed(ps.get(), 0, false, 0, 11, &change)); // starts over
    for (uint32_t i = 1; i < MRC_EV_PROBES_GOOD; i++)
        EXPECT_FALSE(mrc_path_set_probed(ps.get(), 0, true, 5000, 12, &change));
    EXPECT_TRUE(mrc_path_set_probed(ps.get(), 0, true, 4000, 13, &change));
    EXPECT_EQ(change.to, MRC_EV_GOOD);
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_PROBE);
    EXPECT_EQ(ps->ev[0].rtt_ns, 4000U);
    EXPECT_EQ(ps->nr_good, 2U);
    // a GOOD EV's probes only measure
    EXPECT_FALSE(mrc_path_set_probed(ps.get(), 1, true, 3000, 14, &change));
    EXPECT_EQ(ps->ev[1].rtt_ns, 3000U);
    // and one that came back starts with a clean history
    EXPECT_FALSE(ps.lose(0, MRC_EV_BAD_LOSSES - 1, &change));
}

TEST(PathSet, DeniedEvsAreNeverProbedBackNorPicked) {
    PathSet ps(3);
    mrc_ev_change change{};
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 3, true, 1, &change), -MRC_EINVAL);
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 0, false, 1, &change), 0); // not denied
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 1);
    EXPECT_EQ(mrc_path_set_deny(ps.get(), 0, true, 1, &change), 0);
    for (uint32_t i = 0; i < 2 * MRC_EV_PROBES_GOOD; i++)
        EXPECT_FALSE(mrc_path_set_probed(ps.get(), 0, true, 1, 2, &change));
    EXPECT_EQ(mrc_path_set_state(ps.get(), 0), MRC_EV_DENIED);
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 0, false, 3, &change), 1);
    EXPECT_EQ(change.from, MRC_EV_DENIED);
    EXPECT_EQ(change.to, MRC_EV_GOOD);
    EXPECT_EQ(change.reason, MRC_EV_CAUSE_CONTROLLER);
    EXPECT_EQ(ps->nr_good, 3U);
}

TEST(PathSet, NothingGoodFallsBackToAssumedBadThenNothing) {
    PathSet ps(3);
    mrc_ev_change change{};
    ASSERT_TRUE(ps.lose(0, MRC_EV_BAD_LOSSES, &change));
    ASSERT_TRUE(ps.lose(1, MRC_EV_BAD_LOSSES, &change));
    ASSERT_EQ(mrc_path_set_deny(ps.get(), 2, true, 1, &change), 1);
    ASSERT_EQ(ps->nr_good, 0U);
    std::map<int64_t, int> hits;
    for (int i = 0; i < 10; i++) {
        hits[ps.pick(1)]++;
        EXPECT_EQ(ps.last_rc(), 1);
    }
    EXPECT_EQ(hits[0], 10); // 1 is avoided while 0 will do, 2 is denied
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

// A fabric of 8 paths; EV i rides path i % 8. Every round the sender sprays one packet per
// pick; packets on a dead path vanish, the others are acknowledged one RTT later. Loss
// detection is the pair of rules of Documentation/multipath.rst: same-EV gap and time.
class Fabric {
public:
    static constexpr uint32_t kPaths = 8;
    static constexpr uint32_t kEvs = 256;
    static constexpr uint64_t kRtt = 100'000;    // ns
    static constexpr uint64_t kGap = 1'000;      // ns between sends
    static constexpr uint64_t kReorder = 25'000; // a quarter RTT

    Fabric() : ps_(kEvs, 16) {}

    // Send @n packets; return how many went on @path.
    uint32_t send(uint32_t n, uint32_t path) {
        uint32_t on_path = 0;
        for (uint32_t i = 0; i < n; i++) {
            const int64_t ev = ps_.pick();
            EXPECT_GE(ev, 0);
            const auto e = static_cast<uint32_t>(ev);
            on_path += e % kPaths == path ? 1 : 0;
            const uint32_t seq = mrc_path_set_sent(ps_.get(), e);
            flight_.push_back({e, seq, now_, !dead_[e % kPaths]});
            now_ += kGap;
            deliver();
        }
        return on_path;
    }

    // Let time pass with nothing sent.
    void idle(uint64_t ns) {
        now_ += ns;
        deliver();
    }

    void set_dead(uint32_t path, bool dead) { dead_[path] = dead; }

    // Probe every ASSUMED_BAD EV once (answered when its path is alive).
    void probe() {
        mrc_ev_change change{};
        for (uint32_t e = 0; e < kEvs; e++) {
            if (mrc_path_set_state(ps_.get(), e) == MRC_EV_ASSUMED_BAD &&
                mrc_path_set_probed(ps_.get(), e, !dead_[e % kPaths], kRtt, now_, &change))
                changes_.push_back(change);
        }
    }

    [[nodiscard]] uint32_t bad_on(uint32_t path) {
        uint32_t n = 0;
        for (uint32_t e = path; e < kEvs; e += kPaths)
            n += mrc_path_set_state(ps_.get(), e) == MRC_EV_ASSUMED_BAD ? 1 : 0;
        return n;
    }
    [[nodiscard]] uint32_t good() { return ps_->nr_good; }
    [[nodiscard]] size_t changes() const { return changes_.size(); }

private:
    struct Flight {
        uint32_t ev;
        uint32_t seq;
        uint64_t sent;
        bool arrives;
    };

    // Acknowledge what has had an RTT to arrive, then judge what is still missing.
    void deliver() {
        for (Flight &f : flight_) {
            if (f.arrives && now_ >= f.sent + kRtt) {
                mrc_path_set_acked(ps_.get(), f.ev, f.seq);
                newest_acked_sent_ = std::max(newest_acked_sent_, f.sent);
                f.ev = kDone;
            }
        }
        mrc_ev_change change{};
        for (Flight &f : flight_) {
            if (f.ev == kDone)
                continue;
            if (mrc_path_set_gap_lost(ps_.get(), f.ev, f.seq) ||
                mrc_path_time_lost(f.sent, newest_acked_sent_, kReorder)) {
                if (mrc_path_set_lost(ps_.get(), f.ev, now_, &change))
                    changes_.push_back(change);
                f.ev = kDone; // resent elsewhere by the QP
            }
        }
        std::erase_if(flight_, [](const Flight &f) { return f.ev == kDone; });
    }

    static constexpr uint32_t kDone = ~0U;
    PathSet ps_;
    std::vector<Flight> flight_;
    std::array<bool, kPaths> dead_{};
    std::vector<mrc_ev_change> changes_;
    uint64_t now_ = 0;
    uint64_t newest_acked_sent_ = 0;
};

TEST(PathSetFabric, DeadPathIsBypassedAndProbedBack) {
    Fabric f;
    EXPECT_EQ(f.send(4 * Fabric::kEvs, 3), 4 * Fabric::kEvs / Fabric::kPaths); // even spray
    EXPECT_EQ(f.changes(), 0U);

    f.set_dead(3, true);
    // Three losses per EV take three visits of the round robin, plus an RTT to notice.
    f.send(4 * Fabric::kEvs, 3);
    EXPECT_EQ(f.bad_on(3), Fabric::kEvs / Fabric::kPaths) << "every EV of the dead path";
    EXPECT_EQ(f.good(), Fabric::kEvs - Fabric::kEvs / Fabric::kPaths);
    for (uint32_t p = 0; p < Fabric::kPaths; p++) {
        if (p != 3) {
            EXPECT_EQ(f.bad_on(p), 0U) << "path " << p << " is fine";
        }
    }
    EXPECT_EQ(f.send(2 * Fabric::kEvs, 3), 0U) << "nothing more on the dead path";

    // Probes of a dead path fail; once it is back, MRC_EV_PROBES_GOOD rounds restore it.
    f.probe();
    EXPECT_EQ(f.bad_on(3), Fabric::kEvs / Fabric::kPaths);
    f.set_dead(3, false);
    for (uint32_t i = 0; i < MRC_EV_PROBES_GOOD; i++)
        f.probe();
    EXPECT_EQ(f.bad_on(3), 0U);
    EXPECT_EQ(f.good(), Fabric::kEvs);
    EXPECT_EQ(f.send(Fabric::kEvs, 3), Fabric::kEvs / Fabric::kPaths) << "used again";
    f.idle(2 * Fabric::kRtt);
    EXPECT_EQ(f.bad_on(3), 0U);
}

TEST(PathSetFabric, MinActiveHoldsWhenMostPathsDie) {
    Fabric f; // min_active 16
    for (uint32_t p = 0; p < Fabric::kPaths; p++)
        f.set_dead(p, p != 0);
    f.send(8 * Fabric::kEvs, 0);
    EXPECT_GE(f.good(), 16U);
}

} // namespace
