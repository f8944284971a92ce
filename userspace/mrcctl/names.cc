// SPDX-License-Identifier: BSD-2-Clause
// names.cc - the family's enum values by name.
#include "names.h"

#include <linux/mrc.h>

namespace mrc::ctl::names {

const Keywords ev_state = {{"good", MRC_EV_STATE_GOOD},
                           {"assumed-bad", MRC_EV_STATE_ASSUMED_BAD},
                           {"denied", MRC_EV_STATE_DENIED}};
const Keywords ev_state_set = {{"deny", MRC_EV_STATE_DENIED}, {"allow", MRC_EV_STATE_GOOD}};
const Keywords ev_reason = {{"none", MRC_EV_REASON_NONE},
                            {"loss", MRC_EV_REASON_LOSS},
                            {"timeout", MRC_EV_REASON_TIMEOUT},
                            {"probe", MRC_EV_REASON_PROBE},
                            {"controller", MRC_EV_REASON_CONTROLLER},
                            {"plane", MRC_EV_REASON_PLANE}};
const Keywords ev_fmt_mode = {{"stev", MRC_EV_FMT_MODE_STEV},
                              {"srv6", MRC_EV_FMT_MODE_SRV6},
                              {"udp", MRC_EV_FMT_MODE_UDP}};
const Keywords ev_mode = {
        {"auto", MRC_EV_MODE_AUTO}, {"exp", MRC_EV_MODE_EXP}, {"gen", MRC_EV_MODE_GEN}};
const Keywords profile_state = {{"init", MRC_PROFILE_STATE_INIT},
                                {"offline", MRC_PROFILE_STATE_OFFLINE},
                                {"online", MRC_PROFILE_STATE_ONLINE}};
const Keywords ev_policy = {{"round-robin", MRC_EV_POLICY_ROUND_ROBIN},
                            {"weighted", MRC_EV_POLICY_WEIGHTED},
                            {"adaptive", MRC_EV_POLICY_ADAPTIVE}};
const Keywords up_down = {{"up", 1}, {"down", 0}};

std::string mask_names(std::uint32_t mask, Keywords table) {
    std::string out;
    for (const auto &[name, bit] : table) {
        if ((mask & bit) == 0)
            continue;
        out += (out.empty() ? "" : ",") + std::string(name);
        mask &= ~bit;
    }
    if (mask != 0)
        out += (out.empty() ? "" : ",") + std::to_string(mask);
    return out.empty() ? "none" : out;
}

std::uint32_t parse_mask(std::string_view word, Keywords table, std::string_view what) {
    if (word == "none")
        return 0;
    std::uint32_t mask = 0;
    std::string_view rest = word;
    while (true) {
        const std::size_t comma = rest.find(',');
        mask |= parse_keyword(rest.substr(0, comma), table, what);
        if (comma == std::string_view::npos)
            return mask;
        rest.remove_prefix(comma + 1);
    }
}

} // namespace mrc::ctl::names
