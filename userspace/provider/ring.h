// SPDX-License-Identifier: BSD-2-Clause
// ring.h - a ring shared with mrc.ko, as <rdma/mrc-abi.h> lays it out: the producer index at
// MRC_RING_PROD_OFFSET, the consumer index at MRC_RING_CONS_OFFSET and its flags at
// MRC_RING_FLAGS_OFFSET, num_slots slots of slot_size bytes from MRC_RING_SLOTS_OFFSET.
// Indexes run free; slot i holds index i & (num_slots - 1). A view: it neither owns nor maps
// the memory.
#ifndef MRC_PROVIDER_RING_H
#define MRC_PROVIDER_RING_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include <rdma/mrc-abi.h>

namespace mrc {

class RingView {
public:
    RingView() = default;
    // @map is the start of the mapping @info describes; mrc_ring_info_check() has accepted it.
    RingView(void *map, const mrc_ring_info &info) noexcept
        : base_(static_cast<std::byte *>(map)), num_slots_(info.num_slots),
          slot_size_(info.slot_size) {}

    [[nodiscard]] bool valid() const { return base_ != nullptr; }
    [[nodiscard]] void *base() const { return base_; }
    [[nodiscard]] std::uint32_t num_slots() const { return num_slots_; }
    [[nodiscard]] std::uint32_t slot_size() const { return slot_size_; }

    [[nodiscard]] std::span<std::byte> slot(std::uint32_t index) const {
        const std::size_t off =
                MRC_RING_SLOTS_OFFSET + std::size_t{index & (num_slots_ - 1)} * slot_size_;
        return {base_ + off, slot_size_};
    }

    // The other side's index: acquire, so the slots it published are visible.
    [[nodiscard]] std::uint32_t load_producer() const {
        return index(MRC_RING_PROD_OFFSET).load(std::memory_order_acquire);
    }
    [[nodiscard]] std::uint32_t load_consumer() const {
        return index(MRC_RING_CONS_OFFSET).load(std::memory_order_acquire);
    }
    // Our own index: release, after the slots it covers are written (or read).
    void store_producer(std::uint32_t value) const {
        index(MRC_RING_PROD_OFFSET).store(value, std::memory_order_release);
    }
    void store_consumer(std::uint32_t value) const {
        index(MRC_RING_CONS_OFFSET).store(value, std::memory_order_release);
    }
    // The consumer's flags (MRC_RING_F_*), after a full fence: the kernel fences between
    // setting them and reading our index, so one of us sees what the other wrote.
    [[nodiscard]] std::uint32_t load_consumer_flags_after_fence() const {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return index(MRC_RING_FLAGS_OFFSET).load(std::memory_order_relaxed);
    }

private:
    [[nodiscard]] std::atomic_ref<std::uint32_t> index(std::size_t offset) const {
        // The mapping starts on a page boundary and every offset is a multiple of 4.
        return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t *>(base_ + offset));
    }

    std::byte *base_ = nullptr;
    std::uint32_t num_slots_ = 0;
    std::uint32_t slot_size_ = 0;
};

} // namespace mrc

#endif // MRC_PROVIDER_RING_H
