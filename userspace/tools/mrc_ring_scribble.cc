// SPDX-License-Identifier: BSD-2-Clause
// mrc_ring_scribble - write hostile values into the rings a verbs provider shares with mrc.ko,
// ring the doorbell, and check that the kernel keeps its word: the QP fails cleanly, no CPU
// stalls, no kernel memory reaches a completion. One process, one device, no peer needed: the
// QP is connected to a QP that does not exist, so nothing it sends is ever acknowledged.
//
//     mrc_ring_scribble -d DEV [-g GID_INDEX] [-p PEER_GID] CASE
//
//     sq-rewind    4 WRITEs are fetched by the kernel and wait for ACKs; the SQ producer index
//                  is moved back between the oldest and the newest, and the doorbell rung: the
//                  QP goes to ERR at once and all 4 come back WR_FLUSH_ERR.
//     read-sge     a READ WQE written straight into the SQ with one SGE more than a slot holds:
//                  it completes with LOC_LEN_ERR and byte_len 0 (nothing summed past the slot).
//     cq-overflow  8 completions flushed into a CQ of 1 slot: IBV_EVENT_CQ_ERR comes once.
//     cq-prod      the CQ producer index is scribbled far ahead: the kernel keeps its own, so
//                  the next completion lands where the consumer looks for it.
//     dest-qpn-0   INIT -> RTR towards QPN 0 is refused (EINVAL).
//     mr-churn     one thread registers an MR, keeps it 0-300 us and deregisters it, in a loop,
//                  while another posts WRITEs from it and flushes them 1 ms later (lookups
//                  racing deregistration).
//     read-flood   16384 READ WQEs of 128 MiB each posted at once: the kernel's memory stays
//                  within 32 MiB of where it was (a READ's progress is tracked per QP, not
//                  in a map per WQE sized by its length).
//     rsn-ahead    4 receives posted, the QP connected to PEER_GID (an IPv6 or IPv4-mapped
//                  address) with receive PSN 0; it prints "qpn N" and waits 10 s for the test
//                  to send it, from the peer, a SEND at PSN 0 naming receive WQE 2: WQE 2 must
//                  not complete ahead of WQE 0 (the QP goes to ERR, WQE 0 flushes first).
//     ud-sq        a UD QP's SQ gets one hostile WQE at a time: an RDMA opcode, AH numbers of no
//                  AH (0, ~0), remote QPNs 0 and 2^24, huge SGE counts, inline and SGE lengths,
//                  an unknown lkey. Each completes in error (LOC_QP_OP_ERR, LOC_LEN_ERR or
//                  LOC_PROT_ERR) and puts the QP in ERR, from which it is brought back; a
//                  producer index a ring ahead puts it in ERR without a completion; then a
//                  good datagram (to a QP nobody created) completes successfully.
//     qp-states    one RC QP resting in each state (RESET, INIT, RTR, RTS, SQD, ERR), those past
//                  INIT connected to PEER_GID; it prints "qpn N STATE" for each and holds them
//                  15 s while the test sends packets at them from the peer. Then each must be in
//                  its state still (RTR, RTS and SQD may be in ERR: a forged request that falls
//                  in their window is a request), and nothing but flushes may have completed.
//     read-target  a 4 MiB region open to remote READ and a QP connected to PEER_GID with
//                  receive PSN 0; it prints "qpn N", "va V" and "rkey K" and keeps them for
//                  10 s while the test forges READ_REQs at them from the peer and counts
//                  what the responder sends back.
//
// The rings are found in /proc/self/maps (the provider maps them from the uverbs device); the
// SQ is the mapping whose first slots hold two marker WQEs posted while the QP is in RESET.
//
// Exit status: 0 when every check passed, 1 when one failed, 2 for bad usage.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <rdma/mrc-abi.h>
#include <unistd.h>

#include "tool_pattern.h"
#include "tool_report.h"
#include "tool_ring.h"
#include "tool_verbs.h"

namespace mrc::scribble {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kMarker = 0x5c81bb1e00000000ULL; // wr_id of the marker WQEs
constexpr std::uint64_t kCqMarker = 0xc0ffee01ULL;       // wr_id of the CQ case's first CQE
constexpr std::uint32_t kAbsentQpn = 0xabcde;            // the peer QP nobody created
constexpr std::size_t kRegion = 4096;
constexpr std::uint64_t kRecv = 0x7ecf0000ULL; // wr_id of receive WQE 0; i is kRecv + i

using tool::check;
using tool::find_work_ring;
using tool::Mapping;
using tool::Ring;
using tool::ring_doorbell;
using tool::uverbs_mappings;

// The CQ ring: the mapping whose slot 0 holds a CQE with wr_id @id for QP @qpn.
std::optional<Ring> find_cq(std::uint64_t id, std::uint32_t qpn) {
    for (const Mapping &m : uverbs_mappings()) {
        std::byte *base = m.base;
        const std::size_t size = m.size;
        std::uint64_t v = 0;
        std::uint32_t q = 0;
        if (size < MRC_RING_SLOTS_OFFSET + sizeof(mrc_cqe))
            continue;
        std::memcpy(&v, base + MRC_RING_SLOTS_OFFSET + offsetof(mrc_cqe, wr_id), sizeof(v));
        std::memcpy(&q, base + MRC_RING_SLOTS_OFFSET + offsetof(mrc_cqe, qp_num), sizeof(q));
        if (v == id && q == qpn)
            return Ring{base, size, sizeof(mrc_cqe)};
    }
    return std::nullopt;
}

class Scribbler {
public:
    Scribbler(std::string device, int gid_index, const ibv_gid &peer)
        : device_(std::move(device)), gid_(gid_index), peer_(peer) {}
    int run(const std::string &test);

private:
    bool setup(int cqe);
    bool post_write(std::uint64_t wr_id, bool signaled = true, std::uint32_t lkey = 0);
    bool connect();
    bool locate_sq();
    bool sq_rewind();
    bool read_sge();
    bool cq_overflow();
    bool cq_prod();
    bool dest_qpn_zero();
    bool qp_states();
    bool mr_churn();
    bool rsn_ahead();
    bool read_flood();
    bool read_target();
    bool ud_setup();
    bool ud_publish(const mrc_send_wqe &wqe, const mrc_sge &sge);
    bool ud_hostile(const char *what, const mrc_send_wqe &wqe, const mrc_sge &sge,
                    ibv_wc_status want);
    bool ud_sq();
    int count_async(ibv_event_type type, std::chrono::milliseconds limit);

    std::string device_;
    int gid_;
    ibv_gid peer_;
    tool::Context ctx_;
    tool::Pd pd_;
    tool::Cq cq_;
    tool::Qp qp_;
    tool::Buffer buf_;
    tool::Mr mr_;
    tool::PortInfo port_;
    Ring sq_;
    tool::Ah ah_;
};

bool Scribbler::setup(int cqe) {
    ctx_ = tool::open_device(device_);
    if (!ctx_)
        return false;
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    cq_.reset(ibv_create_cq(ctx_.get(), cqe, nullptr, nullptr, 0));
    buf_ = tool::Buffer(kRegion);
    if (!pd_ || !cq_ || !buf_ || !tool::query_port(ctx_.get(), gid_, port_))
        return check(false, "PD, CQ, memory and port of %s", device_.c_str());
    mr_ = tool::register_mr(pd_.get(), buf_.data(), kRegion,
                            IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    ibv_qp_cap cap{.max_send_wr = 16,
                   .max_recv_wr = 4,
                   .max_send_sge = 2,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap);
    return check(mr_ && qp_, "MR and RC QP %u", qp_ ? qp_->qp_num : 0);
}

// A 64-byte WRITE from our region (with @lkey, if not 0) to an address of the absent peer.
bool Scribbler::post_write(std::uint64_t wr_id, bool signaled, std::uint32_t lkey) {
    ibv_sge sge{.addr = buf_.addr(), .length = 64, .lkey = lkey ? lkey : mr_->lkey};
    ibv_send_wr wr{};
    ibv_send_wr *bad = nullptr;
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
    wr.wr.rdma.remote_addr = 0x10000;
    wr.wr.rdma.rkey = 0x100;
    return ibv_post_send(qp_.get(), &wr, &bad) == 0;
}

// Towards an absent QP at our own address: nothing ever answers.
bool Scribbler::connect() {
    tool::QpInfo remote{.qpn = kAbsentQpn, .psn = 0, .gid = port_.gid};
    tool::ConnectParams p{.gid_index = gid_, .mtu = port_.mtu};
    p.timeout = 20; // 4 s: nothing retires before the case is over
    return check(tool::connect_qp(qp_.get(), remote, 0, p) == 0, "QP in RTS");
}

// Two marker WQEs posted in RESET (the kernel fetches nothing there) find the SQ and its slot
// size; back to RESET discards them.
bool Scribbler::locate_sq() {
    // the doorbell of a QP in RESET fails, but the WQEs are in the ring: find them
    post_write(kMarker);
    post_write(kMarker + 1);
    const auto ring = find_work_ring(kMarker);
    if (!check(ring.has_value(), "SQ found among the uverbs mappings"))
        return false;
    sq_ = *ring;
    std::printf("# SQ: %zu bytes, slots of %u bytes\n", sq_.size, sq_.slot_size);
    return check(tool::modify_qp_state(qp_.get(), IBV_QPS_RESET) == 0, "markers discarded");
}

bool Scribbler::sq_rewind() {
    if (!setup(64) || !locate_sq() || !connect())
        return false;
    for (std::uint64_t i = 0; i < 4; i++)
        if (!post_write(i))
            return check(false, "post WRITE %" PRIu64, i);
    std::this_thread::sleep_for(100ms);
    const std::uint32_t done = sq_.cons();
    const std::uint32_t prod = sq_.prod();
    bool ok = check(prod - done == 4, "4 WQEs outstanding (producer %u, consumer %u)", prod, done);
    sq_.prod() = done + 1; // behind the WQEs the kernel fetched already
    const auto start = Clock::now();
    ok &= check(ring_doorbell(qp_.get()) == 0, "doorbell after the rewind");
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    ok &= check(took < 2s, "the doorbell returned in %lld ms",
                static_cast<long long>(took.count()));
    const auto deadline = Clock::now() + 5s;
    while (tool::query_qp_state(qp_.get()) != IBV_QPS_ERR && Clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
    ok &= check(tool::query_qp_state(qp_.get()) == IBV_QPS_ERR, "the QP is in ERR");
    const auto wcs = tool::poll_completions(cq_.get(), 4, 5s);
    const bool flushed = std::ranges::all_of(
            wcs, [](const ibv_wc &wc) { return wc.status == IBV_WC_WR_FLUSH_ERR; });
    return check(ok && wcs.size() == 4 && flushed, "4 WQEs flushed (%zu completions)", wcs.size());
}

bool Scribbler::read_sge() {
    if (!setup(64) || !locate_sq() || !connect())
        return false;
    const std::uint32_t max_sge = (sq_.slot_size - MRC_SEND_WQE_HDR_SIZE) / sizeof(mrc_sge);
    const std::uint32_t prod = sq_.prod();
    std::byte *slot = sq_.slot(prod);
    mrc_send_wqe wqe{};
    wqe.wr_id = 0x5eadULL;
    wqe.opcode = IBV_WR_RDMA_READ;
    wqe.send_flags = IBV_SEND_SIGNALED;
    wqe.num_sge = max_sge + 1;
    wqe.wr.rdma.remote_addr = 0x10000;
    wqe.wr.rdma.rkey = 0x100;
    std::memcpy(slot, &wqe, sizeof(wqe));
    for (std::uint32_t i = 0; i < max_sge; i++) {
        const mrc_sge sge{.addr = buf_.addr(), .length = 100, .lkey = mr_->lkey};
        std::memcpy(slot + MRC_SEND_WQE_HDR_SIZE + i * sizeof(mrc_sge), &sge, sizeof(sge));
    }
    std::atomic_thread_fence(std::memory_order_release);
    sq_.prod() = prod + 1;
    if (!check(ring_doorbell(qp_.get()) == 0, "doorbell for a READ of %u SGEs (slot holds %u)",
               max_sge + 1, max_sge))
        return false;
    const auto wcs = tool::poll_completions(cq_.get(), 1, 5s);
    if (!check(wcs.size() == 1, "the READ completed"))
        return false;
    const ibv_wc &wc = wcs.front();
    return check(wc.wr_id == 0x5ead && wc.status == IBV_WC_LOC_LEN_ERR && wc.byte_len == 0,
                 "wr_id %#" PRIx64 ", %s, byte_len %u", wc.wr_id, ibv_wc_status_str(wc.status),
                 wc.byte_len);
}

// IBV_EVENT_@type events seen on the context within @limit (every event acknowledged).
int Scribbler::count_async(ibv_event_type type, std::chrono::milliseconds limit) {
    const int fd = ctx_->async_fd;
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return -1;
    int n = 0;
    const auto deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
        pollfd pfd{.fd = fd, .events = POLLIN, .revents = 0};
        if (poll(&pfd, 1, 10) <= 0)
            continue;
        ibv_async_event ev{};
        if (ibv_get_async_event(ctx_.get(), &ev) != 0)
            continue;
        std::printf("# async event: %s\n", ibv_event_type_str(ev.event_type));
        if (ev.event_type == type)
            n++;
        ibv_ack_async_event(&ev);
    }
    return n;
}

bool Scribbler::cq_overflow() {
    if (!setup(1) || !connect())
        return false;
    for (std::uint64_t i = 0; i < 8; i++)
        if (!post_write(i))
            return check(false, "post WRITE %" PRIu64, i);
    if (!check(tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) == 0, "QP to ERR: 8 flushed"))
        return false;
    const int events = count_async(IBV_EVENT_CQ_ERR, 1500ms);
    return check(events == 1, "CQ_ERR raised %d times (once expected)", events);
}

bool Scribbler::cq_prod() {
    if (!setup(4) || !connect())
        return false;
    bool ok = post_write(kCqMarker) && tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) == 0;
    auto wcs = tool::poll_completions(cq_.get(), 1, 5s);
    ok = check(ok && wcs.size() == 1 && wcs[0].wr_id == kCqMarker, "first completion polled");
    const auto cq = find_cq(kCqMarker, qp_->qp_num);
    if (!check(cq.has_value(), "CQ found among the uverbs mappings"))
        return false;
    const std::uint32_t prod = cq->prod();
    cq->prod() = prod + 1000;
    std::printf("# CQ producer %u scribbled to %u\n", prod, prod + 1000);
    // a fresh QP's flushed WQE is the kernel's next completion
    ibv_qp_cap cap{.max_send_wr = 4,
                   .max_recv_wr = 1,
                   .max_send_sge = 1,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap);
    if (!qp_ || !connect() || !post_write(2) || tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) != 0)
        return check(false, "second QP's flushed WQE");
    std::this_thread::sleep_for(200ms);
    ok &= check(cq->prod() == prod + 1, "the kernel wrote producer %u (its own + 1: %u)",
                static_cast<std::uint32_t>(cq->prod()), prod + 1);
    wcs = tool::poll_completions(cq_.get(), 1, 5s);
    return check(ok && wcs.size() == 1 && wcs[0].wr_id == 2, "second completion polled (%zu)",
                 wcs.size());
}

bool Scribbler::qp_states() {
    struct Held {
        ibv_qp_state state;
        tool::Qp qp;
    };
    if (!setup(64))
        return false;
    std::vector<Held> held;
    bool ok = true;
    for (const ibv_qp_state state :
         {IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS, IBV_QPS_SQD, IBV_QPS_ERR}) {
        ibv_qp_cap cap{.max_send_wr = 4,
                       .max_recv_wr = 4,
                       .max_send_sge = 1,
                       .max_recv_sge = 1,
                       .max_inline_data = 0};
        Held h{state, tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap)};
        if (!h.qp)
            return check(false, "an RC QP for %s", tool::qp_state_name(state));
        const tool::QpInfo remote{.qpn = kAbsentQpn, .psn = 0, .gid = peer_};
        tool::ConnectParams p{.gid_index = gid_, .mtu = port_.mtu};
        p.until = state == IBV_QPS_INIT || state == IBV_QPS_RTR ? state : IBV_QPS_RTS;
        int err = state == IBV_QPS_RESET ? 0 : tool::connect_qp(h.qp.get(), remote, 0, p);
        if (err == 0 && (state == IBV_QPS_SQD || state == IBV_QPS_ERR))
            err = tool::modify_qp_state(h.qp.get(), state);
        ok = check(err == 0 && tool::query_qp_state(h.qp.get()) == state, "QP %u in %s",
                   h.qp->qp_num, tool::qp_state_name(state)) &&
             ok;
        std::printf("qpn %u %s\n", h.qp->qp_num, tool::qp_state_name(state));
        held.push_back(std::move(h));
    }
    std::fflush(stdout);
    std::this_thread::sleep_for(15s);
    for (const Held &h : held) {
        const ibv_qp_state now = tool::query_qp_state(h.qp.get());
        const bool may_fail =
                h.state == IBV_QPS_RTR || h.state == IBV_QPS_RTS || h.state == IBV_QPS_SQD;
        ok = check(now == h.state || (may_fail && now == IBV_QPS_ERR), "QP %u: %s, was %s",
                   h.qp->qp_num, tool::qp_state_name(now), tool::qp_state_name(h.state)) &&
             ok;
    }
    const auto wcs = tool::poll_completions(cq_.get(), 64, 200ms);
    const bool flushes = std::ranges::all_of(
            wcs, [](const ibv_wc &wc) { return wc.status == IBV_WC_WR_FLUSH_ERR; });
    return check(flushes, "%zu completions, none but flushes", wcs.size()) && ok;
}

bool Scribbler::dest_qpn_zero() {
    if (!setup(4))
        return false;
    tool::QpInfo remote{.qpn = 0, .psn = 0, .gid = port_.gid};
    const tool::ConnectParams p{.gid_index = gid_, .mtu = port_.mtu};
    const int err = tool::connect_qp(qp_.get(), remote, 0, p);
    return check(err == EINVAL, "connecting to QPN 0: %s", std::strerror(err));
}

// Lookups of an lkey (the requester copying a WRITE's payload) racing its deregistration. Each
// MR stays registered for a random 0-300 us, so that lookups find it alive and its
// deregistration comes while they run (registering takes far longer than that: an MR
// deregistered at once would be in the table for a few microseconds of each cycle). The
// WRITEs get 1 ms to leave before the QP is failed and they flush.
bool Scribbler::mr_churn() {
    if (!setup(64))
        return false;
    std::atomic<std::uint32_t> lkey{mr_->lkey};
    std::atomic<bool> stop{false};
    unsigned int cycles = 0;
    std::thread churn([&] {
        tool::Rng rng(0x6d722d636875726eULL);
        while (!stop.load()) {
            tool::Mr mr =
                    tool::register_mr(pd_.get(), buf_.data(), kRegion, IBV_ACCESS_LOCAL_WRITE);
            if (!mr)
                break;
            lkey.store(mr->lkey);
            cycles++;
            std::this_thread::sleep_for(std::chrono::microseconds(rng.below(300)));
        }
    });
    bool ok = true;
    unsigned int rounds = 0;
    for (; rounds < 100 && ok; rounds++) {
        ok = connect();
        for (std::uint64_t i = 0; ok && i < 8; i++)
            ok = post_write(i, true, lkey.load());
        std::this_thread::sleep_for(1ms);
        ok = ok && tool::modify_qp_state(qp_.get(), IBV_QPS_ERR) == 0;
        ok = ok && tool::poll_completions(cq_.get(), 8, 5s).size() == 8;
    }
    stop.store(true);
    churn.join();
    return check(ok && cycles > 0, "%u rounds of 8 WRITEs against %u registrations", rounds,
                 cycles);
}

// MemAvailable of /proc/meminfo, in KiB; 0 if unreadable.
std::uint64_t mem_available_kib() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t value = 0;
    std::string unit;
    while (in >> key >> value >> unit)
        if (key == "MemAvailable:")
            return value;
    return 0;
}

bool Scribbler::read_flood() {
    constexpr std::uint32_t kWqes = 16384;
    // A bitmap per READ would take 16384 x (128 MiB / MTU) bits.
    constexpr std::int64_t kMaxGrowthKib = std::int64_t{32} << 10;
    constexpr std::uint32_t kReadLen = 128U << 20;
    if (!setup(16))
        return false;
    ibv_qp_cap cap{.max_send_wr = kWqes,
                   .max_recv_wr = 1,
                   .max_send_sge = 1,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap);
    if (!check(qp_ && cap.max_send_wr >= kWqes, "a QP of %u send WQEs", kWqes) || !connect())
        return false;
    const std::uint64_t before = mem_available_kib();
    std::uint32_t posted = 0;
    for (; posted < kWqes; posted++) {
        ibv_sge sge{.addr = buf_.addr(), .length = kReadLen, .lkey = mr_->lkey};
        ibv_send_wr wr{};
        ibv_send_wr *bad = nullptr;
        wr.wr_id = posted;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = IBV_WR_RDMA_READ;
        wr.wr.rdma.remote_addr = 0x10000;
        wr.wr.rdma.rkey = 0x100;
        if (ibv_post_send(qp_.get(), &wr, &bad) != 0)
            break;
    }
    std::this_thread::sleep_for(1s); // every WQE fetched (each post rings the doorbell)
    const std::uint64_t after = mem_available_kib();
    const auto grew_kib = static_cast<std::int64_t>(before - after);
    std::printf("# MemAvailable %" PRIu64 " KiB before, %" PRIu64 " KiB with %u READs posted\n",
                before, after, posted);
    return check(posted == kWqes, "%u of %u READs posted", posted, kWqes) &&
           check(before > 0 && grew_kib < kMaxGrowthKib, "kernel memory grew by %" PRId64 " KiB",
                 grew_kib);
}

bool Scribbler::rsn_ahead() {
    if (!setup(16))
        return false;
    bool ok = true;
    for (std::uint64_t i = 0; i < 4; i++) {
        ibv_sge sge{.addr = buf_.addr(), .length = 64, .lkey = mr_->lkey};
        ibv_recv_wr wr{.wr_id = kRecv + i, .next = nullptr, .sg_list = &sge, .num_sge = 1};
        ibv_recv_wr *bad = nullptr;
        ok = ok && ibv_post_recv(qp_.get(), &wr, &bad) == 0;
    }
    const tool::QpInfo remote{.qpn = kAbsentQpn, .psn = 0, .gid = peer_};
    const tool::ConnectParams p{.gid_index = gid_, .mtu = port_.mtu};
    if (!check(ok && tool::connect_qp(qp_.get(), remote, 0, p) == 0, "4 receives, QP in RTS"))
        return false;
    std::printf("qpn %u\n", qp_->qp_num);
    std::fflush(stdout);
    const auto wcs = tool::poll_completions(cq_.get(), 1, 10s);
    if (!check(wcs.size() == 1, "a completion within 10 s"))
        return false;
    std::printf("# first completion: WQE %" PRIu64 ", %s\n", wcs[0].wr_id - kRecv,
                ibv_wc_status_str(wcs[0].status));
    return check(wcs[0].status != IBV_WC_SUCCESS && wcs[0].wr_id == kRecv,
                 "no receive completed ahead of WQE 0, which flushed");
}

bool Scribbler::read_target() {
    constexpr std::size_t kTarget = 4U << 20;
    if (!setup(16))
        return false;
    tool::Buffer target(kTarget);
    const tool::Mr mr = tool::register_mr(pd_.get(), target.data(), kTarget,
                                          IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
    const tool::QpInfo remote{.qpn = kAbsentQpn, .psn = 0, .gid = peer_};
    const tool::ConnectParams p{.gid_index = gid_, .mtu = port_.mtu};
    if (!check(mr && tool::connect_qp(qp_.get(), remote, 0, p) == 0, "READ target, QP in RTS"))
        return false;
    std::printf("qpn %u\nva %" PRIu64 "\nrkey %u\n", qp_->qp_num, target.addr(), mr->rkey);
    std::fflush(stdout);
    std::this_thread::sleep_for(10s);
    return true;
}

constexpr std::uint32_t kUdQkey = 0x2468ace0;

// A UD QP in RTS with an AH to our own address, and its SQ found by two marker SENDs.
bool Scribbler::ud_setup() {
    ctx_ = tool::open_device(device_);
    if (!ctx_)
        return false;
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    cq_.reset(ibv_create_cq(ctx_.get(), 64, nullptr, nullptr, 0));
    buf_ = tool::Buffer(kRegion);
    if (!pd_ || !cq_ || !buf_ || !tool::query_port(ctx_.get(), gid_, port_))
        return check(false, "PD, CQ, memory and port of %s", device_.c_str());
    mr_ = tool::register_mr(pd_.get(), buf_.data(), kRegion, IBV_ACCESS_LOCAL_WRITE);
    ibv_qp_cap cap{.max_send_wr = 16,
                   .max_recv_wr = 4,
                   .max_send_sge = 2,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    qp_ = tool::create_ud_qp(pd_.get(), cq_.get(), cap);
    if (pd_)
        ah_ = tool::create_ah(pd_.get(), port_.gid, gid_);
    if (!check(mr_ && qp_ && ah_, "MR, UD QP %u and AH", qp_ ? qp_->qp_num : 0))
        return false;
    for (std::uint64_t id : {kMarker, kMarker + 1}) {
        ibv_sge sge{.addr = buf_.addr(), .length = 8, .lkey = mr_->lkey};
        ibv_send_wr wr{};
        ibv_send_wr *bad = nullptr;
        wr.wr_id = id;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = IBV_WR_SEND;
        wr.wr.ud.ah = ah_.get();
        wr.wr.ud.remote_qpn = kAbsentQpn;
        wr.wr.ud.remote_qkey = kUdQkey;
        ibv_post_send(qp_.get(), &wr, &bad); // in RESET: written, the doorbell refused
    }
    const auto ring = find_work_ring(kMarker);
    if (!check(ring.has_value(), "SQ found among the uverbs mappings"))
        return false;
    sq_ = *ring;
    return check(tool::ud_qp_to_rts(qp_.get(), kUdQkey) == 0, "markers discarded, QP in RTS");
}

// Write @wqe and its one SGE into the next slot, publish it and ring the doorbell.
bool Scribbler::ud_publish(const mrc_send_wqe &wqe, const mrc_sge &sge) {
    const std::uint32_t prod = sq_.prod();
    std::byte *slot = sq_.slot(prod);
    std::memcpy(slot, &wqe, sizeof(wqe));
    std::memcpy(slot + MRC_SEND_WQE_HDR_SIZE, &sge, sizeof(sge));
    std::atomic_thread_fence(std::memory_order_release);
    sq_.prod() = prod + 1;
    return ring_doorbell(qp_.get()) == 0;
}

// Publish @wqe: it must complete with @want and leave the QP in ERR, from which it comes back.
bool Scribbler::ud_hostile(const char *what, const mrc_send_wqe &wqe, const mrc_sge &sge,
                           ibv_wc_status want) {
    bool ok = check(ud_publish(wqe, sge), "%s: doorbell", what);
    const auto wcs = tool::poll_completions(cq_.get(), 1, 5s);
    ok = check(wcs.size() == 1 && wcs[0].wr_id == wqe.wr_id && wcs[0].status == want,
               "%s: %s (want %s)", what,
               wcs.empty() ? "no completion" : ibv_wc_status_str(wcs[0].status),
               ibv_wc_status_str(want)) &&
         ok;
    ok = check(tool::query_qp_state(qp_.get()) == IBV_QPS_ERR, "%s: the QP is in ERR", what) && ok;
    return check(tool::ud_qp_to_rts(qp_.get(), kUdQkey) == 0, "%s: back in RTS", what) && ok;
}

bool Scribbler::ud_sq() {
    if (!ud_setup())
        return false;
    mrc_send_wqe good{};
    std::memcpy(&good, sq_.slot(0), sizeof(good)); // the first marker: a SEND the provider wrote
    good.send_flags = IBV_SEND_SIGNALED;
    const mrc_sge sge{.addr = buf_.addr(), .length = 8, .lkey = mr_->lkey};
    bool ok = true;
    std::uint64_t wr_id = 0x0d00;
    const auto hostile = [&](const char *what, auto &&spoil, ibv_wc_status want) {
        mrc_send_wqe w = good;
        mrc_sge s = sge;
        w.wr_id = ++wr_id;
        spoil(w, s);
        ok = ud_hostile(what, w, s, want) && ok;
    };
    hostile(
            "RDMA WRITE", [](mrc_send_wqe &w, mrc_sge &) { w.opcode = IBV_WR_RDMA_WRITE; },
            IBV_WC_LOC_QP_OP_ERR);
    hostile(
            "AH number 0", [](mrc_send_wqe &w, mrc_sge &) { w.wr.ud.ah_num = 0; },
            IBV_WC_LOC_QP_OP_ERR);
    hostile(
            "AH number ~0", [](mrc_send_wqe &w, mrc_sge &) { w.wr.ud.ah_num = ~0U; },
            IBV_WC_LOC_QP_OP_ERR);
    hostile(
            "remote QPN 0", [](mrc_send_wqe &w, mrc_sge &) { w.wr.ud.remote_qpn = 0; },
            IBV_WC_LOC_QP_OP_ERR);
    hostile(
            "remote QPN 2^24", [](mrc_send_wqe &w, mrc_sge &) { w.wr.ud.remote_qpn = 1U << 24; },
            IBV_WC_LOC_QP_OP_ERR);
    hostile(
            "num_sge ~0", [](mrc_send_wqe &w, mrc_sge &) { w.num_sge = ~0U; }, IBV_WC_LOC_LEN_ERR);
    hostile(
            "inline_len ~0",
            [](mrc_send_wqe &w, mrc_sge &) {
                w.send_flags |= IBV_SEND_INLINE;
                w.inline_len = ~0U;
            },
            IBV_WC_LOC_LEN_ERR);
    hostile(
            "SGE length ~0", [](mrc_send_wqe &, mrc_sge &s) { s.length = ~0U; },
            IBV_WC_LOC_LEN_ERR);
    hostile(
            "unknown lkey", [](mrc_send_wqe &, mrc_sge &s) { s.lkey ^= 0xfff00; },
            IBV_WC_LOC_PROT_ERR);

    // a producer index a ring ahead of the consumer: ERR, nothing read from the slots
    const std::uint32_t cons = sq_.cons();
    sq_.prod() = cons + 1000;
    ok = check(ring_doorbell(qp_.get()) == 0, "doorbell with the producer 1000 ahead") && ok;
    ok = check(tool::query_qp_state(qp_.get()) == IBV_QPS_ERR, "the QP is in ERR") && ok;
    const auto none = tool::poll_completions(cq_.get(), 1, 200ms);
    ok = check(none.empty(), "no completion for slots never written") && ok;
    sq_.prod() = cons; // as the provider knows it
    ok = check(tool::ud_qp_to_rts(qp_.get(), kUdQkey) == 0, "back in RTS") && ok;

    // the QP still sends: a good datagram completes, and the QP stays in RTS
    good.wr_id = 0x600d;
    ok = check(ud_publish(good, sge), "a good datagram: doorbell") && ok;
    const auto wcs = tool::poll_completions(cq_.get(), 1, 5s);
    ok = check(wcs.size() == 1 && wcs[0].wr_id == 0x600d && wcs[0].status == IBV_WC_SUCCESS,
               "a good datagram completes successfully") &&
         ok;
    return check(tool::query_qp_state(qp_.get()) == IBV_QPS_RTS, "the QP stays in RTS") && ok;
}

int Scribbler::run(const std::string &test) {
    bool ok = false;
    if (test == "sq-rewind")
        ok = sq_rewind();
    else if (test == "read-sge")
        ok = read_sge();
    else if (test == "cq-overflow")
        ok = cq_overflow();
    else if (test == "cq-prod")
        ok = cq_prod();
    else if (test == "qp-states")
        ok = qp_states();
    else if (test == "dest-qpn-0")
        ok = dest_qpn_zero();
    else if (test == "mr-churn")
        ok = mr_churn();
    else if (test == "rsn-ahead")
        ok = rsn_ahead();
    else if (test == "read-flood")
        ok = read_flood();
    else if (test == "read-target")
        ok = read_target();
    else if (test == "ud-sq")
        ok = ud_sq();
    else {
        std::fprintf(stderr, "mrc_ring_scribble: unknown case %s\n", test.c_str());
        return 2;
    }
    std::printf("%s: %s\n", test.c_str(), ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int scribble_main(std::span<char *> args) {
    std::string device;
    int gid = 0;
    int opt = 0;
    ibv_gid peer{};
    while ((opt = getopt(static_cast<int>(args.size()), args.data(), "d:g:p:")) != -1) {
        if (opt == 'd')
            device = optarg;
        else if (opt == 'g')
            gid = std::atoi(optarg);
        else if (opt != 'p' || inet_pton(AF_INET6, optarg, peer.raw) != 1)
            return 2;
    }
    if (device.empty() || optind + 1 != static_cast<int>(args.size())) {
        std::fprintf(stderr, "usage: mrc_ring_scribble -d DEV [-g GID_INDEX] [-p PEER_GID] CASE\n");
        return 2;
    }
    Scribbler s(device, gid, peer);
    return s.run(args[static_cast<std::size_t>(optind)]);
}

} // namespace
} // namespace mrc::scribble

int main(int argc, char **argv) {
    return mrc::tool::guarded_main("mrc_ring_scribble", mrc::scribble::scribble_main, argc, argv);
}
