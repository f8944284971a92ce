// SPDX-License-Identifier: BSD-2-Clause
// model.h - the family's replies and events as plain structs: decode.cc fills them from
// netlink messages, show.cc prints them, and the tests make them by hand.
#ifndef MRC_CTL_MODEL_H
#define MRC_CTL_MODEL_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mrc::ctl {

using Bytes = std::vector<std::uint8_t>;

struct PlaneInfo {
    std::uint32_t id = 0;
    std::optional<std::uint32_t> ifindex;
    std::string ifname;
    std::optional<bool> admin_up;
};

struct DevInfo {
    std::uint32_t index = 0;
    std::string name;
    std::vector<PlaneInfo> planes;
    std::optional<std::uint32_t> ev_max, profiles_max, fmt_modes, ev_modes, default_profile;
};

struct EvInfo {
    std::uint32_t index = 0;
    Bytes bytes;
    std::optional<std::uint32_t> plane, weight;
    std::uint32_t state = 0, reason = 0;
    std::uint64_t changed_ns = 0, packets = 0, acked = 0, losses = 0;
    std::uint32_t rtt_ns = 0;
    std::uint32_t data_rtt_ns = 0; // smoothed, of its data packets
    std::uint64_t ce_marks = 0;    // its data packets' ACKs that echoed ECN CE
};

// One message of a path-get dump: one EV of one path set.
struct PathEv {
    std::uint32_t dev_index = 0, profile_id = 0;
    Bytes dst;
    std::optional<std::uint32_t> good;
    EvInfo ev;
};

struct QpStats {
    std::uint32_t dev_index = 0, qpn = 0, profile_id = 0;
    std::uint64_t packets = 0, retransmits = 0, timeouts = 0;
    std::uint32_t cwnd = 0, srtt_ns = 0, base_rtt_ns = 0;
    std::uint32_t in_flight = 0, retries = 0;
    std::uint64_t stall_max_ns = 0;
    // the longest the oldest work request waited to complete (a READ's responses too)
    std::uint64_t wr_wait_max_ns = 0;
    std::uint32_t spurious_resends = 0;
    // the congestion window's cuts by cause, and the marks it left to the path set
    std::uint32_t delay_decreases = 0, loss_decreases = 0, ecn_decreases = 0;
    std::uint32_t ecn_path_marks = 0;
    // the READ window (the responses asked for at once) and its cuts
    std::uint32_t read_cwnd = 0, read_delay_decreases = 0, read_ecn_decreases = 0;
};

struct EvEvent {
    std::uint32_t dev_index = 0, profile_id = 0, ev_index = 0;
    Bytes dst;
    std::uint32_t from = 0, to = 0, reason = 0;
    std::uint64_t time_ns = 0;
};

struct FmtProfile {
    std::uint32_t dev_index = 0, id = 0, mode = 0, state = 0;
    std::vector<std::uint32_t> widths;
};

struct EvField {
    std::uint32_t width = 0, init = 0, min = 0, max = 0, mask = 0;
};

struct EvProfile {
    std::uint32_t dev_index = 0, id = 0, mode = 0, fmt_id = 0, state = 0, count = 0;
    std::uint32_t min_active = 0, event_mask = 0, policy = 0;
    std::vector<EvField> fields;
};

struct ProbeResult {
    std::uint32_t ev_index = 0;
    bool answered = false;
    std::uint32_t rtt_ns = 0;
};

struct ProbeReply {
    std::uint32_t dev_index = 0, profile_id = 0;
    Bytes dst;
    std::vector<ProbeResult> results;
};

} // namespace mrc::ctl

#endif
