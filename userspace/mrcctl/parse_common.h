// SPDX-License-Identifier: BSD-2-Clause
// parse_common.h - pieces several command parsers share: the dev keyword, the limits of the
// family's values.
#ifndef MRC_CTL_PARSE_COMMON_H
#define MRC_CTL_PARSE_COMMON_H

#include "cli.h"
#include "keywords.h"

#include <cstdint>

#include <linux/mrc.h>

namespace mrc::ctl {

inline constexpr std::uint32_t ev_index_max = MRC_EV_MAX - 1;
inline constexpr std::uint32_t qpn_max = 0xffffff; // QP numbers are 24 bits (IB)

// dev DEV: resolved later, its index sent as attribute ATTR (0: not sent).
inline void take_dev(KeywordLoop &kw, Invocation &inv, std::uint16_t attr) {
    kw.once("dev");
    inv.dev = parse_dev(kw.value("dev"));
    inv.dev_attr = attr;
}

// A request of CMD, do or dump.
inline Invocation invocation(Action action, std::uint8_t cmd, bool dump) {
    Invocation inv;
    inv.action = action;
    inv.request.cmd = cmd;
    inv.request.dump = dump;
    return inv;
}

} // namespace mrc::ctl

#endif
