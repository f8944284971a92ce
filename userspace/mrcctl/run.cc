// SPDX-License-Identifier: BSD-2-Clause
// run.cc - resolve the device, send the request, decode and show the answer.
#include "run.h"

#include "decode.h"
#include "devices.h"
#include "show.h"

#include <algorithm>
#include <ctime>
#include <iostream>

#include <linux/mrc.h>

namespace mrc::ctl {

namespace {

std::uint64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

template <typename T, typename Decode>
std::vector<T> collect(Genl &nl, const Request &req, std::uint8_t cmd, Decode decode) {
    std::vector<T> out;
    nl.transact(req, [&](const Reply &r) {
        if (r.cmd == cmd || r.cmd == 0)
            out.push_back(decode(r.attrs));
    });
    return out;
}

// The rows of a path-get dump that match the request's filters (the kernel filters too).
std::vector<PathEv> path_rows(Genl &nl, const Request &req, std::optional<std::uint32_t> state) {
    auto rows = collect<PathEv>(nl, req, MRC_CMD_PATH_GET, decode_path_ev);
    const Attr *dev = req.find(MRC_A_PATH_DEV_INDEX);
    const Attr *profile = req.find(MRC_A_PATH_PROFILE_ID);
    const Attr *dst = req.find(MRC_A_PATH_DST);
    std::erase_if(rows, [&](const PathEv &r) {
        return (dev != nullptr && r.dev_index != dev->num) ||
               (profile != nullptr && r.profile_id != profile->num) ||
               (dst != nullptr && r.dst != dst->data) || (state && r.ev.state != *state);
    });
    return rows;
}

} // namespace

std::vector<DevInfo> list_devs(Genl &nl) {
    Request req{.cmd = MRC_CMD_DEV_GET, .dump = true, .attrs = {}};
    return collect<DevInfo>(nl, req, MRC_CMD_DEV_GET, decode_dev);
}

void run(const CommandLine &cl) {
    const Invocation &inv = cl.invocation;
    Genl nl;
    if (inv.action == Action::Monitor) {
        run_monitor(nl, cl.options);
        return;
    }
    Request req = inv.request;
    if (inv.dev) {
        const std::vector<DevInfo> devs = list_devs(nl);
        const std::uint32_t index = resolve_dev(devs, *inv.dev);
        if (inv.dev_attr != 0)
            req.attrs.insert(req.attrs.begin(), Attr::u32(inv.dev_attr, index));
    }
    Printer p(std::cout, cl.options.json, cl.options.pretty);
    switch (inv.action) {
    case Action::DevShow:
        show_devs(p, collect<DevInfo>(nl, req, MRC_CMD_DEV_GET, decode_dev));
        break;
    case Action::PlaneShow:
        show_planes(p, collect<DevInfo>(nl, req, MRC_CMD_DEV_GET, decode_dev));
        break;
    case Action::EvShow:
        show_evs(p, path_rows(nl, req, inv.state_filter), monotonic_ns());
        break;
    case Action::PathShow:
        show_paths(p, path_rows(nl, req, std::nullopt));
        break;
    case Action::QpStats:
        show_qp_stats(p, collect<QpStats>(nl, req, MRC_CMD_QP_STATS_GET, decode_qp_stats));
        break;
    case Action::FmtShow:
        show_fmt_profiles(
                p, collect<FmtProfile>(nl, req, MRC_CMD_EV_FMT_PROFILE_GET, decode_fmt_profile));
        break;
    case Action::ProfileShow:
        show_ev_profiles(p, collect<EvProfile>(nl, req, MRC_CMD_EV_PROFILE_GET, decode_ev_profile));
        break;
    case Action::Probe:
        for (const ProbeReply &r : collect<ProbeReply>(nl, req, MRC_CMD_PROBE, decode_probe))
            show_probe(p, r);
        break;
    case Action::Change:
        nl.transact(req, nullptr);
        break;
    case Action::Help:
    case Action::Monitor:
        break;
    }
}

} // namespace mrc::ctl
