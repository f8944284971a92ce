// SPDX-License-Identifier: BSD-2-Clause
// tool_verbs_ex.h - the extended verbs for mrc's test tools: an ibv_send_wr posted through the
// ibv_wr_* API (ibv_create_qp_ex with send_ops_flags), completions read through the polling API
// (ibv_create_cq_ex), so one tool can drive the same traffic through either API.
#ifndef MRC_TOOL_VERBS_EX_H
#define MRC_TOOL_VERBS_EX_H

#include <cstdint>
#include <span>

#include <infiniband/verbs.h>

namespace mrc::tool {

// Every opcode an RC QP of mrc posts through ibv_wr_*.
constexpr std::uint64_t kRcSendOps =
        IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
        IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |
        IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;

// What a completion carries besides wr_id, status and opcode.
constexpr std::uint64_t kWcExFlags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
                                     IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP;

// @wr (not a list: its next is ignored) as one ibv_wr_start .. ibv_wr_complete batch. The data
// setter varies with @variant, so a stream of WRs uses them all: one SGE as ibv_wr_set_sge or as
// a list of one, inline bytes as ibv_wr_set_inline_data or as a list. 0 or the errno of
// ibv_wr_complete (EINVAL for an opcode the QP was not created for).
int post_send_ex(ibv_qp_ex *qpx, const ibv_send_wr &wr, std::uint64_t variant);

// Up to out.size() completions of @cq through ibv_start_poll .. ibv_end_poll, as ibv_poll_cq
// fills them: their number, or -1 on an error of the CQ.
int poll_cq_ex(ibv_cq_ex *cq, std::span<ibv_wc> out);

} // namespace mrc::tool

#endif // MRC_TOOL_VERBS_EX_H
