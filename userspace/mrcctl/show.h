// SPDX-License-Identifier: BSD-2-Clause
// show.h - how mrcctl prints each kind of reply, once, through the Printer (text or JSON).
#ifndef MRC_CTL_SHOW_H
#define MRC_CTL_SHOW_H

#include "model.h"
#include "printer.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mrc::ctl {

// Helpers the tests check on their own.
std::string hex_bytes(std::span<const std::uint8_t> bytes);
// EV bytes as a person reads them: up to 8 bytes as their (big-endian) number, i.e. the UDP
// source port of a UDP EV; longer ones in hex with 0x.
std::string ev_bytes_text(std::span<const std::uint8_t> bytes);
// A duration: "-" for 0, else ns / us / ms / s with three significant digits.
std::string duration_text(std::uint64_t ns);

// A document holding every device (dev show).
void show_devs(Printer &p, std::span<const DevInfo> devs);
// A document holding the planes of the devices (plane show).
void show_planes(Printer &p, std::span<const DevInfo> devs);
// The EV table (ev show); NOW_NS is CLOCK_MONOTONIC now, for the age of the last change.
void show_evs(Printer &p, std::span<const PathEv> evs, std::uint64_t now_ns);
// One line per path set (path show): dst, profile, GOOD EVs / all EVs.
void show_paths(Printer &p, std::span<const PathEv> evs);
void show_qp_stats(Printer &p, std::span<const QpStats> qps);
// One event, as one document (a line of text or one JSON object).
void show_event(Printer &p, const EvEvent &e, std::string_view dev_name);
void show_fmt_profiles(Printer &p, std::span<const FmtProfile> profiles);
void show_ev_profiles(Printer &p, std::span<const EvProfile> profiles);
void show_probe(Printer &p, const ProbeReply &r);

} // namespace mrc::ctl

#endif
