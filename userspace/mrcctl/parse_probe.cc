// SPDX-License-Identifier: BSD-2-Clause
// parse_probe.cc - the probe object.
#include "parse_common.h"

#include <array>

namespace mrc::ctl {

namespace {

constexpr std::size_t probe_evs_max = 64;

// probe dev DEV dst ADDR [profile N] index I[,I...] [timeout MS]
Invocation probe(Args &args) {
    Invocation inv = invocation(Action::Probe, MRC_CMD_PROBE, false);
    Request &r = inv.request;
    KeywordLoop kw(args, "probe");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PROBE_DEV_INDEX);
        } else if (k == "dst") {
            kw.once(k);
            r.add(Attr::binary(MRC_A_PROBE_DST, parse_addr(kw.value(k))));
        } else if (k == "profile") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_PROBE_PROFILE_ID,
                            parse_u32(kw.value(k), 0, UINT32_MAX, "profile")));
        } else if (k == "index") {
            kw.once(k);
            std::string_view list = kw.value(k);
            while (true) {
                const std::size_t comma = list.find(',');
                if (count_attr(r.attrs, MRC_A_PROBE_EV_INDEX) >= probe_evs_max)
                    throw UsageError("probe: more than 64 EVs");
                r.add(Attr::u32(MRC_A_PROBE_EV_INDEX,
                                parse_u32(list.substr(0, comma), 0, ev_index_max, "EV index")));
                if (comma == std::string_view::npos)
                    break;
                list.remove_prefix(comma + 1);
            }
        } else if (k == "timeout") {
            kw.once(k);
            r.add(Attr::u32(MRC_A_PROBE_TIMEOUT_MS,
                            parse_u32(kw.value(k), 1, 10000, "timeout (ms)")));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("dst", "ADDR");
    kw.require("index", "I[,I...]");
    return inv;
}

constexpr std::array probe_commands{Command{"send", probe}};

} // namespace

const Object probe_object{"probe", probe_commands,
                          "probe [send] dev DEV dst ADDR [profile N] index I[,I...] "
                          "[timeout MS]\n",
                          "send"};

} // namespace mrc::ctl
