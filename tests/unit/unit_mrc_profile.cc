// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// EV format profiles and EV profiles: the checks a controller's profile must pass, and the UDP
// ports an EV profile yields.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
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

} // namespace
