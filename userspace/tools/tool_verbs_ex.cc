// SPDX-License-Identifier: BSD-2-Clause
// tool_verbs_ex.cc - posting and polling through the extended verbs (tool_verbs_ex.h).
#include "tool_verbs_ex.h"

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace mrc::tool {
namespace {

// The opcode's ibv_wr_* call; false for one the extended API has no RC call for here.
bool start_wr(ibv_qp_ex *qpx, const ibv_send_wr &wr) {
    switch (wr.opcode) {
    case IBV_WR_SEND:
        ibv_wr_send(qpx);
        return true;
    case IBV_WR_SEND_WITH_IMM:
        ibv_wr_send_imm(qpx, wr.imm_data);
        return true;
    case IBV_WR_RDMA_WRITE:
        ibv_wr_rdma_write(qpx, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
        return true;
    case IBV_WR_RDMA_WRITE_WITH_IMM:
        ibv_wr_rdma_write_imm(qpx, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr, wr.imm_data);
        return true;
    case IBV_WR_RDMA_READ:
        ibv_wr_rdma_read(qpx, wr.wr.rdma.rkey, wr.wr.rdma.remote_addr);
        return true;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
        ibv_wr_atomic_cmp_swp(qpx, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                              wr.wr.atomic.compare_add, wr.wr.atomic.swap);
        return true;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        ibv_wr_atomic_fetch_add(qpx, wr.wr.atomic.rkey, wr.wr.atomic.remote_addr,
                                wr.wr.atomic.compare_add);
        return true;
    default:
        return false;
    }
}

// The same bytes as inline buffers; at most a handful of SGEs in the tools' WRs.
constexpr std::size_t kMaxInlineBufs = 8;

bool set_inline(ibv_qp_ex *qpx, std::span<const ibv_sge> sges, bool as_list) {
    if (sges.size() > kMaxInlineBufs)
        return false;
    std::array<ibv_data_buf, kMaxInlineBufs> bufs{};
    for (std::size_t i = 0; i < sges.size(); i++) {
        // NOLINTNEXTLINE(performance-no-int-to-ptr): verbs carries addresses as integers
        bufs[i].addr = reinterpret_cast<void *>(static_cast<std::uintptr_t>(sges[i].addr));
        bufs[i].length = sges[i].length;
    }
    if (sges.size() == 1 && !as_list)
        ibv_wr_set_inline_data(qpx, bufs[0].addr, bufs[0].length);
    else
        ibv_wr_set_inline_data_list(qpx, sges.size(), bufs.data());
    return true;
}

} // namespace

int post_send_ex(ibv_qp_ex *qpx, const ibv_send_wr &wr, std::uint64_t variant) {
    const std::span<const ibv_sge> sges(wr.sg_list, static_cast<std::size_t>(wr.num_sge));
    const bool as_list = (variant & 1) != 0;

    ibv_wr_start(qpx);
    qpx->wr_id = wr.wr_id;
    qpx->wr_flags = wr.send_flags & ~static_cast<unsigned int>(IBV_SEND_INLINE);
    if (!start_wr(qpx, wr)) {
        ibv_wr_abort(qpx);
        return EINVAL;
    }
    if (wr.send_flags & IBV_SEND_INLINE) {
        if (!set_inline(qpx, sges, as_list)) {
            ibv_wr_abort(qpx);
            return EINVAL;
        }
    } else if (sges.size() == 1 && !as_list) {
        ibv_wr_set_sge(qpx, sges[0].lkey, sges[0].addr, sges[0].length);
    } else {
        ibv_wr_set_sge_list(qpx, sges.size(), sges.data());
    }
    return ibv_wr_complete(qpx);
}

int poll_cq_ex(ibv_cq_ex *cq, std::span<ibv_wc> out) {
    if (out.empty())
        return 0;
    ibv_poll_cq_attr attr{};
    int err = ibv_start_poll(cq, &attr);
    if (err == ENOENT)
        return 0;
    if (err)
        return -1;
    std::size_t n = 0;
    do {
        ibv_wc &wc = out[n++];
        wc = ibv_wc{};
        wc.wr_id = cq->wr_id;
        wc.status = cq->status;
        wc.opcode = ibv_wc_read_opcode(cq);
        wc.vendor_err = ibv_wc_read_vendor_err(cq);
        wc.byte_len = ibv_wc_read_byte_len(cq);
        wc.wc_flags = ibv_wc_read_wc_flags(cq);
        if (wc.wc_flags & IBV_WC_WITH_IMM)
            wc.imm_data = ibv_wc_read_imm_data(cq);
        wc.qp_num = ibv_wc_read_qp_num(cq);
        wc.src_qp = ibv_wc_read_src_qp(cq);
        err = n < out.size() ? ibv_next_poll(cq) : ENOENT;
    } while (err == 0);
    ibv_end_poll(cq);
    return err == ENOENT ? static_cast<int>(n) : -1;
}

} // namespace mrc::tool
