// SPDX-License-Identifier: BSD-2-Clause
// Host tests of mrcctl's grammar: what each command line turns into (the request that would be
// sent) and every refusal, with no kernel.
#include "cli.h"

#include <gtest/gtest.h>

#include <linux/mrc.h>

namespace mrc::ctl {
namespace {

std::vector<std::string> words(std::string_view line) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < line.size()) {
        const std::size_t sp = line.find(' ', i);
        out.emplace_back(line.substr(i, sp == std::string_view::npos ? line.size() - i : sp - i));
        if (sp == std::string_view::npos)
            break;
        i = sp + 1;
    }
    return out;
}

CommandLine parse(std::string_view line) {
    const auto w = words(line);
    return parse_command_line(w);
}

Invocation inv(std::string_view line) {
    return parse(line).invocation;
}

std::string refusal(std::string_view line) {
    try {
        parse(line);
    } catch (const UsageError &e) {
        return e.what();
    }
    return "";
}

TEST(options, json_pretty_help) {
    EXPECT_TRUE(parse("-j dev show").options.json);
    EXPECT_FALSE(parse("dev show").options.json);
    EXPECT_TRUE(parse("-j -p dev show").options.pretty);
    EXPECT_TRUE(parse("--json dev show").options.json);
    EXPECT_EQ(inv("--help").action, Action::Help);
    EXPECT_EQ(inv("help").action, Action::Help);
    EXPECT_NE(inv("help").help.find("ev-profile add"), std::string::npos);
    EXPECT_EQ(refusal("-x dev show"), "unknown option '-x'");
    EXPECT_EQ(refusal("-j"), "missing OBJECT (try 'mrcctl help')");
}

TEST(objects, unknown_object_and_command) {
    EXPECT_EQ(refusal("frob"), "unknown object 'frob' (try 'mrcctl help')");
    EXPECT_EQ(refusal("ev frob"), "ev: unknown command 'frob'");
    EXPECT_EQ(refusal("ev"), "ev: missing command (try 'mrcctl ev help')");
    EXPECT_EQ(refusal("stats frob"), "stats: unknown command 'frob'");
}

TEST(objects, help_per_object) {
    for (const char *o : {"dev", "plane", "ev", "path", "stats", "monitor", "ev-fmt-profile",
                          "ev-profile", "probe"}) {
        const Invocation h = inv(std::string(o) + " help");
        EXPECT_EQ(h.action, Action::Help) << o;
        EXPECT_EQ(h.help.rfind("usage: mrcctl " + std::string(o), 0), 0U) << h.help;
        EXPECT_EQ(inv(std::string(o) + " --help").action, Action::Help) << o;
    }
    EXPECT_EQ(inv("ev show help").action, Action::Help);
}

TEST(dev, show) {
    const Invocation all = inv("dev show");
    EXPECT_EQ(all.action, Action::DevShow);
    EXPECT_EQ(all.request.cmd, MRC_CMD_DEV_GET);
    EXPECT_TRUE(all.request.dump);
    EXPECT_FALSE(all.dev);
    const Invocation one = inv("dev show mrc0");
    EXPECT_FALSE(one.request.dump);
    ASSERT_TRUE(one.dev);
    EXPECT_EQ(one.dev->name, "mrc0");
    EXPECT_EQ(one.dev_attr, MRC_A_DEV_INDEX);
    EXPECT_EQ(inv("dev").action, Action::DevShow);
    EXPECT_EQ(inv("dev 2").dev->index, 2U);
    EXPECT_EQ(refusal("dev show mrc0 extra"), "dev show: unexpected 'extra'");
}

TEST(ev, show) {
    const Invocation i = inv("ev show dev mrc0 profile 3 dst 10.0.0.1 state denied");
    EXPECT_EQ(i.action, Action::EvShow);
    EXPECT_EQ(i.request.cmd, MRC_CMD_PATH_GET);
    EXPECT_TRUE(i.request.dump);
    EXPECT_EQ(i.dev_attr, MRC_A_PATH_DEV_INDEX);
    ASSERT_TRUE(i.request.find(MRC_A_PATH_PROFILE_ID));
    EXPECT_EQ(i.request.find(MRC_A_PATH_PROFILE_ID)->num, 3U);
    ASSERT_TRUE(i.request.find(MRC_A_PATH_DST));
    EXPECT_EQ(i.request.find(MRC_A_PATH_DST)->data.size(), 16U);
    EXPECT_EQ(i.request.find(MRC_A_PATH_DST)->data[10], 0xff);
    EXPECT_EQ(i.state_filter, MRC_EV_STATE_DENIED);
    const Invocation plain = inv("ev show dev mrc0");
    EXPECT_TRUE(plain.request.attrs.empty());
    EXPECT_FALSE(plain.state_filter);
}

TEST(ev, show_refusals) {
    EXPECT_EQ(refusal("ev show"), "ev show: missing dev DEV");
    EXPECT_EQ(refusal("ev show dev"), "missing value after 'dev'");
    EXPECT_EQ(refusal("ev show dev mrc0 dev mrc1"), "ev show: dev given twice");
    EXPECT_EQ(refusal("ev show dev mrc0 colour red"), "ev show: unknown keyword 'colour'");
    EXPECT_EQ(refusal("ev show dev mrc0 state bad"),
              "invalid state 'bad': expected good|assumed-bad|denied");
    EXPECT_EQ(refusal("ev show dev mrc0 profile -1"),
              "invalid profile '-1': expected profile from 0 to 4294967295");
    EXPECT_EQ(refusal("ev show dev mrc0 dst 300.1.1.1"),
              "invalid address '300.1.1.1': expected IPv6 or IPv4");
}

TEST(ev, set) {
    const Invocation i = inv("ev set dev mrc0 dst 2001:db8::1 index 255 state deny");
    EXPECT_EQ(i.action, Action::Change);
    EXPECT_EQ(i.request.cmd, MRC_CMD_EV_SET);
    EXPECT_FALSE(i.request.dump);
    ASSERT_TRUE(i.request.find(MRC_A_PATH_PROFILE_ID));
    EXPECT_EQ(i.request.find(MRC_A_PATH_PROFILE_ID)->num, 0U);
    const Attr *ev = i.request.find(MRC_A_PATH_EV);
    ASSERT_TRUE(ev);
    EXPECT_EQ(ev->kind, Attr::Kind::Nest);
    ASSERT_TRUE(find_attr(ev->nested, MRC_A_EV_INDEX));
    EXPECT_EQ(find_attr(ev->nested, MRC_A_EV_INDEX)->num, 255U);
    EXPECT_EQ(find_attr(ev->nested, MRC_A_EV_STATE)->num, MRC_EV_STATE_DENIED);
    const Invocation allow = inv("ev set dev 0 profile 2 index 0 state allow");
    EXPECT_EQ(find_attr(allow.request.find(MRC_A_PATH_EV)->nested, MRC_A_EV_STATE)->num,
              MRC_EV_STATE_GOOD);
    EXPECT_EQ(allow.request.find(MRC_A_PATH_PROFILE_ID)->num, 2U);
    EXPECT_FALSE(allow.request.find(MRC_A_PATH_DST));
    EXPECT_EQ(inv("ev set dev mrc0 index 4095 state deny").action, Action::Change);
}

TEST(ev, set_refusals) {
    EXPECT_EQ(refusal("ev set dev mrc0 state deny"), "ev set: missing index I");
    EXPECT_EQ(refusal("ev set dev mrc0 index 1"), "ev set: missing state deny|allow");
    EXPECT_EQ(refusal("ev set index 1 state deny"), "ev set: missing dev DEV");
    EXPECT_EQ(refusal("ev set dev mrc0 index 4096 state deny"),
              "EV index '4096' out of range: expected EV index from 0 to 4095");
    EXPECT_EQ(refusal("ev set dev mrc0 index 1 state good"),
              "invalid state 'good': expected deny|allow");
    EXPECT_EQ(refusal("ev set dev mrc0 index 1 index 2 state deny"), "ev set: index given twice");
    EXPECT_EQ(refusal("ev set dev mrc0 index x state deny"),
              "invalid EV index 'x': expected EV index from 0 to 4095");
}

TEST(dev, set_default_profile) {
    const Invocation i = inv("dev set dev mrc0 default-profile 1");
    EXPECT_EQ(i.action, Action::Change);
    EXPECT_EQ(i.request.cmd, MRC_CMD_DEV_SET);
    EXPECT_FALSE(i.request.dump);
    EXPECT_EQ(i.dev->name, "mrc0");
    EXPECT_EQ(i.dev_attr, MRC_A_DEV_INDEX);
    EXPECT_EQ(i.request.find(MRC_A_DEV_DEFAULT_PROFILE)->num, 1U);
    EXPECT_EQ(refusal("dev set dev mrc0"), "dev set: missing default-profile ID");
    EXPECT_EQ(refusal("dev set default-profile 1"), "dev set: missing dev DEV");
    EXPECT_EQ(refusal("dev set dev mrc0 default-profile x"),
              "invalid default-profile 'x': expected default-profile from 0 to 4294967295");
    EXPECT_EQ(refusal("dev set dev mrc0 default-profile 1 default-profile 2"),
              "dev set: default-profile given twice");
    EXPECT_EQ(refusal("dev set dev mrc0 colour red"), "dev set: unknown keyword 'colour'");
}

TEST(path, show) {
    const Invocation i = inv("path show dev mrc0");
    EXPECT_EQ(i.action, Action::PathShow);
    EXPECT_EQ(i.request.cmd, MRC_CMD_PATH_GET);
    EXPECT_TRUE(i.request.dump);
    EXPECT_EQ(refusal("path show"), "path show: missing dev DEV");
    EXPECT_EQ(refusal("path show dev mrc0 state good"), "path show: unknown keyword 'state'");
}

TEST(stats, qp) {
    const Invocation i = inv("stats qp dev mrc0");
    EXPECT_EQ(i.action, Action::QpStats);
    EXPECT_EQ(i.request.cmd, MRC_CMD_QP_STATS_GET);
    EXPECT_EQ(i.dev_attr, MRC_A_QP_STATS_DEV_INDEX);
    EXPECT_EQ(refusal("stats qp"), "stats qp: missing dev DEV");
}

TEST(stats, reset_stall) {
    const Invocation all = inv("stats reset-stall dev mrc0");
    EXPECT_EQ(all.action, Action::Change);
    EXPECT_EQ(all.request.cmd, MRC_CMD_QP_STALL_RESET);
    EXPECT_FALSE(all.request.dump);
    EXPECT_EQ(all.dev_attr, MRC_A_QP_STATS_DEV_INDEX);
    EXPECT_EQ(all.request.find(MRC_A_QP_STATS_QPN), nullptr);
    const Invocation one = inv("stats reset-stall dev mrc0 qpn 17");
    EXPECT_EQ(one.request.find(MRC_A_QP_STATS_QPN)->num, 17U);
    EXPECT_EQ(refusal("stats reset-stall"), "stats reset-stall: missing dev DEV");
    EXPECT_NE(refusal("stats reset-stall dev mrc0 qpn 16777216"), "");
    EXPECT_NE(refusal("stats reset-stall dev mrc0 qpn 1 qpn 2"), "");
}

TEST(monitor, takes_no_arguments) {
    EXPECT_EQ(inv("monitor").action, Action::Monitor);
    EXPECT_EQ(inv("monitor ev").action, Action::Monitor);
    EXPECT_EQ(refusal("monitor ev dev"), "monitor: unexpected 'dev'");
}

TEST(plane, grammar) {
    EXPECT_EQ(inv("plane show").action, Action::PlaneShow);
    EXPECT_EQ(inv("plane show dev mrc0").dev->name, "mrc0");
    const Invocation add = inv("plane add dev mrc0 id 2 netdev lo");
    EXPECT_EQ(add.request.cmd, MRC_CMD_PLANE_ADD);
    EXPECT_EQ(add.request.find(MRC_A_PLANE_ID)->num, 2U);
    EXPECT_EQ(add.request.find(MRC_A_PLANE_ID)->kind, Attr::Kind::U8);
    EXPECT_EQ(add.request.find(MRC_A_PLANE_IFINDEX)->num, 1U); // lo
    EXPECT_EQ(add.dev_attr, MRC_A_PLANE_DEV_INDEX);            // the device goes with the request
    EXPECT_EQ(inv("plane del dev mrc0 id 2").dev_attr, MRC_A_PLANE_DEV_INDEX);
    EXPECT_EQ(refusal("plane add dev mrc0 id 17 netdev lo"),
              "plane id '17' out of range: expected plane id from 1 to 16");
    EXPECT_EQ(refusal("plane add dev mrc0 id 2 netdev nosuchnetdev0"),
              "unknown netdev 'nosuchnetdev0'");
    EXPECT_EQ(refusal("plane add dev mrc0 id 2"), "plane add: missing netdev IFNAME");
    EXPECT_EQ(inv("plane del dev mrc0 id 2").request.cmd, MRC_CMD_PLANE_DEL);
    const Invocation set = inv("plane set dev mrc0 id 1 admin down");
    EXPECT_EQ(set.request.cmd, MRC_CMD_PLANE_SET);
    EXPECT_EQ(set.request.find(MRC_A_PLANE_ADMIN_UP)->num, 0U);
    EXPECT_EQ(refusal("plane set dev mrc0 id 1 admin sideways"),
              "invalid admin state 'sideways': expected up|down");
}

TEST(ev_fmt_profile, grammar) {
    const Invocation add = inv("ev-fmt-profile add dev mrc0 id 1 mode stev width 16 width 16");
    EXPECT_EQ(add.request.cmd, MRC_CMD_EV_FMT_PROFILE_NEW);
    EXPECT_EQ(add.dev_attr, MRC_A_EV_FMT_PROFILE_DEV_INDEX);
    EXPECT_EQ(add.request.find(MRC_A_EV_FMT_PROFILE_MODE)->num, MRC_EV_FMT_MODE_STEV);
    EXPECT_EQ(count_attr(add.request.attrs, MRC_A_EV_FMT_PROFILE_FIELDS), 2U);
    EXPECT_EQ(refusal("ev-fmt-profile add dev mrc0 id 1"),
              "ev-fmt-profile add: missing mode stev|srv6|udp");
    EXPECT_EQ(refusal("ev-fmt-profile add dev mrc0 id 1 mode udp width 33"),
              "field width '33' out of range: expected field width from 1 to 32");
    EXPECT_EQ(refusal("ev-fmt-profile add dev mrc0 id 1 mode udp width 1 width 1 width 1 "
                      "width 1 width 1 width 1 width 1 width 1 width 1"),
              "ev-fmt-profile add: more than 8 fields");
    EXPECT_EQ(refusal("ev-fmt-profile add dev mrc0 id 1 mode udp state online"),
              "ev-fmt-profile add: unknown keyword 'state'");
    const Invocation set = inv("ev-fmt-profile set dev mrc0 id 1 state online");
    EXPECT_EQ(set.request.find(MRC_A_EV_FMT_PROFILE_STATE)->num, MRC_PROFILE_STATE_ONLINE);
    EXPECT_EQ(refusal("ev-fmt-profile set dev mrc0 id 1"),
              "ev-fmt-profile set: nothing to change (state or width)");
    EXPECT_TRUE(inv("ev-fmt-profile show dev mrc0").request.dump);
    EXPECT_FALSE(inv("ev-fmt-profile show dev mrc0 id 1").request.dump);
    EXPECT_EQ(inv("ev-fmt-profile del dev mrc0 id 1").request.cmd, MRC_CMD_EV_FMT_PROFILE_DEL);
    EXPECT_EQ(refusal("ev-fmt-profile del dev mrc0"), "ev-fmt-profile del: missing id N");
}

TEST(ev_profile, explicit_evs) {
    const Invocation i = inv("ev-profile add dev mrc0 id 1 mode exp fmt 1 count 2 min-active 1 "
                             "event-mask good,assumed-bad policy weighted ev c000 plane 1 "
                             "weight 3 ev 0xc001");
    const Request &r = i.request;
    EXPECT_EQ(r.cmd, MRC_CMD_EV_PROFILE_NEW);
    EXPECT_EQ(r.find(MRC_A_EV_PROFILE_MODE)->num, MRC_EV_MODE_EXP);
    EXPECT_EQ(r.find(MRC_A_EV_PROFILE_EVENT_MASK)->num,
              MRC_EV_STATE_GOOD | MRC_EV_STATE_ASSUMED_BAD);
    EXPECT_EQ(r.find(MRC_A_EV_PROFILE_POLICY)->num, MRC_EV_POLICY_WEIGHTED);
    ASSERT_EQ(count_attr(r.attrs, MRC_A_EV_PROFILE_EVS), 2U);
    const Attr &ev0 = *r.find(MRC_A_EV_PROFILE_EVS);
    EXPECT_EQ(find_attr(ev0.nested, MRC_A_EV_INDEX)->num, 0U);
    EXPECT_EQ(find_attr(ev0.nested, MRC_A_EV_BYTES)->data, (std::vector<std::uint8_t>{0xc0, 0}));
    EXPECT_EQ(find_attr(ev0.nested, MRC_A_EV_PLANE)->num, 1U);
    EXPECT_EQ(find_attr(ev0.nested, MRC_A_EV_WEIGHT)->num, 3U);
}

TEST(ev_profile, adaptive_policy) {
    const Invocation i = inv("ev-profile add dev mrc0 id 3 mode auto count 256 policy adaptive");
    EXPECT_EQ(i.request.find(MRC_A_EV_PROFILE_POLICY)->num, MRC_EV_POLICY_ADAPTIVE);
    EXPECT_EQ(i.request.find(MRC_A_EV_PROFILE_COUNT)->num, 256U);
}

TEST(ev_profile, generated_fields) {
    const Invocation i = inv("ev-profile add dev mrc0 id 2 mode gen field width 16 init 1 min 0 "
                             "max 100 mask 0xffff field width 8");
    const Request &r = i.request;
    ASSERT_EQ(count_attr(r.attrs, MRC_A_EV_PROFILE_FIELDS), 2U);
    const Attr &f = *r.find(MRC_A_EV_PROFILE_FIELDS);
    EXPECT_EQ(find_attr(f.nested, MRC_A_EV_FIELD_WIDTH)->num, 16U);
    EXPECT_EQ(find_attr(f.nested, MRC_A_EV_FIELD_MAX)->num, 100U);
    EXPECT_EQ(find_attr(f.nested, MRC_A_EV_FIELD_MASK)->num, 0xffffU);
}

TEST(ev_profile, refusals) {
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1"), "ev-profile add: missing mode auto|exp|gen");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp"),
              "ev-profile add: mode exp takes ev BYTES ..., and no field");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode gen ev 01"),
              "ev-profile add: mode gen takes field width W ..., and no ev");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode auto ev 01"),
              "ev-profile add: mode auto takes neither ev nor field");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp ev 0g"),
              "invalid EV bytes '0g': expected hex digits");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp ev " + std::string(66, 'f')),
              "invalid EV bytes '" + std::string(66, 'f') + "': more than 32 bytes");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp ev 01 plane 0"),
              "plane '0' out of range: expected plane from 1 to 16");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp ev 01 weight 0"),
              "weight '0' out of range: expected weight from 1 to 255");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp ev 01 plane 1 plane 2"),
              "ev 0: plane given twice");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp count 0 ev 01"),
              "count '0' out of range: expected count from 1 to 4096");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode gen field init 1"),
              "field: expected 'width W' first");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode gen field width 8 init 1 init 2"),
              "field: init given twice");
    EXPECT_EQ(refusal("ev-profile add dev mrc0 id 1 mode exp event-mask good,fine ev 01"),
              "invalid event-mask 'fine': expected good|assumed-bad|denied");
    EXPECT_EQ(refusal("ev-profile set dev mrc0 id 1"), "ev-profile set: nothing to change");
    EXPECT_EQ(refusal("ev-profile set dev mrc0 id 1 mode exp"),
              "ev-profile set: unknown keyword 'mode'");
    EXPECT_EQ(inv("ev-profile set dev mrc0 id 1 state offline").request.cmd,
              MRC_CMD_EV_PROFILE_SET);
    EXPECT_TRUE(inv("ev-profile show dev mrc0").request.dump);
    EXPECT_EQ(inv("ev-profile del dev mrc0 id 1").request.cmd, MRC_CMD_EV_PROFILE_DEL);
}

TEST(probe, grammar) {
    const Invocation i = inv("probe dev mrc0 dst 2001:db8::2 index 1,2,3 timeout 100");
    EXPECT_EQ(i.action, Action::Probe);
    EXPECT_EQ(i.request.cmd, MRC_CMD_PROBE);
    EXPECT_EQ(count_attr(i.request.attrs, MRC_A_PROBE_EV_INDEX), 3U);
    EXPECT_EQ(i.request.find(MRC_A_PROBE_TIMEOUT_MS)->num, 100U);
    EXPECT_EQ(inv("probe send dev mrc0 dst ::1 index 0").action, Action::Probe);
    EXPECT_EQ(refusal("probe dev mrc0 index 1"), "probe: missing dst ADDR");
    EXPECT_EQ(refusal("probe dev mrc0 dst ::1"), "probe: missing index I[,I...]");
    EXPECT_EQ(refusal("probe dev mrc0 dst ::1 index 1 timeout 0"),
              "timeout (ms) '0' out of range: expected timeout (ms) from 1 to 10000");
    EXPECT_EQ(refusal("probe dev mrc0 dst ::1 index 1,"),
              "invalid EV index '': expected EV index from 0 to 4095");
    std::string many = "0";
    for (int n = 1; n < 65; ++n)
        many += "," + std::to_string(n);
    EXPECT_EQ(refusal("probe dev mrc0 dst ::1 index " + many), "probe: more than 64 EVs");
}

} // namespace
} // namespace mrc::ctl
