// SPDX-License-Identifier: BSD-2-Clause
#include "tool_verbs.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <span>
#include <thread>
#include <utility>

#include <sys/mman.h>

namespace mrc::tool {

Buffer::Buffer(std::size_t size) : size_(size) {
    void *p = mmap(nullptr, std::max<std::size_t>(size, 1), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::fprintf(stderr, "mmap of %zu bytes: %s\n", size, std::strerror(errno));
        size_ = 0;
        return;
    }
    data_ = static_cast<std::byte *>(p);
}

Buffer::Buffer(Buffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
    if (this != &other) {
        if (data_)
            munmap(data_, std::max<std::size_t>(size_, 1));
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

Buffer::~Buffer() {
    if (data_)
        munmap(data_, std::max<std::size_t>(size_, 1));
}

Context open_device(const std::string &name) {
    int num = 0;
    const DeviceList list(ibv_get_device_list(&num));
    if (!list) {
        std::fprintf(stderr, "no RDMA devices: %s\n", std::strerror(errno));
        return nullptr;
    }
    for (ibv_device *dev : std::span<ibv_device *>(list.get(), static_cast<std::size_t>(num))) {
        if (name != ibv_get_device_name(dev))
            continue;
        Context ctx(ibv_open_device(dev));
        if (!ctx)
            std::fprintf(stderr, "open %s: %s\n", name.c_str(), std::strerror(errno));
        return ctx;
    }
    std::fprintf(stderr, "no RDMA device %s\n", name.c_str());
    return nullptr;
}

Mr register_mr(ibv_pd *pd, void *addr, std::size_t len, unsigned int access) {
    Mr mr(ibv_reg_mr(pd, addr, len, static_cast<int>(access)));
    if (!mr)
        std::fprintf(stderr, "reg_mr of %zu bytes: %s\n", len, std::strerror(errno));
    return mr;
}

bool query_port(ibv_context *ctx, int gid_index, PortInfo &out) {
    ibv_port_attr attr{};
    if (ibv_query_port(ctx, 1, &attr) != 0) {
        std::fprintf(stderr, "query_port: %s\n", std::strerror(errno));
        return false;
    }
    out.mtu = attr.active_mtu;
    if (ibv_query_gid(ctx, 1, gid_index, &out.gid) != 0) {
        std::fprintf(stderr, "query_gid %d: %s\n", gid_index, std::strerror(errno));
        return false;
    }
    return true;
}

Ah create_ah(ibv_pd *pd, const ibv_gid &gid, int gid_index) {
    ibv_ah_attr attr{};
    attr.is_global = 1;
    attr.grh.dgid = gid;
    attr.grh.sgid_index = static_cast<std::uint8_t>(gid_index);
    attr.grh.hop_limit = 64;
    attr.port_num = 1;
    Ah ah(ibv_create_ah(pd, &attr));
    if (!ah)
        std::fprintf(stderr, "create_ah: %s\n", std::strerror(errno));
    return ah;
}

Qp create_ud_qp(ibv_pd *pd, ibv_cq *cq, ibv_qp_cap &cap) {
    ibv_qp_init_attr init{};
    init.send_cq = cq;
    init.recv_cq = cq;
    init.qp_type = IBV_QPT_UD;
    init.cap = cap;
    Qp qp(ibv_create_qp(pd, &init));
    if (!qp) {
        std::fprintf(stderr, "create_qp UD: %s\n", std::strerror(errno));
        return qp;
    }
    cap = init.cap;
    return qp;
}

int ud_qp_to_rts(ibv_qp *qp, std::uint32_t qkey) {
    struct Step {
        const char *name;
        ibv_qp_state state;
        int mask;
    };
    const std::array<Step, 4> steps = {{
            {"RESET", IBV_QPS_RESET, IBV_QP_STATE},
            {"INIT", IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY},
            {"RTR", IBV_QPS_RTR, IBV_QP_STATE},
            {"RTS", IBV_QPS_RTS, IBV_QP_STATE | IBV_QP_SQ_PSN},
    }};
    for (const Step &step : steps) {
        ibv_qp_attr a{};
        a.qp_state = step.state;
        a.port_num = 1;
        a.qkey = qkey;
        if (ibv_modify_qp(qp, &a, step.mask) != 0) {
            const int err = errno;
            std::fprintf(stderr, "modify UD QP to %s: %s\n", step.name, std::strerror(err));
            return err;
        }
    }
    return 0;
}

Qp create_rc_qp(ibv_pd *pd, ibv_cq *send_cq, ibv_cq *recv_cq, ibv_qp_cap &cap, ibv_srq *srq) {
    ibv_qp_init_attr init{};
    init.send_cq = send_cq;
    init.recv_cq = recv_cq;
    init.srq = srq;
    init.qp_type = IBV_QPT_RC;
    init.sq_sig_all = 0;
    init.cap = cap;
    Qp qp(ibv_create_qp(pd, &init));
    if (!qp) {
        std::fprintf(stderr, "create_qp: %s\n", std::strerror(errno));
        return qp;
    }
    cap = init.cap;
    return qp;
}

int modify_qp_state(ibv_qp *qp, ibv_qp_state state) {
    ibv_qp_attr attr{};
    attr.qp_state = state;
    return ibv_modify_qp(qp, &attr, IBV_QP_STATE);
}

namespace {

int step(const char *what, int err) {
    if (err != 0)
        std::fprintf(stderr, "modify_qp to %s: %s\n", what, std::strerror(err));
    return err;
}

} // namespace

int connect_qp(ibv_qp *qp, const QpInfo &remote, std::uint32_t local_psn, const ConnectParams &p) {
    if (query_qp_state(qp) != IBV_QPS_RESET) {
        if (const int err = step("RESET", modify_qp_state(qp, IBV_QPS_RESET)))
            return err;
    }
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = 0;
    attr.port_num = 1;
    attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                           IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    if (const int err = step("INIT", ibv_modify_qp(qp, &attr,
                                                   IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                                           IBV_QP_ACCESS_FLAGS)))
        return err;
    if (p.until == IBV_QPS_INIT)
        return 0;

    attr = {};
    attr.qp_state = IBV_QPS_RTR;
    attr.path_mtu = p.mtu;
    attr.dest_qp_num = remote.qpn;
    attr.rq_psn = remote.psn;
    attr.max_dest_rd_atomic = p.rd_atomic;
    attr.min_rnr_timer = p.min_rnr_timer;
    attr.ah_attr.is_global = 1;
    attr.ah_attr.grh.dgid = remote.gid;
    attr.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(p.gid_index);
    attr.ah_attr.grh.hop_limit = 64;
    attr.ah_attr.port_num = 1;
    if (const int err = step("RTR", ibv_modify_qp(qp, &attr,
                                                  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                                                          IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                                          IBV_QP_MAX_DEST_RD_ATOMIC |
                                                          IBV_QP_MIN_RNR_TIMER)))
        return err;
    if (p.until == IBV_QPS_RTR)
        return 0;

    attr = {};
    attr.qp_state = IBV_QPS_RTS;
    attr.timeout = p.timeout;
    attr.retry_cnt = p.retry_cnt;
    attr.rnr_retry = p.rnr_retry;
    attr.sq_psn = local_psn;
    attr.max_rd_atomic = p.rd_atomic;
    return step("RTS",
                ibv_modify_qp(qp, &attr,
                              IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                      IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC));
}

std::vector<ibv_wc> poll_completions(ibv_cq *cq, std::size_t n, std::chrono::milliseconds limit) {
    std::vector<ibv_wc> got;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (got.size() < n && std::chrono::steady_clock::now() < deadline) {
        std::array<ibv_wc, 16> wc{};
        const std::size_t want = std::min(wc.size(), n - got.size());
        const int k = ibv_poll_cq(cq, static_cast<int>(want), wc.data());
        if (k < 0)
            break;
        got.insert(got.end(), wc.begin(), wc.begin() + k);
        if (k == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return got;
}

ibv_qp_state query_qp_state(ibv_qp *qp) {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init) != 0)
        return IBV_QPS_UNKNOWN;
    return attr.qp_state;
}

const char *qp_state_name(ibv_qp_state state) {
    static constexpr std::array<const char *, 7> names = {"RESET", "INIT", "RTR", "RTS",
                                                          "SQD",   "SQE",  "ERR"};
    const auto i = static_cast<std::size_t>(state);
    return i < names.size() ? names.at(i) : "UNKNOWN";
}

} // namespace mrc::tool
