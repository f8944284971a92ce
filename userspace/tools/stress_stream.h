// SPDX-License-Identifier: BSD-2-Clause
// stress_stream.h - the operations one side of mrc_stress posts on one QP, as a stream both
// ends generate from the same seed: the requester to post them, the responder to know what each
// receive completion must carry and where the peer's WRITEs landed.
//
// The stream is cut into groups, each posted whole:
//   - one RDMA READ of a random range of the peer's read area (pre-filled with a known pattern);
//   - one atomic on the peer's per-QP counters (FETCH_ADD on word 0, CMP_AND_SWP on word 1),
//     whose original value is predictable because only this stream touches that word;
//   - 0 to 3 RDMA WRITEs into the peer's write area followed by one receive-consuming message
//     (SEND, SEND_WITH_IMM or WRITE_WITH_IMM): RC order places the WRITEs before that message
//     completes at the peer, which then checks them all.
// Write-area offsets are handed out round-robin, so the requester may reuse a range only once the
// peer has reported (over the side channel) that it checked what was there before.
#ifndef MRC_STRESS_STREAM_H
#define MRC_STRESS_STREAM_H

#include <array>
#include <cstdint>
#include <deque>
#include <string_view>

#include "tool_pattern.h"

namespace mrc::stress {

enum class OpType : std::uint8_t { Send, SendImm, Write, WriteImm, Read, CmpSwap, FetchAdd };
inline constexpr std::size_t kOpTypes = 7;
std::string_view op_name(OpType t);

// Does the op consume a receive WQE at the peer?
constexpr bool consumes_recv(OpType t) {
    return t == OpType::Send || t == OpType::SendImm || t == OpType::WriteImm;
}
constexpr bool is_atomic(OpType t) {
    return t == OpType::CmpSwap || t == OpType::FetchAdd;
}

// Pattern kinds (pattern_key()'s kind): the payload of op N, and the read area.
inline constexpr std::uint64_t kKindPayload = 1;
inline constexpr std::uint64_t kKindReadArea = 2;

struct StreamLimits {
    std::uint32_t max_size = 256 * 1024;       // ordinary messages: 0 .. max_size bytes
    std::uint32_t large_max = 8 * 1024 * 1024; // a few WRITE/READs of 1 MiB .. large_max (0: none)
    std::uint32_t large_pct = 2;               // percent of groups with one large op
    // Areas the stream addresses at the peer; derived from the above (see area sizes below).
    [[nodiscard]] std::uint64_t write_area() const;
    [[nodiscard]] std::uint64_t read_area() const;
    [[nodiscard]] std::uint64_t largest() const;
};

// Word offsets of the atomic counters in the peer's atomic area.
inline constexpr std::uint64_t kFetchAddOffset = 0;
inline constexpr std::uint64_t kCmpSwapOffset = 8;

struct Op {
    std::uint64_t index = 0; // position in the stream: wr_id, immediate data, pattern key
    OpType type = OpType::Send;
    std::uint32_t len = 0;
    bool inline_hint = false;     // send it inline if it fits the QP's max_inline_data
    std::uint64_t remote_off = 0; // WRITE*: in the write area; READ: in the read area
    std::uint64_t rsn = 0;        // receive-consuming ops: which receive WQE; WRITE: its group's
    std::uint64_t compare_add = 0;
    std::uint64_t swap = 0;
    std::uint64_t expect = 0; // atomics: the original value the response must carry
    bool ends_group = false;
};

class Stream {
public:
    Stream(std::uint64_t seed, unsigned side, unsigned qp, const StreamLimits &limits);

    // The next op.
    Op next();
    // True when the next op starts a new group (a stream may stop only there).
    [[nodiscard]] bool at_group_start() const { return pending_.empty(); }
    [[nodiscard]] std::uint64_t ops() const { return index_; }
    [[nodiscard]] std::uint64_t rsns() const { return rsn_; }
    [[nodiscard]] std::uint64_t fetch_add_value() const { return fadd_value_; }
    [[nodiscard]] std::uint64_t cmp_swap_value() const { return cas_value_; }

private:
    void make_group();
    std::uint32_t pick_size(std::uint32_t max);
    std::uint32_t pick_large();
    std::uint64_t alloc_write(std::uint32_t len);

    tool::Rng rng_;
    StreamLimits limits_;
    std::deque<Op> pending_;
    std::uint64_t index_ = 0;
    std::uint64_t rsn_ = 0;
    std::uint64_t write_cursor_ = 0;
    std::uint64_t fadd_value_ = 0;
    std::uint64_t cas_value_ = 0;
};

} // namespace mrc::stress

#endif // MRC_STRESS_STREAM_H
