// SPDX-License-Identifier: BSD-2-Clause
// tool_verbs.h - what mrc's verbs test tools share: RAII owners of verbs objects, opening a device
// by name, bringing an RC QP from RESET to RTS, and the QP attributes the peers exchange.
#ifndef MRC_TOOL_VERBS_H
#define MRC_TOOL_VERBS_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <infiniband/verbs.h>

namespace mrc::tool {

struct DeviceListFree {
    void operator()(ibv_device **list) const { ibv_free_device_list(list); }
};
struct ContextClose {
    void operator()(ibv_context *ctx) const { ibv_close_device(ctx); }
};
struct PdFree {
    void operator()(ibv_pd *pd) const { ibv_dealloc_pd(pd); }
};
struct CqFree {
    void operator()(ibv_cq *cq) const { ibv_destroy_cq(cq); }
};
struct MrFree {
    void operator()(ibv_mr *mr) const { ibv_dereg_mr(mr); }
};
struct QpFree {
    void operator()(ibv_qp *qp) const { ibv_destroy_qp(qp); }
};
struct SrqFree {
    void operator()(ibv_srq *srq) const { ibv_destroy_srq(srq); }
};
struct ChannelFree {
    void operator()(ibv_comp_channel *ch) const { ibv_destroy_comp_channel(ch); }
};

using DeviceList = std::unique_ptr<ibv_device *, DeviceListFree>;
using Context = std::unique_ptr<ibv_context, ContextClose>;
using Pd = std::unique_ptr<ibv_pd, PdFree>;
using Cq = std::unique_ptr<ibv_cq, CqFree>;
using Mr = std::unique_ptr<ibv_mr, MrFree>;
using Qp = std::unique_ptr<ibv_qp, QpFree>;
using Srq = std::unique_ptr<ibv_srq, SrqFree>;
using CompChannel = std::unique_ptr<ibv_comp_channel, ChannelFree>;

// Zeroed, page-aligned memory from mmap, for registering.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(std::size_t size);
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    Buffer(Buffer &&other) noexcept;
    Buffer &operator=(Buffer &&other) noexcept;
    ~Buffer();
    [[nodiscard]] std::byte *data() const { return data_; }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::span<std::byte> span() const { return {data_, size_}; }
    [[nodiscard]] std::uint64_t addr() const { return reinterpret_cast<std::uintptr_t>(data_); }
    explicit operator bool() const { return data_ != nullptr; }

private:
    std::byte *data_ = nullptr;
    std::size_t size_ = 0;
};

// Open the RDMA device called @name; empty (and a message on stderr) when there is none.
Context open_device(const std::string &name);

// Register @len bytes at @addr with @access (IBV_ACCESS_* flags).
Mr register_mr(ibv_pd *pd, void *addr, std::size_t len, unsigned int access);

// What one end tells the other about one of its QPs (sent as is over the side channel: both
// ends are the same program on the same architecture).
struct QpInfo {
    std::uint32_t qpn = 0;
    std::uint32_t psn = 0;
    ibv_gid gid{};
};

// The port's GID at @gid_index and its active MTU.
struct PortInfo {
    ibv_gid gid{};
    ibv_mtu mtu = IBV_MTU_1024;
};
bool query_port(ibv_context *ctx, int gid_index, PortInfo &out);

// Create an RC QP on @send_cq/@recv_cq with @cap; @cap comes back as the device granted it.
// With @srq, its receives come from that shared receive queue.
Qp create_rc_qp(ibv_pd *pd, ibv_cq *send_cq, ibv_cq *recv_cq, ibv_qp_cap &cap,
                ibv_srq *srq = nullptr);

struct AhFree {
    void operator()(ibv_ah *ah) const { ibv_destroy_ah(ah); }
};
using Ah = std::unique_ptr<ibv_ah, AhFree>;

// An AH in @pd to @gid from our GID @gid_index (port 1, hop limit 64); empty (and a message on
// stderr) when the device refuses it.
Ah create_ah(ibv_pd *pd, const ibv_gid &gid, int gid_index);

// Create a UD QP on @cq (send and receive) with @cap; @cap comes back as the device granted it.
Qp create_ud_qp(ibv_pd *pd, ibv_cq *cq, ibv_qp_cap &cap);

// A UD QP (from any state) through RESET -> INIT -> RTR -> RTS with Q_Key @qkey. Returns 0 or the
// errno of the failing step (printed with its name).
int ud_qp_to_rts(ibv_qp *qp, std::uint32_t qkey);

// Transport parameters of the RTR/RTS transitions.
struct ConnectParams {
    int gid_index = 0;
    ibv_mtu mtu = IBV_MTU_1024;
    std::uint8_t rd_atomic = 16;
    std::uint8_t timeout = 14; // 4.096 us * 2^14 = 67 ms
    std::uint8_t retry_cnt = 7;
    std::uint8_t rnr_retry = 7; // forever: a receiver reposts its receives as it goes
    std::uint8_t min_rnr_timer = 1;
    ibv_qp_state until = IBV_QPS_RTS; // where connect_qp stops: INIT, RTR or RTS
};

// RESET -> INIT -> RTR -> RTS (or as far as p.until) towards @remote, our send PSN @local_psn. A
// QP in ERR is moved to RESET first. Returns 0 or the errno of the failing step (printed with its
// name).
int connect_qp(ibv_qp *qp, const QpInfo &remote, std::uint32_t local_psn, const ConnectParams &p);

// Move @qp to @state alone (ERR, RESET). Returns 0 or an errno.
int modify_qp_state(ibv_qp *qp, ibv_qp_state state);

// The QP's current state, or IBV_QPS_UNKNOWN when query_qp fails.
ibv_qp_state query_qp_state(ibv_qp *qp);

const char *qp_state_name(ibv_qp_state state);

// Poll @cq until @n completions arrived or @limit passed; never takes more than @n, so a
// caller can look for completions that should not be there with a second call.
std::vector<ibv_wc> poll_completions(ibv_cq *cq, std::size_t n, std::chrono::milliseconds limit);

} // namespace mrc::tool

#endif // MRC_TOOL_VERBS_H
