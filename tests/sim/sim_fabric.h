// A two-tier fabric for the simulator: every host has one uplink to each of S spines (a NIC
// split over S planes), every spine one downlink to each host. Links serialise at their rate
// through a FIFO; spine downlinks mark ECN past a threshold and drop past their capacity.
// A packet's spine follows from its EV: by a hash (ECMP, a different one per direction) or
// by name (SRv6: EV e rides spine e mod S both ways). A spine can go down (both directions
// dead) or blackhole (data towards the responder vanishes, the way back works).
#pragma once

#include "sim_loop.h"
#include "sim_packet.h"
#include "sim_rng.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mrc::sim {

struct FabricConfig {
    uint32_t spines = 4;
    uint32_t hosts = 2;
    double nic_bytes_per_ns = 12.5; // 100 Gb/s per host, split evenly over the spines
    uint64_t one_way_ns = 5'000;    // propagation host to host, serialisation excluded
    uint64_t jitter_ns = 0;         // each packet up to this much later: reordering
    uint32_t queue_pkts = 512;      // a spine downlink's buffer, in full-size packets
    uint32_t ecn_pkts = 64;         // ... and where it starts marking CE
    uint32_t loss_ppm = 0;          // random loss on spine downlinks, parts per million
    bool srv6 = false;              // EVs name their spine instead of hashing onto one
    uint64_t seed = 1;
};

enum class SpineState : uint8_t { Up, Down, Blackhole };

class Fabric {
public:
    using Deliver = std::function<void(const Packet &)>;

    Fabric(EventLoop &loop, const FabricConfig &cfg);

    void attach(uint32_t host, Deliver deliver);
    // @forward: from a requester to its responder (data, probes); else the way back.
    void send(uint32_t src, uint32_t dst, const Packet &pkt, bool forward);
    [[nodiscard]] uint32_t spine_of(uint32_t flow, uint32_t ev, bool forward) const;
    void set_spine(uint32_t spine, SpineState state);
    [[nodiscard]] bool carries(uint32_t spine, bool forward) const;

    [[nodiscard]] const FabricConfig &config() const { return cfg_; }
    [[nodiscard]] uint64_t drops_dead() const { return drops_dead_; }
    [[nodiscard]] uint64_t drops_queue() const { return drops_queue_; }
    [[nodiscard]] uint64_t drops_random() const { return drops_random_; }
    [[nodiscard]] uint64_t ce_marks() const { return ce_marks_; }
    // The deepest any spine downlink towards @host got since the last reset, in packets.
    [[nodiscard]] double max_queue_pkts(uint32_t host) const { return max_queue_[host]; }
    void reset_queue_stats();
    // Queue drops since the last reset_queue_stats().
    [[nodiscard]] uint64_t queue_drops_since_reset() const { return drops_queue_ - drops_mark_; }

private:
    struct Link {
        double bytes_per_ns = 0;
        uint64_t busy_until = 0;

        [[nodiscard]] double backlog_bytes(uint64_t now) const {
            return busy_until > now ? static_cast<double>(busy_until - now) * bytes_per_ns : 0;
        }
        // Serialises @bytes from @now on; returns when the last bit is out.
        uint64_t transmit(uint64_t now, uint32_t bytes);
    };

    void at_spine(uint32_t spine, uint32_t dst, Packet pkt, bool forward);

    EventLoop &loop_;
    FabricConfig cfg_;
    Rng rng_;
    std::vector<Deliver> deliver_;
    std::vector<Link> up_;   // host * spines + spine
    std::vector<Link> down_; // spine * hosts + host
    std::vector<SpineState> state_;
    std::vector<double> max_queue_;
    uint64_t drops_dead_ = 0;
    uint64_t drops_queue_ = 0;
    uint64_t drops_random_ = 0;
    uint64_t drops_mark_ = 0;
    uint64_t ce_marks_ = 0;
};

} // namespace mrc::sim
