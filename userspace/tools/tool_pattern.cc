// SPDX-License-Identifier: BSD-2-Clause
#include "tool_pattern.h"

#include <bit>
#include <cstring>

namespace mrc::tool {

namespace {

std::byte pattern_byte(std::uint64_t key, std::uint64_t i) {
    const std::uint64_t word = mix64(key + i / 8);
    return static_cast<std::byte>((word >> (8 * (i % 8))) & 0xffU);
}

// Whole words in host (little-endian on every host we run on) order; checked by the tests.
std::uint64_t pattern_word(std::uint64_t key, std::uint64_t word_index) {
    std::uint64_t w = mix64(key + word_index);
    if constexpr (std::endian::native == std::endian::big)
        w = __builtin_bswap64(w);
    return w;
}

} // namespace

void pattern_fill(std::span<std::byte> buf, std::uint64_t key, std::uint64_t offset) {
    std::size_t i = 0;
    for (; i < buf.size() && (offset + i) % 8 != 0; i++)
        buf[i] = pattern_byte(key, offset + i);
    for (; i + 8 <= buf.size(); i += 8) {
        const std::uint64_t w = pattern_word(key, (offset + i) / 8);
        std::memcpy(&buf[i], &w, sizeof(w));
    }
    for (; i < buf.size(); i++)
        buf[i] = pattern_byte(key, offset + i);
}

std::size_t pattern_check(std::span<const std::byte> buf, std::uint64_t key, std::uint64_t offset) {
    std::size_t i = 0;
    for (; i < buf.size() && (offset + i) % 8 != 0; i++)
        if (buf[i] != pattern_byte(key, offset + i))
            return i;
    for (; i + 8 <= buf.size(); i += 8) {
        const std::uint64_t w = pattern_word(key, (offset + i) / 8);
        if (std::memcmp(&buf[i], &w, sizeof(w)) != 0)
            break; // find the byte below
    }
    for (; i < buf.size(); i++)
        if (buf[i] != pattern_byte(key, offset + i))
            return i;
    return buf.size();
}

} // namespace mrc::tool
