// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The way back along a received segment routing header: transit segments reversed, and no
// way back from a header that is malformed, not at its end or names what cannot be routed.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

extern "C" {
#include "mrc_srh.h"
}

namespace {

using Sid = std::array<uint8_t, MRC_PROF_SID_BYTES>;

Sid sid(uint8_t node, uint8_t low) {
    Sid s{0xfc, 0x00, 0x00, node};
    s[15] = low;
    return s;
}

// An SRH as it reaches its last segment: segment 0 is the receiver, 1..n the transit nodes
// (n visited first), segments left 0, with @extra bytes of TLVs after the list.
std::vector<uint8_t> srh(const std::vector<Sid> &segs, size_t extra = 0) {
    std::vector<uint8_t> b(MRC_SRH_FIXED_BYTES);
    const size_t body = segs.size() * MRC_PROF_SID_BYTES + extra;
    b[0] = 17; // UDP follows
    b[1] = static_cast<uint8_t>(body / 8);
    b[2] = MRC_SRH_TYPE;
    b[3] = 0;
    b[4] = static_cast<uint8_t>(segs.size() - 1);
    for (const Sid &s : segs)
        b.insert(b.end(), s.begin(), s.end());
    b.resize(b.size() + extra);
    return b;
}

int reverse(const std::vector<uint8_t> &b, mrc_ev_srv6 *back) {
    return mrc_srh_reverse(b.data(), b.size(), back);
}

Sid of(const mrc_ev_srv6 &ev, int i) {
    Sid s;
    std::copy(ev.sid[i], ev.sid[i] + MRC_PROF_SID_BYTES, s.begin());
    return s;
}

const Sid self = sid(0xaa, 1);

TEST(SrhReverse, OneTransitNodeIsTheWayBack) {
    mrc_ev_srv6 back{};
    ASSERT_EQ(reverse(srh({self, sid(3, 7)}), &back), 0);
    EXPECT_EQ(back.nr_sids, 1);
    EXPECT_EQ(of(back, 0), sid(3, 7));
}

TEST(SrhReverse, TwoTransitNodesInTheOppositeOrder) {
    // sent [self, S2, S1]: S1 visited first, then S2; back: S2 first, then S1
    mrc_ev_srv6 back{};
    ASSERT_EQ(reverse(srh({self, sid(2, 0), sid(1, 0)}), &back), 0);
    EXPECT_EQ(back.nr_sids, 2);
    EXPECT_EQ(of(back, 0), sid(2, 0));
    EXPECT_EQ(of(back, 1), sid(1, 0));
}

TEST(SrhReverse, TlvsAfterTheListAreIgnored) {
    mrc_ev_srv6 back{};
    ASSERT_EQ(reverse(srh({self, sid(3, 7)}, 8), &back), 0);
    EXPECT_EQ(of(back, 0), sid(3, 7));
}

TEST(SrhReverse, NoWayBackWithoutTransitSegments) {
    mrc_ev_srv6 back{};
    EXPECT_EQ(reverse(srh({self}), &back), -MRC_EINVAL);
}

TEST(SrhReverse, NoWayBackOverMoreSegmentsThanAnEvHolds) {
    mrc_ev_srv6 back{};
    EXPECT_EQ(reverse(srh({self, sid(3, 0), sid(2, 0), sid(1, 0)}), &back), -MRC_EINVAL);
}

TEST(SrhReverse, RefusesOtherRoutingTypesAndSegmentsLeft) {
    mrc_ev_srv6 back{};
    auto b = srh({self, sid(3, 7)});
    b[2] = 0; // type 0 (deprecated source route)
    EXPECT_EQ(reverse(b, &back), -MRC_EINVAL);
    b = srh({self, sid(3, 7)});
    b[3] = 1; // not at its end
    EXPECT_EQ(reverse(b, &back), -MRC_EINVAL);
}

TEST(SrhReverse, RefusesWhatDoesNotFit) {
    mrc_ev_srv6 back{};
    const auto b = srh({self, sid(3, 7)});
    for (size_t len = 0; len < b.size(); len++)
        EXPECT_EQ(mrc_srh_reverse(b.data(), len, &back), -MRC_EINVAL) << len;
    // a last entry beyond the header's own length
    auto lie = b;
    lie[4] = 2;
    EXPECT_EQ(reverse(lie, &back), -MRC_EINVAL);
}

TEST(SrhReverse, RefusesUnroutableSegments) {
    mrc_ev_srv6 back{};
    Sid multicast = sid(3, 7);
    multicast[0] = 0xff;
    EXPECT_EQ(reverse(srh({self, multicast}), &back), -MRC_EINVAL);
    EXPECT_EQ(reverse(srh({self, Sid{}}), &back), -MRC_EINVAL);
    Sid link_local{0xfe, 0x80};
    link_local[15] = 1;
    EXPECT_EQ(reverse(srh({self, sid(2, 0), link_local}), &back), -MRC_EINVAL);
}

TEST(SrhReverse, NoWayBackLeavesTheOutputAlone) {
    mrc_ev_srv6 back{};
    back.nr_sids = 1;
    back.sid[0][0] = 0xab;
    Sid multicast = sid(3, 7);
    multicast[0] = 0xff;
    EXPECT_EQ(reverse(srh({self, sid(2, 0), multicast}), &back), -MRC_EINVAL);
    EXPECT_EQ(back.nr_sids, 1);
    EXPECT_EQ(back.sid[0][0], 0xab);
    EXPECT_EQ(back.sid[1][0], 0);
}

} // namespace
