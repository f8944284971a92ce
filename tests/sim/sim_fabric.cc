#include "sim_fabric.h"

#include <algorithm>
#include <utility>

namespace mrc::sim {

namespace {

uint64_t mix(uint64_t x) {
    x ^= x >> 33U;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33U;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33U);
}

} // namespace

uint64_t Fabric::Link::transmit(uint64_t now, uint32_t bytes) {
    const uint64_t start = std::max(now, busy_until);

    busy_until = start + static_cast<uint64_t>(static_cast<double>(bytes) / bytes_per_ns);
    return busy_until;
}

Fabric::Fabric(EventLoop &loop, const FabricConfig &cfg)
    : loop_(loop), cfg_(cfg), rng_(cfg.seed), deliver_(cfg.hosts),
      up_(static_cast<size_t>(cfg.hosts) * cfg.spines),
      down_(static_cast<size_t>(cfg.hosts) * cfg.spines), state_(cfg.spines, SpineState::Up),
      max_queue_(cfg.hosts, 0) {
    const double per_spine = cfg.nic_bytes_per_ns / cfg.spines;

    for (auto &l : up_)
        l.bytes_per_ns = per_spine;
    for (auto &l : down_)
        l.bytes_per_ns = per_spine;
}

void Fabric::attach(uint32_t host, Deliver deliver) {
    deliver_[host] = std::move(deliver);
}

uint32_t Fabric::spine_of(uint32_t flow, uint32_t ev, bool forward) const {
    if (cfg_.srv6)
        return ev % cfg_.spines;
    const uint64_t key = (static_cast<uint64_t>(flow) << 32U) | ev;

    return static_cast<uint32_t>(mix(key ^ cfg_.seed ^ (forward ? 0 : 0x5bd1e995ULL)) %
                                 cfg_.spines);
}

void Fabric::set_spine(uint32_t spine, SpineState state) {
    state_[spine] = state;
}

bool Fabric::carries(uint32_t spine, bool forward) const {
    switch (state_[spine]) {
    case SpineState::Up:
        return true;
    case SpineState::Down:
        return false;
    case SpineState::Blackhole:
        return !forward;
    }
    return true;
}

void Fabric::send(uint32_t src, uint32_t dst, const Packet &pkt, bool forward) {
    const uint32_t spine = spine_of(pkt.flow, pkt.ev, forward);
    const uint64_t out =
            up_[static_cast<size_t>(src) * cfg_.spines + spine].transmit(loop_.now(), pkt.bytes);

    loop_.at(out + cfg_.one_way_ns / 2,
             [this, spine, dst, pkt, forward] { at_spine(spine, dst, pkt, forward); });
}

void Fabric::at_spine(uint32_t spine, uint32_t dst, Packet pkt, bool forward) {
    Link &down = down_[static_cast<size_t>(spine) * cfg_.hosts + dst];
    const uint64_t now = loop_.now();
    const double backlog = down.backlog_bytes(now) / kDataBytes;

    if (!carries(spine, forward)) {
        drops_dead_++;
        return;
    }
    if (backlog >= cfg_.queue_pkts) {
        drops_queue_++;
        return;
    }
    if (cfg_.loss_ppm && pkt.kind == Kind::Data && rng_.ppm(cfg_.loss_ppm)) {
        drops_random_++;
        return;
    }
    if (backlog >= cfg_.ecn_pkts && pkt.kind == Kind::Data) {
        pkt.ce = true;
        ce_marks_++;
    }
    max_queue_[dst] = std::max(max_queue_[dst], backlog);
    const uint64_t out = down.transmit(now, pkt.bytes);
    const uint64_t jitter = rng_.below(cfg_.jitter_ns + 1);

    loop_.at(out + cfg_.one_way_ns / 2 + jitter, [this, dst, pkt] { deliver_[dst](pkt); });
}

void Fabric::reset_queue_stats() {
    std::fill(max_queue_.begin(), max_queue_.end(), 0);
    drops_mark_ = drops_queue_;
}

} // namespace mrc::sim
