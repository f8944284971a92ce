// SPDX-License-Identifier: BSD-2-Clause
// tool_pattern.h - deterministic data for mrc's verbs test tools: a seeded random generator both
// ends can replay, and byte patterns any range of which can be written or checked on its own.
#ifndef MRC_TOOL_PATTERN_H
#define MRC_TOOL_PATTERN_H

#include <cstddef>
#include <cstdint>
#include <span>

namespace mrc::tool {

// SplitMix64's output function: a bijection that scatters every input bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30U;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27U;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31U;
    return x;
}

// The key of one pattern stream, from everything that names it.
constexpr std::uint64_t pattern_key(std::uint64_t seed, std::uint64_t kind, std::uint64_t side,
                                    std::uint64_t qp, std::uint64_t index) {
    std::uint64_t k = mix64(seed + 0x9e3779b97f4a7c15ULL);
    k = mix64(k ^ (kind << 48U) ^ (side << 40U) ^ (qp << 24U));
    return mix64(k ^ index);
}

// Byte i of stream @key is byte (i % 8), little-endian, of mix64(key + i / 8). These write and
// check bytes [offset, offset + buf.size()) of the stream.
void pattern_fill(std::span<std::byte> buf, std::uint64_t key, std::uint64_t offset);
// Index into @buf of the first byte that differs, or buf.size() when all match.
std::size_t pattern_check(std::span<const std::byte> buf, std::uint64_t key, std::uint64_t offset);

// A small seeded generator (SplitMix64): the same seed gives the same sequence on both ends.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix64(state_);
    }
    // Uniform in [0, n); n > 0.
    std::uint64_t below(std::uint64_t n) { return next() % n; }
    // Uniform in [lo, hi].
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }

private:
    std::uint64_t state_;
};

} // namespace mrc::tool

#endif // MRC_TOOL_PATTERN_H
