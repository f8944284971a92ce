// SPDX-License-Identifier: BSD-2-Clause
// Host tests of mrcctl's value parsers: numbers in ranges, EV bytes, addresses, keywords,
// devices, and the Args cursor.
#include "args.h"
#include "devices.h"
#include "names.h"

#include <gtest/gtest.h>

#include <linux/mrc.h>

namespace mrc::ctl {
namespace {

// The message of the UsageError FN throws ("" when it throws none).
template <typename Fn> std::string refusal(Fn fn) {
    try {
        fn();
    } catch (const UsageError &e) {
        return e.what();
    }
    return "";
}

TEST(parse_number, decimal_and_hex) {
    EXPECT_EQ(parse_number("0", 0, 10, "n"), 0U);
    EXPECT_EQ(parse_number("10", 0, 10, "n"), 10U);
    EXPECT_EQ(parse_number("0x1f", 0, 100, "n"), 31U);
    EXPECT_EQ(parse_number("0XFF", 0, 255, "n"), 255U);
    EXPECT_EQ(parse_u32("4294967295", 0, UINT32_MAX, "n"), UINT32_MAX);
}

TEST(parse_number, range_is_inclusive) {
    EXPECT_EQ(refusal([] { parse_number("11", 0, 10, "profile"); }),
              "profile '11' out of range: expected profile from 0 to 10");
    EXPECT_EQ(refusal([] { parse_number("0", 1, 10, "id"); }),
              "id '0' out of range: expected id from 1 to 10");
    EXPECT_EQ(refusal([] { parse_u32("4294967296", 0, UINT32_MAX, "n"); }),
              "n '4294967296' out of range: expected n from 0 to 4294967295");
    EXPECT_NE(refusal([] { parse_number("99999999999999999999999", 0, UINT64_MAX, "n"); }), "");
}

TEST(parse_number, refuses_what_is_not_a_number) {
    for (const char *w : {"", "-1", "+1", "1x", "x1", "0x", " 1", "1 ", "1.0", "0x1g"})
        EXPECT_EQ(refusal([w] { parse_number(w, 0, 100, "n"); }).rfind("invalid n '", 0), 0U) << w;
}

TEST(parse_ev_bytes, hex_most_significant_first) {
    EXPECT_EQ(parse_ev_bytes("c000"), (std::vector<std::uint8_t>{0xc0, 0x00}));
    EXPECT_EQ(parse_ev_bytes("0xC0A8"), (std::vector<std::uint8_t>{0xc0, 0xa8}));
    EXPECT_EQ(parse_ev_bytes("01:02:ff"), (std::vector<std::uint8_t>{1, 2, 0xff}));
    EXPECT_EQ(parse_ev_bytes(std::string(64, 'a')).size(), 32U);
}

TEST(parse_ev_bytes, srv6_segments_as_ipv6_text) {
    const auto one = parse_ev_bytes("fc00:e1::7");
    ASSERT_EQ(one.size(), 16U);
    EXPECT_EQ(one[0], 0xfc);
    EXPECT_EQ(one[3], 0xe1);
    EXPECT_EQ(one[15], 7);
    const auto two = parse_ev_bytes("fc00:e1::7,2001:db8:2::1");
    ASSERT_EQ(two.size(), 32U);
    EXPECT_EQ(two[16], 0x20);
    EXPECT_EQ(two[31], 1);
    EXPECT_EQ(refusal([] { parse_ev_bytes("fc00::1,fc00::2,fc00::3"); }),
              "invalid EV bytes 'fc00::1,fc00::2,fc00::3': at most two IPv6 addresses "
              "(destination,segment)");
    EXPECT_EQ(refusal([] { parse_ev_bytes("fc00::zz"); }),
              "invalid EV bytes 'fc00::zz': 'fc00::zz' is no IPv6 address");
}

TEST(parse_ev_bytes, refusals) {
    EXPECT_EQ(refusal([] { parse_ev_bytes(std::string(66, 'a')); }),
              "invalid EV bytes '" + std::string(66, 'a') + "': more than 32 bytes");
    EXPECT_EQ(refusal([] { parse_ev_bytes("abc"); }),
              "invalid EV bytes 'abc': odd number of hex digits");
    EXPECT_EQ(refusal([] { parse_ev_bytes("zz"); }), "invalid EV bytes 'zz': expected hex digits");
    EXPECT_EQ(refusal([] { parse_ev_bytes("0x"); }),
              "invalid EV bytes '0x': expected 1 to 32 bytes in hex");
    EXPECT_NE(refusal([] { parse_ev_bytes(""); }), "");
    EXPECT_NE(refusal([] { parse_ev_bytes(":01"); }), "");
    EXPECT_NE(refusal([] { parse_ev_bytes("01:"); }), "");
    EXPECT_EQ(parse_ev_bytes("01::02").size(), 16U); // "::": an IPv6 address, not bytes
    EXPECT_NE(refusal([] { parse_ev_bytes("0g"); }), "");
}

TEST(parse_addr, ipv6_to_16_bytes) {
    const Addr16 a = parse_addr("2001:db8:a::1");
    const Addr16 want{0x20, 0x01, 0x0d, 0xb8, 0, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    EXPECT_EQ(a, want);
    EXPECT_EQ(format_addr(a), "2001:db8:a::1");
    EXPECT_EQ(parse_addr("::"), Addr16{});
}

TEST(parse_addr, ipv4_is_mapped) {
    const Addr16 a = parse_addr("10.11.0.2");
    const Addr16 want{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 11, 0, 2};
    EXPECT_EQ(a, want);
    EXPECT_EQ(format_addr(a), "10.11.0.2");
    EXPECT_EQ(parse_addr("::ffff:10.11.0.2"), want);
}

TEST(parse_addr, refusals) {
    for (const char *w :
         {"", "10.11.0", "10.11.0.256", "2001:db8::g", "host", "1.2.3.4/24", "2001:db8:::1"}) {
        EXPECT_EQ(refusal([w] { parse_addr(w); }),
                  "invalid address '" + std::string(w) + "': expected IPv6 or IPv4")
                << w;
    }
}

TEST(format_addr, wrong_length) {
    EXPECT_EQ(format_addr(std::vector<std::uint8_t>{1, 2, 3, 4}), "?");
}

TEST(parse_keyword, states) {
    EXPECT_EQ(parse_keyword("good", names::ev_state, "state"), MRC_EV_STATE_GOOD);
    EXPECT_EQ(parse_keyword("assumed-bad", names::ev_state, "state"), MRC_EV_STATE_ASSUMED_BAD);
    EXPECT_EQ(parse_keyword("denied", names::ev_state, "state"), MRC_EV_STATE_DENIED);
    EXPECT_EQ(refusal([] { parse_keyword("bad", names::ev_state, "state"); }),
              "invalid state 'bad': expected good|assumed-bad|denied");
    EXPECT_EQ(keyword_name(MRC_EV_STATE_DENIED, names::ev_state), "denied");
    EXPECT_EQ(keyword_name(99, names::ev_state), "unknown(99)");
}

TEST(names, masks) {
    EXPECT_EQ(names::mask_names(0, names::ev_state), "none");
    EXPECT_EQ(names::mask_names(MRC_EV_STATE_GOOD | MRC_EV_STATE_DENIED, names::ev_state),
              "good,denied");
    EXPECT_EQ(names::mask_names(MRC_EV_STATE_GOOD | 64U, names::ev_state), "good,64");
    EXPECT_EQ(names::parse_mask("good,assumed-bad", names::ev_state, "m"),
              MRC_EV_STATE_GOOD | MRC_EV_STATE_ASSUMED_BAD);
    EXPECT_EQ(names::parse_mask("none", names::ev_state, "m"), 0U);
    EXPECT_NE(refusal([] { names::parse_mask("good,", names::ev_state, "m"); }), "");
}

TEST(parse_dev, name_or_index) {
    EXPECT_EQ(parse_dev("mrc0").name, "mrc0");
    const DevRef r = parse_dev("3");
    EXPECT_TRUE(r.name.empty());
    EXPECT_EQ(r.index, 3U);
    EXPECT_NE(refusal([] { parse_dev(""); }), "");
    EXPECT_NE(refusal([] { parse_dev(std::string(64, 'm')); }), "");
    EXPECT_EQ(parse_dev(std::string(63, 'm')).name.size(), 63U);
    EXPECT_NE(refusal([] { parse_dev("99999999999"); }), "");
}

TEST(resolve_dev, by_name_and_by_index) {
    std::vector<DevInfo> devs(2);
    devs[0].index = 0;
    devs[0].name = "mrcsta";
    devs[1].index = 5;
    devs[1].name = "mrc1";
    EXPECT_EQ(resolve_dev(devs, parse_dev("mrcsta")), 0U);
    EXPECT_EQ(resolve_dev(devs, parse_dev("mrc1")), 5U);
    EXPECT_EQ(resolve_dev(devs, parse_dev("5")), 5U);
    EXPECT_EQ(resolve_dev(devs, parse_dev("0")), 0U);
    try {
        resolve_dev(devs, parse_dev("nosuch"));
        ADD_FAILURE() << "no refusal";
    } catch (const Failure &e) {
        EXPECT_STREQ(e.what(), "unknown device 'nosuch'");
    }
    EXPECT_THROW(resolve_dev(devs, parse_dev("1")), Failure);
    EXPECT_THROW(resolve_dev({}, parse_dev("0")), Failure);
}

TEST(Args, cursor) {
    const std::vector<std::string> w{"dev", "mrc0"};
    Args a(w);
    EXPECT_EQ(a.peek(), "dev");
    EXPECT_EQ(a.next("x"), "dev");
    EXPECT_EQ(a.value_of("dev"), "mrc0");
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.peek(), "");
    EXPECT_EQ(refusal([&a] { a.value_of("index"); }), "missing value after 'index'");
    EXPECT_EQ(refusal([&a] { a.next("OBJECT"); }), "missing OBJECT");
}

} // namespace
} // namespace mrc::ctl
