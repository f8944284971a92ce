// What travels through the simulated fabric: the fields of an MRC packet the transport's
// decisions read (not its bytes: the wire codec has its own tests).
#pragma once

extern "C" {
#include "mrc_sack.h"
}

#include <cstdint>

namespace mrc::sim {

enum class Kind : uint8_t { Data, Ack, Probe, ProbeReply };

// Bytes on the wire: a full-MTU data packet, and anything else (ACK, probe).
constexpr uint32_t kDataBytes = 4096 + 96;
constexpr uint32_t kCtrlBytes = 96;

struct Packet {
    Kind kind = Kind::Data;
    uint32_t flow = 0; // which requester/responder pair
    uint32_t ev = 0;
    uint32_t psn = 0;
    uint32_t bytes = kDataBytes;
    bool ack_req = false;
    bool retx = false;
    bool ce = false; // marked on the way
    // ACK
    mrc_sack sack{};
    bool ce_echo = false;
    uint32_t echo_ev = 0;
    bool dup = false;
    // probes
    uint32_t probe_id = 0;
    bool has_reply_ev = false; // PROBE: the first reply asked back on the way of reply_ev
    uint32_t reply_ev = 0;
};

} // namespace mrc::sim
