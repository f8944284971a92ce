// SPDX-License-Identifier: BSD-2-Clause
// names.h - the words mrcctl reads and prints for the family's enums (from linux/mrc.h).
#ifndef MRC_CTL_NAMES_H
#define MRC_CTL_NAMES_H

#include "args.h"

#include <cstdint>
#include <string>

namespace mrc::ctl::names {

extern const Keywords ev_state;      // good, assumed-bad, denied
extern const Keywords ev_state_set;  // deny, allow (what `ev set` takes)
extern const Keywords ev_reason;     // none, loss, timeout, probe, controller, plane
extern const Keywords ev_fmt_mode;   // stev, srv6, udp
extern const Keywords ev_mode;       // auto, exp, gen
extern const Keywords profile_state; // init, offline, online
extern const Keywords ev_policy;     // round-robin, weighted
extern const Keywords up_down;       // up, down

// The names of the bits set in MASK, joined by ','; "none" for 0.
std::string mask_names(std::uint32_t mask, Keywords table);
// A ','-separated list of names (or "none") as a bit mask.
std::uint32_t parse_mask(std::string_view word, Keywords table, std::string_view what);

} // namespace mrc::ctl::names

#endif
