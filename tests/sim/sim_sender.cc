#include "sim_sender.h"

extern "C" {
#include "mrc_psn.h"
}

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace mrc::sim {

namespace {

constexpr uint32_t kTickBatch = 32; // MRC_PATH_TICK_BATCH
constexpr uint32_t kMaxBackoff = 7; // MRC_REQ_MAX_BACKOFF

} // namespace

Sender::Sender(EventLoop &loop, Fabric &fabric, uint32_t host, uint32_t peer, uint32_t flow,
               const SenderConfig &cfg, SenderHooks hooks)
    : loop_(loop), fabric_(fabric), host_(host), peer_(peer), flow_(flow), cfg_(cfg),
      hooks_(std::move(hooks)), txw_map_(MRC_WINDOW_WORDS(cfg.window)), rec_(cfg.window),
      copies_(cfg.window), ev_(cfg.nr_ev), usable_(MRC_PATH_SET_WORDS(cfg.nr_ev)) {
    const mrc_cc_params ccp = {MRC_CC_INIT_CWND, MRC_CC_MIN_CWND, cfg.window, cfg.target_delay_ns};
    const mrc_loss_params lp = {static_cast<uint32_t>(kRtoNs), kHostReoFloorNs, kHostReoFloorNs};

    if (mrc_tx_window_init(&txw_, cfg.window, txw_map_.data(),
                           static_cast<uint32_t>(txw_map_.size()), 0) ||
        mrc_cc_init(&cc_, &ccp, 0) || mrc_loss_init(&loss_, &lp, 0) ||
        mrc_path_set_init(&ps_, ev_.data(), usable_.data(), static_cast<uint32_t>(usable_.size()),
                          cfg.nr_ev, 1, cfg.policy) ||
        mrc_path_set_set_probe_tag(&ps_, flow % MRC_PROBE_TAGS))
        throw std::invalid_argument("sender configuration");
    mrc_path_set_seed_probe_ids(&ps_, cfg.probe_secret);
    // mrc_path_alloc: an SRv6 EV names its spine, the element its siblings share
    if (fabric.config().srv6)
        for (uint32_t ev = 0; ev < cfg.nr_ev; ev++)
            mrc_path_set_set_group(&ps_, ev, fabric.spine_of(flow, ev, true) + 1);
}

void Sender::stall(uint64_t from, uint64_t until) {
    stall_from_ = from;
    stall_until_ = until;
}

// Everything we do goes through here: a stalled host does it when it runs again.
void Sender::run(const std::function<void()> &fn) {
    const uint64_t now = loop_.now();

    if (now >= stall_from_ && now < stall_until_) {
        loop_.at(stall_until_, fn);
        return;
    }
    fn();
}

void Sender::start() {
    run([this] { pass(); });
}

void Sender::on_packet(const Packet &pkt) {
    run([this, pkt] {
        if (pkt.kind == Kind::Ack) {
            on_ack(pkt);
            pass();
        } else if (pkt.kind == Kind::ProbeReply) {
            mrc_ev_change change{};

            if (mrc_path_set_probe_answered(&ps_, pkt.psn, pkt.probe_id, loop_.now(), &change) &&
                hooks_.changed)
                hooks_.changed(loop_.now(), change);
        }
    });
}

// mrc_req_run: holes first, then new data.
void Sender::pass() {
    fast_retransmit();
    send_new();
    tail_probe();
    if (mrc_tx_window_outstanding(&txw_))
        arm_rto();
}

// mrc_req_tail_probe
void Sender::tail_probe() {
    uint64_t deadline = 0;

    if (!mrc_tx_window_outstanding(&txw_))
        return;
    if (!mrc_loss_tlp_due(&loss_, quiet_since_, tlp_probes_, loop_.now(), &deadline)) {
        if (deadline)
            arm_loss_timer(deadline);
        return;
    }
    tlp_probes_++;
    stats_.tail_probes++;
    xmit(mrc_tx_window_una(&txw_), true);
}

uint32_t Sender::in_flight() const {
    return mrc_tx_window_outstanding(&txw_) - txw_.nr_sacked;
}

void Sender::fast_retransmit() {
    const uint64_t now = loop_.now();
    uint64_t next = 0;
    uint64_t deadline = 0;
    uint32_t psn = 0;
    uint32_t scanned = 0;

    if (!mrc_tx_window_holes(&txw_))
        return;
    mrc_tx_window_for_each_hole(&txw_, psn) {
        if (++scanned > MRC_LOSS_SCAN)
            break;
        const mrc_tx_rec &r = rec(psn);
        const mrc_loss_verdict v = mrc_tx_rec_judge(
                &r, &loss_, psn, mrc_path_set_standing(&ps_, r.ev), now, &deadline);

        if (v == MRC_LOSS_WAIT && (!next || deadline < next))
            next = deadline;
        if (v == MRC_LOSS_LOST)
            resend_lost(psn);
    }
    if (next)
        arm_loss_timer(next);
}

void Sender::send_new() {
    while (mrc_tx_window_space(&txw_) && mrc_cc_may_send(&cc_, in_flight(), 1)) {
        uint32_t psn = 0;

        mrc_stall_sent(&stall_, mrc_tx_window_outstanding(&txw_) == 0, loop_.now());
        mrc_tx_window_alloc(&txw_, &psn);
        copies_[psn & (cfg_.window - 1)] = 0;
        xmit(psn, false);
    }
}

// mrc_req_xmit + mrc_req_record: the ACK request, the EV (one whose ACKs come back for a packet
// that asks for one), the record, the packet.
void Sender::xmit(uint32_t psn, bool retx) {
    const uint64_t now = loop_.now();
    const bool live = !mrc_tx_window_is_acked(&txw_, psn);
    const uint32_t avoid = retx && live ? rec(psn).ev : MRC_PROFILE_EV_MAX;
    const bool ack_req =
            retx || (psn + 1) % kMessagePkts == 0 || (psn + 1) % MRC_ACK_REQ_EVERY_PKTS == 0 ||
            (in_flight() >= mrc_cc_cwnd(&cc_) && psn - ack_req_psn_ >= MRC_ACK_EVERY_PKTS);
    const uint64_t since = mrc_loss_proven_since(&loss_, now, retx && live ? rec(psn).sent_ns : 0);
    uint32_t ev = 0;
    const int rc = ack_req ? mrc_path_set_pick_proven(&ps_, &cursor_, avoid, since, retx, &ev)
                           : mrc_path_set_pick(&ps_, &cursor_, avoid, &ev);
    Packet pkt;

    if (rc < 0)
        ev = 0;
    quiet_since_ = now;
    const uint32_t seq = live ? mrc_path_set_sent(&ps_, ev) : 0;

    if (live)
        mrc_tx_rec_sent(&rec(psn), now, ev, seq, rc == 0, retx, 0);
    pkt.kind = Kind::Data;
    pkt.flow = flow_;
    pkt.ev = ev;
    pkt.psn = psn;
    pkt.retx = retx;
    pkt.ack_req = ack_req;
    if (pkt.ack_req)
        ack_req_psn_ = psn;
    uint8_t &copies = copies_[psn & (cfg_.window - 1)];

    copies = static_cast<uint8_t>(std::min(copies + 1, 255));
    stats_.max_copies = std::max<uint32_t>(stats_.max_copies, copies);
    stats_.tx_packets++;
    stats_.retransmits += retx ? 1 : 0;
    if (hooks_.sent)
        hooks_.sent(now, ev, retx);
    fabric_.send(host_, peer_, pkt, true);
}

// mrc_req_resend_lost: the EV hears of the loss (GOOD becomes suspect), the window of it.
void Sender::resend_lost(uint32_t psn) {
    const mrc_tx_rec &r = rec(psn);

    if (r.account && mrc_path_set_lost(&ps_, r.ev, r.seq, r.sent_ns, mrc_loss_min_rtt(&loss_))) {
        mrc_ev_probe probe{};

        if (mrc_path_set_probe_suspect(&ps_, r.ev, loop_.now(), &probe))
            send_probe(probe);
        kick_probes();
    }
    mrc_cc_on_loss(&cc_, loop_.now(), !mrc_path_set_usable(&ps_, r.ev));
    xmit(psn, true);
}

// mrc_comp_ack
void Sender::on_ack(const Packet &pkt) {
    const uint32_t old_una = mrc_tx_window_una(&txw_);
    mrc_tx_ack_result res{};

    if (mrc_tx_window_ack(&txw_, &pkt.sack, &res)) {
        stats_.bad_acks++;
        return;
    }
    mrc_path_set_returned(&ps_, pkt.echo_ev, loop_.now());
    if (res.una_advance)
        mrc_stall_una_moved(&stall_, loop_.now());
    if (res.una_advance || res.newly_acked) {
        account(old_una, pkt.sack);
        progress();
    }
    if (pkt.ce_echo) {
        mrc_path_set_ce_mark(&ps_, pkt.echo_ev);
        mrc_cc_on_ce(&cc_, marked_rtt(pkt), loop_.now());
    }
    if (pkt.dup) {
        if (record_is_own(pkt.psn) && mrc_tx_rec_dup_heard(&rec(pkt.psn))) {
            mrc_loss_on_spurious(&loss_);
            stats_.spurious++;
        }
    }
}

// Whether @psn's record is still its own (sent, within a window of nxt): mrc_comp_dup_heard.
bool Sender::record_is_own(uint32_t psn) const {
    const uint32_t nxt = mrc_tx_window_nxt(&txw_);

    return mrc_psn_before(psn, nxt) && nxt - psn <= cfg_.window;
}

// The round trip of the packet a CE echo names, 0 when it names none (the module does not
// feed marks to its window yet, protocol.rst).
uint32_t Sender::marked_rtt(const Packet &ack) const {
    if (ack.dup || !record_is_own(ack.psn) || !mrc_tx_window_is_acked(&txw_, ack.psn))
        return 0;
    return mrc_tx_rec_marked_rtt(&rec(ack.psn), loop_.now());
}

// mrc_comp_account
void Sender::account(uint32_t old_una, const mrc_sack &sack) {
    const uint32_t una = mrc_tx_window_una(&txw_);
    const uint64_t now = loop_.now();
    mrc_tx_acked acked{};
    uint32_t end = sack.sack_base + MRC_SACK_BITS;
    auto one = [&](uint32_t psn) {
        mrc_tx_rec &r = rec(psn);

        if (mrc_tx_rec_acked(&r, psn, &acked) && mrc_tx_rec_credits_ev(&r, &loss_, now))
            mrc_path_set_acked(&ps_, r.ev, r.seq, r.sent_ns, now);
    };

    for (uint32_t psn = old_una; mrc_psn_before(psn, una); psn++)
        one(psn);
    if (mrc_psn_after(end, mrc_tx_window_nxt(&txw_)))
        end = mrc_tx_window_nxt(&txw_);
    for (uint32_t psn = mrc_psn_before(sack.sack_base, una) ? una : sack.sack_base;
         mrc_psn_before(psn, end); psn++)
        if (mrc_tx_window_is_acked(&txw_, psn))
            one(psn);
    if (!acked.pkts)
        return;
    const uint32_t rtt = mrc_tx_acked_rtt(&acked, now);

    mrc_cc_on_ack(&cc_, acked.pkts, rtt, now);
    if (rtt && ps_.policy == MRC_SPRAY_ADAPTIVE)
        mrc_path_set_rtt_sample(&ps_, acked.newest_ev, rtt);
    mrc_tx_acked_to_loss(&acked, &loss_, now);
}

// mrc_comp_progress: the retry budget starts over, the timeout moves out.
void Sender::progress() {
    retries_ = 0;
    tlp_probes_ = 0;
    quiet_since_ = loop_.now();
    rto_at_ = 0;
    timeout_ns_ = 0;
    if (mrc_tx_window_outstanding(&txw_))
        arm_rto();
}

void Sender::arm_rto() {
    if (rto_at_)
        return;
    rto_at_ = loop_.now() + (kRtoNs << std::min(retries_, kMaxBackoff));
    const uint64_t at = rto_at_;

    loop_.at(at, [this, at] {
        if (rto_at_ == at)
            run([this] { on_rto(); });
    });
}

// mrc_req_timeout: everything older than the RTO goes again.
void Sender::on_rto() {
    const uint64_t now = loop_.now();
    uint32_t psn = mrc_tx_window_una(&txw_);

    rto_at_ = 0;
    if (!mrc_tx_window_outstanding(&txw_))
        return;
    stats_.rto++;
    retries_++;
    mrc_cc_on_timeout(&cc_);
    while (mrc_tx_window_next_unacked(&txw_, psn, &psn)) {
        if (now - rec(psn).sent_ns >= kRtoNs)
            resend_lost(psn);
        psn++;
    }
    timeout_ns_ = now;
    returns_left_ = MRC_LOSS_RETURN_RESENDS;
    look_for_return();
    pass();
}

// mrc_req_loss_timer's look-out and mrc_req_return_resend: after a timeout, news the path set
// hears from the peer once the resend's ACK is overdue sends the oldest PSN again at once.
void Sender::look_for_return() {
    const uint64_t now = loop_.now();
    uint64_t deadline = 0;

    if (!timeout_ns_ || !mrc_tx_window_outstanding(&txw_))
        return;
    if (mrc_loss_return_due(&loss_, timeout_ns_, mrc_path_set_heard_ns(&ps_), now, &deadline)) {
        stats_.return_resends++;
        xmit(mrc_tx_window_una(&txw_), true);
        timeout_ns_ = --returns_left_ ? now : 0;
        look_for_return();
        return;
    }
    look_at_ = deadline;
    loop_.at(deadline, [this, deadline] {
        if (look_at_ == deadline)
            run([this] { look_for_return(); });
    });
}

void Sender::arm_loss_timer(uint64_t deadline) {
    if (loss_at_ && loss_at_ <= deadline && loss_at_ > loop_.now())
        return;
    loss_at_ = deadline;
    loop_.at(deadline, [this, deadline] {
        if (loss_at_ != deadline)
            return;
        loss_at_ = 0;
        run([this] { pass(); });
    });
}

void Sender::kick_probes() {
    const uint64_t now = loop_.now();

    if (tick_at_) // like mod_timer only when !timer_pending(): a pending tick is not moved
        return;
    tick_at_ = now;
    loop_.at(now, [this, now] {
        if (tick_at_ == now)
            run([this] { tick(); });
    });
}

// mrc_path_send_probe
void Sender::send_probe(const mrc_ev_probe &p) {
    Packet probe;

    probe.kind = Kind::Probe;
    probe.flow = flow_;
    probe.ev = p.ev;
    probe.probe_id = p.probe_id;
    probe.has_reply_ev = p.reply_ev < cfg_.nr_ev;
    probe.reply_ev = p.reply_ev;
    probe.bytes = kCtrlBytes;
    stats_.probes++;
    fabric_.send(host_, peer_, probe, true);
}

// mrc_path_probe_timer
void Sender::tick() {
    std::array<mrc_ev_probe, kTickBatch> probes{};
    std::array<mrc_ev_change, kTickBatch> changes{};
    mrc_path_tick t = {probes.data(), kTickBatch, 0, changes.data(), kTickBatch, 0};
    const uint64_t now = loop_.now();

    tick_at_ = 0;
    mrc_path_set_tick(&ps_, now, &t);
    for (uint32_t i = 0; i < t.nr_probes; i++)
        send_probe(probes[i]);
    for (uint32_t i = 0; i < t.nr_changes; i++)
        if (hooks_.changed)
            hooks_.changed(now, changes[i]);
    if (mrc_path_set_needs_tick(&ps_)) {
        const uint64_t at = now + kProbeTickNs;

        tick_at_ = at;
        loop_.at(at, [this, at] {
            if (tick_at_ == at)
                run([this] { tick(); });
        });
    }
}

} // namespace mrc::sim
