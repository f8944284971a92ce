// SPDX-License-Identifier: BSD-2-Clause
// fake_kernel.h - mrc.ko's side of the provider's rings, for host tests: a ring in ordinary
// memory laid out as <rdma/mrc-abi.h> says, and the kernel's moves on it (consume send and
// receive entries, produce completions), written from the header alone, not from the
// provider's code.
#ifndef MRC_PROVIDER_TESTS_FAKE_KERNEL_H
#define MRC_PROVIDER_TESTS_FAKE_KERNEL_H

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

namespace mrc_test {

// The memory of one ring, as mmap would give it: page-aligned and zeroed.
class FakeRing {
public:
    FakeRing(std::uint32_t num_slots, std::uint32_t slot_size)
        : info_{.mmap_offset = 0,
                .mmap_size = MRC_RING_SLOTS_OFFSET + num_slots * slot_size,
                .num_slots = num_slots,
                .slot_size = slot_size,
                .reserved = 0},
          mem_(static_cast<std::uint8_t *>(std::aligned_alloc(4096, round_up(info_.mmap_size))),
               std::free) {
        std::memset(mem_.get(), 0, info_.mmap_size);
    }

    [[nodiscard]] void *map() const { return mem_.get(); }
    [[nodiscard]] const mrc_ring_info &info() const { return info_; }

    [[nodiscard]] std::uint32_t producer() const { return index(MRC_RING_PROD_OFFSET).load(); }
    [[nodiscard]] std::uint32_t consumer() const { return index(MRC_RING_CONS_OFFSET).load(); }
    void set_producer(std::uint32_t v) const { index(MRC_RING_PROD_OFFSET).store(v); }
    void set_consumer(std::uint32_t v) const { index(MRC_RING_CONS_OFFSET).store(v); }
    void set_consumer_flags(std::uint32_t v) const { index(MRC_RING_FLAGS_OFFSET).store(v); }

    [[nodiscard]] std::uint8_t *slot(std::uint32_t index) const {
        return mem_.get() + MRC_RING_SLOTS_OFFSET +
               std::size_t{index & (info_.num_slots - 1)} * info_.slot_size;
    }

private:
    static std::size_t round_up(std::size_t n) { return (n + 4095) / 4096 * 4096; }

    [[nodiscard]] std::atomic_ref<std::uint32_t> index(std::size_t off) const {
        return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t *>(mem_.get() + off));
    }

    mrc_ring_info info_;
    std::unique_ptr<std::uint8_t, decltype(&std::free)> mem_;
};

// A send entry as the kernel reads it out of its slot.
struct SendEntry {
    mrc_send_wqe wqe;
    std::vector<mrc_sge> sges;
    std::vector<std::uint8_t> inline_data;
};

struct RecvEntry {
    mrc_recv_wqe wqe;
    std::vector<mrc_sge> sges;
};

inline SendEntry parse_send(const std::uint8_t *slot) {
    SendEntry e{};
    std::memcpy(&e.wqe, slot, sizeof(e.wqe));
    const std::uint8_t *body = slot + MRC_SEND_WQE_HDR_SIZE;
    if (e.wqe.send_flags & IBV_SEND_INLINE) {
        e.inline_data.assign(body, body + e.wqe.inline_len);
    } else {
        e.sges.resize(e.wqe.num_sge);
        if (!e.sges.empty())
            std::memcpy(e.sges.data(), body, e.sges.size() * sizeof(mrc_sge));
    }
    return e;
}

inline RecvEntry parse_recv(const std::uint8_t *slot) {
    RecvEntry e{};
    std::memcpy(&e.wqe, slot, sizeof(e.wqe));
    e.sges.resize(e.wqe.num_sge);
    if (!e.sges.empty())
        std::memcpy(e.sges.data(), slot + MRC_RECV_WQE_HDR_SIZE, e.sges.size() * sizeof(mrc_sge));
    return e;
}

// Take up to @max published entries off a ring the provider produces (acquire the producer,
// read, release the consumer), as the kernel's requester or responder does.
template <typename Parse> auto consume(const FakeRing &ring, std::size_t max, Parse parse) {
    std::vector<decltype(parse(nullptr))> out;
    const std::uint32_t prod = ring.producer(); // seq_cst load: at least acquire
    std::uint32_t cons = ring.consumer();
    for (; cons != prod && out.size() < max; cons++)
        out.push_back(parse(ring.slot(cons)));
    ring.set_consumer(cons);
    return out;
}

inline std::vector<SendEntry> consume_send(const FakeRing &ring, std::size_t max = SIZE_MAX) {
    return consume(ring, max, parse_send);
}

inline std::vector<RecvEntry> consume_recv(const FakeRing &ring, std::size_t max = SIZE_MAX) {
    return consume(ring, max, parse_recv);
}

// Publish one completion, as the completer does; false when the CQ is full.
inline bool produce_cqe(const FakeRing &ring, const mrc_cqe &cqe) {
    const std::uint32_t prod = ring.producer();
    if (prod - ring.consumer() >= ring.info().num_slots)
        return false;
    std::memcpy(ring.slot(prod), &cqe, sizeof(cqe));
    ring.set_producer(prod + 1); // seq_cst store: at least release
    return true;
}

inline mrc_cqe make_cqe(std::uint64_t wr_id, std::uint32_t opcode = IBV_WC_SEND,
                        std::uint32_t status = IBV_WC_SUCCESS) {
    mrc_cqe c{};
    c.wr_id = wr_id;
    c.opcode = opcode;
    c.status = status;
    c.qp_num = 17;
    return c;
}

} // namespace mrc_test

#endif // MRC_PROVIDER_TESTS_FAKE_KERNEL_H
