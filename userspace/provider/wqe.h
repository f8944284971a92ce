// SPDX-License-Identifier: BSD-2-Clause
// wqe.h - the entries of mrc's rings: send and receive work requests the provider formats into
// a slot, completions it turns back into struct ibv_wc. Pure functions of their arguments.
#ifndef MRC_PROVIDER_WQE_H
#define MRC_PROVIDER_WQE_H

#include <cstddef>
#include <cstdint>
#include <span>

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

#include "mrc_queues.h"

namespace mrc {

// What a slot of @slot_size bytes can carry after the entry's header.
[[nodiscard]] std::uint32_t send_max_inline(std::uint32_t slot_size) noexcept;
[[nodiscard]] std::uint32_t send_max_sge(std::uint32_t slot_size) noexcept;
[[nodiscard]] std::uint32_t recv_max_sge(std::uint32_t slot_size) noexcept;

// The send flags an mrc QP understands; anything else in a work request is EINVAL.
constexpr unsigned int kSendFlags =
        IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE;

// Which QP a send WQE is for: a connected one reads wr.rdma / wr.atomic, a datagram one (UD)
// carries SENDs only and reads wr.ud, whose ah must be a struct mrc_ah.
enum class SendKind : std::uint8_t { connected, datagram };

// Write @wr into @slot: struct mrc_send_wqe, then its SGEs or (IBV_SEND_INLINE) the bytes they
// point at. 0, or EINVAL for an opcode, flag or size the slot cannot carry (or a datagram WR
// without an AH); the slot may then hold garbage, which is harmless until the producer index
// covers it.
[[nodiscard]] int format_send_wqe(std::span<std::byte> slot, const ibv_send_wr &wr,
                                  SendKind kind = SendKind::connected) noexcept;

// The same for the extended post API's inline data (ibv_wr_set_inline_data*): @wr's SGEs are
// ignored, the bytes of @bufs are copied in and IBV_SEND_INLINE set.
[[nodiscard]] int format_send_wqe_inline(std::span<std::byte> slot, const ibv_send_wr &wr,
                                         std::span<const ibv_data_buf> bufs,
                                         SendKind kind = SendKind::connected) noexcept;

// Write @wr into @slot: struct mrc_recv_wqe and its SGEs. 0 or EINVAL.
[[nodiscard]] int format_recv_wqe(std::span<std::byte> slot, const ibv_recv_wr &wr) noexcept;

// The completion @cqe as ibv_poll_cq reports it. A status or opcode no verbs consumer would know
// becomes IBV_WC_GENERAL_ERR rather than an out-of-range enum.
void cqe_to_wc(const mrc_cqe &cqe, ibv_wc &wc) noexcept;

} // namespace mrc

#endif // MRC_PROVIDER_WQE_H
