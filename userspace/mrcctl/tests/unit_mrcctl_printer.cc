// SPDX-License-Identifier: BSD-2-Clause
// Host tests of mrcctl's one print path: the printer in text and JSON, JSON escaping, and the
// show functions of each reply kind rendered both ways.
#include "args.h"
#include "printer.h"
#include "show.h"

#include <gtest/gtest.h>
#include <sstream>

#include <linux/mrc.h>

namespace mrc::ctl {
namespace {

TEST(json_quote, escapes) {
    EXPECT_EQ(json_quote("plain"), "\"plain\"");
    EXPECT_EQ(json_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(json_quote("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
    EXPECT_EQ(json_quote(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
    EXPECT_EQ(json_quote(std::string("\0", 1)), "\"\\u0000\"");
    EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\""); // UTF-8 passes through
    EXPECT_EQ(json_quote("/"), "\"/\"");
}

TEST(Value, json_and_text) {
    EXPECT_EQ(Value(std::uint64_t{18446744073709551615ULL}).json(), "18446744073709551615");
    EXPECT_EQ(Value(std::int64_t{-3}).json(), "-3");
    EXPECT_EQ(Value(true).json(), "true");
    EXPECT_EQ(Value("x\"").json(), "\"x\\\"\"");
    EXPECT_EQ(Value("x\"").text(), "x\"");
    EXPECT_EQ(Value::null().json(), "null");
    EXPECT_EQ(Value::null().text(), "-");
}

// The same description, rendered both ways.
void describe(Printer &p) {
    p.begin_array();
    for (std::uint32_t i = 0; i < 2; ++i) {
        p.begin_object();
        p.field("index", i);
        p.field("name", "dev \"q\"");
        p.begin_array("planes");
        p.begin_object();
        p.field("plane", std::uint32_t{1});
        p.end_object();
        p.end_array();
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

TEST(Printer, text_and_json_from_one_description) {
    std::ostringstream text;
    std::ostringstream json;
    Printer t(text, false);
    Printer j(json, true);
    describe(t);
    describe(j);
    EXPECT_EQ(text.str(), "index 0 name dev \"q\" plane 1\nindex 1 name dev \"q\" plane 1\n");
    EXPECT_EQ(json.str(), "[{\"index\":0,\"name\":\"dev \\\"q\\\"\",\"planes\":[{\"plane\":1}]},"
                          "{\"index\":1,\"name\":\"dev \\\"q\\\"\",\"planes\":[{\"plane\":1}]}]\n");
}

TEST(Printer, pretty_json) {
    std::ostringstream out;
    Printer p(out, true, true);
    p.begin_object();
    p.field("a", std::uint32_t{1});
    p.begin_array("b");
    p.end_array();
    p.end_object();
    p.finish();
    EXPECT_EQ(out.str(), "{\n    \"a\": 1,\n    \"b\": []\n}\n");
}

TEST(Printer, cells_pad_and_text_override) {
    std::ostringstream out;
    Printer p(out, false);
    p.text("h1  ");
    p.text("h2");
    p.end_line();
    p.cell("a", "x", 4);
    p.cell("b", std::uint32_t{7}, 3, "seven");
    p.end_line();
    p.finish();
    EXPECT_EQ(out.str(), "h1  h2\nx   seven\n"); // a padded cell needs no separator
}

TEST(Printer, finish_closes_open_containers) {
    std::ostringstream out;
    Printer p(out, true);
    p.begin_array();
    p.begin_object();
    p.field("k", "v");
    p.finish();
    EXPECT_EQ(out.str(), "[{\"k\":\"v\"}]\n");
}

TEST(Printer, empty_array) {
    std::ostringstream out;
    Printer p(out, true);
    p.begin_array();
    p.end_array();
    p.finish();
    EXPECT_EQ(out.str(), "[]\n");
}

TEST(show, helpers) {
    EXPECT_EQ(hex_bytes(std::vector<std::uint8_t>{0xc0, 0x0a}), "c00a");
    EXPECT_EQ(ev_bytes_text(std::vector<std::uint8_t>{0xc0, 0x00}), "49152");
    EXPECT_EQ(ev_bytes_text(std::vector<std::uint8_t>{}), "-");
    std::vector<std::uint8_t> srv6(32, 0);
    srv6[0] = 0xfc;
    srv6[15] = 7;
    srv6[16] = 0x20;
    srv6[17] = 0x01;
    srv6[31] = 1;
    EXPECT_EQ(ev_bytes_text(srv6), "fc00::7,2001::1");
    srv6.resize(16);
    EXPECT_EQ(ev_bytes_text(srv6), "fc00::7");
    EXPECT_EQ(ev_bytes_text(std::vector<std::uint8_t>(9, 0xab)), "0xababababababababab");
    EXPECT_EQ(duration_text(0), "-");
    EXPECT_EQ(duration_text(999), "999ns");
    EXPECT_EQ(duration_text(1500), "1.50us");
    EXPECT_EQ(duration_text(25000000), "25.0ms");
    EXPECT_EQ(duration_text(125000000000ULL), "125s");
}

PathEv row(std::uint32_t index, std::uint32_t state, std::uint64_t packets) {
    PathEv r;
    r.dev_index = 1;
    r.profile_id = 0;
    const Addr16 a = parse_addr("10.11.0.1");
    r.dst.assign(a.begin(), a.end());
    r.good = 255;
    r.ev.index = index;
    r.ev.bytes = {0xc0, static_cast<std::uint8_t>(index)};
    r.ev.plane = 1;
    r.ev.state = state;
    r.ev.reason = state == MRC_EV_STATE_DENIED ? MRC_EV_REASON_CONTROLLER : MRC_EV_REASON_NONE;
    r.ev.packets = packets;
    r.ev.acked = packets;
    r.ev.changed_ns = state == MRC_EV_STATE_DENIED ? 1000000000ULL : 0;
    return r;
}

TEST(show, ev_table_text) {
    const std::vector<PathEv> rows{row(0, MRC_EV_STATE_GOOD, 10), row(1, MRC_EV_STATE_DENIED, 3)};
    std::ostringstream out;
    Printer p(out, false);
    show_evs(p, rows, 3000000000ULL);
    std::istringstream lines(out.str());
    std::string head;
    std::string l0;
    std::string l1;
    std::getline(lines, head);
    std::getline(lines, l0);
    std::getline(lines, l1);
    EXPECT_EQ(head.rfind("dst", 0), 0U);
    EXPECT_NE(head.find("packets"), std::string::npos);
    EXPECT_NE(l0.find("10.11.0.1"), std::string::npos);
    EXPECT_NE(l0.find(" 49152 "), std::string::npos) << l0; // bytes as the UDP port
    EXPECT_NE(l0.find(" good "), std::string::npos);
    EXPECT_NE(l1.find(" denied "), std::string::npos);
    EXPECT_NE(l1.find(" controller "), std::string::npos);
    EXPECT_NE(l1.find("2.00s ago"), std::string::npos) << l1;
}

TEST(show, ev_table_json) {
    const std::vector<PathEv> rows{row(7, MRC_EV_STATE_GOOD, 10)};
    std::ostringstream out;
    Printer p(out, true);
    show_evs(p, rows, 0);
    EXPECT_EQ(out.str(), "[{\"dst\":\"10.11.0.1\",\"profile\":0,\"index\":7,\"bytes\":\"c007\","
                         "\"plane\":1,\"state\":\"good\",\"reason\":\"none\",\"packets\":10,"
                         "\"acked\":10,\"losses\":0,\"rtt_ns\":0,\"changed_ns\":0,"
                         "\"weight\":null,\"data_rtt_ns\":0,\"ce_marks\":0}]\n");
}

TEST(show, paths_count_good) {
    std::vector<PathEv> rows{row(0, MRC_EV_STATE_GOOD, 1), row(1, MRC_EV_STATE_DENIED, 1),
                             row(2, MRC_EV_STATE_GOOD, 1)};
    std::ostringstream text;
    Printer t(text, false);
    show_paths(t, rows);
    EXPECT_EQ(text.str(), "dst 10.11.0.1 profile 0 good 2/3 evs 3\n");
    std::ostringstream json;
    Printer j(json, true);
    show_paths(j, rows);
    EXPECT_EQ(json.str(), "[{\"dst\":\"10.11.0.1\",\"profile\":0,\"good\":2,\"evs\":3}]\n");
}

TEST(show, devs) {
    DevInfo d;
    d.index = 3;
    d.name = "mrc0";
    d.ev_max = 4096;
    d.fmt_modes = MRC_EV_FMT_MODE_UDP;
    d.default_profile = 1;
    d.planes.push_back({.id = 1, .ifindex = 5, .ifname = "eth0", .admin_up = true});
    const std::vector<DevInfo> devs{d};
    std::ostringstream text;
    Printer t(text, false);
    show_devs(t, devs);
    EXPECT_EQ(text.str(), "index 3: name mrc0 ev_max 4096 fmt_modes udp default_profile 1\n"
                          "    plane 1 ifname eth0 ifindex 5 admin up\n");
    std::ostringstream json;
    Printer j(json, true);
    show_devs(j, devs);
    EXPECT_EQ(json.str(),
              "[{\"index\":3,\"name\":\"mrc0\",\"ev_max\":4096,\"fmt_modes\":\"udp\","
              "\"default_profile\":1,\"planes\":[{\"plane\":1,\"ifname\":\"eth0\",\"ifindex\":5,"
              "\"admin\":\"up\"}]}]\n");
}

TEST(show, event_line_and_json_line) {
    EvEvent e;
    e.dev_index = 2;
    e.profile_id = 0;
    const Addr16 a = parse_addr("2001:db8:a::2");
    e.dst.assign(a.begin(), a.end());
    e.ev_index = 5;
    e.from = MRC_EV_STATE_GOOD;
    e.to = MRC_EV_STATE_DENIED;
    e.reason = MRC_EV_REASON_CONTROLLER;
    e.time_ns = 42;
    std::ostringstream text;
    Printer t(text, false);
    show_event(t, e, "mrcsta");
    show_event(t, e, "");
    EXPECT_EQ(text.str(), "time_ns 42 dev_index 2 dev mrcsta profile 0 dst 2001:db8:a::2 index 5 "
                          "from good -> to denied reason controller\n"
                          "time_ns 42 dev_index 2 profile 0 dst 2001:db8:a::2 index 5 "
                          "from good -> to denied reason controller\n");
    std::ostringstream json;
    Printer j(json, true);
    show_event(j, e, "mrcsta");
    show_event(j, e, "mrcsta");
    const std::string line = "{\"time_ns\":42,\"dev_index\":2,\"dev\":\"mrcsta\",\"profile\":0,"
                             "\"dst\":\"2001:db8:a::2\",\"index\":5,\"from\":\"good\","
                             "\"to\":\"denied\",\"reason\":\"controller\"}\n";
    EXPECT_EQ(json.str(), line + line);
}

TEST(show, qp_stats_and_probe) {
    const std::vector<QpStats> qps{{.dev_index = 1,
                                    .qpn = 17,
                                    .profile_id = 0,
                                    .packets = 9,
                                    .retransmits = 1,
                                    .timeouts = 0,
                                    .cwnd = 64,
                                    .srtt_ns = 1500,
                                    .base_rtt_ns = 900,
                                    .in_flight = 5,
                                    .retries = 2,
                                    .stall_max_ns = 12'500'000,
                                    .wr_wait_max_ns = 40'000'000,
                                    .spurious_resends = 3,
                                    .delay_decreases = 4,
                                    .loss_decreases = 5,
                                    .ecn_decreases = 6,
                                    .ecn_path_marks = 7,
                                    .read_cwnd = 48,
                                    .read_delay_decreases = 8,
                                    .read_ecn_decreases = 9}};
    std::ostringstream out;
    Printer p(out, false);
    show_qp_stats(p, qps);
    EXPECT_EQ(out.str(), "qpn 17 profile 0 packets 9 retransmits 1 timeouts 0 cwnd 64 "
                         "srtt_ns 1.50us base_rtt_ns 900ns in_flight 5 retries 2 "
                         "stall_max_ns 12.5ms wr_wait_max_ns 40.0ms spurious_resends 3 "
                         "delay_decreases 4 loss_decreases 5 ecn_decreases 6 ecn_path_marks 7 "
                         "read_cwnd 48 read_delay_decreases 8 read_ecn_decreases 9\n");
    ProbeReply r;
    const Addr16 a = parse_addr("::1");
    r.dst.assign(a.begin(), a.end());
    r.results = {{.ev_index = 3, .answered = true, .rtt_ns = 2000}};
    std::ostringstream json;
    Printer j(json, true);
    show_probe(j, r);
    EXPECT_EQ(json.str(), "[{\"dst\":\"::1\",\"profile\":0,\"index\":3,\"answered\":true,"
                          "\"rtt_ns\":2000}]\n");
}

} // namespace
} // namespace mrc::ctl

namespace mrc::ctl {
namespace {

TEST(show, ev_profiles) {
    EvProfile e;
    e.dev_index = 1;
    e.id = 2;
    e.mode = MRC_EV_MODE_GEN;
    e.state = MRC_PROFILE_STATE_ONLINE;
    e.count = 4;
    e.min_active = 1;
    e.event_mask = MRC_EV_STATE_GOOD | MRC_EV_STATE_ASSUMED_BAD | MRC_EV_STATE_DENIED;
    e.policy = MRC_EV_POLICY_ROUND_ROBIN;
    e.fields.push_back({.width = 16, .init = 0xc100, .min = 0, .max = 3, .mask = 3});
    const std::vector<EvProfile> profiles{e};
    std::ostringstream text;
    Printer t(text, false);
    show_ev_profiles(t, profiles);
    EXPECT_EQ(text.str().rfind("id 2 mode gen fmt 0 state online count 4 min_active 1 ", 0), 0U)
            << text.str();
    std::ostringstream json;
    Printer j(json, true);
    show_ev_profiles(j, profiles);
    EXPECT_NE(json.str().find("\"fields\":[{\"width\":16,\"init\":49408,\"min\":0,\"max\":3,"
                              "\"mask\":3}]"),
              std::string::npos)
            << json.str();
}

} // namespace
} // namespace mrc::ctl
