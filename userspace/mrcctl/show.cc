// SPDX-License-Identifier: BSD-2-Clause
// show.cc - the output of every mrcctl command, described once for text and JSON.
#include "show.h"

#include "args.h"
#include "names.h"

#include <arpa/inet.h>
#include <linux/mrc.h>

#include <array>
#include <cstdio>
#include <map>
#include <tuple>

namespace mrc::ctl {

std::string hex_bytes(std::span<const std::uint8_t> bytes) {
    static constexpr std::string_view digits = "0123456789abcdef";
    std::string out;
    for (const std::uint8_t b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 0xf];
    }
    return out;
}

std::string ev_bytes_text(std::span<const std::uint8_t> bytes) {
    if (bytes.empty())
        return "-";
    if (bytes.size() == 16 || bytes.size() == 32) { // SRV6: the segments
        std::string out;
        for (std::size_t at = 0; at < bytes.size(); at += 16) {
            std::array<char, INET6_ADDRSTRLEN> text{};
            inet_ntop(AF_INET6, bytes.data() + at, text.data(), text.size());
            out += (at ? "," : "") + std::string(text.data());
        }
        return out;
    }
    if (bytes.size() > 8)
        return "0x" + hex_bytes(bytes);
    std::uint64_t v = 0;
    for (const std::uint8_t b : bytes)
        v = v << 8 | b;
    return std::to_string(v);
}

std::string duration_text(std::uint64_t ns) {
    if (ns == 0)
        return "-";
    struct Unit {
        std::uint64_t ns;
        const char *name;
    };
    static constexpr std::array<Unit, 3> units{
            {{1000000000ULL, "s"}, {1000000ULL, "ms"}, {1000ULL, "us"}}};
    for (const Unit &u : units) {
        if (ns < u.ns)
            continue;
        const double v = static_cast<double>(ns) / static_cast<double>(u.ns);
        std::array<char, 32> buf{};
        const int precision = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        std::snprintf(buf.data(), buf.size(), "%.*f%s", precision, v, u.name);
        return buf.data();
    }
    return std::to_string(ns) + "ns";
}

namespace {

void show_plane(Printer &p, const PlaneInfo &pl) {
    p.field("plane", pl.id);
    if (!pl.ifname.empty())
        p.field("ifname", pl.ifname);
    if (pl.ifindex)
        p.field("ifindex", *pl.ifindex);
    if (pl.admin_up)
        p.field("admin", std::string_view(*pl.admin_up ? "up" : "down"));
}

void optional_field(Printer &p, std::string_view key, std::optional<std::uint32_t> v) {
    if (v)
        p.field(key, *v);
}

// The EV table's columns: JSON key, text heading, text width.
struct Column {
    std::string_view key, heading;
    int width;
};
constexpr std::array<Column, 15> ev_columns{{{"dst", "dst", 24},
                                             {"profile", "profile", 7},
                                             {"index", "index", 5},
                                             {"bytes", "bytes", 8},
                                             {"plane", "plane", 5},
                                             {"state", "state", 11},
                                             {"reason", "reason", 10},
                                             {"packets", "packets", 10},
                                             {"acked", "acked", 10},
                                             {"losses", "losses", 8},
                                             {"rtt_ns", "rtt", 8},
                                             {"changed_ns", "changed", 8},
                                             {"weight", "weight", 6},
                                             {"data_rtt_ns", "data_rtt", 8},
                                             {"ce_marks", "ce", 6}}};

void heading(Printer &p, std::span<const Column> columns) {
    for (const Column &c : columns) {
        std::string h(c.heading);
        h.append(static_cast<std::size_t>(c.width) > h.size()
                         ? static_cast<std::size_t>(c.width) - h.size()
                         : 0,
                 ' ');
        p.text(h);
    }
    p.end_line();
}

} // namespace

void show_devs(Printer &p, std::span<const DevInfo> devs) {
    p.begin_array();
    for (const DevInfo &d : devs) {
        p.begin_object();
        p.field("index", d.index, std::to_string(d.index) + ":");
        p.field("name", d.name, d.name);
        optional_field(p, "ev_max", d.ev_max);
        optional_field(p, "profiles_max", d.profiles_max);
        if (d.fmt_modes)
            p.field("fmt_modes", names::mask_names(*d.fmt_modes, names::ev_fmt_mode));
        if (d.ev_modes)
            p.field("ev_modes", names::mask_names(*d.ev_modes, names::ev_mode));
        optional_field(p, "default_profile", d.default_profile);
        p.end_line();
        p.begin_array("planes");
        for (const PlaneInfo &pl : d.planes) {
            p.begin_object();
            p.text("    ");
            show_plane(p, pl);
            p.end_object();
            p.end_line();
        }
        p.end_array();
        p.end_object();
    }
    p.end_array();
    p.finish();
}

void show_planes(Printer &p, std::span<const DevInfo> devs) {
    p.begin_array();
    for (const DevInfo &d : devs) {
        for (const PlaneInfo &pl : d.planes) {
            p.begin_object();
            p.field("dev", d.name);
            show_plane(p, pl);
            p.end_object();
            p.end_line();
        }
    }
    p.end_array();
    p.finish();
}

void show_evs(Printer &p, std::span<const PathEv> evs, std::uint64_t now_ns) {
    const auto &c = ev_columns;
    heading(p, c);
    p.begin_array();
    for (const PathEv &row : evs) {
        const EvInfo &ev = row.ev;
        p.begin_object();
        p.cell(c[0].key, format_addr(row.dst), c[0].width);
        p.cell(c[1].key, row.profile_id, c[1].width);
        p.cell(c[2].key, ev.index, c[2].width);
        p.cell(c[3].key, hex_bytes(ev.bytes), c[3].width, ev_bytes_text(ev.bytes));
        p.cell(c[4].key, ev.plane ? Value(*ev.plane) : Value::null(), c[4].width);
        p.cell(c[5].key, keyword_name(ev.state, names::ev_state), c[5].width);
        p.cell(c[6].key, keyword_name(ev.reason, names::ev_reason), c[6].width);
        p.cell(c[7].key, ev.packets, c[7].width);
        p.cell(c[8].key, ev.acked, c[8].width);
        p.cell(c[9].key, ev.losses, c[9].width);
        p.cell(c[10].key, ev.rtt_ns, c[10].width, duration_text(ev.rtt_ns));
        const std::uint64_t age =
                ev.changed_ns == 0 || ev.changed_ns > now_ns ? 0 : now_ns - ev.changed_ns;
        p.cell(c[11].key, ev.changed_ns, c[11].width,
               ev.changed_ns == 0 ? "-" : duration_text(age) + " ago");
        p.cell(c[12].key, ev.weight ? Value(*ev.weight) : Value::null(), c[12].width);
        p.cell(c[13].key, ev.data_rtt_ns, c[13].width, duration_text(ev.data_rtt_ns));
        p.cell(c[14].key, ev.ce_marks, c[14].width);
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

void show_paths(Printer &p, std::span<const PathEv> evs) {
    struct Set {
        std::uint32_t good = 0, total = 0;
    };
    // (dev, profile, dst) in the order the dump gave them
    std::vector<std::tuple<std::uint32_t, std::uint32_t, Bytes>> order;
    std::map<std::tuple<std::uint32_t, std::uint32_t, Bytes>, Set> sets;
    for (const PathEv &row : evs) {
        auto key = std::make_tuple(row.dev_index, row.profile_id, row.dst);
        auto [it, fresh] = sets.try_emplace(key);
        if (fresh)
            order.push_back(key);
        it->second.total++;
        if (row.ev.state == MRC_EV_STATE_GOOD)
            it->second.good++;
    }
    p.begin_array();
    for (const auto &key : order) {
        const Set &s = sets[key];
        p.begin_object();
        p.field("dst", format_addr(std::get<2>(key)));
        p.field("profile", std::get<1>(key));
        p.field("good", s.good, std::to_string(s.good) + "/" + std::to_string(s.total));
        p.field("evs", s.total, std::nullopt);
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

void show_qp_stats(Printer &p, std::span<const QpStats> qps) {
    p.begin_array();
    for (const QpStats &q : qps) {
        p.begin_object();
        p.field("qpn", q.qpn);
        p.field("profile", q.profile_id);
        p.field("packets", q.packets);
        p.field("retransmits", q.retransmits);
        p.field("timeouts", q.timeouts);
        p.field("cwnd", q.cwnd);
        p.field("srtt_ns", q.srtt_ns, duration_text(q.srtt_ns));
        p.field("base_rtt_ns", q.base_rtt_ns, duration_text(q.base_rtt_ns));
        p.field("in_flight", q.in_flight);
        p.field("retries", q.retries);
        p.field("stall_max_ns", q.stall_max_ns, duration_text(q.stall_max_ns));
        p.field("wr_wait_max_ns", q.wr_wait_max_ns, duration_text(q.wr_wait_max_ns));
        p.field("spurious_resends", q.spurious_resends);
        p.field("delay_decreases", q.delay_decreases);
        p.field("loss_decreases", q.loss_decreases);
        p.field("ecn_decreases", q.ecn_decreases);
        p.field("ecn_path_marks", q.ecn_path_marks);
        p.field("read_cwnd", q.read_cwnd);
        p.field("read_delay_decreases", q.read_delay_decreases);
        p.field("read_ecn_decreases", q.read_ecn_decreases);
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

void show_event(Printer &p, const EvEvent &e, std::string_view dev_name) {
    p.begin_object();
    p.field("time_ns", e.time_ns);
    p.field("dev_index", e.dev_index);
    if (!dev_name.empty())
        p.field("dev", dev_name);
    p.field("profile", e.profile_id);
    p.field("dst", format_addr(e.dst));
    p.field("index", e.ev_index);
    const std::string from = keyword_name(e.from, names::ev_state);
    const std::string to = keyword_name(e.to, names::ev_state);
    p.field("from", from, from + " ->");
    p.field("to", to, to);
    p.field("reason", keyword_name(e.reason, names::ev_reason));
    p.end_object();
    p.finish();
}

void show_fmt_profiles(Printer &p, std::span<const FmtProfile> profiles) {
    p.begin_array();
    for (const FmtProfile &f : profiles) {
        p.begin_object();
        p.field("id", f.id);
        p.field("mode", keyword_name(f.mode, names::ev_fmt_mode));
        p.field("state", keyword_name(f.state, names::profile_state));
        p.begin_array("widths");
        for (const std::uint32_t w : f.widths)
            p.field("width", w);
        p.end_array();
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

void show_ev_profiles(Printer &p, std::span<const EvProfile> profiles) {
    p.begin_array();
    for (const EvProfile &e : profiles) {
        p.begin_object();
        p.field("id", e.id);
        p.field("mode", keyword_name(e.mode, names::ev_mode));
        p.field("fmt", e.fmt_id);
        p.field("state", keyword_name(e.state, names::profile_state));
        p.field("count", e.count);
        p.field("min_active", e.min_active);
        p.field("event_mask", names::mask_names(e.event_mask, names::ev_state));
        p.field("policy", keyword_name(e.policy, names::ev_policy));
        p.begin_array("fields");
        for (const EvField &f : e.fields) {
            p.begin_object();
            p.field("width", f.width);
            p.field("init", f.init);
            p.field("min", f.min);
            p.field("max", f.max);
            p.field("mask", f.mask);
            p.end_object();
        }
        p.end_array();
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

void show_probe(Printer &p, const ProbeReply &r) {
    p.begin_array();
    for (const ProbeResult &res : r.results) {
        p.begin_object();
        p.field("dst", format_addr(r.dst));
        p.field("profile", r.profile_id);
        p.field("index", res.ev_index);
        p.field("answered", res.answered, std::string_view(res.answered ? "yes" : "no"));
        p.field("rtt_ns", res.rtt_ns, duration_text(res.rtt_ns));
        p.end_object();
        p.end_line();
    }
    p.end_array();
    p.finish();
}

} // namespace mrc::ctl
