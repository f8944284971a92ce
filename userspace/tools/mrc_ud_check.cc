// SPDX-License-Identifier: BSD-2-Clause
// mrc_ud_check - UD QPs of a verbs device, their edges, between two processes over a TCP side
// channel, one line per check:
//
//     mrc_ud_check -d DEV [-g GID_INDEX] [-p PORT]            server (host A)
//     mrc_ud_check -d DEV [-g GID_INDEX] [-p PORT] SERVER     client (host B)
//
// The server posts four receives, the first too short for what will land in it, and tells the
// client its QP. The client checks its own side first: giving its QP a controlled Q_Key (high
// bit set) is refused; a datagram longer than the port MTU and one to an AH of another PD each
// complete in error and put the QP in ERR, from which it is brought back. Then it sends, in
// order: 64 bytes (they land in the short receive: LOC_LEN_ERR there, the server's QP stays in
// RTS), 100 bytes under a wrong Q_Key (dropped), 100 bytes with an immediate, and 200 bytes
// under the QP's own Q_Key (a WR Q_Key with the high bit set). The server then has exactly three
// completions: the error, and two datagrams with every byte, byte_len counting the GRH, the
// client's QPN and GID (in the GRH's source address), and the immediate.
//
// Exit status: 0 when every check passed, 1 when one failed, 2 for bad usage.
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <arpa/inet.h>

#include "tool_channel.h"
#include "tool_pattern.h"
#include "tool_report.h"
#include "tool_verbs.h"

namespace mrc::ud_check {
namespace {

using tool::Clock;

constexpr std::uint32_t kQkey = 0x1234abcd;
constexpr std::uint32_t kGrh = 40;
constexpr std::uint32_t kShort = 48; // the first receive: less than a GRH and 64 bytes
constexpr std::uint32_t kSlot = 4096 + kGrh;
constexpr std::uint32_t kImm = 0x5eed1234;
constexpr std::uint64_t kSeed = 0x75645f636865636bULL;
constexpr std::array<std::uint32_t, 4> kSizes = {64, 100, 100, 200}; // the client's datagrams

struct Options {
    std::string device;
    int gid_index = 0;
    std::uint16_t port = 18531;
    std::string server;
};

using tool::Ah;

using tool::check;

std::uint64_t key_of(std::uint32_t k) {
    return tool::pattern_key(kSeed, 1, 0, 0, k);
}

class End {
public:
    End(Options o, tool::Context ctx, tool::Channel ch)
        : opt_(std::move(o)), ctx_(std::move(ctx)), ch_(std::move(ch)) {}
    int run();

private:
    bool setup();
    bool server();
    bool datagram_ok(const ibv_wc &wc, std::uint32_t k, std::uint32_t slot);
    bool client();
    bool client_refusals(ibv_ah *ah);
    int post_one(ibv_ah *ah, std::uint32_t k, std::uint32_t len, std::uint32_t qkey,
                 ibv_wr_opcode opcode);
    bool send_one(ibv_ah *ah, std::uint32_t k, std::uint32_t qkey, ibv_wr_opcode opcode);
    bool expect_send_error(ibv_ah *ah, std::uint32_t len, ibv_wc_status want, const char *what);
    static Clock::time_point deadline() { return Clock::now() + std::chrono::seconds(20); }

    Options opt_;
    tool::Context ctx_;
    tool::Channel ch_;
    tool::Pd pd_;
    tool::Cq cq_;
    tool::Qp qp_;
    tool::Buffer mem_;
    tool::Mr mr_;
    tool::PortInfo port_;
    tool::QpInfo peer_;
};

bool End::setup() {
    if (!tool::query_port(ctx_.get(), opt_.gid_index, port_))
        return false;
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    cq_.reset(pd_ ? ibv_create_cq(ctx_.get(), 64, nullptr, nullptr, 0) : nullptr);
    mem_ = tool::Buffer(std::size_t{kSlot} * 8);
    if (!pd_ || !cq_ || !mem_)
        return check(false, "PD, CQ and memory");
    mr_ = tool::register_mr(pd_.get(), mem_.data(), mem_.size(), IBV_ACCESS_LOCAL_WRITE);
    ibv_qp_cap cap{.max_send_wr = 16,
                   .max_recv_wr = 16,
                   .max_send_sge = 1,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_ud_qp(pd_.get(), cq_.get(), cap);
    if (!mr_ || !qp_)
        return check(false, "MR and UD QP");
    if (!check(tool::ud_qp_to_rts(qp_.get(), kQkey) == 0, "UD QP %u in RTS", qp_->qp_num))
        return false;
    const tool::QpInfo me = {.qpn = qp_->qp_num, .psn = 0, .gid = port_.gid};
    return check(ch_.send_obj(me) && ch_.recv_obj(peer_, deadline()), "QPs exchanged");
}

// Message @k of the client, landed in receive @slot: the GRH and every byte.
bool End::datagram_ok(const ibv_wc &wc, std::uint32_t k, std::uint32_t slot) {
    const std::uint32_t len = kSizes[k];
    const std::span<const std::byte> buf = mem_.span().subspan(std::size_t{slot} * kSlot, kSlot);
    bool ok = check(wc.wr_id == slot && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV,
                    "message %u received in receive %u (wr_id %" PRIu64 ", status %d)", k, slot,
                    wc.wr_id, wc.status);
    ok = check(wc.byte_len == kGrh + len, "message %u: byte_len %u = GRH + %u", k, wc.byte_len,
               len) &&
         ok;
    ok = check((wc.wc_flags & IBV_WC_GRH) != 0 && wc.src_qp == peer_.qpn,
               "message %u: GRH flagged, source QP %u (want %u)", k, wc.src_qp, peer_.qpn) &&
         ok;
    const bool imm = k == 2;
    ok = check(((wc.wc_flags & IBV_WC_WITH_IMM) != 0) == imm &&
                       (!imm || ntohl(wc.imm_data) == kImm),
               "message %u: immediate %s", k, imm ? "carried" : "absent") &&
         ok;
    // the source address: an IPv6 header's bytes 8..23, or (IPv4-mapped) an IPv4 header's
    // bytes 12..15 in the GRH's last 20
    const std::span<const std::uint8_t> gid(peer_.gid.raw);
    const std::array<std::uint8_t, 12> mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    const bool v4 = std::memcmp(gid.data(), mapped.data(), mapped.size()) == 0;
    const bool src = v4 ? std::memcmp(buf.data() + 20 + 12, gid.data() + 12, 4) == 0
                        : std::memcmp(buf.data() + 8, gid.data(), 16) == 0;
    ok = check(src, "message %u: the GRH names the client's address", k) && ok;
    // the SL as ConnectX fills it for RoCE (UCX reads it): UDP, and IPv4 (2) or IPv6 (1)
    ok = check(wc.sl == (v4 ? 0xa : 0x9), "message %u: SL %#x tells UDP over IPv%d", k, wc.sl,
               v4 ? 4 : 6) &&
         ok;
    const std::size_t bad = tool::pattern_check(buf.subspan(kGrh, len), key_of(k), 0);
    return check(bad == len, "message %u: all %u bytes right (first bad %zu)", k, len, bad) && ok;
}

bool End::server() {
    // receive k lands at slot k; the first is too short for what comes
    for (std::uint32_t k = 0; k < kSizes.size(); k++) {
        ibv_sge sge = {.addr = mem_.addr() + std::uint64_t{k} * kSlot,
                       .length = k ? kSlot : kShort,
                       .lkey = mr_->lkey};
        ibv_recv_wr wr = {.wr_id = k, .next = nullptr, .sg_list = &sge, .num_sge = 1};
        ibv_recv_wr *bad = nullptr;
        if (ibv_post_recv(qp_.get(), &wr, &bad))
            return check(false, "post_recv %u: %s", k, std::strerror(errno));
    }
    std::uint32_t go = 1;
    std::uint32_t sent = 0;
    if (!ch_.send_obj(go) || !ch_.recv_obj(sent, deadline()) || sent != kSizes.size())
        return check(false, "the client sent its datagrams");

    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 3, std::chrono::seconds(10));
    bool ok = check(wc.size() == 3, "3 receive completions (got %zu)", wc.size());
    if (wc.size() == 3) {
        ok = check(wc[0].wr_id == 0 && wc[0].status == IBV_WC_LOC_LEN_ERR,
                   "the short receive completed with LOC_LEN_ERR (status %d)", wc[0].status) &&
             ok;
        // message 1 (wrong Q_Key) took no receive: message 2 is in receive 1, 3 in 2
        ok = datagram_ok(wc[1], 2, 1) && ok;
        ok = datagram_ok(wc[2], 3, 2) && ok;
    }
    const std::vector<ibv_wc> more =
            tool::poll_completions(cq_.get(), 1, std::chrono::milliseconds(300));
    ok = check(more.empty(), "nothing else arrived") && ok;
    ok = check(tool::query_qp_state(qp_.get()) == IBV_QPS_RTS, "the server's QP stays in RTS") &&
         ok;
    const std::uint32_t verdict = ok ? 1 : 0;
    ch_.send_obj(verdict);
    return ok;
}

int End::post_one(ibv_ah *ah, std::uint32_t k, std::uint32_t len, std::uint32_t qkey,
                  ibv_wr_opcode opcode) {
    ibv_sge sge = {
            .addr = mem_.addr() + std::uint64_t{k} * kSlot, .length = len, .lkey = mr_->lkey};
    ibv_send_wr wr{};
    wr.wr_id = k;
    wr.opcode = opcode;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.imm_data = htonl(kImm);
    wr.wr.ud.ah = ah;
    wr.wr.ud.remote_qpn = peer_.qpn;
    wr.wr.ud.remote_qkey = qkey;
    ibv_send_wr *bad = nullptr;
    return ibv_post_send(qp_.get(), &wr, &bad) ? errno : 0;
}

bool End::send_one(ibv_ah *ah, std::uint32_t k, std::uint32_t qkey, ibv_wr_opcode opcode) {
    tool::pattern_fill(mem_.span().subspan(std::size_t{k} * kSlot, kSizes[k]), key_of(k), 0);
    const int err = post_one(ah, k, kSizes[k], qkey, opcode);
    if (err)
        return check(false, "post_send %u: %s", k, std::strerror(err));
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(5));
    return check(wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS && wc[0].wr_id == k,
                 "message %u (%u bytes) sent", k, kSizes[k]);
}

// A send the QP must refuse with @want: it then is in ERR and is brought back to RTS.
bool End::expect_send_error(ibv_ah *ah, std::uint32_t len, ibv_wc_status want, const char *what) {
    const int err = post_one(ah, 7, len, kQkey, IBV_WR_SEND);
    if (err)
        return check(false, "post_send (%s): %s", what, std::strerror(err));
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(5));
    bool ok = check(wc.size() == 1 && wc[0].status == want, "%s: completion status %d (want %d)",
                    what, wc.empty() ? -1 : wc[0].status, want);
    ok = check(tool::query_qp_state(qp_.get()) == IBV_QPS_ERR, "%s: the QP is in ERR", what) && ok;
    return check(tool::ud_qp_to_rts(qp_.get(), kQkey) == 0, "%s: the QP back in RTS", what) && ok;
}

bool End::client_refusals(ibv_ah *ah) {
    ibv_qp_attr a{};
    a.qkey = 0x80010000; // the GSI's, a controlled one
    const int err = ibv_modify_qp(qp_.get(), &a, IBV_QP_QKEY) ? errno : 0;
    bool ok = check(err == EPERM, "a controlled Q_Key refused (%s)", std::strerror(err));
    const std::uint32_t mtu = 128U << port_.mtu; // IBV_MTU_256 is 1
    ok = expect_send_error(ah, mtu + 1, IBV_WC_LOC_LEN_ERR, "a datagram over the MTU") && ok;
    tool::Pd other(ibv_alloc_pd(ctx_.get()));
    Ah foreign = other ? tool::create_ah(other.get(), peer_.gid, opt_.gid_index) : Ah();
    if (!foreign)
        return check(false, "an AH of a second PD");
    return expect_send_error(foreign.get(), 8, IBV_WC_LOC_QP_OP_ERR, "an AH of another PD") && ok;
}

bool End::client() {
    Ah ah = tool::create_ah(pd_.get(), peer_.gid, opt_.gid_index);
    if (!ah)
        return check(false, "an AH to the server");
    bool ok = client_refusals(ah.get());
    std::uint32_t go = 0;
    if (!ch_.recv_obj(go, deadline()))
        return check(false, "the server posted its receives");
    ok = send_one(ah.get(), 0, kQkey, IBV_WR_SEND) && ok;
    ok = send_one(ah.get(), 1, kQkey ^ 1, IBV_WR_SEND) && ok;
    ok = send_one(ah.get(), 2, kQkey, IBV_WR_SEND_WITH_IMM) && ok;
    ok = send_one(ah.get(), 3, 0x80000000U, IBV_WR_SEND) && ok; // the QP's own Q_Key
    const std::uint32_t sent = kSizes.size();
    std::uint32_t verdict = 0;
    if (!ch_.send_obj(sent) || !ch_.recv_obj(verdict, deadline()))
        return check(false, "no verdict from the server");
    return check(verdict == 1, "the server's checks passed") && ok;
}

int End::run() {
    bool ok = setup();
    if (ok)
        ok = opt_.server.empty() ? server() : client();
    std::printf("mrc_ud_check %s: %s\n", opt_.server.empty() ? "server" : "client",
                ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int ud_check_main(std::span<char *> args) {
    Options o;
    std::vector<std::string_view> pos;
    for (std::size_t i = 1; i < args.size(); i++) {
        const std::string_view a = args[i];
        if ((a == "-d" || a == "-g" || a == "-p") && i + 1 < args.size()) {
            const char *v = args[++i];
            if (a == "-d")
                o.device = v;
            else if (a == "-g")
                o.gid_index = std::atoi(v);
            else
                o.port = static_cast<std::uint16_t>(std::atoi(v));
        } else {
            pos.push_back(a);
        }
    }
    if (o.device.empty() || pos.size() > 1) {
        std::fprintf(stderr, "usage: mrc_ud_check -d DEV [-g GID_INDEX] [-p PORT] [SERVER]\n");
        return 2;
    }
    if (!pos.empty())
        o.server = pos[0];
    tool::Context ctx = tool::open_device(o.device);
    if (!ctx)
        return 2;
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    tool::Channel ch = tool::Channel::open(o.server, o.port, deadline);
    if (!ch)
        return 1;
    End end(o, std::move(ctx), std::move(ch));
    return end.run();
}

} // namespace
} // namespace mrc::ud_check

int main(int argc, char **argv) {
    return mrc::tool::guarded_main("mrc_ud_check", mrc::ud_check::ud_check_main, argc, argv);
}
