// SPDX-License-Identifier: BSD-2-Clause
// mrc_stress - a verbs stress test of RC traffic in both directions at once, every byte checked.
//
//     mrc_stress -d DEV [-g GID_INDEX] [-p PORT] [options]            server (host A)
//     mrc_stress -d DEV [-g GID_INDEX] [-p PORT] [options] SERVER     client (host B)
//
//     --seconds S      post new work for S seconds (default 10), or
//     --iterations N   post N operations per QP and direction
//     --seed N         the seed of every size, op and byte (default 1)
//     --qps N          QPs (default 1)
//     --max-size B     ordinary messages are 0 .. B bytes (default 262144)
//     --large-max B    a few WRITEs/READs of 1 MiB .. B (default 8 MiB, 0: none)
//     --large-pct P    percent of op groups that carry one large op (default 2)
//     --depth N        send WRs in flight per QP (default 16)
//     --timeout S      give up S seconds after posting stopped (default 120)
//     --qp-timeout T   the QPs' local ACK timeout, 4.096 us * 2^T (default 14: 67 ms)
//     --retry-cnt N    the QPs' retry count (default 7)
//     --ev-profile ID  bind this side's QPs to EV profile ID (mrcdv_create_qp, mrcdv.h); not
//                      sent to the peer
//     --api ex         this side posts through the extended verbs (ibv_create_qp_ex with every
//                      RC opcode's send_ops_flags, each WR an ibv_wr_* batch whose data setter
//                      varies, odd ops in two SGEs) and polls through ibv_create_cq_ex's
//                      ibv_start_poll; default: classic (ibv_post_send, ibv_poll_cq)
//
// The client's options rule: it sends them to the server, which adopts them. Both ends are
// requester and responder on every QP. What each posts is a Stream (stress_stream.h) that the
// other end replays to check what arrives: SEND payloads and immediates at receive completion,
// WRITEs when the receive-consuming message after them completes, READs and atomic results at
// the requester's completion, the final atomic counters at the end. Every completion's status,
// order, opcode, length and immediate are checked.
//
// SIGUSR1 ends the posting early, on the side that gets it: what is in flight completes and is
// checked as at the end of --seconds (a test that has measured what it ran the traffic for
// signals both ends rather than wait out the rest).
//
// Exit status: 0 when both ends saw zero errors and every expected completion arrived; 1 on any
// error, a missing completion (after --timeout) or a peer that went away; 2 for bad usage.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>

#include <infiniband/mrcdv.h>

#include "stress_stream.h"
#include "tool_channel.h"
#include "tool_pattern.h"
#include "tool_report.h"
#include "tool_verbs.h"
#include "tool_verbs_ex.h"

namespace mrc::stress {
namespace {

using tool::Clock;

constexpr std::uint32_t kMagic = 0x6d727374; // "mrst"
constexpr std::uint32_t kRecvDepth = 32;
constexpr std::uint32_t kMaxInline = 256;
constexpr unsigned kMaxPrintedErrors = 20;

// Set by SIGUSR1: post nothing new.
volatile std::sig_atomic_t g_stop_posting = 0;

extern "C" void on_stop_posting(int /*sig*/) {
    g_stop_posting = 1;
}

// Without SA_RESTART: the poll() of the event loop returns at once.
bool catch_stop_posting() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_posting;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGUSR1, &sa, nullptr) == 0;
}

struct Options {
    std::string device;
    int gid_index = 0;
    std::uint16_t port = 18520;
    std::string server; // empty: we are the server
    std::uint64_t seconds = 10;
    std::uint64_t iterations = 0;
    std::uint64_t seed = 1;
    std::uint32_t qps = 1;
    StreamLimits limits;
    std::uint32_t depth = 16;
    std::uint64_t timeout = 120;
    std::uint32_t qp_timeout = 14;
    std::uint32_t retry_cnt = 7;
    std::optional<std::uint32_t> ev_profile; // bind the QPs to it (direct verbs)
    bool api_ex = false;                     // ibv_wr_* and ibv_start_poll (tool_verbs_ex.h)
};

// The client's options, as the server adopts them.
struct Hello {
    std::uint32_t magic = kMagic;
    std::uint32_t qps = 0;
    std::uint64_t seed = 0;
    std::uint64_t seconds = 0;
    std::uint64_t iterations = 0;
    std::uint64_t timeout = 0;
    std::uint32_t max_size = 0;
    std::uint32_t large_max = 0;
    std::uint32_t large_pct = 0;
    std::uint32_t depth = 0;
    std::uint32_t qp_timeout = 0;
    std::uint32_t retry_cnt = 0;
};

// One QP's address and the memory the peer's stream targets.
struct QpSetup {
    tool::QpInfo info;
    std::uint64_t write_addr = 0;
    std::uint64_t read_addr = 0;
    std::uint64_t atomic_addr = 0;
    std::uint32_t write_rkey = 0;
    std::uint32_t read_rkey = 0;
    std::uint32_t atomic_rkey = 0;
    std::uint32_t pad = 0;
};

enum class MsgType : std::uint32_t { Ready = 1, Progress, Done, Verdict, Abort };

// The side channel's messages while traffic runs.
//   Progress qp a: a receive-consuming messages of qp checked (their WRITE ranges may be reused)
//   Done qp a b:   every op of qp posted and completed: a ops, b of them receive-consuming
//   Verdict a:     a errors on the sender's side; it is finished
struct Msg {
    MsgType type = MsgType::Ready;
    std::uint32_t qp = 0;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
};

struct Inflight {
    Op op;
    std::uint64_t local_off = 0;
    Clock::time_point posted;
};

struct WriteRange {
    std::uint64_t off;
    std::uint64_t len;
    std::uint64_t rsn;
};

struct Counts {
    std::array<std::uint64_t, kOpTypes> done{}; // completed and checked, per type, as requester
    std::array<std::uint64_t, kOpTypes> recv{}; // checked as responder
    std::uint64_t inlined = 0;
    std::uint64_t bytes_verified = 0;
    std::uint64_t errors = 0;
};

class Errors {
public:
    explicit Errors(Counts &c) : counts_(c) {}
    __attribute__((format(printf, 2, 3))) void operator()(const char *fmt, ...) {
        counts_.errors++;
        if (counts_.errors > kMaxPrintedErrors)
            return;
        std::va_list ap;
        va_start(ap, fmt);
        std::fputs("mrc_stress: ERROR: ", stdout);
        std::vprintf(fmt, ap);
        std::fputc('\n', stdout);
        va_end(ap);
    }

private:
    Counts &counts_;
};

struct QpState {
    unsigned id = 0;
    // declared in the order they must outlive each other: the QP goes first
    tool::Buffer local;
    tool::Buffer recv;
    tool::Buffer write_area;
    tool::Buffer read_area;
    tool::Buffer atomic_area;
    tool::Mr local_mr;
    tool::Mr recv_mr;
    tool::Mr write_mr;
    tool::Mr read_mr;
    tool::Mr atomic_mr;
    tool::Cq scq;
    tool::Cq rcq;
    tool::Qp qp;
    ibv_cq_ex *scqx = nullptr; // --api ex: the same CQs and QP, extended
    ibv_cq_ex *rcqx = nullptr;
    ibv_qp_ex *qpx = nullptr;
    ibv_qp_cap cap{};
    QpSetup remote;

    std::optional<Stream> tx; // what we post
    std::optional<Stream> rx; // the peer's stream, replayed
    std::optional<Op> next_op;
    std::deque<Inflight> inflight;
    std::deque<WriteRange> unverified; // our WRITE ranges the peer has not checked yet
    std::uint64_t local_head = 0;
    std::uint64_t peer_checked = 0;
    bool posting_done = false;
    bool stalled = false;

    std::uint64_t recv_posted = 0;
    std::uint64_t recv_done = 0;
    std::uint64_t progress_sent = 0;
    bool peer_done = false;
    std::uint64_t peer_ops = 0;
    std::uint64_t peer_rsns = 0;
};

class Stress {
public:
    Stress(const Options &o, tool::Context ctx, tool::Channel ch)
        : opt_(o), ctx_(std::move(ctx)), ch_(std::move(ch)), side_(o.server.empty() ? 0 : 1),
          err_(counts_) {}
    int run();

private:
    bool setup();
    bool setup_qp(QpState &q);
    bool post_recv(QpState &q);
    bool post_more(QpState &q, Clock::time_point now);
    bool try_post(QpState &q, const Op &op);
    bool poll_send(QpState &q);
    bool poll_recv(QpState &q);
    void check_send_wc(QpState &q, const ibv_wc &wc);
    void check_recv_wc(QpState &q, const ibv_wc &wc);
    void check_payload(std::span<const std::byte> got, std::uint64_t key, std::uint64_t offset,
                       const char *what, const QpState &q, const Op &op);
    bool handle_messages();
    void wait_events(int timeout_ms);
    [[nodiscard]] bool all_sent() const;
    [[nodiscard]] bool all_received() const;
    void final_checks();
    void report_stuck() const;
    void summary(const char *verdict) const;
    void fatal(const char *why);
    [[nodiscard]] std::uint64_t local_size() const;

    const Options &opt_;
    tool::Context ctx_;
    tool::Channel ch_;
    unsigned side_;
    Counts counts_;
    Errors err_;
    tool::Pd pd_;
    tool::CompChannel events_;
    tool::PortInfo port_;
    std::vector<QpState> qps_;
    bool fatal_ = false;
    bool peer_verdict_ = false;
    std::uint64_t peer_errors_ = 0;
    Clock::time_point start_;
    double elapsed_ = 0;
};

std::uint64_t Stress::local_size() const {
    return 2 * opt_.limits.largest() + std::uint64_t{opt_.depth} * opt_.limits.max_size + 65536;
}

void Stress::fatal(const char *why) {
    if (!fatal_)
        std::printf("mrc_stress: FATAL: %s\n", why);
    counts_.errors++;
    fatal_ = true;
}

// An RC QP as tool::create_rc_qp makes them, bound to EV profile @profile (mrcdv.h) if there
// is one, with every RC opcode's ibv_wr_* call if @send_ops.
tool::Qp create_qp_ex(ibv_pd *pd, ibv_cq *send_cq, ibv_cq *recv_cq, ibv_qp_cap &cap,
                      std::optional<std::uint32_t> profile, bool send_ops) {
    ibv_qp_init_attr_ex init{};
    init.send_cq = send_cq;
    init.recv_cq = recv_cq;
    init.qp_type = IBV_QPT_RC;
    init.cap = cap;
    init.comp_mask = IBV_QP_INIT_ATTR_PD;
    init.pd = pd;
    if (send_ops) {
        init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
        init.send_ops_flags = tool::kRcSendOps;
    }
    mrcdv_qp_init_attr mrc{};
    mrc.comp_mask = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE;
    mrc.ev_profile_id = profile.value_or(0);
    tool::Qp qp(profile ? mrcdv_create_qp(pd->context, &init, &mrc)
                        : ibv_create_qp_ex(pd->context, &init));
    if (!qp) {
        std::fprintf(stderr, "create_qp_ex (EV profile %u, send ops %d): %s\n", profile.value_or(0),
                     send_ops ? 1 : 0, std::strerror(errno));
        return qp;
    }
    cap = init.cap;
    return qp;
}

// A CQ of @cqe entries whose completion events go to @channel, extended if @ex (*@cqx).
tool::Cq create_cq(ibv_context *ctx, int cqe, ibv_comp_channel *channel, bool ex, ibv_cq_ex **cqx) {
    if (!ex)
        return tool::Cq(ibv_create_cq(ctx, cqe, nullptr, channel, 0));
    ibv_cq_init_attr_ex attr{};
    attr.cqe = static_cast<std::uint32_t>(cqe);
    attr.channel = channel;
    attr.wc_flags = tool::kWcExFlags;
    *cqx = ibv_create_cq_ex(ctx, &attr);
    return tool::Cq(*cqx ? ibv_cq_ex_to_cq(*cqx) : nullptr);
}

bool Stress::setup_qp(QpState &q) {
    const int cqe = static_cast<int>(opt_.depth + kRecvDepth + 8);
    q.scq = create_cq(ctx_.get(), cqe, events_.get(), opt_.api_ex, &q.scqx);
    q.rcq = create_cq(ctx_.get(), cqe, events_.get(), opt_.api_ex, &q.rcqx);
    if (!q.scq || !q.rcq) {
        std::fprintf(stderr, "create_cq: %s\n", std::strerror(errno));
        return false;
    }
    if (ibv_req_notify_cq(q.scq.get(), 0) != 0 || ibv_req_notify_cq(q.rcq.get(), 0) != 0) {
        std::fprintf(stderr, "req_notify_cq: %s\n", std::strerror(errno));
        return false;
    }
    q.cap = {.max_send_wr = opt_.depth,
             .max_recv_wr = kRecvDepth,
             .max_send_sge = opt_.api_ex ? 2U : 1U,
             .max_recv_sge = 1,
             .max_inline_data = kMaxInline};
    q.qp = opt_.ev_profile || opt_.api_ex
                   ? create_qp_ex(pd_.get(), q.scq.get(), q.rcq.get(), q.cap, opt_.ev_profile,
                                  opt_.api_ex)
                   : tool::create_rc_qp(pd_.get(), q.scq.get(), q.rcq.get(), q.cap);
    if (!q.qp)
        return false;
    if (opt_.api_ex && !(q.qpx = ibv_qp_to_qp_ex(q.qp.get()))) {
        std::fprintf(stderr, "ibv_qp_to_qp_ex: the QP has no extended post API\n");
        return false;
    }

    const StreamLimits &l = opt_.limits;
    q.local = tool::Buffer(local_size());
    q.recv = tool::Buffer(std::size_t{kRecvDepth} * l.max_size);
    q.write_area = tool::Buffer(l.write_area());
    q.read_area = tool::Buffer(l.read_area());
    q.atomic_area = tool::Buffer(64);
    if (!q.local || !q.recv || !q.write_area || !q.read_area || !q.atomic_area)
        return false;
    tool::pattern_fill(q.read_area.span(),
                       tool::pattern_key(opt_.seed, kKindReadArea, side_, q.id, 0), 0);
    const unsigned lw = IBV_ACCESS_LOCAL_WRITE;
    q.local_mr = tool::register_mr(pd_.get(), q.local.data(), q.local.size(), lw);
    q.recv_mr = tool::register_mr(pd_.get(), q.recv.data(), q.recv.size(), lw);
    q.write_mr = tool::register_mr(pd_.get(), q.write_area.data(), q.write_area.size(),
                                   lw | IBV_ACCESS_REMOTE_WRITE);
    q.read_mr = tool::register_mr(pd_.get(), q.read_area.data(), q.read_area.size(),
                                  IBV_ACCESS_REMOTE_READ);
    q.atomic_mr = tool::register_mr(pd_.get(), q.atomic_area.data(), q.atomic_area.size(),
                                    lw | IBV_ACCESS_REMOTE_ATOMIC);
    if (!q.local_mr || !q.recv_mr || !q.write_mr || !q.read_mr || !q.atomic_mr)
        return false;
    q.tx.emplace(opt_.seed, side_, q.id, l);
    q.rx.emplace(opt_.seed, 1 - side_, q.id, l);
    return true;
}

bool Stress::setup() {
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    events_.reset(ibv_create_comp_channel(ctx_.get()));
    if (!pd_ || !events_) {
        std::fprintf(stderr, "alloc_pd/create_comp_channel: %s\n", std::strerror(errno));
        return false;
    }
    const int fl = fcntl(events_->fd, F_GETFL);
    if (fl < 0 || fcntl(events_->fd, F_SETFL, fl | O_NONBLOCK) != 0)
        return false;
    if (!tool::query_port(ctx_.get(), opt_.gid_index, port_))
        return false;

    qps_.resize(opt_.qps);
    tool::Rng psn_rng(tool::pattern_key(opt_.seed, 3, side_, 0, 0));
    std::vector<std::uint32_t> psns;
    for (unsigned i = 0; i < opt_.qps; i++) {
        QpState &q = qps_[i];
        q.id = i;
        if (!setup_qp(q))
            return false;
        QpSetup s;
        s.info.qpn = q.qp->qp_num;
        s.info.psn = static_cast<std::uint32_t>(psn_rng.next() & 0xffffffU);
        s.info.gid = port_.gid;
        s.write_addr = q.write_area.addr();
        s.write_rkey = q.write_mr->rkey;
        s.read_addr = q.read_area.addr();
        s.read_rkey = q.read_mr->rkey;
        s.atomic_addr = q.atomic_area.addr();
        s.atomic_rkey = q.atomic_mr->rkey;
        psns.push_back(s.info.psn);
        if (!ch_.send_obj(s))
            return false;
    }
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    tool::ConnectParams params;
    params.gid_index = opt_.gid_index;
    params.mtu = port_.mtu;
    params.timeout = static_cast<std::uint8_t>(opt_.qp_timeout);
    params.retry_cnt = static_cast<std::uint8_t>(opt_.retry_cnt);
    for (unsigned i = 0; i < opt_.qps; i++) {
        QpState &q = qps_[i];
        if (!ch_.recv_obj(q.remote, deadline)) {
            std::fprintf(stderr, "mrc_stress: no QP setup from the peer\n");
            return false;
        }
        if (tool::connect_qp(q.qp.get(), q.remote.info, psns[i], params) != 0)
            return false;
        for (unsigned k = 0; k < kRecvDepth; k++)
            if (!post_recv(q))
                return false;
    }
    // Both ends' QPs are ready to receive before either sends.
    Msg ready;
    if (!ch_.send_obj(ready) || !ch_.recv_obj(ready, deadline) || ready.type != MsgType::Ready) {
        std::fprintf(stderr, "mrc_stress: the peer did not get ready\n");
        return false;
    }
    std::printf("mrc_stress: %s on %s: %u QP(s), mtu %d, max_inline %u, seed %" PRIu64
                ", max-size %u, large-max %u, qp timeout %u retry %u, api %s\n",
                side_ == 0 ? "server" : "client", ibv_get_device_name(ctx_->device), opt_.qps,
                128 << static_cast<int>(port_.mtu), qps_[0].cap.max_inline_data, opt_.seed,
                opt_.limits.max_size, opt_.limits.large_max, opt_.qp_timeout, opt_.retry_cnt,
                opt_.api_ex ? "ex" : "classic");
    return true;
}

bool Stress::post_recv(QpState &q) {
    const std::uint64_t slot = q.recv_posted % kRecvDepth;
    ibv_sge sge{.addr = q.recv.addr() + slot * opt_.limits.max_size,
                .length = opt_.limits.max_size,
                .lkey = q.recv_mr->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = q.recv_posted;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr *bad = nullptr;
    if (const int err = ibv_post_recv(q.qp.get(), &wr, &bad)) {
        std::printf("mrc_stress: post_recv on QP %u: %s\n", q.id, std::strerror(err));
        return false;
    }
    q.recv_posted++;
    return true;
}

// Post what the stream has next, while the send queue has room; false on a fatal error.
bool Stress::post_more(QpState &q, Clock::time_point now) {
    q.stalled = false;
    while (!q.posting_done && !fatal_ && q.inflight.size() < opt_.depth) {
        if (!q.next_op) {
            if (q.tx->at_group_start()) {
                const bool enough =
                        g_stop_posting != 0 ||
                        (opt_.iterations > 0 ? q.tx->ops() >= opt_.iterations
                                             : now >= start_ + std::chrono::seconds(opt_.seconds));
                if (enough) {
                    q.posting_done = true;
                    break;
                }
            }
            q.next_op = q.tx->next();
        }
        if (!try_post(q, *q.next_op)) {
            q.stalled = true;
            break;
        }
        q.next_op.reset();
    }
    return !fatal_;
}

bool overlaps(std::uint64_t a, std::uint64_t alen, std::uint64_t b, std::uint64_t blen) {
    return alen > 0 && blen > 0 && a < b + blen && b < a + alen;
}

// Post @op if its memory is free: false when it must wait (or on a fatal error).
bool Stress::try_post(QpState &q, const Op &op) {
    if (op.type == OpType::Write || op.type == OpType::WriteImm) {
        while (!q.unverified.empty() && q.unverified.front().rsn < q.peer_checked)
            q.unverified.pop_front();
        for (const WriteRange &r : q.unverified)
            if (overlaps(r.off, r.len, op.remote_off, op.len))
                return false;
    }
    // local memory: the source of SEND/WRITE data, the sink of READ data and atomic results
    std::uint64_t off = is_atomic(op.type) ? (q.local_head + 7) & ~7ULL : q.local_head;
    if (off + op.len > q.local.size())
        off = 0;
    for (const Inflight &f : q.inflight)
        if (overlaps(f.local_off, f.op.len, off, op.len))
            return false;

    const std::span<std::byte> buf = q.local.span().subspan(off, op.len);
    if (op.type != OpType::Read && !is_atomic(op.type))
        tool::pattern_fill(buf, tool::pattern_key(opt_.seed, kKindPayload, side_, q.id, op.index),
                           0);
    std::array<ibv_sge, 2> sge{
            ibv_sge{.addr = q.local.addr() + off, .length = op.len, .lkey = q.local_mr->lkey}};
    ibv_send_wr wr{};
    wr.wr_id = op.index;
    wr.sg_list = sge.data();
    wr.num_sge = op.len > 0 ? 1 : 0;
    // the extended API's odd ops gather from two SGEs: the same bytes, in two pieces
    if (q.qpx && (op.index & 1) && op.len >= 2 && !is_atomic(op.type)) {
        sge[1] = sge[0];
        sge[0].length = op.len / 2;
        sge[1].addr += sge[0].length;
        sge[1].length = op.len - sge[0].length;
        wr.num_sge = 2;
    }
    wr.send_flags = IBV_SEND_SIGNALED;
    const bool inlined = op.inline_hint && op.len <= q.cap.max_inline_data &&
                         op.type != OpType::Read && !is_atomic(op.type);
    if (inlined)
        wr.send_flags |= IBV_SEND_INLINE;
    const std::uint32_t imm = htonl(static_cast<std::uint32_t>(op.index));
    switch (op.type) {
    case OpType::Send:
        wr.opcode = IBV_WR_SEND;
        break;
    case OpType::SendImm:
        wr.opcode = IBV_WR_SEND_WITH_IMM;
        wr.imm_data = imm;
        break;
    case OpType::Write:
    case OpType::WriteImm:
        wr.opcode = op.type == OpType::Write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_WRITE_WITH_IMM;
        wr.imm_data = op.type == OpType::Write ? 0 : imm;
        wr.wr.rdma.remote_addr = q.remote.write_addr + op.remote_off;
        wr.wr.rdma.rkey = q.remote.write_rkey;
        break;
    case OpType::Read:
        wr.opcode = IBV_WR_RDMA_READ;
        wr.wr.rdma.remote_addr = q.remote.read_addr + op.remote_off;
        wr.wr.rdma.rkey = q.remote.read_rkey;
        break;
    case OpType::CmpSwap:
    case OpType::FetchAdd:
        wr.opcode = op.type == OpType::CmpSwap ? IBV_WR_ATOMIC_CMP_AND_SWP
                                               : IBV_WR_ATOMIC_FETCH_AND_ADD;
        wr.wr.atomic.remote_addr = q.remote.atomic_addr +
                                   (op.type == OpType::CmpSwap ? kCmpSwapOffset : kFetchAddOffset);
        wr.wr.atomic.rkey = q.remote.atomic_rkey;
        wr.wr.atomic.compare_add = op.compare_add;
        wr.wr.atomic.swap = op.swap;
        std::memset(buf.data(), 0xee, buf.size());
        break;
    }
    ibv_send_wr *bad = nullptr;
    if (const int err = q.qpx ? tool::post_send_ex(q.qpx, wr, op.index >> 1)
                              : ibv_post_send(q.qp.get(), &wr, &bad)) {
        std::printf("mrc_stress: post_send of op %" PRIu64 " (%s, %u bytes) on QP %u: %s\n",
                    op.index, op_name(op.type).data(), op.len, q.id, std::strerror(err));
        fatal("post_send failed");
        return false;
    }
    if (inlined)
        counts_.inlined++;
    if (op.type == OpType::Write || op.type == OpType::WriteImm)
        q.unverified.push_back({op.remote_off, op.len, op.rsn});
    q.inflight.push_back({op, off, Clock::now()});
    q.local_head = off + op.len;
    return true;
}

ibv_wc_opcode expected_send_opcode(OpType t) {
    switch (t) {
    case OpType::Send:
    case OpType::SendImm:
        return IBV_WC_SEND;
    case OpType::Write:
    case OpType::WriteImm:
        return IBV_WC_RDMA_WRITE;
    case OpType::Read:
        return IBV_WC_RDMA_READ;
    case OpType::CmpSwap:
        return IBV_WC_COMP_SWAP;
    case OpType::FetchAdd:
        return IBV_WC_FETCH_ADD;
    }
    return IBV_WC_SEND;
}

void Stress::check_payload(std::span<const std::byte> got, std::uint64_t key, std::uint64_t offset,
                           const char *what, const QpState &q, const Op &op) {
    const std::size_t bad = tool::pattern_check(got, key, offset);
    if (bad < got.size()) {
        err_("QP %u op %" PRIu64 " (%s, %u bytes): %s differs at byte %zu of %zu (0x%02x)", q.id,
             op.index, op_name(op.type).data(), op.len, what, bad, got.size(),
             static_cast<unsigned>(got[bad]));
        return;
    }
    counts_.bytes_verified += got.size();
}

void Stress::check_send_wc(QpState &q, const ibv_wc &wc) {
    if (q.inflight.empty()) {
        err_("QP %u: send completion wr_id %" PRIu64 " with nothing outstanding", q.id, wc.wr_id);
        return;
    }
    const Inflight f = q.inflight.front();
    const Op &op = f.op;
    q.inflight.pop_front();
    if (wc.status == IBV_WC_WR_FLUSH_ERR && fatal_) {
        counts_.errors++; // flushed behind the failure already reported
        return;
    }
    if (wc.status != IBV_WC_SUCCESS) {
        const auto age =
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - f.posted);
        std::printf("mrc_stress: QP %u (qpn %u) op %" PRIu64 " (%s, %u bytes, posted %lld ms "
                    "ago, %zu more outstanding): completion status %s\n",
                    q.id, q.qp->qp_num, op.index, op_name(op.type).data(), op.len,
                    static_cast<long long>(age.count()), q.inflight.size(),
                    ibv_wc_status_str(wc.status));
        fatal("a send work request failed");
        return;
    }
    if (wc.wr_id != op.index) {
        err_("QP %u: send completion wr_id %" PRIu64 ", expected %" PRIu64 " (RC order)", q.id,
             wc.wr_id, op.index);
        return;
    }
    if (wc.opcode != expected_send_opcode(op.type))
        err_("QP %u op %" PRIu64 " (%s): completion opcode %d", q.id, op.index,
             op_name(op.type).data(), wc.opcode);
    const std::span<const std::byte> buf = q.local.span().subspan(f.local_off, op.len);
    if (op.type == OpType::Read) {
        if (wc.byte_len != op.len)
            err_("QP %u op %" PRIu64 " (read): byte_len %u, expected %u", q.id, op.index,
                 wc.byte_len, op.len);
        check_payload(buf, tool::pattern_key(opt_.seed, kKindReadArea, 1 - side_, q.id, 0),
                      op.remote_off, "READ data", q, op);
    } else if (is_atomic(op.type)) {
        std::uint64_t orig = 0;
        std::memcpy(&orig, buf.data(), sizeof(orig));
        if (wc.byte_len != 8)
            err_("QP %u op %" PRIu64 " (%s): byte_len %u, expected 8", q.id, op.index,
                 op_name(op.type).data(), wc.byte_len);
        if (orig != op.expect) {
            err_("QP %u op %" PRIu64 " (%s): original value 0x%" PRIx64 ", expected 0x%" PRIx64,
                 q.id, op.index, op_name(op.type).data(), orig, op.expect);
        } else {
            counts_.bytes_verified += 8;
        }
    }
    counts_.done.at(static_cast<std::size_t>(op.type))++;
}

void Stress::check_recv_wc(QpState &q, const ibv_wc &wc) {
    if (wc.status == IBV_WC_WR_FLUSH_ERR && fatal_) {
        counts_.errors++; // flushed behind the failure already reported
        return;
    }
    if (wc.status != IBV_WC_SUCCESS) {
        std::printf("mrc_stress: QP %u receive %" PRIu64 ": completion status %s\n", q.id, wc.wr_id,
                    ibv_wc_status_str(wc.status));
        fatal("a receive work request failed");
        return;
    }
    if (wc.wr_id != q.recv_done)
        err_("QP %u: receive completion wr_id %" PRIu64 ", expected %" PRIu64, q.id, wc.wr_id,
             q.recv_done);
    const std::uint64_t peer = 1 - side_;
    // Replay the peer's stream up to the message that consumed this receive, checking the
    // WRITEs on the way: RC order placed them before this completion.
    Op op;
    for (;;) {
        if (q.rx->ops() > q.recv_done * 64 + 1000000) {
            fatal("replaying the peer's stream went astray");
            return;
        }
        op = q.rx->next();
        if (op.type == OpType::Write) {
            check_payload(q.write_area.span().subspan(op.remote_off, op.len),
                          tool::pattern_key(opt_.seed, kKindPayload, peer, q.id, op.index), 0,
                          "WRITE data", q, op);
            counts_.recv.at(static_cast<std::size_t>(op.type))++;
        }
        if (consumes_recv(op.type))
            break;
    }
    if (op.rsn != q.recv_done)
        err_("QP %u: replay found RSN %" PRIu64 ", expected %" PRIu64, q.id, op.rsn, q.recv_done);
    const bool with_imm = op.type != OpType::Send;
    const ibv_wc_opcode want =
            op.type == OpType::WriteImm ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
    if (wc.opcode != want)
        err_("QP %u op %" PRIu64 " (%s): receive opcode %d, expected %d", q.id, op.index,
             op_name(op.type).data(), wc.opcode, want);
    if (wc.byte_len != op.len)
        err_("QP %u op %" PRIu64 " (%s): receive byte_len %u, expected %u", q.id, op.index,
             op_name(op.type).data(), wc.byte_len, op.len);
    if (((wc.wc_flags & IBV_WC_WITH_IMM) != 0) != with_imm) {
        err_("QP %u op %" PRIu64 " (%s): IBV_WC_WITH_IMM %s", q.id, op.index,
             op_name(op.type).data(), with_imm ? "missing" : "unexpected");
    } else if (with_imm && ntohl(wc.imm_data) != static_cast<std::uint32_t>(op.index)) {
        err_("QP %u op %" PRIu64 " (%s): immediate 0x%08x, expected 0x%08x", q.id, op.index,
             op_name(op.type).data(), ntohl(wc.imm_data), static_cast<std::uint32_t>(op.index));
    }
    if (wc.qp_num != q.qp->qp_num)
        err_("QP %u: receive completion for qp_num %u", q.id, wc.qp_num);
    const std::uint64_t key = tool::pattern_key(opt_.seed, kKindPayload, peer, q.id, op.index);
    if (op.type == OpType::WriteImm) {
        check_payload(q.write_area.span().subspan(op.remote_off, op.len), key, 0, "WRITE_IMM data",
                      q, op);
    } else {
        const std::uint64_t slot = wc.wr_id % kRecvDepth;
        const std::size_t len = std::min<std::size_t>(op.len, opt_.limits.max_size);
        check_payload(q.recv.span().subspan(slot * opt_.limits.max_size, len), key, 0, "SEND data",
                      q, op);
    }
    counts_.recv.at(static_cast<std::size_t>(op.type))++;
    q.recv_done++;
    if (!post_recv(q))
        fatal("cannot repost a receive");
}

bool Stress::poll_send(QpState &q) {
    std::array<ibv_wc, 16> wc{};
    const int n = q.scqx ? tool::poll_cq_ex(q.scqx, wc)
                         : ibv_poll_cq(q.scq.get(), static_cast<int>(wc.size()), wc.data());
    if (n < 0) {
        fatal("poll_cq failed");
        return false;
    }
    for (const ibv_wc &w : std::span(wc).first(static_cast<std::size_t>(n)))
        check_send_wc(q, w);
    return n > 0;
}

bool Stress::poll_recv(QpState &q) {
    std::array<ibv_wc, 16> wc{};
    const int n = q.rcqx ? tool::poll_cq_ex(q.rcqx, wc)
                         : ibv_poll_cq(q.rcq.get(), static_cast<int>(wc.size()), wc.data());
    if (n < 0) {
        fatal("poll_cq failed");
        return false;
    }
    for (const ibv_wc &w : std::span(wc).first(static_cast<std::size_t>(n)))
        check_recv_wc(q, w);
    return n > 0;
}

// Read what the peer said; false when it is gone or gave up.
bool Stress::handle_messages() {
    Msg m;
    while (ch_.try_recv_obj(m)) {
        if (m.type == MsgType::Abort) {
            std::printf("mrc_stress: the peer gave up\n");
            return false;
        }
        if (m.type == MsgType::Verdict) {
            peer_verdict_ = true;
            peer_errors_ = m.a;
            continue;
        }
        if (m.qp >= qps_.size()) {
            std::printf("mrc_stress: side channel message for QP %u\n", m.qp);
            return false;
        }
        QpState &q = qps_[m.qp];
        if (m.type == MsgType::Progress) {
            q.peer_checked = std::max(q.peer_checked, m.a);
        } else if (m.type == MsgType::Done) {
            q.peer_done = true;
            q.peer_ops = m.a;
            q.peer_rsns = m.b;
        }
    }
    if (ch_.eof()) {
        std::printf("mrc_stress: the peer closed the side channel\n");
        return false;
    }
    return true;
}

void Stress::wait_events(int timeout_ms) {
    std::array<pollfd, 2> p{};
    p[0] = {.fd = events_->fd, .events = POLLIN, .revents = 0};
    p[1] = {.fd = ch_.fd(), .events = POLLIN, .revents = 0};
    if (poll(p.data(), p.size(), timeout_ms) <= 0)
        return;
    ibv_cq *cq = nullptr;
    void *cq_ctx = nullptr;
    while (ibv_get_cq_event(events_.get(), &cq, &cq_ctx) == 0) {
        ibv_ack_cq_events(cq, 1);
        ibv_req_notify_cq(cq, 0);
    }
}

bool Stress::all_sent() const {
    return std::all_of(qps_.begin(), qps_.end(),
                       [](const QpState &q) { return q.posting_done && q.inflight.empty(); });
}

bool Stress::all_received() const {
    return std::all_of(qps_.begin(), qps_.end(),
                       [](const QpState &q) { return q.peer_done && q.recv_done >= q.peer_rsns; });
}

// Everything arrived: the peer's stream ends where it said, and our atomic counters hold what its
// stream computed.
void Stress::final_checks() {
    for (QpState &q : qps_) {
        if (q.recv_done != q.peer_rsns)
            err_("QP %u: %" PRIu64 " receive completions, the peer sent %" PRIu64, q.id,
                 q.recv_done, q.peer_rsns);
        while (q.rx->ops() < q.peer_ops || !q.rx->at_group_start()) {
            const Op op = q.rx->next();
            if (!is_atomic(op.type) && op.type != OpType::Read) {
                err_("QP %u: the peer's stream has op %" PRIu64 " (%s) past its last receive", q.id,
                     op.index, op_name(op.type).data());
                break;
            }
        }
        if (q.rx->ops() != q.peer_ops)
            err_("QP %u: the peer posted %" PRIu64 " ops, its stream ends at %" PRIu64, q.id,
                 q.peer_ops, q.rx->ops());
        std::array<std::uint64_t, 2> words{};
        std::memcpy(words.data(), q.atomic_area.data(), sizeof(words));
        if (words[0] != q.rx->fetch_add_value() || words[1] != q.rx->cmp_swap_value()) {
            err_("QP %u: atomic counters 0x%" PRIx64 "/0x%" PRIx64 ", expected 0x%" PRIx64
                 "/0x%" PRIx64,
                 q.id, words[0], words[1], q.rx->fetch_add_value(), q.rx->cmp_swap_value());
        } else {
            counts_.bytes_verified += 16;
        }
    }
}

void Stress::report_stuck() const {
    for (const QpState &q : qps_) {
        std::printf("mrc_stress: QP %u (qpn %u, %s): posted %" PRIu64 " ops, %zu outstanding%s%s; "
                    "received %" PRIu64 " of %s%" PRIu64 "\n",
                    q.id, q.qp->qp_num, tool::qp_state_name(tool::query_qp_state(q.qp.get())),
                    q.tx->ops(), q.inflight.size(), q.posting_done ? ", done posting" : "",
                    q.stalled ? ", waiting for the peer to check WRITEs" : "", q.recv_done,
                    q.peer_done ? "" : "at least ", q.peer_rsns);
        if (!q.inflight.empty()) {
            const Op &op = q.inflight.front().op;
            std::printf("mrc_stress: QP %u oldest outstanding: op %" PRIu64 " %s %u bytes\n", q.id,
                        op.index, op_name(op.type).data(), op.len);
        }
    }
}

void Stress::summary(const char *verdict) const {
    std::uint64_t ops = 0;
    std::uint64_t bytes = 0;
    for (const QpState &q : qps_)
        ops += q.tx->ops();
    std::string per_type;
    for (std::size_t t = 0; t < kOpTypes; t++) {
        per_type += ' ';
        per_type += op_name(static_cast<OpType>(t));
        per_type += ' ' + std::to_string(counts_.done.at(t));
        bytes += counts_.done.at(t);
    }
    std::uint64_t recv = 0;
    for (const std::uint64_t r : counts_.recv)
        recv += r;
    std::printf("mrc_stress: %s %s: ops %" PRIu64 " completed %" PRIu64 " (%s ) inline %" PRIu64
                " peer-ops-checked %" PRIu64 " bytes_verified %" PRIu64 " errors %" PRIu64
                " seconds %.1f\n",
                side_ == 0 ? "server" : "client", verdict, ops, bytes, per_type.c_str() + 1,
                counts_.inlined, recv, counts_.bytes_verified, counts_.errors, elapsed_);
}

int Stress::run() {
    if (!setup()) {
        std::printf("mrc_stress: setup failed\n");
        return 1;
    }
    start_ = Clock::now();
    const auto post_until =
            opt_.iterations > 0 ? start_ : start_ + std::chrono::seconds(opt_.seconds);
    auto deadline = post_until + std::chrono::seconds(opt_.timeout);
    auto next_report = start_ + std::chrono::seconds(5);
    bool sent_done = false;
    bool finished = false;
    while (!fatal_ && !finished) {
        const auto now = Clock::now();
        bool busy = false;
        for (QpState &q : qps_) {
            const std::size_t before = q.inflight.size();
            post_more(q, now);
            busy = busy || q.inflight.size() != before;
            busy = poll_send(q) || busy;
            busy = poll_recv(q) || busy;
            if (q.recv_done != q.progress_sent) {
                const Msg m{.type = MsgType::Progress, .qp = q.id, .a = q.recv_done, .b = 0};
                if (!ch_.send_obj(m))
                    fatal("the side channel broke");
                q.progress_sent = q.recv_done;
            }
        }
        if (!handle_messages()) {
            fatal("lost the peer");
            break;
        }
        if (!sent_done && all_sent()) {
            for (const QpState &q : qps_) {
                const Msg m{.type = MsgType::Done, .qp = q.id, .a = q.tx->ops(), .b = q.tx->rsns()};
                if (!ch_.send_obj(m))
                    fatal("the side channel broke");
            }
            sent_done = true;
        }
        if (sent_done && all_received())
            finished = true;
        if (now >= next_report) {
            std::uint64_t done = 0;
            for (const std::uint64_t d : counts_.done)
                done += d;
            std::printf("mrc_stress: %.0f s: %" PRIu64 " ops completed, %" PRIu64
                        " bytes verified, %" PRIu64 " errors\n",
                        std::chrono::duration<double>(now - start_).count(), done,
                        counts_.bytes_verified, counts_.errors);
            std::fflush(stdout);
            next_report += std::chrono::seconds(5);
        }
        if (opt_.iterations > 0 && !sent_done)
            deadline = std::max(deadline, now + std::chrono::seconds(opt_.timeout));
        if (now >= deadline) {
            std::printf("mrc_stress: timed out waiting for completions\n");
            report_stuck();
            fatal("timed out");
            break;
        }
        if (!busy)
            wait_events(20);
    }
    elapsed_ = std::chrono::duration<double>(Clock::now() - start_).count();
    if (fatal_) {
        const Msg m{.type = MsgType::Abort, .qp = 0, .a = 0, .b = 0};
        ch_.send_obj(m);
        summary("FAIL");
        return 1;
    }
    final_checks();
    const Msg verdict{.type = MsgType::Verdict, .qp = 0, .a = counts_.errors, .b = 0};
    if (!ch_.send_obj(verdict))
        fatal("the side channel broke");
    const auto verdict_deadline = Clock::now() + std::chrono::seconds(30);
    while (!fatal_ && !peer_verdict_ && Clock::now() < verdict_deadline) {
        for (QpState &q : qps_) {
            poll_send(q);
            poll_recv(q);
        }
        if (!handle_messages())
            break;
        if (!peer_verdict_)
            wait_events(20);
    }
    if (!peer_verdict_)
        fatal("no verdict from the peer");
    else if (peer_errors_ > 0)
        std::printf("mrc_stress: the peer counted %" PRIu64 " errors\n", peer_errors_);
    const bool ok = counts_.errors == 0 && peer_errors_ == 0 && !fatal_;
    summary(ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

void usage() {
    std::fprintf(stderr,
                 "usage: mrc_stress -d DEV [-g GID_INDEX] [-p PORT] [--seconds S | --iterations "
                 "N]\n"
                 "                  [--seed N] [--qps N] [--max-size B] [--large-max B]\n"
                 "                  [--large-pct P] [--depth N] [--timeout S] [--qp-timeout T]\n"
                 "                  [--retry-cnt N] [--ev-profile ID] [--api classic|ex] "
                 "[SERVER]\n");
}

bool parse_u64(const char *s, std::uint64_t &out) {
    char *end = nullptr;
    errno = 0;
    out = std::strtoull(s, &end, 0);
    return errno == 0 && end != s && *end == '\0';
}

bool parse_args(std::span<char *> args, Options &o) {
    for (std::size_t i = 1; i < args.size(); i++) {
        const std::string_view a = args[i];
        if (a.empty() || a[0] != '-') {
            o.server = a;
            continue;
        }
        if (i + 1 >= args.size())
            return false;
        std::uint64_t v = 0;
        const char *val = args[++i];
        if (a == "-d") {
            o.device = val;
            continue;
        }
        if (a == "--api") {
            const std::string_view api = val;
            if (api != "classic" && api != "ex")
                return false;
            o.api_ex = api == "ex";
            continue;
        }
        if (!parse_u64(val, v))
            return false;
        if (a == "-g")
            o.gid_index = static_cast<int>(v);
        else if (a == "-p")
            o.port = static_cast<std::uint16_t>(v);
        else if (a == "--seconds")
            o.seconds = v;
        else if (a == "--iterations")
            o.iterations = v;
        else if (a == "--seed")
            o.seed = v;
        else if (a == "--qps")
            o.qps = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(v, 1, 64));
        else if (a == "--max-size")
            o.limits.max_size = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 1U << 24));
        else if (a == "--large-max")
            o.limits.large_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 1U << 26));
        else if (a == "--large-pct")
            o.limits.large_pct = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 100));
        else if (a == "--depth")
            o.depth = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(v, 1, 256));
        else if (a == "--timeout")
            o.timeout = v;
        else if (a == "--qp-timeout")
            o.qp_timeout = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 31));
        else if (a == "--retry-cnt")
            o.retry_cnt = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 7));
        else if (a == "--ev-profile" && v <= UINT32_MAX)
            o.ev_profile = static_cast<std::uint32_t>(v);
        else
            return false;
    }
    return !o.device.empty();
}

int stress_main(std::span<char *> args) {
    Options o;
    if (!parse_args(args, o)) {
        usage();
        return 2;
    }
    if (!catch_stop_posting()) {
        std::printf("mrc_stress: sigaction: %s\n", std::strerror(errno));
        return 2;
    }
    tool::Context ctx = tool::open_device(o.device);
    if (!ctx)
        return 2;
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    tool::Channel ch;
    if (o.server.empty()) {
        ch = tool::Channel::accept_one(o.port, deadline);
        Hello h;
        if (!ch || !ch.recv_obj(h, deadline) || h.magic != kMagic) {
            std::printf("mrc_stress: no client\n");
            return 1;
        }
        o.qps = h.qps;
        o.seed = h.seed;
        o.seconds = h.seconds;
        o.iterations = h.iterations;
        o.timeout = h.timeout;
        o.limits.max_size = h.max_size;
        o.limits.large_max = h.large_max;
        o.limits.large_pct = h.large_pct;
        o.depth = h.depth;
        o.qp_timeout = h.qp_timeout;
        o.retry_cnt = h.retry_cnt;
    } else {
        ch = tool::Channel::connect_to(o.server, o.port, deadline);
        const Hello h{.magic = kMagic,
                      .qps = o.qps,
                      .seed = o.seed,
                      .seconds = o.seconds,
                      .iterations = o.iterations,
                      .timeout = o.timeout,
                      .max_size = o.limits.max_size,
                      .large_max = o.limits.large_max,
                      .large_pct = o.limits.large_pct,
                      .depth = o.depth,
                      .qp_timeout = o.qp_timeout,
                      .retry_cnt = o.retry_cnt};
        if (!ch || !ch.send_obj(h)) {
            std::printf("mrc_stress: cannot reach the server\n");
            return 1;
        }
    }
    Stress s(o, std::move(ctx), std::move(ch));
    return s.run();
}

} // namespace
} // namespace mrc::stress

int main(int argc, char **argv) {
    return mrc::tool::guarded_main("mrc_stress", mrc::stress::stress_main, argc, argv);
}
