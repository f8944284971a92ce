// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// EV format profiles and EV profiles: the checks a controller's profile must pass, and the UDP
// ports an EV profile yields.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "mrc_profile.h"
}

namespace {

std::string why_of(int r, const char *why) {
    EXPECT_EQ(r == 0, why == nullptr);
    return why ? why : "";
}

std::string fmt_check(uint32_t mode, const std::vector<uint32_t> &w) {
    const char *why = nullptr;
    const int r = mrc_prof_fmt_check(mode, w.data(), static_cast<uint32_t>(w.size()), &why);
    return why_of(r, why);
}

TEST(ProfFmt, BitsPerMode) {
    EXPECT_EQ(mrc_prof_fmt_bits(MRC_PROF_FMT_UDP), 16U);
    EXPECT_EQ(mrc_prof_fmt_bits(MRC_PROF_FMT_STEV), 32U);
    EXPECT_EQ(mrc_prof_fmt_bits(MRC_PROF_FMT_SRV6), 256U);
    EXPECT_EQ(mrc_prof_fmt_bits(3), 0U);
    EXPECT_EQ(mrc_prof_fmt_bits(0), 0U);
}

TEST(ProfFmt, Check) {
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_UDP, {}), "");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_UDP, {8, 8}), "");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_UDP, {8, 9}), "fields are wider than the EV format");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_STEV, {16, 16}), "");
    EXPECT_EQ(fmt_check(3, {}), "unknown EV format mode");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_UDP, {0}), "field width must be 1 to 32 bits");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_SRV6, {33}), "field width must be 1 to 32 bits");
    EXPECT_EQ(fmt_check(MRC_PROF_FMT_SRV6, std::vector<uint32_t>(9, 1)),
              "an EV format has at most 8 fields");
}

std::string state_check(uint32_t from, uint32_t to) {
    const char *why = nullptr;
    const int r = mrc_prof_state_check(from, to, &why);
    return why_of(r, why);
}

TEST(ProfState, OneStepAtATime) {
    EXPECT_EQ(state_check(MRC_PROF_INIT, MRC_PROF_OFFLINE), "");
    EXPECT_EQ(state_check(MRC_PROF_OFFLINE, MRC_PROF_ONLINE), "");
    EXPECT_EQ(state_check(MRC_PROF_ONLINE, MRC_PROF_OFFLINE), "");
    EXPECT_EQ(state_check(MRC_PROF_OFFLINE, MRC_PROF_INIT), "");
    EXPECT_EQ(state_check(MRC_PROF_ONLINE, MRC_PROF_ONLINE), "");
    EXPECT_NE(state_check(MRC_PROF_INIT, MRC_PROF_ONLINE), "");
    EXPECT_NE(state_check(MRC_PROF_ONLINE, MRC_PROF_INIT), "");
    EXPECT_EQ(state_check(MRC_PROF_OFFLINE, 3), "unknown profile state");
}

std::string counts_check(uint32_t count, uint32_t min_active) {
    const char *why = nullptr;
    const int r = mrc_prof_counts_check(count, min_active, &why);
    return why_of(r, why);
}

TEST(ProfCounts, CountAndMinActive) {
    EXPECT_EQ(counts_check(1, 1), "");
    EXPECT_EQ(counts_check(1, 0), "");
    EXPECT_EQ(counts_check(4096, 4096), "");
    EXPECT_EQ(counts_check(0, 0), "an EV profile needs at least one EV");
    EXPECT_EQ(counts_check(4097, 1), "an EV profile holds at most 4096 EVs");
    EXPECT_EQ(counts_check(2, 3), "min-active is above the profile's EV count");
}

TEST(ProfUdp, ExplicitPortIsTwoBytesBigEndian) {
    const std::array<uint8_t, 3> b{0xc0, 0x01, 0xff};
    uint16_t port = 0;
    const char *why = nullptr;
    EXPECT_EQ(mrc_prof_udp_port(b.data(), 2, &port, &why), 0);
    EXPECT_EQ(port, 0xc001);
    EXPECT_EQ(why, nullptr);
    port = 7;
    EXPECT_NE(mrc_prof_udp_port(b.data(), 1, &port, &why), 0);
    EXPECT_STREQ(why, "a UDP EV is 2 bytes, the source port big-endian");
    EXPECT_NE(mrc_prof_udp_port(b.data(), 3, &port, &why), 0);
    EXPECT_EQ(port, 7) << "nothing written on a refusal";
}

TEST(ProfUdp, GeneratedPorts) {
    // 0xc0 in the top byte, the low 2 bits of the second byte counting 0..3
    const std::array<mrc_ev_field, 2> f{
            mrc_ev_field{.width = 8, .init = 0xc0, .min = 0, .max = 0, .mask = 0},
            mrc_ev_field{.width = 8, .init = 0x10, .min = 0, .max = 3, .mask = 0x03}};
    std::array<uint16_t, 4> ports{};
    const char *why = nullptr;
    // the first field varies fastest: it has one value, so the second one counts
    ASSERT_EQ(mrc_prof_gen_udp_ports(f.data(), 2, 4, ports.data(), &why), 0) << why;
    EXPECT_EQ(ports, (std::array<uint16_t, 4>{0xc010, 0xc011, 0xc012, 0xc013}));
    EXPECT_NE(mrc_prof_gen_udp_ports(f.data(), 2, 5, ports.data(), &why), 0);
    EXPECT_STREQ(why, "the fields generate fewer EVs than count");
}

TEST(ProfUdp, GeneratedFieldsMustFitTheFormat) {
    const mrc_ev_field f{.width = 17, .init = 0, .min = 0, .max = 1, .mask = 1};
    uint16_t port = 0;
    const char *why = nullptr;
    EXPECT_NE(mrc_prof_gen_udp_ports(&f, 1, 1, &port, &why), 0);
    EXPECT_STREQ(why, "fields are wider than the EV format");
    EXPECT_NE(mrc_prof_gen_udp_ports(&f, 0, 1, &port, &why), 0);
    EXPECT_NE(why, nullptr);
}

TEST(ProfUdp, AutoPortsFrom49152) {
    std::vector<uint16_t> ports(MRC_PROF_AUTO_EVS);
    const char *why = nullptr;
    ASSERT_EQ(mrc_prof_auto_ports(MRC_PROF_AUTO_EVS, ports.data(), &why), 0);
    EXPECT_EQ(ports.front(), 49152);
    EXPECT_EQ(ports.back(), 49152 + 255);
    EXPECT_EQ(why, nullptr);
}

// fc00:e<spine>::<n>, as the SRv6 fabric's spines own their SIDs
std::array<uint8_t, 16> sid(uint8_t spine, uint8_t n) {
    std::array<uint8_t, 16> a{};
    a[0] = 0xfc;
    a[3] = static_cast<uint8_t>(0xe0 | spine);
    a[15] = n;
    return a;
}

TEST(ProfSrv6, OneOrTwoSegments) {
    const auto s1 = sid(1, 7);
    const auto s2 = sid(2, 9);
    std::vector<uint8_t> b(s1.begin(), s1.end());
    mrc_ev_srv6 ev{};
    const char *why = nullptr;
    ASSERT_EQ(mrc_prof_srv6_ev(b.data(), 16, &ev, &why), 0) << why;
    EXPECT_EQ(ev.nr_sids, 1);
    EXPECT_EQ(0, memcmp(ev.sid[0], s1.data(), 16));
    b.insert(b.end(), s2.begin(), s2.end());
    ASSERT_EQ(mrc_prof_srv6_ev(b.data(), 32, &ev, &why), 0) << why;
    EXPECT_EQ(ev.nr_sids, 2);
    EXPECT_EQ(0, memcmp(ev.sid[1], s2.data(), 16));
    for (const uint32_t len : {0U, 2U, 15U, 17U, 31U}) {
        EXPECT_NE(mrc_prof_srv6_ev(b.data(), len, &ev, &why), 0) << len;
        EXPECT_STREQ(why, "an SRV6 EV is 16 bytes (a destination) or 32 (and one SRH segment)");
    }
}

TEST(ProfSrv6, SegmentsMustBeRoutable) {
    const char *why = nullptr;
    mrc_ev_srv6 ev{};
    std::array<uint8_t, 16> a{}; // ::
    EXPECT_NE(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    EXPECT_STREQ(why, "an SRV6 EV's segments are routable unicast IPv6 addresses");
    a[15] = 1; // ::1
    EXPECT_NE(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    a[15] = 2; // ::2 is unicast
    EXPECT_EQ(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    a = {0xff, 0x02}; // multicast
    EXPECT_NE(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    a = {0xfe, 0x80}; // link-local
    EXPECT_NE(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    a = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1}; // IPv4-mapped
    EXPECT_NE(mrc_prof_srv6_ev(a.data(), 16, &ev, &why), 0);
    // a bad second segment fails the EV too
    std::vector<uint8_t> b(32, 0);
    const auto s1 = sid(1, 1);
    std::copy(s1.begin(), s1.end(), b.begin());
    EXPECT_NE(mrc_prof_srv6_ev(b.data(), 32, &ev, &why), 0);
}

TEST(ProfSrv6, GeneratedOverSpinesFirst) {
    // fc00:e<1..4>:: then the low 8 bits counting 0..63: the spine varies fastest
    const mrc_ev_field zero{.width = 32, .init = 0, .min = 0, .max = 0, .mask = 0};
    const std::array<mrc_ev_field, 4> f{
            mrc_ev_field{.width = 32, .init = 0xfc0000e0, .min = 1, .max = 4, .mask = 0x7}, zero,
            zero, mrc_ev_field{.width = 32, .init = 0, .min = 0, .max = 63, .mask = 0xff}};
    std::array<uint32_t, 4> widths{32, 32, 32, 32};
    EXPECT_EQ(mrc_prof_srv6_bits(widths.data(), 4), 128U);
    widths[3] = 33;
    EXPECT_EQ(mrc_prof_srv6_bits(widths.data(), 4), 256U);
    std::vector<mrc_ev_srv6> evs(256);
    const char *why = nullptr;
    ASSERT_EQ(mrc_prof_gen_srv6(f.data(), 4, 128, 256, evs.data(), &why), 0) << why;
    for (uint32_t i = 0; i < 256; i++) {
        const auto want = sid(static_cast<uint8_t>(1 + i % 4), static_cast<uint8_t>(i / 4));
        EXPECT_EQ(evs[i].nr_sids, 1);
        EXPECT_EQ(0, memcmp(evs[i].sid[0], want.data(), 16)) << i;
    }
    EXPECT_NE(mrc_prof_gen_srv6(f.data(), 4, 128, 257, evs.data(), &why), 0);
}

TEST(ProfStev, LabelBitsThenPort) {
    const std::array<uint8_t, 4> b{0x12, 0x34, 0xc0, 0x01};
    uint16_t port = 0;
    uint16_t label = 0;
    const char *why = nullptr;
    ASSERT_EQ(mrc_prof_stev_ev(b.data(), 4, &port, &label, &why), 0) << why;
    EXPECT_EQ(label, 0x1234);
    EXPECT_EQ(port, 0xc001);
    EXPECT_NE(mrc_prof_stev_ev(b.data(), 2, &port, &label, &why), 0);
    EXPECT_STREQ(why, "a STEV EV is 4 bytes: 16 bits of flow label, then the UDP source port");
}

TEST(ProfStev, GeneratedLabelsUnderOnePort) {
    // the label bits count 1..4 (the first field varies fastest), the port stays 0xc000
    const std::array<mrc_ev_field, 2> f{
            mrc_ev_field{.width = 16, .init = 0, .min = 1, .max = 4, .mask = 0xff},
            mrc_ev_field{.width = 16, .init = 0xc000, .min = 0, .max = 0, .mask = 0}};
    std::array<uint16_t, 4> ports{};
    std::array<uint16_t, 4> labels{};
    const char *why = nullptr;
    ASSERT_EQ(mrc_prof_gen_stev(f.data(), 2, 4, ports.data(), labels.data(), &why), 0) << why;
    EXPECT_EQ(labels, (std::array<uint16_t, 4>{1, 2, 3, 4}));
    EXPECT_EQ(ports, (std::array<uint16_t, 4>{0xc000, 0xc000, 0xc000, 0xc000}));
    const mrc_ev_field wide{.width = 32, .init = 0, .min = 0, .max = 1, .mask = 1};
    const std::array<mrc_ev_field, 2> too_wide{wide, wide};
    EXPECT_NE(mrc_prof_gen_stev(too_wide.data(), 2, 1, ports.data(), labels.data(), &why), 0);
    EXPECT_STREQ(why, "fields are wider than the EV format");
}

} // namespace
