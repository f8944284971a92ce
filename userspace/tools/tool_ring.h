// SPDX-License-Identifier: BSD-2-Clause
// tool_ring.h - the rings mrc.ko shares with a process, as the hostile-ring tools see them: found
// among the process's mappings of the uverbs device, indexed and written without the provider.
#ifndef MRC_TOOL_RING_H
#define MRC_TOOL_RING_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

namespace mrc::tool {

// A mapping of the uverbs device in this process: its first byte and its size.
struct Mapping {
    std::byte *base = nullptr;
    std::size_t size = 0;
};

std::vector<Mapping> uverbs_mappings();

// A ring's index words and slots, as mapped.
struct Ring {
    std::byte *base = nullptr;
    std::size_t size = 0;
    std::uint32_t slot_size = 0;

    [[nodiscard]] volatile std::uint32_t &index(std::size_t offset) const {
        return *reinterpret_cast<volatile std::uint32_t *>(base + offset);
    }
    [[nodiscard]] volatile std::uint32_t &prod() const { return index(MRC_RING_PROD_OFFSET); }
    [[nodiscard]] volatile std::uint32_t &cons() const { return index(MRC_RING_CONS_OFFSET); }
    [[nodiscard]] std::uint32_t slots() const {
        return static_cast<std::uint32_t>((size - MRC_RING_SLOTS_OFFSET) / slot_size);
    }
    [[nodiscard]] std::byte *slot(std::uint32_t i) const {
        return base + MRC_RING_SLOTS_OFFSET + static_cast<std::size_t>(i % slots()) * slot_size;
    }
};

// A work queue (send or receive: both WQEs start with their wr_id) whose slot 0 holds a WQE with
// wr_id @id and whose next slot, at some 16-byte multiple, @id + 1: two markers the caller
// posted first.
std::optional<Ring> find_work_ring(std::uint64_t id);

// The send doorbell as the provider rings it: uverbs POST_SEND with no work requests. 0 or errno.
int ring_doorbell(ibv_qp *qp);

} // namespace mrc::tool

#endif // MRC_TOOL_RING_H
