// The responder side of one simulated QP: the core's receive window, and the module's rules
// for when an ACK goes out and on which EV (mrc_resp.c): at once for ACK_REQ, a duplicate
// or a congestion mark, else every MRC_ACK_EVERY_PKTS packets (MRC_ACK_EVERY_PKTS_OOO while
// PSNs are missing), a batch's ACK going back the way its ack_turn-th packet came.
#pragma once

#include "sim_fabric.h"
#include "sim_loop.h"

extern "C" {
#include "mrc_rx_window.h"
}

#include <cstdint>
#include <functional>
#include <vector>

namespace mrc::sim {

class Receiver {
public:
    // Called with every advance of the cumulative PSN: PSNs delivered in order.
    using Delivered = std::function<void(uint64_t now, uint32_t pkts)>;

    Receiver(EventLoop &loop, Fabric &fabric, uint32_t host, uint32_t peer, uint32_t flow,
             uint32_t window, uint32_t nr_ev);

    void on_packet(const Packet &pkt);
    void on_delivered(Delivered cb) { delivered_ = std::move(cb); }

    [[nodiscard]] uint32_t cum() const { return mrc_rx_window_cum(&rxw_); }
    [[nodiscard]] uint64_t duplicates() const { return duplicates_; }
    [[nodiscard]] uint64_t acks_sent() const { return acks_; }

private:
    static constexpr uint32_t kProbeReplyCopies = 3; // MRC_PROBE_REPLY_COPIES

    void on_data(const Packet &pkt);
    void answer_probe(const Packet &pkt);
    void send_ack(uint32_t ev, uint32_t psn, bool dup);
    uint32_t own_ev() { return own_next_++ % nr_ev_; }

    EventLoop &loop_;
    Fabric &fabric_;
    uint32_t host_;
    uint32_t peer_;
    uint32_t flow_;
    uint32_t nr_ev_;
    uint32_t own_next_ = 0;
    std::vector<uint64_t> storage_;
    mrc_rx_window rxw_{};
    uint32_t since_ack_ = 0;
    uint32_t ack_turn_ = 0;
    uint32_t ack_back_ev_ = 0;
    uint32_t ack_cum_ = 0; // cum when the last ACK left
    bool ce_seen_ = false;
    uint32_t ce_psn_ = 0; // the marked packet the next ACK names
    uint64_t duplicates_ = 0;
    uint64_t acks_ = 0;
    Delivered delivered_;
};

} // namespace mrc::sim
