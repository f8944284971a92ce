#include "sim_receiver.h"

extern "C" {
#include "mrc_psn.h"
}

#include <stdexcept>

namespace mrc::sim {

Receiver::Receiver(EventLoop &loop, Fabric &fabric, uint32_t host, uint32_t peer, uint32_t flow,
                   uint32_t window, uint32_t nr_ev)
    : loop_(loop), fabric_(fabric), host_(host), peer_(peer), flow_(flow), nr_ev_(nr_ev),
      storage_(MRC_WINDOW_WORDS(window)) {
    if (mrc_rx_window_init(&rxw_, window, storage_.data(), static_cast<uint32_t>(storage_.size()),
                           0))
        throw std::invalid_argument("receive window");
}

void Receiver::on_packet(const Packet &pkt) {
    if (pkt.kind == Kind::Data) {
        on_data(pkt);
        return;
    }
    if (pkt.kind == Kind::Probe)
        answer_probe(pkt);
}

// mrc_probe_answer: MRC_PROBE_REPLY_COPIES replies. Over SRv6 every copy goes back along the
// probe's segments (its own EV); else the first on the way the prober asked for, the others
// on EVs of our own towards the requester (mrc_path_reply_ev).
void Receiver::answer_probe(const Packet &pkt) {
    for (uint32_t i = 0; i < kProbeReplyCopies; i++) {
        Packet reply;

        reply.kind = Kind::ProbeReply;
        reply.flow = flow_;
        if (fabric_.config().srv6)
            reply.ev = pkt.ev;
        else
            reply.ev = i == 0 && pkt.has_reply_ev ? pkt.reply_ev : own_ev();
        reply.probe_id = pkt.probe_id;
        reply.psn = pkt.ev; // names the EV probed, as the reply's payload does
        reply.bytes = kCtrlBytes;
        fabric_.send(host_, peer_, reply, false);
    }
}

void Receiver::on_data(const Packet &pkt) {
    const uint32_t cum = mrc_rx_window_cum(&rxw_);
    uint32_t advance = 0;
    bool ack = pkt.ack_req;

    if (mrc_psn_before(pkt.psn, cum) || mrc_rx_window_test(&rxw_, pkt.psn)) {
        duplicates_++;
        send_ack(pkt.ev, pkt.psn, true);
        if (pkt.ack_req) // our ACK may have died on its way: a second one on our own EV
            send_ack(own_ev(), pkt.psn, false);
        return;
    }
    if (mrc_rx_window_accept(&rxw_, pkt.psn, &advance) != MRC_RX_NEW)
        return; // beyond the window: the sender never goes that far
    if (advance && delivered_)
        delivered_(loop_.now(), advance);
    if (pkt.ce) {
        ce_seen_ = true;
        ce_psn_ = pkt.psn;
        ack = true;
    }
    since_ack_++;
    if (since_ack_ == ack_turn_ + 1)
        ack_back_ev_ = pkt.ev;
    if (since_ack_ >= MRC_ACK_EVERY_PKTS ||
        (mrc_rx_window_has_ooo(&rxw_) && since_ack_ >= MRC_ACK_EVERY_PKTS_OOO))
        ack = true;
    if (!ack)
        return;
    // mrc_resp_send_batch_ack: a batch's ACK on a packet of it in turn, one asked for on its
    // packet's EV
    if (since_ack_ >= MRC_ACK_EVERY_PKTS && !ce_seen_ && !pkt.ack_req) {
        send_ack(ack_back_ev_, pkt.psn, false);
        ack_turn_ = (ack_turn_ + 1) % MRC_ACK_EVERY_PKTS;
    } else {
        send_ack(pkt.ev, pkt.psn, false);
    }
}

// The ACK answering the packet with @psn (a duplicate of it when @dup).
void Receiver::send_ack(uint32_t ev, uint32_t psn, bool dup) {
    Packet ack;

    ack.kind = Kind::Ack;
    ack.flow = flow_;
    ack.ev = ev;
    ack.bytes = kCtrlBytes;
    // mrc_resp_send_ack_on: the PSN field names a duplicate, else a marked packet, else cum
    ack.psn = dup ? psn : ce_seen_ ? ce_psn_ : mrc_rx_window_cum(&rxw_);
    ack.dup = dup;
    ack.ce_echo = ce_seen_;
    ack.echo_ev = ev;
    ce_seen_ = false;
    mrc_rx_window_sack_for(&rxw_, psn, ack_cum_, &ack.sack);
    ack_cum_ = ack.sack.cum_psn;
    fabric_.send(host_, peer_, ack, false);
    since_ack_ = 0;
    acks_++;
}

} // namespace mrc::sim
