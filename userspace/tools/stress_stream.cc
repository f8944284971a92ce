// SPDX-License-Identifier: BSD-2-Clause
#include "stress_stream.h"

#include <algorithm>
#include <bit>

namespace mrc::stress {

namespace {

constexpr std::array<std::string_view, kOpTypes> kOpNames = {
        "send", "send_imm", "write", "write_imm", "read", "cmp_swap", "fetch_add"};

constexpr std::uint32_t kLargeMin = 1024 * 1024;
constexpr std::uint64_t kAreaSlack = std::uint64_t{64} * 1024;

} // namespace

std::string_view op_name(OpType t) {
    return kOpNames.at(static_cast<std::size_t>(t));
}

std::uint64_t StreamLimits::largest() const {
    return large_max >= kLargeMin ? std::max(large_max, max_size) : max_size;
}

// A group writes at most 3 + 1 messages, one of them possibly large; twice that lets the
// requester fill one half while the peer still checks the other.
std::uint64_t StreamLimits::write_area() const {
    return 2 * (largest() + 4ULL * max_size) + kAreaSlack;
}

std::uint64_t StreamLimits::read_area() const {
    return largest() + kAreaSlack;
}

Stream::Stream(std::uint64_t seed, unsigned side, unsigned qp, const StreamLimits &limits)
    : rng_(tool::pattern_key(seed, 0, side, qp, 0)), limits_(limits) {}

Op Stream::next() {
    if (pending_.empty())
        make_group();
    Op op = pending_.front();
    pending_.pop_front();
    return op;
}

// 0 now and then, small sizes often, otherwise log-uniform up to @max.
std::uint32_t Stream::pick_size(std::uint32_t max) {
    const std::uint64_t r = rng_.below(100);
    if (r < 3 || max == 0)
        return 0;
    if (r < 12)
        return static_cast<std::uint32_t>(rng_.between(1, std::min<std::uint32_t>(64, max)));
    const auto top = static_cast<std::uint64_t>(std::bit_width(max));
    const std::uint64_t hi = std::min<std::uint64_t>(max, 1ULL << rng_.below(top));
    return static_cast<std::uint32_t>(rng_.between(hi / 2 + 1, hi));
}

std::uint32_t Stream::pick_large() {
    return static_cast<std::uint32_t>(rng_.between(kLargeMin, limits_.large_max));
}

// The next range of the write area, at a random alignment, wrapping at its end.
std::uint64_t Stream::alloc_write(std::uint32_t len) {
    std::uint64_t off = write_cursor_ + rng_.below(8);
    if (off + len > limits_.write_area())
        off = 0;
    write_cursor_ = (off + len + 7) & ~7ULL;
    return off;
}

void Stream::make_group() {
    const std::uint64_t kind = rng_.below(100);
    const bool large = limits_.large_max >= kLargeMin && rng_.below(100) < limits_.large_pct;
    Op op;
    op.index = index_++;
    op.inline_hint = rng_.below(2) == 0;
    if (kind < 15) {
        op.type = OpType::Read;
        op.len = large ? pick_large() : pick_size(limits_.max_size);
        op.remote_off = rng_.below(limits_.read_area() - op.len + 1);
    } else if (kind < 22) {
        op.type = OpType::CmpSwap;
        op.len = 8;
        const bool hit = rng_.below(4) != 0;
        op.compare_add = hit ? cas_value_ : cas_value_ ^ (1ULL << rng_.below(64));
        op.swap = rng_.next();
        op.expect = cas_value_;
        if (hit)
            cas_value_ = op.swap;
    } else if (kind < 30) {
        op.type = OpType::FetchAdd;
        op.len = 8;
        op.compare_add = rng_.below(4) == 0 ? rng_.next() : rng_.below(1000);
        op.expect = fadd_value_;
        fadd_value_ += op.compare_add;
    }
    if (kind < 30) {
        op.ends_group = true;
        pending_.push_back(op);
        return;
    }

    // WRITEs, then the message that makes the peer check them; one of them may be large.
    const auto writes = static_cast<unsigned>(rng_.below(4));
    const std::uint64_t term = rng_.below(100);
    const OpType last = term < 35 ? OpType::Send : term < 70 ? OpType::SendImm : OpType::WriteImm;
    const std::uint64_t large_at = rng_.below(writes + 1);
    const std::uint64_t rsn = rsn_++;
    for (unsigned i = 0; i <= writes; i++) {
        if (i > 0) {
            op = {};
            op.index = index_++;
            op.inline_hint = rng_.below(2) == 0;
        }
        op.type = i < writes ? OpType::Write : last;
        op.rsn = rsn;
        const bool big =
                large && i == large_at && op.type != OpType::Send && op.type != OpType::SendImm;
        op.len = big ? pick_large() : pick_size(limits_.max_size);
        if (op.type == OpType::Write || op.type == OpType::WriteImm)
            op.remote_off = alloc_write(op.len);
        op.ends_group = i == writes;
        pending_.push_back(op);
    }
}

} // namespace mrc::stress
