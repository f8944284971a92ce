// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Generated EVs: the OCP field expansion, mixed-radix numbering, and the checks a controller's
// fields must pass.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <vector>

extern "C" {
#include "mrc_ev_gen.h"
}

namespace {

using Ev = std::array<uint8_t, MRC_EV_BYTES>;

Ev generate(const std::vector<mrc_ev_field> &f, uint32_t index) {
    Ev ev{};
    EXPECT_EQ(mrc_ev_generate(f.data(), static_cast<uint32_t>(f.size()), index, ev.data()), 0)
            << "index " << index;
    return ev;
}

uint32_t top32(const Ev &ev) {
    return (uint32_t{ev[0]} << 24) | (uint32_t{ev[1]} << 16) | (uint32_t{ev[2]} << 8) | ev[3];
}

const char *check(const std::vector<mrc_ev_field> &f, uint32_t bits) {
    const char *why = nullptr;
    const int r = mrc_ev_fields_check(f.data(), static_cast<uint32_t>(f.size()), bits, &why);
    EXPECT_EQ(r == 0, why == nullptr);
    return why;
}

TEST(EvGen, ExpandFillsMaskPositionsMostSignificantFirst) {
    const mrc_ev_field f{.width = 8, .init = 0b1000'0001, .min = 0, .max = 7, .mask = 0b0101'0100};
    EXPECT_EQ(mrc_ev_expand_field(&f, 0b000), 0b1000'0001U);
    EXPECT_EQ(mrc_ev_expand_field(&f, 0b100), 0b1100'0001U);
    EXPECT_EQ(mrc_ev_expand_field(&f, 0b010), 0b1001'0001U);
    EXPECT_EQ(mrc_ev_expand_field(&f, 0b001), 0b1000'0101U);
    EXPECT_EQ(mrc_ev_expand_field(&f, 0b111), 0b1101'0101U);
    // a mask bit over an init bit that is set: the generated bit wins
    const mrc_ev_field g{.width = 4, .init = 0xf, .min = 0, .max = 3, .mask = 0x6};
    EXPECT_EQ(mrc_ev_expand_field(&g, 0), 0x9U);
    const mrc_ev_field wide{.width = 32, .init = 0, .min = 0, .max = 0, .mask = 0xffffffffU};
    EXPECT_EQ(mrc_ev_expand_field(&wide, 0xdeadbeefU), 0xdeadbeefU);
}

// The STEV example of the OCP API: tiers of 8, 4 and 4 bits.
TEST(EvGen, ThreeTierStevFirstTierVariesFastest) {
    const std::vector<mrc_ev_field> f = {
            {.width = 8, .init = 0, .min = 0, .max = 179, .mask = 0xff},
            {.width = 4, .init = 0, .min = 0, .max = 15, .mask = 0xf},
            {.width = 4, .init = 0, .min = 0, .max = 15, .mask = 0xf},
    };
    EXPECT_EQ(check(f, 32), nullptr);
    EXPECT_EQ(mrc_ev_fields_count(f.data(), 3), 180U * 16 * 16);
    EXPECT_EQ(top32(generate(f, 0)), 0x0000'0000U);
    EXPECT_EQ(top32(generate(f, 1)), 0x0100'0000U);
    EXPECT_EQ(top32(generate(f, 179)), 0xb300'0000U);
    EXPECT_EQ(top32(generate(f, 180)), 0x0010'0000U); // tier 1 moves once tier 0 wrapped
    EXPECT_EQ(top32(generate(f, 180 * 16)), 0x0001'0000U);
    EXPECT_EQ(top32(generate(f, 180 * 16 * 16 - 1)), 0xb3ff'0000U);
    Ev ev{};
    EXPECT_EQ(mrc_ev_generate(f.data(), 3, 180 * 16 * 16, ev.data()), -MRC_EINVAL);
}

TEST(EvGen, EveryIndexGivesADistinctEv) {
    const std::vector<mrc_ev_field> f = {
            {.width = 3, .init = 0, .min = 1, .max = 6, .mask = 0x7},
            {.width = 5, .init = 0x10, .min = 0, .max = 3, .mask = 0x3},
            {.width = 8, .init = 0xab, .min = 0, .max = 0, .mask = 0},
    };
    ASSERT_EQ(check(f, 16), nullptr);
    const uint32_t n = mrc_ev_fields_count(f.data(), 3);
    ASSERT_EQ(n, 24U);
    std::set<uint32_t> seen;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t v = top32(generate(f, i)) >> 16;
        EXPECT_EQ(v & 0xff, 0xabU) << "the fixed field";
        EXPECT_GE(v >> 13, 1U);
        EXPECT_LE(v >> 13, 6U);
        EXPECT_EQ((v >> 8) & 0x1c, 0x10U) << "init bits outside the mask stay";
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), n);
}

// An SRv6 uSID container: locator fc00:0000 (fixed), a spine uSID e000..e007, the
// destination's uSID d001 (fixed), the rest zero.
TEST(EvGen, SrV6MicroSidContainer) {
    const std::vector<mrc_ev_field> f = {
            {.width = 32, .init = 0xfc000000U, .min = 0, .max = 0, .mask = 0},
            {.width = 16, .init = 0xe000, .min = 0, .max = 7, .mask = 0x000f},
            {.width = 16, .init = 0xd001, .min = 0, .max = 0, .mask = 0},
    };
    ASSERT_EQ(check(f, 128), nullptr);
    ASSERT_EQ(mrc_ev_fields_count(f.data(), 3), 8U);
    const Ev ev = generate(f, 5);
    const Ev want = {0xfc, 0x00, 0x00, 0x00, 0xe0, 0x05, 0xd0, 0x01};
    EXPECT_EQ(ev, want);
}

TEST(EvGen, ChecksRefuseWhatTheApiForbids) {
    using F = mrc_ev_field;
    EXPECT_STREQ(check({}, 16), "a generated profile needs 1 to 8 fields");
    EXPECT_STREQ(
            check(std::vector<F>(9, F{.width = 1, .init = 0, .min = 0, .max = 0, .mask = 0}), 16),
            "a generated profile needs 1 to 8 fields");
    EXPECT_STREQ(check({{.width = 0, .init = 0, .min = 0, .max = 0, .mask = 0}}, 16),
                 "field width must be 1 to 32 bits");
    EXPECT_STREQ(check({{.width = 33, .init = 0, .min = 0, .max = 0, .mask = 0}}, 64),
                 "field width must be 1 to 32 bits");
    EXPECT_STREQ(check({{.width = 4, .init = 0x10, .min = 0, .max = 0, .mask = 0}}, 16),
                 "field init value is wider than the field");
    EXPECT_STREQ(check({{.width = 4, .init = 0, .min = 0, .max = 1, .mask = 0x10}}, 16),
                 "field mask has bits outside the field");
    EXPECT_STREQ(check({{.width = 4, .init = 0, .min = 3, .max = 2, .mask = 0xf}}, 16),
                 "field min is above max");
    EXPECT_STREQ(check({{.width = 4, .init = 0, .min = 0, .max = 4, .mask = 0x3}}, 16),
                 "field max is wider than its mask");
    EXPECT_STREQ(check({{.width = 16, .init = 0, .min = 0, .max = 1, .mask = 1},
                        {.width = 1, .init = 0, .min = 0, .max = 0, .mask = 0}},
                       16),
                 "fields are wider than the EV format");
    EXPECT_EQ(check({{.width = 32, .init = 0, .min = 0, .max = 0xffffffffU, .mask = ~0U}}, 32),
              nullptr);
    EXPECT_EQ(
            mrc_ev_fields_count(
                    std::vector<F>(
                            2, F{.width = 32, .init = 0, .min = 0, .max = 0xffffffffU, .mask = ~0U})
                            .data(),
                    2),
            0xffffffffU);
}

} // namespace
