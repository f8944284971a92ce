// SPDX-License-Identifier: BSD-2-Clause
// wqe.cc - formatting work requests into ring slots and completions out of them.
#include "wqe.h"

#include <cstring>

namespace mrc {

// The uAPI layouts this file writes and reads (the kernel's side of the same header must agree).
static_assert(sizeof(mrc_send_wqe) == MRC_SEND_WQE_HDR_SIZE);
static_assert(sizeof(mrc_recv_wqe) == MRC_RECV_WQE_HDR_SIZE);
static_assert(sizeof(mrc_sge) == 16);
static_assert(sizeof(mrc_cqe) == 48);
static_assert(sizeof(mrc_ring_info) == 24);
static_assert(offsetof(mrc_send_wqe, wr) == 32);
static_assert(offsetof(mrc_cqe, pkey_index) == 40);

namespace {

constexpr std::uint32_t kSgeSize = sizeof(mrc_sge);

std::uint32_t after_header(std::uint32_t slot_size, std::uint32_t header) {
    return slot_size > header ? slot_size - header : 0;
}

// The opcodes an mrc RC QP carries, and what each needs from the work request.
enum class Kind { send, rdma, atomic, unsupported };

Kind kind_of(ibv_wr_opcode opcode) {
    switch (opcode) {
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
        return Kind::send;
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_RDMA_READ:
        return Kind::rdma;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        return Kind::atomic;
    default:
        return Kind::unsupported;
    }
}

bool has_imm(ibv_wr_opcode opcode) {
    return opcode == IBV_WR_SEND_WITH_IMM || opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
}

// The application's bytes behind an SGE or an inline buffer: addresses travel as integers in
// verbs, as pointers in the extended post API.
const void *buffer_of(const ibv_sge &sge) {
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    return reinterpret_cast<const void *>(static_cast<std::uintptr_t>(sge.addr));
}
std::size_t length_of(const ibv_sge &sge) {
    return sge.length;
}
const void *buffer_of(const ibv_data_buf &buf) {
    return buf.addr;
}
std::size_t length_of(const ibv_data_buf &buf) {
    return buf.length;
}

template <typename Buf>
int put_inline(std::span<std::byte> body, std::span<const Buf> bufs, mrc_send_wqe &wqe) {
    std::size_t total = 0;
    for (const Buf &buf : bufs) {
        const std::size_t len = length_of(buf);
        if (len > body.size() - total)
            return EINVAL;
        if (len)
            std::memcpy(body.subspan(total).data(), buffer_of(buf), len);
        total += len;
    }
    wqe.inline_len = static_cast<std::uint32_t>(total);
    wqe.num_sge = 0;
    return 0;
}

void put_sges(std::span<std::byte> body, std::span<const ibv_sge> sges) {
    for (std::size_t i = 0; i < sges.size(); i++) {
        const mrc_sge sge = {.addr = sges[i].addr, .length = sges[i].length, .lkey = sges[i].lkey};
        std::memcpy(body.subspan(i * kSgeSize).data(), &sge, sizeof(sge));
    }
}

bool known_status(std::uint32_t status) {
    return status <= IBV_WC_TM_RNDV_INCOMPLETE;
}

bool known_opcode(std::uint32_t opcode) {
    switch (opcode) {
    case IBV_WC_SEND:
    case IBV_WC_RDMA_WRITE:
    case IBV_WC_RDMA_READ:
    case IBV_WC_COMP_SWAP:
    case IBV_WC_FETCH_ADD:
    case IBV_WC_BIND_MW:
    case IBV_WC_LOCAL_INV:
    case IBV_WC_RECV:
    case IBV_WC_RECV_RDMA_WITH_IMM:
        return true;
    default:
        return false;
    }
}

} // namespace

std::uint32_t send_max_inline(std::uint32_t slot_size) noexcept {
    return after_header(slot_size, MRC_SEND_WQE_HDR_SIZE);
}

std::uint32_t send_max_sge(std::uint32_t slot_size) noexcept {
    return send_max_inline(slot_size) / kSgeSize;
}

std::uint32_t recv_max_sge(std::uint32_t slot_size) noexcept {
    return after_header(slot_size, MRC_RECV_WQE_HDR_SIZE) / kSgeSize;
}

namespace {

// A datagram's destination: the AH's number, the remote QP and its Q_Key.
int put_ud_address(const ibv_send_wr &wr, mrc_send_wqe &wqe) {
    if (kind_of(wr.opcode) != Kind::send || !wr.wr.ud.ah)
        return EINVAL;
    // the application's ibv_ah is the first member of the mrc_ah this provider allocated
    const auto *ah = reinterpret_cast<const mrc_ah *>(wr.wr.ud.ah); // NOLINT
    wqe.wr.ud.ah_num = ah->ah_num;
    wqe.wr.ud.remote_qpn = wr.wr.ud.remote_qpn;
    wqe.wr.ud.remote_qkey = wr.wr.ud.remote_qkey;
    return 0;
}

// The entry's header from @wr, before its data: EINVAL for an opcode or flag an mrc QP does not
// carry, or inline data for an opcode that sends none.
int format_send_header(const ibv_send_wr &wr, SendKind qp_kind, mrc_send_wqe &wqe) {
    if (wr.send_flags & ~kSendFlags)
        return EINVAL;
    const bool is_inline = (wr.send_flags & IBV_SEND_INLINE) != 0;

    wqe = mrc_send_wqe{};
    wqe.wr_id = wr.wr_id;
    wqe.opcode = wr.opcode;
    wqe.send_flags = wr.send_flags;
    if (has_imm(wr.opcode))
        wqe.ex = wr.imm_data;
    if (qp_kind == SendKind::datagram)
        return put_ud_address(wr, wqe);

    switch (kind_of(wr.opcode)) {
    case Kind::send:
        return 0;
    case Kind::rdma:
        // inline data is something to send: a READ has none
        if (is_inline && wr.opcode == IBV_WR_RDMA_READ)
            return EINVAL;
        wqe.wr.rdma.remote_addr = wr.wr.rdma.remote_addr;
        wqe.wr.rdma.rkey = wr.wr.rdma.rkey;
        return 0;
    case Kind::atomic:
        if (is_inline)
            return EINVAL;
        wqe.wr.atomic.remote_addr = wr.wr.atomic.remote_addr;
        wqe.wr.atomic.compare_add = wr.wr.atomic.compare_add;
        wqe.wr.atomic.swap = wr.wr.atomic.swap;
        wqe.wr.atomic.rkey = wr.wr.atomic.rkey;
        return 0;
    case Kind::unsupported:
        break;
    }
    return EINVAL;
}

} // namespace

int format_send_wqe(std::span<std::byte> slot, const ibv_send_wr &wr, SendKind kind) noexcept {
    if (slot.size() < MRC_SEND_WQE_HDR_SIZE || wr.num_sge < 0 || (wr.num_sge && !wr.sg_list))
        return EINVAL;
    const std::span<const ibv_sge> sges(wr.sg_list, static_cast<std::size_t>(wr.num_sge));
    mrc_send_wqe wqe;
    if (const int err = format_send_header(wr, kind, wqe))
        return err;
    // one 8-byte local buffer receives an atomic's original value
    if (kind_of(wr.opcode) == Kind::atomic &&
        (sges.size() != 1 || sges[0].length != sizeof(std::uint64_t)))
        return EINVAL;

    const std::span<std::byte> body = slot.subspan(MRC_SEND_WQE_HDR_SIZE);
    if (wr.send_flags & IBV_SEND_INLINE) {
        if (const int err = put_inline(body, sges, wqe))
            return err;
    } else {
        if (sges.size() > body.size() / kSgeSize)
            return EINVAL;
        put_sges(body, sges);
        wqe.num_sge = static_cast<std::uint32_t>(sges.size());
    }
    std::memcpy(slot.data(), &wqe, sizeof(wqe));
    return 0;
}

int format_send_wqe_inline(std::span<std::byte> slot, const ibv_send_wr &wr,
                           std::span<const ibv_data_buf> bufs, SendKind kind) noexcept {
    if (slot.size() < MRC_SEND_WQE_HDR_SIZE)
        return EINVAL;
    ibv_send_wr inl = wr;
    inl.send_flags |= IBV_SEND_INLINE;
    mrc_send_wqe wqe;
    if (const int err = format_send_header(inl, kind, wqe))
        return err;
    if (const int err = put_inline(slot.subspan(MRC_SEND_WQE_HDR_SIZE), bufs, wqe))
        return err;
    std::memcpy(slot.data(), &wqe, sizeof(wqe));
    return 0;
}

int format_recv_wqe(std::span<std::byte> slot, const ibv_recv_wr &wr) noexcept {
    if (slot.size() < MRC_RECV_WQE_HDR_SIZE || wr.num_sge < 0 || (wr.num_sge && !wr.sg_list))
        return EINVAL;
    const std::span<const ibv_sge> sges(wr.sg_list, static_cast<std::size_t>(wr.num_sge));
    const std::span<std::byte> body = slot.subspan(MRC_RECV_WQE_HDR_SIZE);
    if (sges.size() > body.size() / kSgeSize)
        return EINVAL;

    const mrc_recv_wqe wqe = {
            .wr_id = wr.wr_id, .num_sge = static_cast<std::uint32_t>(sges.size()), .reserved = 0};
    put_sges(body, sges);
    std::memcpy(slot.data(), &wqe, sizeof(wqe));
    return 0;
}

void cqe_to_wc(const mrc_cqe &cqe, ibv_wc &wc) noexcept {
    wc = ibv_wc{};
    wc.wr_id = cqe.wr_id;
    wc.vendor_err = cqe.vendor_err;
    wc.byte_len = cqe.byte_len;
    wc.imm_data = cqe.imm_data;
    wc.qp_num = cqe.qp_num;
    wc.src_qp = cqe.src_qp;
    wc.wc_flags = cqe.wc_flags;
    wc.pkey_index = cqe.pkey_index;
    wc.slid = cqe.slid;
    wc.sl = cqe.sl;
    wc.dlid_path_bits = cqe.dlid_path_bits;
    if (known_status(cqe.status) && known_opcode(cqe.opcode)) {
        wc.status = static_cast<ibv_wc_status>(cqe.status);
        wc.opcode = static_cast<ibv_wc_opcode>(cqe.opcode);
    } else {
        // the opcode of a failed completion means nothing; keep the default
        wc.status = IBV_WC_GENERAL_ERR;
    }
}

} // namespace mrc
