// SPDX-License-Identifier: BSD-2-Clause
// mrc_recv_scribble - hostile receive WQEs and receive ring indices, met by real SENDs. A process
// owns the receive ring (or SRQ) it shares with mrc.ko and may write anything into it while the
// kernel reads it in the receive softirq; whatever it writes, the kernel must fail the QP (or
// complete the WQE in error) and never place a byte outside the memory the WQE's lkey registered.
//
//     mrc_recv_scribble -d DEV [-g GID_INDEX] [-s] CASE
//
// Two RC QPs of one device talk over its own GID: a sender and a receiver whose receives come
// from its own RQ, or with -s from an SRQ. The receive buffer is three pages: only the middle one
// is registered, so a placement that strays lands on a page the test watches.
//
//     hostile   a good SEND meets one hostile receive at a time: the WQE's num_sge ~0, past its
//               slot or 0; an unknown lkey; an SGE past the MR's end, below it or wrapping; the
//               producer index 2^31 ahead of the consumer or one behind it. Each time the sender
//               completes in error, the receiver goes to ERR, nothing is placed anywhere, and
//               with the ring's producer put back the next round works. Rounds of good SENDs
//               before and after, on a new receiver, must deliver every byte.
//     race      for 4 s, rounds of 4 SENDs: around their arrival, a thread writes random WQEs,
//               words and producer indices into the ring for 0-2 ms. Every SEND completes (some
//               in error), every 8th round, quiet and on a new receiver, delivers all four, no
//               byte outside the registered page changes, and a new receiver works afterwards.
//
// Exit status: 0 when every check passed, 1 when one failed, 2 for bad usage.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "tool_pattern.h"
#include "tool_report.h"
#include "tool_ring.h"
#include "tool_verbs.h"

namespace mrc::recv_scribble {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using tool::check;

constexpr std::size_t kPage = 4096;
constexpr std::size_t kRecvBuf = 3 * kPage; // guard page, registered page, guard page
constexpr std::uint32_t kMsgLen = 64;
constexpr std::uint32_t kRecvSge = 2; // what the receiver asks for; its slots hold at least that
constexpr auto kFill = std::byte{0xa5};
// wr_ids of the marker receives that find a ring, and of the good receives
constexpr std::uint64_t kMarker = 0x7ec0000000000000ULL;
constexpr std::uint64_t kRecvId = 0x7ec1000000000000ULL;
constexpr std::uint64_t kSendId = 0x5e00000000000000ULL;
constexpr std::uint64_t kPatternKey = 0x7265637673637262ULL;

// A receive slot as the kernel reads it: the header, then up to kMaxSlotSge SGEs.
constexpr std::uint32_t kMaxSlotSge = 16;
struct RecvSlot {
    mrc_recv_wqe hdr;
    mrc_sge sge[kMaxSlotSge];
};

// What one exchange left in the CQ: the sender's completions and the receiver's.
struct Outcome {
    std::vector<ibv_wc> send;
    std::vector<ibv_wc> recv;
};

class RecvScribbler {
public:
    RecvScribbler(std::string device, int gid_index, bool srq)
        : device_(std::move(device)), gid_(gid_index), use_srq_(srq) {}
    int run(const std::string &test);

private:
    bool open();
    bool new_receiver();
    bool locate_ring();
    bool connect_pair();
    bool post_recv(std::uint64_t wr_id);
    bool post_send(std::uint64_t wr_id);
    Outcome exchange(std::size_t sends, std::chrono::milliseconds limit);
    [[nodiscard]] std::byte *registered() const { return recv_buf_.data() + kPage; }
    void refill();
    [[nodiscard]] bool guards_intact() const;
    [[nodiscard]] bool untouched() const;
    bool good_round(const char *what, std::uint64_t recv_id, bool post);
    bool receiver_works(const char *what);
    bool hostile_wqe(const char *what, const std::function<void(RecvSlot &)> &spoil);
    bool hostile_index(const char *what, const std::function<std::uint32_t(std::uint32_t)> &prod);
    bool hostile_outcome(const char *what, const Outcome &out);
    bool hostile();
    bool race();
    void scribble_once(tool::Rng &rng);

    std::string device_;
    int gid_;
    bool use_srq_;
    tool::Context ctx_;
    tool::Pd pd_;
    tool::Cq cq_;
    tool::Buffer recv_buf_;
    tool::Buffer send_buf_;
    tool::Mr recv_mr_;
    tool::Mr send_mr_;
    tool::Srq srq_;
    tool::Qp sender_;
    tool::Qp receiver_;
    tool::PortInfo port_;
    tool::Ring ring_;
    std::uint32_t slot_sges_ = 0;    // SGEs a slot of the ring holds
    std::uint64_t marker_ = kMarker; // this receiver's first marker: the next one's is 2 on
    std::uint64_t round_ = 0;
};

bool RecvScribbler::open() {
    ctx_ = tool::open_device(device_);
    if (!ctx_)
        return false;
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    cq_.reset(ibv_create_cq(ctx_.get(), 256, nullptr, nullptr, 0));
    recv_buf_ = tool::Buffer(kRecvBuf);
    send_buf_ = tool::Buffer(kPage);
    if (!pd_ || !cq_ || !recv_buf_ || !send_buf_ || !tool::query_port(ctx_.get(), gid_, port_))
        return check(false, "PD, CQ, memory and port of %s", device_.c_str());
    tool::pattern_fill(send_buf_.span(), kPatternKey, 0);
    recv_mr_ = tool::register_mr(pd_.get(), registered(), kPage, IBV_ACCESS_LOCAL_WRITE);
    send_mr_ = tool::register_mr(pd_.get(), send_buf_.data(), kPage, 0);
    ibv_qp_cap cap{.max_send_wr = 16,
                   .max_recv_wr = 1,
                   .max_send_sge = 1,
                   .max_recv_sge = 1,
                   .max_inline_data = 0};
    sender_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap);
    return check(recv_mr_ && send_mr_ && sender_, "MRs and sender QP %u",
                 sender_ ? sender_->qp_num : 0) &&
           new_receiver();
}

// A receiver QP (and with -s a new SRQ) whose ring is found by two marker receives.
bool RecvScribbler::new_receiver() {
    if (receiver_)
        marker_ += 2; // a ring left mapped must not be taken for the new one
    receiver_.reset();
    srq_.reset();
    if (use_srq_) {
        ibv_srq_init_attr attr{};
        attr.attr.max_wr = 16;
        attr.attr.max_sge = kRecvSge;
        srq_.reset(ibv_create_srq(pd_.get(), &attr));
        if (!check(srq_ != nullptr, "an SRQ"))
            return false;
    }
    ibv_qp_cap cap{.max_send_wr = 1,
                   .max_recv_wr = 16,
                   .max_send_sge = 1,
                   .max_recv_sge = kRecvSge,
                   .max_inline_data = 0};
    receiver_ = tool::create_rc_qp(pd_.get(), cq_.get(), cq_.get(), cap, srq_.get());
    return check(receiver_ != nullptr, "receiver QP %u%s", receiver_ ? receiver_->qp_num : 0,
                 use_srq_ ? " on an SRQ" : "") &&
           locate_ring();
}

// The markers are the ring's first two WQEs. An RQ drops them when its QP goes through RESET;
// an SRQ keeps them, and the first good round's two SENDs take them.
bool RecvScribbler::locate_ring() {
    if (!use_srq_ && !connect_pair())
        return false;
    const bool posted = post_recv(marker_) && post_recv(marker_ + 1);
    const auto ring = tool::find_work_ring(marker_);
    if (!check(posted && ring.has_value(), "receive ring found among the uverbs mappings"))
        return false;
    ring_ = *ring;
    slot_sges_ = (ring_.slot_size - MRC_RECV_WQE_HDR_SIZE) / sizeof(mrc_sge);
    std::printf("# receive ring: %u slots of %u bytes (%u SGEs)\n", ring_.slots(), ring_.slot_size,
                slot_sges_);
    if (!check(slot_sges_ >= kRecvSge && slot_sges_ < kMaxSlotSge, "slots hold %u SGEs",
               slot_sges_))
        return false;
    if (use_srq_)
        return true;
    return check(tool::modify_qp_state(receiver_.get(), IBV_QPS_RESET) == 0, "markers discarded");
}

// Sender and receiver towards each other over our own GID, both from whatever state they are
// in. The sender gives up at once on an RNR NAK and after one retry on silence, so every SEND
// completes within a few hundred milliseconds, in error when the receiver failed.
bool RecvScribbler::connect_pair() {
    const tool::ConnectParams rp{.gid_index = gid_, .mtu = port_.mtu};
    tool::ConnectParams sp = rp;
    sp.timeout = 12; // 16.8 ms
    sp.retry_cnt = 1;
    sp.rnr_retry = 0;
    const tool::QpInfo to_sender{.qpn = sender_->qp_num, .psn = 0, .gid = port_.gid};
    const tool::QpInfo to_receiver{.qpn = receiver_->qp_num, .psn = 0, .gid = port_.gid};
    return tool::connect_qp(receiver_.get(), to_sender, 0, rp) == 0 &&
           tool::connect_qp(sender_.get(), to_receiver, 0, sp) == 0;
}

// One receive of kMsgLen bytes into the start of the registered page.
bool RecvScribbler::post_recv(std::uint64_t wr_id) {
    ibv_sge sge{.addr = recv_buf_.addr() + kPage, .length = kMsgLen, .lkey = recv_mr_->lkey};
    ibv_recv_wr wr{.wr_id = wr_id, .next = nullptr, .sg_list = &sge, .num_sge = 1};
    ibv_recv_wr *bad = nullptr;
    if (use_srq_)
        return ibv_post_srq_recv(srq_.get(), &wr, &bad) == 0;
    return ibv_post_recv(receiver_.get(), &wr, &bad) == 0;
}

bool RecvScribbler::post_send(std::uint64_t wr_id) {
    ibv_sge sge{.addr = send_buf_.addr(), .length = kMsgLen, .lkey = send_mr_->lkey};
    ibv_send_wr wr{};
    ibv_send_wr *bad = nullptr;
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND;
    wr.send_flags = IBV_SEND_SIGNALED;
    return ibv_post_send(sender_.get(), &wr, &bad) == 0;
}

// Completions until @sends of the sender's arrived or @limit passed, then 50 ms more for the
// receiver's (a flush follows the NAK that completed the sender).
Outcome RecvScribbler::exchange(std::size_t sends, std::chrono::milliseconds limit) {
    Outcome out;
    auto deadline = Clock::now() + limit;
    bool settling = false;
    while (Clock::now() < deadline) {
        ibv_wc wc{};
        const int n = ibv_poll_cq(cq_.get(), 1, &wc);
        if (n < 0)
            break;
        if (n == 0) {
            std::this_thread::sleep_for(200us);
            continue;
        }
        (wc.qp_num == sender_->qp_num ? out.send : out.recv).push_back(wc);
        if (!settling && out.send.size() >= sends) {
            settling = true;
            deadline = std::min(deadline, Clock::now() + 50ms);
        }
    }
    return out;
}

// Every byte of @b still holds the fill.
bool filled(std::span<const std::byte> b) {
    return std::ranges::all_of(b, [](std::byte c) { return c == kFill; });
}

// The whole receive buffer back to the fill.
void RecvScribbler::refill() {
    std::memset(recv_buf_.data(), std::to_integer<int>(kFill), kRecvBuf);
}

// No byte of the pages around the registered one changed.
bool RecvScribbler::guards_intact() const {
    const std::span<const std::byte> all(recv_buf_.data(), kRecvBuf);
    return filled(all.first(kPage)) && filled(all.last(kPage));
}

// No byte of the receive buffer changed.
bool RecvScribbler::untouched() const {
    return filled(std::span<const std::byte>(recv_buf_.data(), kRecvBuf));
}

// A SEND into receive @recv_id (posted now if @post): both complete successfully, the bytes
// arrive at the start of the registered page and nowhere else.
bool RecvScribbler::good_round(const char *what, std::uint64_t recv_id, bool post) {
    refill();
    if (!check(connect_pair() && (!post || post_recv(recv_id)) && post_send(kSendId + round_++),
               "%s: connected, receive and SEND posted", what))
        return false;
    const Outcome out = exchange(1, 5s);
    const bool sent = out.send.size() == 1 && out.send[0].status == IBV_WC_SUCCESS;
    const bool received = out.recv.size() == 1 && out.recv[0].status == IBV_WC_SUCCESS &&
                          out.recv[0].wr_id == recv_id && out.recv[0].byte_len == kMsgLen;
    const std::span<const std::byte> got(registered(), kMsgLen);
    const bool placed = tool::pattern_check(got, kPatternKey, 0) == kMsgLen &&
                        filled(std::span<const std::byte>(registered() + kMsgLen, kPage - kMsgLen));
    return check(sent && received && placed && guards_intact(),
                 "%s: SEND %s, receive %s, %u bytes placed where the WQE said", what,
                 out.send.empty() ? "lost" : ibv_wc_status_str(out.send[0].status),
                 out.recv.empty() ? "lost" : ibv_wc_status_str(out.recv[0].status), kMsgLen);
}

// A SEND met a hostile receive: the sender completed in error, the receiver is in ERR with no
// receive completed successfully, and not a byte of the buffer moved.
bool RecvScribbler::hostile_outcome(const char *what, const Outcome &out) {
    const bool sender_failed = out.send.size() == 1 && out.send[0].status != IBV_WC_SUCCESS;
    const bool none_received = std::ranges::none_of(
            out.recv, [](const ibv_wc &wc) { return wc.status == IBV_WC_SUCCESS; });
    const ibv_qp_state state = tool::query_qp_state(receiver_.get());
    const bool intact = untouched();
    return check(sender_failed && none_received && state == IBV_QPS_ERR && intact,
                 "%s: SEND %s, receiver %s, %zu receive completion(s), buffer %s", what,
                 out.send.empty() ? "never completed" : ibv_wc_status_str(out.send[0].status),
                 tool::qp_state_name(state), out.recv.size(), intact ? "untouched" : "WRITTEN");
}

// A good receive posted, then its slot spoiled before the SEND that takes it arrives.
bool RecvScribbler::hostile_wqe(const char *what, const std::function<void(RecvSlot &)> &spoil) {
    refill();
    if (!check(connect_pair() && post_recv(kRecvId + round_), "%s: receive posted", what))
        return false;
    std::byte *slot = ring_.slot(ring_.prod() - 1);
    RecvSlot wqe{};
    std::memcpy(&wqe, slot, ring_.slot_size);
    spoil(wqe);
    std::memcpy(slot, &wqe, ring_.slot_size);
    std::atomic_thread_fence(std::memory_order_release);
    if (!check(post_send(kSendId + round_++), "%s: SEND posted", what))
        return false;
    return hostile_outcome(what, exchange(1, 5s));
}

// A good receive posted, then the producer index set to @prod(its value) until the SEND that
// would take it has failed; the provider's value is put back afterwards.
bool RecvScribbler::hostile_index(const char *what,
                                  const std::function<std::uint32_t(std::uint32_t)> &prod) {
    refill();
    if (!check(connect_pair() && post_recv(kRecvId + round_), "%s: receive posted", what))
        return false;
    const std::uint32_t real = ring_.prod();
    ring_.prod() = prod(real);
    const bool sent = post_send(kSendId + round_++);
    const bool ok = check(sent, "%s: SEND posted", what) && hostile_outcome(what, exchange(1, 5s));
    ring_.prod() = real;
    return ok;
}

// Good SENDs into a receiver fresh from new_receiver(): with an SRQ, two take the markers.
bool RecvScribbler::receiver_works(const char *what) {
    if (use_srq_)
        return good_round(what, marker_, false) && good_round(what, marker_ + 1, false);
    return good_round(what, kRecvId + round_, true);
}

bool RecvScribbler::hostile() {
    if (!open())
        return false;
    bool ok = receiver_works("first receiver");
    const std::uint32_t past = slot_sges_ + 1;
    ok = hostile_wqe("num_sge ~0", [](RecvSlot &w) { w.hdr.num_sge = ~0U; }) && ok;
    ok = hostile_wqe("num_sge past the slot", [past](RecvSlot &w) { w.hdr.num_sge = past; }) && ok;
    ok = hostile_wqe("num_sge 0", [](RecvSlot &w) { w.hdr.num_sge = 0; }) && ok;
    ok = hostile_wqe("unknown lkey", [](RecvSlot &w) { w.sge[0].lkey ^= 0xfff00; }) && ok;
    ok = hostile_wqe("SGE past the MR's end",
                     [](RecvSlot &w) {
                         w.sge[0].addr += kPage - 8;
                         w.sge[0].length = kPage;
                     }) &&
         ok;
    ok = hostile_wqe("SGE address wrapping",
                     [](RecvSlot &w) { w.sge[0].addr = ~std::uint64_t{0} - 15; }) &&
         ok;
    ok = hostile_wqe("SGE below the MR",
                     [](RecvSlot &w) {
                         w.sge[0].addr -= 32;
                         w.sge[0].length = kPage;
                     }) &&
         ok;
    // an SRQ's taken WQE was flushed; a WQE behind a bad index was not taken, so these go last
    // and the check after them uses a new receiver
    ok = hostile_index("producer 2^31 ahead", [](std::uint32_t p) { return p + (1U << 31); }) && ok;
    ok = hostile_index("producer behind the consumer",
                       [this](std::uint32_t) { return ring_.cons() - 1; }) &&
         ok;
    return new_receiver() && receiver_works("new receiver") && ok;
}

// One random write into the ring: a whole receive WQE near the producer (where the kernel looks
// next), one word of any slot, or the producer index.
void RecvScribbler::scribble_once(tool::Rng &rng) {
    const std::uint64_t page = recv_buf_.addr() + kPage;
    const std::uint32_t lkey = recv_mr_->lkey;
    const auto pick = [&rng](std::initializer_list<std::uint64_t> v) {
        return *(v.begin() + rng.below(v.size()));
    };
    const std::uint64_t what = rng.below(10);
    const std::uint32_t prod = ring_.prod();
    if (what < 7) {
        RecvSlot w{};
        w.hdr.wr_id = rng.next();
        w.hdr.num_sge = static_cast<std::uint32_t>(
                pick({0, 1, 2, slot_sges_, slot_sges_ + 1, ~0U, rng.next()}));
        for (std::uint32_t i = 0; i < slot_sges_; i++) {
            w.sge[i].lkey = static_cast<std::uint32_t>(
                    pick({lkey, lkey, lkey ^ rng.below(1U << 20), rng.next()}));
            w.sge[i].addr = pick({page + rng.below(kPage), page - 1 - rng.below(kPage),
                                  page + kPage + rng.below(kPage), rng.next(),
                                  ~std::uint64_t{0} - rng.below(kPage)});
            w.sge[i].length = static_cast<std::uint32_t>(pick(
                    {rng.below(std::uint64_t{2} * kMsgLen), kPage, 1U << 31, ~0U, rng.next()}));
        }
        std::memcpy(ring_.slot(prod - 1 + static_cast<std::uint32_t>(rng.below(3))), &w,
                    ring_.slot_size);
    } else if (what < 9) {
        const auto word = static_cast<std::uint32_t>(rng.next());
        std::byte *slot = ring_.slot(static_cast<std::uint32_t>(rng.below(ring_.slots())));
        std::memcpy(slot + 4 * rng.below(ring_.slot_size / 4), &word, sizeof(word));
    } else {
        ring_.prod() = static_cast<std::uint32_t>(pick(
                {prod + 1, prod + rng.below(4), prod + (1U << 31), ring_.cons() - 1, rng.next()}));
    }
}

// Rounds of kSends SENDs for 4 s. Each round connects the pair and posts receives with the
// scribbler held off, then lets it write for 0-1 ms before the SENDs are posted and 0-1 ms
// after (so some meet a ring still good, some one half scribbled), then holds it off again, waits
// for every SEND's completion and puts the provider's producer index back. An SRQ whose consumer a
// scribbled index took past that index is replaced (the provider would see it full for good).
// Every 8th round the scribbler stays held, and the round runs on a new receiver: the control.
bool RecvScribbler::race() {
    constexpr std::size_t kSends = 4;
    if (!open())
        return false;
    refill();
    std::mutex quiet; // held: the scribbler waits
    std::unique_lock hold(quiet);
    std::atomic<bool> stop{false};
    std::uint64_t writes = 0;
    std::thread scribbler([&] {
        tool::Rng rng(0x7363726962626c65ULL);
        while (!stop.load(std::memory_order_relaxed)) {
            if (quiet.try_lock()) {
                scribble_once(rng);
                writes++;
                quiet.unlock();
            }
            std::this_thread::sleep_for(20us);
        }
    });
    tool::Rng rng(0x77696e646f77ULL);
    const auto end = Clock::now() + 4s;
    unsigned int rounds = 0;
    unsigned int delivered = 0;
    unsigned int failed = 0;
    unsigned int unanswered = 0;
    unsigned int renewed = 0;
    unsigned int quiet_rounds = 0;
    unsigned int quiet_lost = 0; // SENDs of quiet rounds not delivered
    bool ok = true;
    while (ok && Clock::now() < end) {
        // every 8th round is quiet, on a new receiver: all its SENDs must be delivered
        const bool scribbled = rounds % 8 != 7;
        if (!scribbled)
            ok = new_receiver();
        ok = connect_pair() && ok;
        for (std::size_t i = 0; i < kSends; i++)
            post_recv(kRecvId + i); // the ring may look full: some receives are refused
        const std::uint32_t prod = ring_.prod();
        if (scribbled) {
            hold.unlock();
            std::this_thread::sleep_for(std::chrono::microseconds(rng.below(1000)));
        }
        std::size_t posted = 0;
        while (posted < kSends && post_send(kSendId + round_++))
            posted++;
        if (scribbled) {
            std::this_thread::sleep_for(std::chrono::microseconds(rng.below(1000)));
            hold.lock();
        }
        const Outcome out = exchange(posted, 3s);
        unanswered += static_cast<unsigned int>(posted - std::min(posted, out.send.size()));
        const auto good = static_cast<unsigned int>(std::ranges::count_if(
                out.send, [](const ibv_wc &wc) { return wc.status == IBV_WC_SUCCESS; }));
        if (scribbled) {
            delivered += good;
            failed += static_cast<unsigned int>(out.send.size()) - good;
        } else {
            quiet_rounds++;
            quiet_lost += kSends - good;
        }
        ring_.prod() = prod;
        if (use_srq_ && static_cast<std::int32_t>(ring_.cons() - prod) > 0) {
            ok = new_receiver() && ok;
            renewed++;
        }
        rounds++;
    }
    stop.store(true);
    hold.unlock();
    scribbler.join();
    std::printf("# %u rounds, %" PRIu64 " scribbles: %u SENDs delivered, %u failed; %u SRQs "
                "replaced\n",
                rounds, writes, delivered, failed, renewed);
    ok = check(ok && rounds > 0 && unanswered == 0, "every SEND completed (%u never did)",
               unanswered) &&
         ok;
    ok = check(failed > 0, "SENDs failed on scribbled rings") && ok;
    ok = check(quiet_rounds > 0 && quiet_lost == 0,
               "%u quiet rounds on new receivers delivered every SEND (%u not)", quiet_rounds,
               quiet_lost) &&
         ok;
    ok = check(guards_intact(), "no byte outside the registered page changed") && ok;
    // the device goes on: a new receiver and its ring
    return new_receiver() && receiver_works("new receiver") && ok;
}

int RecvScribbler::run(const std::string &test) {
    bool ok = false;
    if (test == "hostile")
        ok = hostile();
    else if (test == "race")
        ok = race();
    else {
        std::fprintf(stderr, "mrc_recv_scribble: unknown case %s\n", test.c_str());
        return 2;
    }
    std::printf("%s%s: %s\n", use_srq_ ? "srq-" : "", test.c_str(), ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int recv_scribble_main(std::span<char *> args) {
    std::string device;
    int gid = 0;
    bool srq = false;
    int opt = 0;
    while ((opt = getopt(static_cast<int>(args.size()), args.data(), "d:g:s")) != -1) {
        if (opt == 'd')
            device = optarg;
        else if (opt == 'g')
            gid = std::atoi(optarg);
        else if (opt == 's')
            srq = true;
        else
            return 2;
    }
    if (device.empty() || optind + 1 != static_cast<int>(args.size())) {
        std::fprintf(stderr, "usage: mrc_recv_scribble -d DEV [-g GID_INDEX] [-s] CASE\n");
        return 2;
    }
    RecvScribbler s(device, gid, srq);
    return s.run(args[static_cast<std::size_t>(optind)]);
}

} // namespace
} // namespace mrc::recv_scribble

int main(int argc, char **argv) {
    return mrc::tool::guarded_main("mrc_recv_scribble", mrc::recv_scribble::recv_scribble_main,
                                   argc, argv);
}
