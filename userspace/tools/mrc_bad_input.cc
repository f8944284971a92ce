// SPDX-License-Identifier: BSD-2-Clause
// mrc_bad_input - RC error paths of a verbs device, between two processes over a TCP side
// channel, one line per check:
//
//     mrc_bad_input -d DEV [-g GID_INDEX] [-p PORT] [-n FD] CASE    server (host A)
//     mrc_bad_input -d DEV [-g GID_INDEX] [-p PORT] CASE SERVER     client (host B)
//
//     access  the client WRITEs and READs the server's memory with a bad rkey, then with a good
//             rkey but a range crossing the region's end / start: each completes with
//             REM_ACCESS_ERR, both QPs are in ERR, the server's memory (and the pages around the
//             region) is untouched; both QPs are reset (RESET -> INIT -> RTR -> RTS, new PSNs)
//             and a WRITE + SEND_WITH_IMM + READ round then succeeds, checked on both ends.
//     flush   the server destroys its QP; the client posts sends and receives that can never
//             complete, moves its QP to ERR and gets every one back, in order, as WR_FLUSH_ERR
//             (a send posted after ERR too, then a receive alone); then it destroys a QP with
//             work outstanding and never polled, and its CQ, MR and PD, all cleanly.
//     srq     the server's QP receives through a shared receive queue holding 8 receives, its
//             limit armed at 4; the client SENDs 6 messages: each lands whole in the receive
//             its completion names, the limit event fires once (and disarms), and moving the
//             QP to ERR raises LAST_WQE_REACHED without flushing the 2 receives it never took.
//     mr-churn  the server registers a second MR over its region, sends its rkey, deregisters
//             it after a random 0-400 us (even rounds) or once the first WRITE landed (odd
//             ones); the client WRITEs 16 x 256 bytes with that rkey at once: its lookups
//             on the server race the deregistration. 64 rounds; each WRITE
//             completes well, with REM_ACCESS_ERR or flushed after one, never otherwise, and
//             both QPs are connected anew after a failure; the pages around the region stay
//             untouched.
//     rd-atomic  the server grants no READ/atomic resources (max_dest_rd_atomic 0): a READ and
//             an atomic each complete with REM_INV_REQ_ERR and both QPs go to ERR; then it
//             grants 1 while the client allows itself 16: 16 READs posted at once fail the
//             same way; with the client at 1 too, 8 READs complete, every byte right.
//     rnr-progress  the client allows one RNR retry (rnr_retry 1) and SENDs 4 messages one
//             after the other; the server (min_rnr_timer 491 ms) posts each receive once its
//             device counted the NAK that refused the message (its naks_sent hw counter, not a
//             fixed delay a stalled vCPU outlasts), so every message meets one RNR NAK and
//             lands on its retry: all 4 complete, as IB counts RNR retries per message, not
//             per QP. In a network namespace sysfs shows no hw counters: -n FD names the
//             counter's file opened outside (e.g. 9<.../hw_counters/naks_sent).
//
// Exit status: 0 when every check passed, 1 when one failed, 2 for bad usage.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "tool_channel.h"
#include "tool_pattern.h"
#include "tool_report.h"
#include "tool_verbs.h"

namespace mrc::bad_input {
namespace {

using tool::Clock;

constexpr std::uint64_t kSeed = 0x6261645f696e70ULL;
constexpr std::size_t kRegion = std::size_t{64} * 1024; // the server's registered region
constexpr std::size_t kGuard = 4096; // unregistered, patterned pages on either side
constexpr std::uint32_t kQueue = 64;
constexpr std::uint32_t kSrqWrs = 16;   // the SRQ's size
constexpr std::uint32_t kSrqPosted = 8; // receives posted to it
constexpr std::uint32_t kSrqLimit = 4;  // its armed limit
constexpr std::uint32_t kSrqSends = 6;  // messages the client sends
constexpr std::uint32_t kSrqSlot = 4096;
constexpr std::uint32_t kRnrMessages = 4;
constexpr std::uint8_t kRnrTimer = 31;          // 491.52 ms, IB's encoding
constexpr std::chrono::seconds kRnrNakWait{10}; // how long the server waits for each RNR NAK

struct Options {
    std::string device;
    int gid_index = 0;
    std::uint16_t port = 18530;
    std::string server;
    std::string test;
    int naks_fd = -1; // -n: the server device's naks_sent counter, opened by the caller
};

// The server's QP and region, as the client needs them.
struct Setup {
    tool::QpInfo info;
    std::uint64_t addr = 0;
    std::uint32_t rkey = 0;
    std::uint32_t pad = 0;
};

enum class Req : std::uint32_t { Check = 1, Reconnect, Verify, Destroy, Bye, Grant, Churn, Guards };

// Client -> server requests and server -> client answers.
struct Msg {
    Req req = Req::Bye;
    std::uint32_t arg = 0;
    std::uint64_t val = 0;
};

using tool::check;

// Wait for the asynchronous event @want on @ctx (acknowledging every event seen).
bool wait_async_event(ibv_context *ctx, ibv_event_type want, std::chrono::milliseconds limit) {
    const int flags = fcntl(ctx->async_fd, F_GETFL);
    if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return false;
    const auto deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
        pollfd pfd{.fd = ctx->async_fd, .events = POLLIN, .revents = 0};
        if (poll(&pfd, 1, 10) <= 0)
            continue;
        ibv_async_event ev{};
        if (ibv_get_async_event(ctx, &ev) != 0)
            continue;
        const ibv_event_type got = ev.event_type;
        ibv_ack_async_event(&ev);
        std::printf("# async event: %s\n", ibv_event_type_str(got));
        if (got == want)
            return true;
    }
    return false;
}

bool wait_state(ibv_qp *qp, ibv_qp_state want, std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (tool::query_qp_state(qp) != want && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return tool::query_qp_state(qp) == want;
}

// One end: PD, CQ, QP and the memory the cases use.
class End {
public:
    End(const Options &o, tool::Context ctx, tool::Channel ch)
        : opt_(o), ctx_(std::move(ctx)), ch_(std::move(ch)), server_(o.server.empty()) {}
    int run();

private:
    bool setup();
    bool make_qp();
    bool exchange_and_connect();
    bool post_recv(std::uint64_t wr_id);
    bool post(ibv_wr_opcode opcode, std::uint64_t wr_id, std::uint64_t local_off, std::uint32_t len,
              std::uint64_t remote, std::uint32_t rkey, std::uint32_t imm = 0);
    bool send(const Msg &m) { return ch_.send_obj(m); }
    bool recv(Msg &m) { return ch_.recv_obj(m, Clock::now() + std::chrono::seconds(30)); }
    [[nodiscard]] bool region_intact() const;
    [[nodiscard]] bool guards_intact() const;
    std::uint32_t next_psn() { return static_cast<std::uint32_t>(rng_.next() & 0xffffffU); }

    bool client_access();
    bool client_bad_access(const char *what, ibv_wr_opcode opcode, std::uint64_t remote,
                           std::uint32_t len, std::uint32_t rkey, unsigned round);
    bool client_recover(unsigned round);
    bool server_access();
    bool server_check();
    bool server_reconnect(const Msg &m);
    bool server_verify(const Msg &m);

    bool client_flush();
    bool server_flush();

    bool client_rd_atomic();
    bool client_reconnect(unsigned round);
    bool client_regrant(unsigned round, std::uint8_t grant, std::uint8_t own);
    bool client_mr_churn();
    bool client_churn_round(unsigned round, unsigned &placed, unsigned &refused);
    bool server_churn(const Msg &m);
    bool client_over_grant(const char *what, ibv_wr_opcode opcode, std::uint32_t n,
                           std::uint32_t len, unsigned round);
    bool client_server_failed(const char *what, unsigned round);
    bool post_fetch_add(std::uint64_t wr_id);

    bool client_rnr();
    bool server_rnr();

    bool client_srq();
    bool server_srq();
    bool post_srq_recv(std::uint32_t i);
    [[nodiscard]] bool srq_case() const { return opt_.test == "srq"; }

    const Options &opt_;
    tool::Context ctx_;
    tool::Channel ch_;
    bool server_;
    tool::Rng rng_{kSeed ^ static_cast<std::uint64_t>(Clock::now().time_since_epoch().count())};
    tool::PortInfo port_;
    tool::ConnectParams params_;
    tool::Pd pd_;
    tool::Cq cq_;
    tool::Srq srq_; // the server's, in the srq case
    tool::Qp qp_;
    tool::Buffer mem_; // guard | region | guard
    tool::Mr mr_;
    Setup remote_;
    std::uint32_t my_psn_ = 0;
};

std::span<std::byte> region_of(const tool::Buffer &b) {
    return b.span().subspan(kGuard, kRegion);
}

bool End::region_intact() const {
    const std::size_t bad =
            tool::pattern_check(mem_.span(), tool::pattern_key(kSeed, 1, 0, 0, 0), 0);
    if (bad < mem_.size())
        std::printf("server memory differs at byte %zd from the region's start\n",
                    static_cast<std::ptrdiff_t>(bad) - static_cast<std::ptrdiff_t>(kGuard));
    return bad == mem_.size();
}

// The unregistered pages on either side of the region still hold their pattern.
bool End::guards_intact() const {
    const std::uint64_t key = tool::pattern_key(kSeed, 1, 0, 0, 0);
    const std::span<std::byte> all = mem_.span();
    return tool::pattern_check(all.first(kGuard), key, 0) == kGuard &&
           tool::pattern_check(all.last(kGuard), key, kGuard + kRegion) == kGuard;
}

bool End::make_qp() {
    ibv_qp_cap cap{.max_send_wr = kQueue,
                   .max_recv_wr = kQueue,
                   .max_send_sge = 1,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap, srq_.get());
    return static_cast<bool>(qp_);
}

bool End::setup() {
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    cq_.reset(ibv_create_cq(ctx_.get(), 4 * kQueue, nullptr, nullptr, 0));
    if (!pd_ || !cq_ || !tool::query_port(ctx_.get(), opt_.gid_index, port_))
        return false;
    params_.gid_index = opt_.gid_index;
    params_.mtu = port_.mtu;
    params_.timeout = 12; // 17 ms, retried 7 times
    if (server_ && opt_.test == "rd-atomic")
        params_.rd_atomic = 0; // granted per round (Req::Grant)
    if (opt_.test == "rnr-progress") {
        params_.min_rnr_timer = kRnrTimer; // the server's: what its RNR NAKs ask for
        params_.rnr_retry = 1;             // the client's
        params_.timeout = 18; // 1.07 s: no retransmit (and second RNR NAK) before the RNR delay
    }
    mem_ = tool::Buffer(kRegion + 2 * kGuard);
    if (server_ && srq_case()) {
        ibv_srq_init_attr init{};
        init.attr.max_wr = kSrqWrs;
        init.attr.max_sge = 1;
        srq_.reset(ibv_create_srq(pd_.get(), &init));
        if (!check(srq_ != nullptr, "create_srq"))
            return false;
    }
    if (!mem_ || !make_qp())
        return false;
    if (server_) {
        // The server registers only the middle of its pattern-filled memory.
        tool::pattern_fill(mem_.span(), tool::pattern_key(kSeed, 1, 0, 0, 0), 0);
        mr_ = tool::register_mr(pd_.get(), region_of(mem_).data(), kRegion,
                                IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                        IBV_ACCESS_REMOTE_READ);
    } else {
        mr_ = tool::register_mr(pd_.get(), mem_.data(), mem_.size(), IBV_ACCESS_LOCAL_WRITE);
    }
    return static_cast<bool>(mr_);
}

bool End::exchange_and_connect() {
    Setup mine;
    my_psn_ = next_psn();
    mine.info = {.qpn = qp_->qp_num, .psn = my_psn_, .gid = port_.gid};
    if (server_) {
        mine.addr = reinterpret_cast<std::uintptr_t>(region_of(mem_).data());
        mine.rkey = mr_->rkey;
    }
    if (!ch_.send_obj(mine) || !ch_.recv_obj(remote_, Clock::now() + std::chrono::seconds(30))) {
        std::printf("FAIL: no setup from the peer\n");
        return false;
    }
    if (tool::connect_qp(qp_.get(), remote_.info, my_psn_, params_) != 0)
        return false;
    // Neither side sends before both QPs are in RTS: a bad request reaching a peer still in RTR
    // fails that QP there and then, and the peer's own move to RTS would fail with it.
    const std::uint32_t ready = 1;
    std::uint32_t peer_ready = 0;
    if (!ch_.send_obj(ready) ||
        !ch_.recv_obj(peer_ready, Clock::now() + std::chrono::seconds(30)) || peer_ready != ready) {
        std::printf("FAIL: the peer did not connect\n");
        return false;
    }
    return true;
}

bool End::post_recv(std::uint64_t wr_id) {
    ibv_sge sge{.addr = mem_.addr(), .length = 4096, .lkey = mr_->lkey};
    if (server_)
        sge.addr = reinterpret_cast<std::uintptr_t>(region_of(mem_).data()) + kRegion - 4096;
    ibv_recv_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr *bad = nullptr;
    const int err = ibv_post_recv(qp_.get(), &wr, &bad);
    if (err)
        std::printf("FAIL: post_recv: %s\n", std::strerror(err));
    return err == 0;
}

bool End::post(ibv_wr_opcode opcode, std::uint64_t wr_id, std::uint64_t local_off,
               std::uint32_t len, std::uint64_t remote, std::uint32_t rkey, std::uint32_t imm) {
    ibv_sge sge{.addr = mem_.addr() + local_off, .length = len, .lkey = mr_->lkey};
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = opcode;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.imm_data = htonl(imm);
    wr.wr.rdma.remote_addr = remote;
    wr.wr.rdma.rkey = rkey;
    ibv_send_wr *bad = nullptr;
    const int err = ibv_post_send(qp_.get(), &wr, &bad);
    if (err)
        std::printf("FAIL: post_send: %s\n", std::strerror(err));
    return err == 0;
}

// ---- access: bad rkeys and bounds, then recovery ----

bool End::client_bad_access(const char *what, ibv_wr_opcode opcode, std::uint64_t remote,
                            std::uint32_t len, std::uint32_t rkey, unsigned round) {
    std::printf("# %s\n", what);
    tool::pattern_fill(mem_.span().first(len), tool::pattern_key(kSeed, 2, 1, round, 0), 0);
    if (!post(opcode, round, 0, len, remote, rkey))
        return false;
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(10));
    bool ok = check(wc.size() == 1, "%s: the requester got a completion", what);
    if (!wc.empty()) {
        ok = check(wc[0].status == IBV_WC_REM_ACCESS_ERR && wc[0].wr_id == round,
                   "%s: completion status %s (want %s), wr_id %" PRIu64, what,
                   ibv_wc_status_str(wc[0].status), ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR),
                   wc[0].wr_id) &&
             ok;
    }
    const ibv_qp_state st = tool::query_qp_state(qp_.get());
    ok = check(st == IBV_QPS_ERR, "%s: requester QP state %s", what, tool::qp_state_name(st)) && ok;
    // the receive we posted comes back flushed
    const std::vector<ibv_wc> flushed =
            tool::poll_completions(cq_.get(), 1, std::chrono::seconds(2));
    ok = check(flushed.size() == 1 && flushed[0].status == IBV_WC_WR_FLUSH_ERR,
               "%s: the requester's posted receive flushed (%zu completion(s)%s%s)", what,
               flushed.size(), flushed.empty() ? "" : ", ",
               flushed.empty() ? "" : ibv_wc_status_str(flushed[0].status)) &&
         ok;

    ok = client_server_failed(what, round) && ok;
    return client_recover(round) && ok;
}

// Ask the server whether its QP failed too, its receive flushed and its memory is untouched.
bool End::client_server_failed(const char *what, unsigned round) {
    Msg m{.req = Req::Check, .arg = round, .val = 0};
    if (!send(m) || !recv(m))
        return check(false, "%s: no answer from the server", what);
    bool ok = check((m.val & 1U) != 0, "%s: the server's memory is untouched", what);
    ok = check(static_cast<ibv_qp_state>(m.arg) == IBV_QPS_ERR, "%s: responder QP state %s", what,
               tool::qp_state_name(static_cast<ibv_qp_state>(m.arg))) &&
         ok;
    return check((m.val & 2U) != 0, "%s: the responder's posted receive flushed", what) && ok;
}

// Reset both QPs, with new PSNs, and connect them again.
bool End::client_reconnect(unsigned round) {
    my_psn_ = next_psn();
    Msg m{.req = Req::Reconnect, .arg = round, .val = my_psn_};
    if (!send(m) || !recv(m) || m.arg == 0)
        return check(false, "round %u: the server could not reset its QP", round);
    remote_.info.psn = static_cast<std::uint32_t>(m.val);
    return tool::connect_qp(qp_.get(), remote_.info, my_psn_, params_) == 0;
}

// Reset both QPs with new PSNs, then a WRITE, a SEND_WITH_IMM and a READ must work again.
bool End::client_recover(unsigned round) {
    bool ok = check(client_reconnect(round), "round %u: requester QP reset and back to RTS", round);
    if (!ok)
        return false;
    // WRITE 4 KiB of our pattern into the region's start; SEND_WITH_IMM; READ the next 4 KiB.
    const std::uint64_t key = tool::pattern_key(kSeed, 3, 1, round, 0);
    tool::pattern_fill(mem_.span().first(4096), key, 0);
    const std::uint64_t base = remote_.addr;
    ok = post(IBV_WR_RDMA_WRITE, 1, 0, 4096, base, remote_.rkey) &&
         post(IBV_WR_SEND_WITH_IMM, 2, 0, 64, 0, 0, round) &&
         post(IBV_WR_RDMA_READ, 3, 8192, 4096, base + 4096, remote_.rkey);
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 3, std::chrono::seconds(10));
    ok = ok && check(wc.size() == 3, "round %u: 3 completions after recovery (got %zu)", round,
                     wc.size());
    for (std::size_t i = 0; ok && i < wc.size(); i++) {
        ok = check(wc[i].status == IBV_WC_SUCCESS && wc[i].wr_id == i + 1,
                   "round %u: wr %" PRIu64 " %s", round, wc[i].wr_id,
                   ibv_wc_status_str(wc[i].status));
    }
    if (ok) {
        const std::size_t bad =
                tool::pattern_check(mem_.span().subspan(8192, 4096),
                                    tool::pattern_key(kSeed, 1, 0, 0, 0), kGuard + 4096);
        ok = check(bad == 4096, "round %u: READ after recovery returned the server's data", round);
    }
    Msg m{.req = Req::Verify, .arg = round, .val = key};
    if (!send(m) || !recv(m))
        return check(false, "round %u: no answer from the server", round);
    return check(m.arg == 1, "round %u: the server received the WRITE and the SEND_WITH_IMM",
                 round) &&
           ok;
}

bool End::client_access() {
    if (!exchange_and_connect() || !post_recv(999))
        return false;
    const std::uint64_t start = remote_.addr;
    const std::uint64_t end = remote_.addr + kRegion;
    const std::uint32_t bad_key = remote_.rkey ^ 0x5a5a5aU;
    bool ok = true;
    ok = client_bad_access("WRITE with a bad rkey", IBV_WR_RDMA_WRITE, start, 256, bad_key, 1) &&
         ok;
    ok = post_recv(999) && ok;
    ok = client_bad_access("READ with a bad rkey", IBV_WR_RDMA_READ, start, 256, bad_key, 2) && ok;
    ok = post_recv(999) && ok;
    ok = client_bad_access("WRITE across the region's end", IBV_WR_RDMA_WRITE, end - 100, 200,
                           remote_.rkey, 3) &&
         ok;
    ok = post_recv(999) && ok;
    ok = client_bad_access("READ across the region's start", IBV_WR_RDMA_READ, start - 64, 128,
                           remote_.rkey, 4) &&
         ok;
    ok = post_recv(999) && ok;
    ok = client_bad_access("WRITE far beyond the region", IBV_WR_RDMA_WRITE, end + 65536, 64,
                           remote_.rkey, 5) &&
         ok;
    Msg bye{.req = Req::Bye, .arg = 0, .val = 0};
    send(bye);
    return ok;
}

// Answer a Check: is our QP in ERR, did our receive flush, is our memory untouched?
bool End::server_check() {
    const bool err_state = wait_state(qp_.get(), IBV_QPS_ERR, std::chrono::seconds(5));
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(2));
    const bool flushed = wc.size() == 1 && wc[0].status == IBV_WC_WR_FLUSH_ERR;
    const bool intact = region_intact();
    Msg m{.req = Req::Check,
          .arg = static_cast<std::uint32_t>(tool::query_qp_state(qp_.get())),
          .val = (intact ? 1U : 0U) | (flushed ? 2U : 0U)};
    check(err_state, "responder QP went to ERR");
    return send(m);
}

bool End::server_reconnect(const Msg &m) {
    remote_.info.psn = static_cast<std::uint32_t>(m.val);
    my_psn_ = next_psn();
    const bool ok = tool::connect_qp(qp_.get(), remote_.info, my_psn_, params_) == 0 &&
                    post_recv(2000 + m.arg);
    const Msg reply{.req = Req::Reconnect, .arg = ok ? 1U : 0U, .val = my_psn_};
    return send(reply) && ok;
}

// After recovery: the SEND_WITH_IMM arrived, the WRITE before it is in place; then restore.
bool End::server_verify(const Msg &m) {
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(10));
    bool ok =
            check(wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS && wc[0].opcode == IBV_WC_RECV &&
                          (wc[0].wc_flags & IBV_WC_WITH_IMM) != 0 &&
                          ntohl(wc[0].imm_data) == m.arg && wc[0].byte_len == 64,
                  "round %u: SEND_WITH_IMM received with its immediate", m.arg);
    const std::span<std::byte> head = region_of(mem_).first(4096);
    ok = check(tool::pattern_check(head, m.val, 0) == head.size(),
               "round %u: the WRITE before it is in place", m.arg) &&
         ok;
    tool::pattern_fill(mem_.span(), tool::pattern_key(kSeed, 1, 0, 0, 0), 0);
    // The next bad access must find a receive to flush: post it before the client may start.
    ok = post_recv(999) && ok;
    const Msg reply{.req = Req::Verify, .arg = ok ? 1U : 0U, .val = 0};
    return send(reply) && ok;
}

bool End::server_access() {
    if (!exchange_and_connect() || !post_recv(999))
        return false;
    bool ok = true;
    for (;;) {
        Msg m;
        if (!recv(m))
            return check(false, "the client went away");
        switch (m.req) {
        case Req::Check:
            ok = server_check() && ok;
            break;
        case Req::Reconnect:
            ok = server_reconnect(m) && ok;
            break;
        case Req::Verify:
            ok = server_verify(m) && ok;
            break;
        case Req::Churn:
            ok = server_churn(m) && ok;
            break;
        case Req::Guards:
            m.val = guards_intact() ? 1 : 0;
            ok = send(m) && ok;
            break;
        case Req::Grant: // READ/atomic resources for the next connection
            params_.rd_atomic = static_cast<std::uint8_t>(m.arg);
            ok = send(m) && ok;
            break;
        case Req::Destroy:
        case Req::Bye:
            return ok;
        }
    }
}

// ---- flush: outstanding work when the peer is gone ----

bool End::client_flush() {
    if (!exchange_and_connect())
        return false;
    Msg m{.req = Req::Destroy, .arg = 0, .val = 0};
    if (!send(m) || !recv(m))
        return check(false, "the server did not destroy its QP");
    constexpr std::uint32_t n_recv = 8;
    constexpr std::uint32_t n_send = kQueue - 8;
    bool ok = true;
    for (std::uint32_t i = 0; i < n_recv; i++)
        ok = post_recv(100 + i) && ok;
    for (std::uint32_t i = 0; i < n_send; i++) {
        ok = post(i % 2 ? IBV_WR_SEND : IBV_WR_RDMA_WRITE, i, 0, 1024, remote_.addr,
                  remote_.rkey) &&
             ok;
    }
    if (!check(ok, "posted %u sends/writes and %u receives to a QP whose peer is gone", n_send,
               n_recv))
        return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::vector<ibv_wc> early = tool::poll_completions(cq_.get(), 1, std::chrono::milliseconds(1));
    ok = check(early.empty(), "nothing completed while the peer is gone (%zu completions)",
               early.size());
    ok = check(tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) == 0, "modify_qp to ERR") && ok;
    ok = post(IBV_WR_SEND, n_send, 0, 16, 0, 0) && ok; // posted in ERR: flushes as well
    const std::vector<ibv_wc> wc =
            tool::poll_completions(cq_.get(), n_send + 1 + n_recv, std::chrono::seconds(5));
    ok = check(wc.size() == n_send + 1 + n_recv, "%zu of %u work requests completed", wc.size(),
               n_send + 1 + n_recv) &&
         ok;
    std::uint64_t next_send = 0;
    std::uint64_t next_recv = 100;
    unsigned bad = 0;
    for (const ibv_wc &w : wc) {
        const bool is_recv = w.opcode == IBV_WC_RECV;
        const bool in_order = is_recv ? w.wr_id == next_recv++ : w.wr_id == next_send++;
        if (w.status != IBV_WC_WR_FLUSH_ERR || !in_order || w.qp_num != qp_->qp_num) {
            if (bad++ < 5)
                std::printf("# unexpected completion wr_id %" PRIu64 " opcode %d status %s\n",
                            w.wr_id, w.opcode, ibv_wc_status_str(w.status));
        }
    }
    ok = check(bad == 0, "every completion is WR_FLUSH_ERR, sends and receives each in order") &&
         ok;
    ok = check(tool::query_qp_state(qp_.get()) == IBV_QPS_ERR, "QP state ERR") && ok;
    // Draining a QP: a receive posted in ERR, with no send after it, comes back flushed too
    // (the provider posts receives without a system call).
    ok = post_recv(200) && ok;
    const std::vector<ibv_wc> drain = tool::poll_completions(cq_.get(), 1, std::chrono::seconds(2));
    ok = check(drain.size() == 1 && drain[0].wr_id == 200 && drain[0].status == IBV_WC_WR_FLUSH_ERR,
               "a receive posted in ERR, alone, comes back flushed (%zu completion(s))",
               drain.size()) &&
         ok;

    // A QP destroyed with work outstanding and completions never polled.
    qp_.reset();
    ok = make_qp() &&
         check(tool::connect_qp(qp_.get(), remote_.info, next_psn(), params_) == 0,
               "a new QP towards the gone peer") &&
         ok;
    for (std::uint32_t i = 0; ok && i < n_recv; i++)
        ok = post_recv(i);
    for (std::uint32_t i = 0; ok && i < n_send; i++)
        ok = post(IBV_WR_RDMA_WRITE, i, 0, 65536, remote_.addr, remote_.rkey);
    check(ok, "posted %u WRITEs and %u receives", n_send, n_recv);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ok = check(ibv_destroy_qp(qp_.release()) == 0, "destroy_qp with work outstanding") && ok;
    ok = check(ibv_destroy_cq(cq_.release()) == 0, "destroy_cq with completions unpolled") && ok;
    ok = check(ibv_dereg_mr(mr_.release()) == 0, "dereg_mr") && ok;
    ok = check(ibv_dealloc_pd(pd_.release()) == 0, "dealloc_pd") && ok;
    m = {.req = Req::Bye, .arg = 0, .val = 0};
    send(m);
    return ok;
}

bool End::server_flush() {
    if (!exchange_and_connect())
        return false;
    Msg m;
    if (!recv(m) || m.req != Req::Destroy)
        return check(false, "no request from the client");
    qp_.reset();
    if (!send(m))
        return false;
    recv(m); // Bye, or the client is gone: either way we are done
    return check(true, "server QP destroyed while the client kept sending");
}

// ---- mr-churn: rkey lookups of arriving WRITEs race the MR's deregistration ----

// True once any byte of @area is no longer 0 (a WRITE landed), false after @limit.
bool landed(std::span<const std::byte> area, std::chrono::microseconds limit) {
    const auto end = Clock::now() + limit;
    const volatile std::byte *p = area.data(); // the kernel writes it behind the compiler's back
    do {
        for (std::size_t i = 0; i < area.size(); i++)
            if (p[i] != std::byte{0})
                return true;
    } while (Clock::now() < end);
    return false;
}

// Even rounds deregister a random 0-400 us after the rkey left; odd rounds as soon as the
// first WRITE's bytes land, while the other 15 arrive (on the race-window build each of them
// stalls in its lookup, and the deregistration meets one there).
bool End::server_churn(const Msg &m) {
    const std::span<std::byte> first = region_of(mem_).first(256);
    std::fill(first.begin(), first.end(), std::byte{0});
    tool::Mr mr = tool::register_mr(pd_.get(), region_of(mem_).data(), kRegion,
                                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    const Msg reply{.req = Req::Churn, .arg = m.arg, .val = mr ? mr->rkey : 0};
    if (!send(reply) || !mr)
        return check(false, "round %u: an MR to churn", m.arg);
    if (m.arg % 2)
        landed(first, std::chrono::milliseconds(50));
    else
        std::this_thread::sleep_for(std::chrono::microseconds(rng_.next() % 400));
    mr.reset(); // deregistered while the client's WRITEs for it arrive
    return true;
}

bool End::client_churn_round(unsigned round, unsigned &placed, unsigned &refused) {
    constexpr std::uint32_t kWrites = 16;
    constexpr std::uint32_t kLen = 256;
    Msg m{.req = Req::Churn, .arg = round, .val = 0};
    if (!send(m) || !recv(m) || m.val == 0)
        return check(false, "round %u: no rkey from the server", round);
    const auto rkey = static_cast<std::uint32_t>(m.val);
    bool ok = true;
    for (std::uint32_t i = 0; ok && i < kWrites; i++)
        ok = post(IBV_WR_RDMA_WRITE, i, 0, kLen, remote_.addr + std::uint64_t{i} * kLen, rkey);
    const std::vector<ibv_wc> wc =
            tool::poll_completions(cq_.get(), kWrites, std::chrono::seconds(10));
    ok = check(wc.size() == kWrites, "round %u: %zu of %u WRITEs completed", round, wc.size(),
               kWrites) &&
         ok;
    bool failed = false;
    for (const ibv_wc &w : wc) {
        placed += w.status == IBV_WC_SUCCESS ? 1 : 0;
        refused += w.status == IBV_WC_REM_ACCESS_ERR ? 1 : 0;
        const bool expected =
                failed ? w.status == IBV_WC_WR_FLUSH_ERR
                       : w.status == IBV_WC_SUCCESS || w.status == IBV_WC_REM_ACCESS_ERR;
        if (!expected)
            ok = check(false, "round %u: WRITE %" PRIu64 " %s", round, w.wr_id,
                       ibv_wc_status_str(w.status));
        failed = failed || w.status != IBV_WC_SUCCESS;
    }
    if (failed)
        ok = check(client_reconnect(round), "round %u: both QPs connected again", round) && ok;
    return ok;
}

bool End::client_mr_churn() {
    constexpr unsigned kRounds = 64;
    if (!exchange_and_connect())
        return false;
    bool ok = true;
    unsigned placed = 0;
    unsigned refused = 0;
    unsigned round = 0;
    for (; ok && round < kRounds; round++)
        ok = client_churn_round(round, placed, refused);
    Msg m{.req = Req::Guards, .arg = round, .val = 0};
    if (!send(m) || !recv(m))
        return check(false, "no answer from the server");
    ok = check(m.val == 1, "the pages around the server's region are untouched") && ok;
    Msg bye{.req = Req::Bye, .arg = 0, .val = 0};
    send(bye);
    return check(ok, "%u rounds of WRITEs racing deregistration: %u placed, %u refused", round,
                 placed, refused);
}

// ---- rd-atomic: the responder holds the peer to the max_dest_rd_atomic it granted ----

bool End::post_fetch_add(std::uint64_t wr_id) {
    ibv_sge sge{.addr = mem_.addr(), .length = 8, .lkey = mr_->lkey};
    ibv_send_wr wr{};
    ibv_send_wr *bad = nullptr;
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = remote_.addr;
    wr.wr.atomic.compare_add = 1;
    wr.wr.atomic.rkey = remote_.rkey;
    return check(ibv_post_send(qp_.get(), &wr, &bad) == 0, "post an atomic");
}

// The server grants @grant READ/atomic resources, we allow ourselves @own; both QPs are reset
// and connected anew.
bool End::client_regrant(unsigned round, std::uint8_t grant, std::uint8_t own) {
    Msg m{.req = Req::Grant, .arg = grant, .val = 0};
    if (!send(m) || !recv(m))
        return check(false, "round %u: the server did not take its grant", round);
    params_.rd_atomic = own;
    return check(client_reconnect(round),
                 "round %u: connected again, %u READ/atomic granted, %u allowed to ourselves",
                 round, grant, own);
}

// Post @n READs of @len bytes (or one atomic) at once, more than the server granted: they
// complete in order, one with REM_INV_REQ_ERR and none successfully after it, and both QPs fail.
bool End::client_over_grant(const char *what, ibv_wr_opcode opcode, std::uint32_t n,
                            std::uint32_t len, unsigned round) {
    std::printf("# %s\n", what);
    bool ok = true;
    for (std::uint32_t i = 0; ok && i < n; i++) {
        ok = opcode == IBV_WR_ATOMIC_FETCH_AND_ADD
                     ? post_fetch_add(i)
                     : post(opcode, i, 0, len, remote_.addr, remote_.rkey);
    }
    const std::vector<ibv_wc> wc = tool::poll_completions(cq_.get(), n, std::chrono::seconds(20));
    ok = check(wc.size() == n, "%s: %zu of %u completions", what, wc.size(), n) && ok;
    unsigned refused = 0;
    unsigned late_success = 0;
    for (const ibv_wc &w : wc) {
        std::printf("# wr %" PRIu64 ": %s\n", w.wr_id, ibv_wc_status_str(w.status));
        refused += w.status == IBV_WC_REM_INV_REQ_ERR ? 1 : 0;
        late_success += refused && w.status == IBV_WC_SUCCESS ? 1 : 0;
    }
    ok = check(refused == 1 && late_success == 0,
               "%s: one REM_INV_REQ_ERR (%u), nothing completed well after it (%u)", what, refused,
               late_success) &&
         ok;
    const ibv_qp_state st = tool::query_qp_state(qp_.get());
    ok = check(st == IBV_QPS_ERR, "%s: requester QP state %s", what, tool::qp_state_name(st)) && ok;
    return client_server_failed(what, round) && ok;
}

bool End::client_rd_atomic() {
    constexpr std::uint32_t kReads = 8;
    constexpr std::uint32_t kReadLen = kRegion / kReads;
    if (!exchange_and_connect()) // the server granted nothing
        return false;
    bool ok = client_over_grant("a READ where none is granted", IBV_WR_RDMA_READ, 1, 4096, 1);
    ok = client_regrant(2, 0, 16) &&
         client_over_grant("an atomic where none is granted", IBV_WR_ATOMIC_FETCH_AND_ADD, 1, 8,
                           2) &&
         ok;
    ok = client_regrant(3, 1, 16) &&
         client_over_grant("16 READs of 64 KiB where 1 is granted", IBV_WR_RDMA_READ, 16, kRegion,
                           3) &&
         ok;
    // Within the grant, READs posted back to back all complete: the responder admits the next
    // once the last response of the one before has gone.
    if (!client_regrant(4, 1, 1))
        return false;
    bool posted = true;
    for (std::uint32_t i = 0; posted && i < kReads; i++)
        posted = post(IBV_WR_RDMA_READ, i, std::uint64_t{i} * kReadLen, kReadLen,
                      remote_.addr + std::uint64_t{i} * kReadLen, remote_.rkey);
    const std::vector<ibv_wc> wc =
            tool::poll_completions(cq_.get(), kReads, std::chrono::seconds(20));
    unsigned good = 0;
    for (const ibv_wc &w : wc) {
        if (w.status != IBV_WC_SUCCESS || w.wr_id != good)
            std::printf("# wr %" PRIu64 ": %s\n", w.wr_id, ibv_wc_status_str(w.status));
        good += w.status == IBV_WC_SUCCESS && w.wr_id == good ? 1 : 0;
    }
    ok = check(good == kReads,
               "%u of %u READs within the grant completed in order (%zu completions)", good, kReads,
               wc.size()) &&
         ok;
    const std::size_t bad = tool::pattern_check(mem_.span().first(kRegion),
                                                tool::pattern_key(kSeed, 1, 0, 0, 0), kGuard);
    ok = check(bad == kRegion, "they brought the server's bytes (first wrong: %zu)", bad) && ok;
    Msg bye{.req = Req::Bye, .arg = 0, .val = 0};
    send(bye);
    return ok;
}

// ---- rnr-progress: RNR retries are counted per message ----

// The server device's count of NAKs sent: its hw counter, read from the file the caller opened
// (-n) or else from sysfs; nullopt when it cannot be read.
std::optional<std::uint64_t> naks_sent(const Options &o) {
    const std::string path = "/sys/class/infiniband/" + o.device + "/ports/1/hw_counters/naks_sent";
    const int fd = o.naks_fd >= 0 ? o.naks_fd : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    std::array<char, 32> buf{};

    if (fd < 0)
        return std::nullopt;
    // a sysfs attribute read from its start shows the value anew
    const ssize_t n = ::pread(fd, buf.data(), buf.size() - 1, 0);
    if (fd != o.naks_fd)
        ::close(fd);
    if (n <= 0)
        return std::nullopt;
    return std::strtoull(buf.data(), nullptr, 10);
}

// Waits until the server's device has sent NAKs beyond @count; false after kRnrNakWait.
bool nak_sent_beyond(const Options &o, std::uint64_t count) {
    const auto until = Clock::now() + kRnrNakWait;

    do {
        const std::optional<std::uint64_t> n = naks_sent(o);
        if (n && *n > count)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } while (Clock::now() < until);
    return false;
}

bool End::server_rnr() {
    // Counted before the client can send: once this QP is RTR, message 0 may meet its NAK
    // before the server reads the counter, which would then wait for the resend's NAK and
    // post too late for the one retry the client has.
    const std::optional<std::uint64_t> base = naks_sent(opt_);
    if (!exchange_and_connect())
        return false;
    bool ok = check(base.has_value(), "%s's naks_sent counter is readable", opt_.device.c_str());
    for (std::uint32_t k = 0; ok && k < kRnrMessages; k++) {
        // the receive for message k goes only once k was refused, and well inside the RNR
        // delay its NAK asked for
        ok = check(nak_sent_beyond(opt_, *base + k), "message %u met an RNR NAK", k);
        ok = ok && post_recv(k);
        const std::vector<ibv_wc> wc =
                tool::poll_completions(cq_.get(), 1, std::chrono::seconds(10));
        ok = check(ok && wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS && wc[0].wr_id == k,
                   "message %u landed in receive %u", k, k) &&
             ok;
    }
    Msg m;
    return recv(m) && m.req == Req::Bye && ok;
}

bool End::client_rnr() {
    if (!exchange_and_connect())
        return false;
    bool ok = true;
    for (std::uint32_t k = 0; ok && k < kRnrMessages; k++) {
        ok = post(IBV_WR_SEND, k, 0, 64, 0, 0);
        const std::vector<ibv_wc> wc =
                tool::poll_completions(cq_.get(), 1, std::chrono::seconds(10));
        ok = check(ok && wc.size() == 1 && wc[0].status == IBV_WC_SUCCESS,
                   "SEND %u completed (%s) with one RNR retry allowed per message", k,
                   wc.empty() ? "no completion" : ibv_wc_status_str(wc[0].status)) &&
             ok;
    }
    Msg bye{.req = Req::Bye, .arg = 0, .val = 0};
    send(bye);
    return ok;
}

// ---- srq: receives from a shared receive queue, its limit event, LAST_WQE_REACHED ----

std::uint64_t srq_message_key(std::uint32_t k) {
    return tool::pattern_key(kSeed, 5, k, 0, 0);
}

std::uint32_t srq_message_len(std::uint32_t k) {
    return 1000 + 517 * k; // 1000 ... 3585: up to four packets each
}

// Receive i: 4 KiB at offset i * 4 KiB of the region, wr_id 300 + i.
bool End::post_srq_recv(std::uint32_t i) {
    ibv_sge sge{.addr = reinterpret_cast<std::uintptr_t>(region_of(mem_).data()) +
                        std::uintptr_t{i} * kSrqSlot,
                .length = kSrqSlot,
                .lkey = mr_->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = 300 + i;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr *bad = nullptr;
    const int err = ibv_post_srq_recv(srq_.get(), &wr, &bad);
    return check(err == 0, "post_srq_recv %u%s%s", i, err ? ": " : "",
                 err ? std::strerror(err) : "");
}

bool End::server_srq() {
    if (!exchange_and_connect())
        return false;
    bool ok = true;
    for (std::uint32_t i = 0; i < kSrqPosted; i++)
        ok = post_srq_recv(i) && ok;
    ibv_srq_attr attr{.max_wr = 0, .max_sge = 0, .srq_limit = kSrqLimit};
    ok = check(ibv_modify_srq(srq_.get(), &attr, IBV_SRQ_LIMIT) == 0, "arm the SRQ limit at %u",
               kSrqLimit) &&
         ok;
    Msg m{.req = Req::Check, .arg = 0, .val = 0};
    if (!ok || !send(m))
        return false;

    // The k-th completion is message k (RC order), in whichever receive it names.
    const std::vector<ibv_wc> wc =
            tool::poll_completions(cq_.get(), kSrqSends, std::chrono::seconds(20));
    ok = check(wc.size() == kSrqSends, "%zu of %u SENDs received", wc.size(), kSrqSends) && ok;
    std::uint64_t used = 0;
    for (std::uint32_t k = 0; k < wc.size(); k++) {
        const ibv_wc &w = wc[k];
        const std::uint64_t slot = w.wr_id - 300;
        const bool fresh = slot < kSrqPosted && (used & (1ULL << slot)) == 0;
        bool good = w.status == IBV_WC_SUCCESS && w.opcode == IBV_WC_RECV &&
                    w.qp_num == qp_->qp_num && w.byte_len == srq_message_len(k) && fresh;
        if (good) {
            used |= 1ULL << slot;
            const std::span<std::byte> data =
                    region_of(mem_).subspan(slot * kSrqSlot, srq_message_len(k));
            good = tool::pattern_check(data, srq_message_key(k), 0) == data.size();
        }
        ok = check(good, "message %u: %s, %u bytes into receive %" PRIu64 ", every byte right", k,
                   ibv_wc_status_str(w.status), w.byte_len, w.wr_id) &&
             ok;
    }
    ok = check(wait_async_event(ctx_.get(), IBV_EVENT_SRQ_LIMIT_REACHED, std::chrono::seconds(5)),
               "SRQ_LIMIT_REACHED once fewer than %u receives remained", kSrqLimit) &&
         ok;
    attr = {};
    const int qerr = ibv_query_srq(srq_.get(), &attr);
    ok = check(qerr == 0 && attr.srq_limit == 0, "the limit disarmed itself (srq_limit %u)",
               attr.srq_limit) &&
         ok;

    ok = check(tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) == 0, "modify_qp to ERR") && ok;
    ok = check(wait_async_event(ctx_.get(), IBV_EVENT_QP_LAST_WQE_REACHED, std::chrono::seconds(5)),
               "LAST_WQE_REACHED after ERR") &&
         ok;
    const std::vector<ibv_wc> late =
            tool::poll_completions(cq_.get(), 1, std::chrono::milliseconds(200));
    ok = check(late.empty(), "the %u receives the QP never took stay in the SRQ (%zu flushed)",
               kSrqPosted - kSrqSends, late.size()) &&
         ok;
    m = {.req = Req::Verify, .arg = ok ? 1U : 0U, .val = 0};
    send(m);
    qp_.reset(); // before its SRQ
    return ok;
}

bool End::client_srq() {
    if (!exchange_and_connect())
        return false;
    Msg m;
    if (!recv(m) || m.req != Req::Check)
        return check(false, "the server did not get ready");
    bool ok = true;
    std::uint32_t off = 0;
    for (std::uint32_t k = 0; k < kSrqSends; k++) {
        const std::uint32_t len = srq_message_len(k);
        tool::pattern_fill(mem_.span().subspan(off, len), srq_message_key(k), 0);
        ok = post(IBV_WR_SEND, k, off, len, 0, 0) && ok;
        off += kSrqSlot;
    }
    const std::vector<ibv_wc> wc =
            tool::poll_completions(cq_.get(), kSrqSends, std::chrono::seconds(20));
    unsigned good = 0;
    for (const ibv_wc &w : wc)
        good += w.status == IBV_WC_SUCCESS ? 1 : 0;
    ok = check(good == kSrqSends, "%u of %u SENDs completed successfully", good, kSrqSends) && ok;
    if (!recv(m) || m.req != Req::Verify)
        return check(false, "no verdict from the server");
    return check(m.arg == 1, "the server's checks passed") && ok;
}

int End::run() {
    if (!setup())
        return 1;
    bool ok = false;
    if (opt_.test == "access")
        ok = server_ ? server_access() : client_access();
    else if (opt_.test == "mr-churn")
        ok = server_ ? server_access() : client_mr_churn();
    else if (opt_.test == "rd-atomic")
        ok = server_ ? server_access() : client_rd_atomic();
    else if (opt_.test == "rnr-progress")
        ok = server_ ? server_rnr() : client_rnr();
    else if (srq_case())
        ok = server_ ? server_srq() : client_srq();
    else
        ok = server_ ? server_flush() : client_flush();
    std::printf("mrc_bad_input %s %s: %s\n", opt_.test.c_str(), server_ ? "server" : "client",
                ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int bad_input_main(std::span<char *> args) {
    Options o;
    std::vector<std::string_view> pos;
    for (std::size_t i = 1; i < args.size(); i++) {
        const std::string_view a = args[i];
        if ((a == "-d" || a == "-g" || a == "-p" || a == "-n") && i + 1 < args.size()) {
            const char *v = args[++i];
            if (a == "-d")
                o.device = v;
            else if (a == "-g")
                o.gid_index = std::atoi(v);
            else if (a == "-n")
                o.naks_fd = std::atoi(v);
            else
                o.port = static_cast<std::uint16_t>(std::atoi(v));
        } else {
            pos.push_back(a);
        }
    }
    if (o.device.empty() || pos.empty() || pos.size() > 2 ||
        (pos[0] != "access" && pos[0] != "flush" && pos[0] != "srq" && pos[0] != "rd-atomic" &&
         pos[0] != "mr-churn" && pos[0] != "rnr-progress")) {
        std::fprintf(stderr, "usage: mrc_bad_input -d DEV [-g GID_INDEX] [-p PORT] [-n FD] "
                             "access|flush|srq|rd-atomic|mr-churn|rnr-progress "
                             "[SERVER]\n");
        return 2;
    }
    o.test = pos[0];
    if (pos.size() == 2)
        o.server = pos[1];
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
} // namespace mrc::bad_input

int main(int argc, char **argv) {
    return mrc::tool::guarded_main("mrc_bad_input", mrc::bad_input::bad_input_main, argc, argv);
}
