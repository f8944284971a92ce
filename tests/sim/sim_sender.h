// The requester side of one simulated QP, made of the module's own core: the scoreboard
// (mrc_tx_window), per-PSN records and verdicts (mrc_tx_rec), loss detection (mrc_loss),
// the congestion window (mrc_cc) and the path set (mrc_path_set), wired the way mrc_req.c,
// mrc_comp.c and mrc_path.c wire them: an ACK is accounted and starts a requester pass
// (holes judged and resent, then new data while the window allows), the loss deadline and
// the retransmit timeout are timers, and the probe tick runs while EVs need probes.
//
// What the kernel glue adds and this leaves out: the pass budget (MRC_REQ_BUDGET packets,
// then a re-kick), WQEs (the data is one endless stream of 64-packet messages), READs and
// atomics, RNR. The probe tick runs every kProbeTickNs: the kernel asks for 2 ms, which HZ=250
// rounds up to one 4 ms jiffy. A suspect's first probe leaves when its loss is found, as there.
#pragma once

#include "sim_fabric.h"
#include "sim_loop.h"

extern "C" {
#include "mrc_cc.h"
#include "mrc_loss.h"
#include "mrc_path_set.h"
#include "mrc_stall.h"
#include "mrc_tx_rec.h"
#include "mrc_tx_window.h"
}

#include <cstdint>
#include <functional>
#include <vector>

namespace mrc::sim {

constexpr uint64_t kProbeTickNs = 4'000'000;
// The reordering window's floor of a simulated host (mrc_loss_params.min_reo_ns): what its
// transmit and receive pipelines reorder, a NIC's microsecond or two. The module's floor,
// MRC_LOSS_MIN_REO_NS, is a kernel's scheduling noise (softirqs on two CPUs, a VM's vCPUs):
// with it, a 10 us fabric would wait five round trips before any loss could be seen.
constexpr uint32_t kHostReoFloorNs = 2'000;
constexpr uint32_t kMessagePkts = 64;
// The module's retransmit timeout with the default local ACK timeout (14): 4.096 us << 14.
constexpr uint64_t kRtoNs = 4096ULL << 14U;

struct SenderConfig {
    uint32_t nr_ev = 256;
    uint32_t window = MRC_DEFAULT_WINDOW;
    uint32_t target_delay_ns = 0; // relative (mrc_cc_target_delay)
    uint8_t policy = MRC_SPRAY_ROUND_ROBIN;
    uint64_t probe_secret = 1;
};

// What the scenario wants to hear as it happens.
struct SenderHooks {
    std::function<void(uint64_t now, uint32_t ev, bool retx)> sent;
    std::function<void(uint64_t now, const mrc_ev_change &change)> changed;
};

struct SenderStats {
    uint64_t tx_packets = 0;
    uint64_t retransmits = 0;
    uint64_t rto = 0;
    uint64_t spurious = 0; // resends the peer said it got twice
    uint64_t probes = 0;
    uint64_t bad_acks = 0;
    uint64_t tail_probes = 0;
    uint64_t return_resends = 0; // the oldest PSN again at the first news after a timeout
    uint32_t max_copies = 0;     // the most transmissions of one PSN
};

class Sender {
public:
    Sender(EventLoop &loop, Fabric &fabric, uint32_t host, uint32_t peer, uint32_t flow,
           const SenderConfig &cfg, SenderHooks hooks);

    void start();
    void on_packet(const Packet &pkt);
    // The host stops running us over [from, until): nothing is sent or processed.
    void stall(uint64_t from, uint64_t until);

    [[nodiscard]] const SenderStats &stats() const { return stats_; }
    [[nodiscard]] const mrc_cc &cc() const { return cc_; }
    [[nodiscard]] const mrc_loss &loss() const { return loss_; }
    [[nodiscard]] const mrc_path_set &paths() const { return ps_; }
    [[nodiscard]] const mrc_tx_window &txw() const { return txw_; }
    // qp-stats' stall-max-ns: the oldest PSN's longest wait since the last stall_reset()
    [[nodiscard]] uint64_t stall_max_ns() const { return stall_.max_ns; }
    void stall_reset() { stall_.max_ns = 0; }

private:
    void run(const std::function<void()> &fn);
    void pass();
    void fast_retransmit();
    void send_new();
    void xmit(uint32_t psn, bool retx);
    void resend_lost(uint32_t psn);
    void on_ack(const Packet &pkt);
    void account(uint32_t old_una, const mrc_sack &sack);
    [[nodiscard]] bool record_is_own(uint32_t psn) const;
    [[nodiscard]] uint32_t marked_rtt(const Packet &ack) const;
    void progress();
    void arm_rto();
    void on_rto();
    void look_for_return();
    void arm_loss_timer(uint64_t deadline);
    void tail_probe();
    void kick_probes();
    void send_probe(const mrc_ev_probe &p);
    void tick();
    [[nodiscard]] uint32_t in_flight() const;
    mrc_tx_rec &rec(uint32_t psn) { return rec_[psn & (cfg_.window - 1)]; }
    [[nodiscard]] const mrc_tx_rec &rec(uint32_t psn) const {
        return rec_[psn & (cfg_.window - 1)];
    }

    EventLoop &loop_;
    Fabric &fabric_;
    uint32_t host_;
    uint32_t peer_;
    uint32_t flow_;
    SenderConfig cfg_;
    SenderHooks hooks_;
    SenderStats stats_;

    std::vector<uint64_t> txw_map_;
    mrc_tx_window txw_{};
    mrc_stall stall_{};
    std::vector<mrc_tx_rec> rec_;
    std::vector<uint8_t> copies_;
    mrc_cc cc_{};
    mrc_loss loss_{};
    std::vector<mrc_ev_health> ev_;
    std::vector<uint64_t> usable_;
    mrc_path_set ps_{};
    mrc_ev_cursor cursor_{};
    uint32_t ack_req_psn_ = 0;

    uint64_t rto_at_ = 0; // 0: not armed
    uint32_t retries_ = 0;
    uint64_t timeout_ns_ = 0; // the last timeout or return resend; 0: none pending
    uint32_t returns_left_ = 0;
    uint64_t look_at_ = 0;
    uint64_t loss_at_ = 0;
    uint64_t quiet_since_ = 0; // the last send or progress
    uint32_t tlp_probes_ = 0;
    uint64_t tick_at_ = 0;
    uint64_t stall_from_ = 0;
    uint64_t stall_until_ = 0;
};

} // namespace mrc::sim
