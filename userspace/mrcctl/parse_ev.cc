// SPDX-License-Identifier: BSD-2-Clause
// parse_ev.cc - the ev, path, stats and monitor objects.
#include "names.h"
#include "parse_common.h"

#include <array>

namespace mrc::ctl {

namespace {

// profile N and dst ADDR, shared by ev show, ev set and path show.
bool take_path_key(KeywordLoop &kw, std::string_view k, Invocation &inv) {
    if (k == "profile") {
        kw.once(k);
        inv.request.add(
                Attr::u32(MRC_A_PATH_PROFILE_ID, parse_u32(kw.value(k), 0, UINT32_MAX, "profile")));
        return true;
    }
    if (k == "dst") {
        kw.once(k);
        inv.request.add(Attr::binary(MRC_A_PATH_DST, parse_addr(kw.value(k))));
        return true;
    }
    return false;
}

// ev show dev DEV [profile N] [dst ADDR] [state good|assumed-bad|denied]
Invocation ev_show(Args &args) {
    Invocation inv = invocation(Action::EvShow, MRC_CMD_PATH_GET, true);
    KeywordLoop kw(args, "ev show");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PATH_DEV_INDEX);
        } else if (k == "state") {
            kw.once(k);
            inv.state_filter = parse_keyword(kw.value(k), names::ev_state, "state");
        } else if (!take_path_key(kw, k, inv)) {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    return inv;
}

// ev set dev DEV [profile N] [dst ADDR] index I state deny|allow
Invocation ev_set(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_EV_SET, false);
    KeywordLoop kw(args, "ev set");
    std::uint32_t index = 0;
    std::uint32_t state = 0;
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PATH_DEV_INDEX);
        } else if (k == "index") {
            kw.once(k);
            index = parse_u32(kw.value(k), 0, ev_index_max, "EV index");
        } else if (k == "state") {
            kw.once(k);
            state = parse_keyword(kw.value(k), names::ev_state_set, "state");
        } else if (!take_path_key(kw, k, inv)) {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("index", "I");
    kw.require("state", "deny|allow");
    if (!inv.request.find(MRC_A_PATH_PROFILE_ID))
        inv.request.add(Attr::u32(MRC_A_PATH_PROFILE_ID, 0));
    inv.request.add(Attr::nest(
            MRC_A_PATH_EV, {Attr::u32(MRC_A_EV_INDEX, index), Attr::u32(MRC_A_EV_STATE, state)}));
    return inv;
}

constexpr std::array ev_commands{Command{"show", ev_show}, Command{"list", ev_show},
                                 Command{"set", ev_set}};

// path show dev DEV [profile N] [dst ADDR]
Invocation path_show(Args &args) {
    Invocation inv = invocation(Action::PathShow, MRC_CMD_PATH_GET, true);
    KeywordLoop kw(args, "path show");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev")
            take_dev(kw, inv, MRC_A_PATH_DEV_INDEX);
        else if (!take_path_key(kw, k, inv))
            kw.unknown(k);
    }
    kw.require("dev", "DEV");
    return inv;
}

constexpr std::array path_commands{Command{"show", path_show}, Command{"list", path_show}};

// stats qp dev DEV
Invocation stats_qp(Args &args) {
    Invocation inv = invocation(Action::QpStats, MRC_CMD_QP_STATS_GET, true);
    KeywordLoop kw(args, "stats qp");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k != "dev")
            kw.unknown(k);
        take_dev(kw, inv, MRC_A_QP_STATS_DEV_INDEX);
    }
    kw.require("dev", "DEV");
    return inv;
}

// stats reset-stall dev DEV [qpn N]
Invocation stats_reset_stall(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_QP_STALL_RESET, false);
    KeywordLoop kw(args, "stats reset-stall");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_QP_STATS_DEV_INDEX);
        } else if (k == "qpn") {
            kw.once(k);
            inv.request.add(
                    Attr::u32(MRC_A_QP_STATS_QPN, parse_u32(kw.value(k), 0, qpn_max, "QP number")));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    return inv;
}

constexpr std::array stats_commands{Command{"qp", stats_qp},
                                    Command{"reset-stall", stats_reset_stall}};

// monitor
Invocation monitor(Args &args) {
    if (!args.empty())
        throw UsageError("monitor: unexpected '" + std::string(args.peek()) + "'");
    return invocation(Action::Monitor, 0, false);
}

constexpr std::array monitor_commands{Command{"ev", monitor}};

} // namespace

const Object ev_object{"ev", ev_commands,
                       "ev show dev DEV [profile N] [dst ADDR] [state { good | assumed-bad | "
                       "denied }]\n"
                       "ev set dev DEV [profile N] [dst ADDR] index I state { deny | allow }\n",
                       ""};

const Object path_object{"path", path_commands, "path show dev DEV [profile N] [dst ADDR]\n", ""};

const Object stats_object{"stats", stats_commands,
                          "stats qp dev DEV\n"
                          "stats reset-stall dev DEV [qpn N]\n",
                          ""};

const Object monitor_object{"monitor", monitor_commands, "monitor [ev]\n", "ev"};

} // namespace mrc::ctl
