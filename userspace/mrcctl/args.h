// SPDX-License-Identifier: BSD-2-Clause
// args.h - mrcctl's command-line words: a cursor over them and the parsers of one value each
// (numbers in a range, EV bytes in hex, destination addresses, keywords). Every refusal is a
// UsageError whose text is the one line mrcctl prints.
#ifndef MRC_CTL_ARGS_H
#define MRC_CTL_ARGS_H

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mrc::ctl {

// Input refused before anything is sent (exit status 2).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A failure after parsing: the kernel's refusal, an unknown device, a socket error (exit 1).
class Failure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An IPv6 address, IPv4 as ::ffff:a.b.c.d, as the family carries it.
using Addr16 = std::array<std::uint8_t, 16>;

// The words after OBJECT COMMAND, consumed left to right.
class Args {
public:
    explicit Args(std::span<const std::string> words) : words_(words) {}
    [[nodiscard]] bool empty() const { return pos_ >= words_.size(); }
    [[nodiscard]] std::string_view peek() const;
    // The next word; a UsageError naming WHAT when there is none.
    std::string_view next(std::string_view what);
    // The value after KEYWORD (already consumed), refused when missing.
    std::string_view value_of(std::string_view keyword);

private:
    std::span<const std::string> words_;
    std::size_t pos_ = 0;
};

// A decimal (or 0x hex) number from MIN to MAX; WHAT names it in the refusal.
std::uint64_t parse_number(std::string_view word, std::uint64_t min, std::uint64_t max,
                           std::string_view what);
std::uint32_t parse_u32(std::string_view word, std::uint32_t min, std::uint32_t max,
                        std::string_view what);

// EV bytes: hex digits, most significant byte first, optionally 0x-prefixed and ':'-separated
// per byte; 1 to 32 bytes.
std::vector<std::uint8_t> parse_ev_bytes(std::string_view word);

// An IPv6 or IPv4 address as 16 bytes.
Addr16 parse_addr(std::string_view word);
// Its printable form: dotted quad for IPv4-mapped, else RFC 5952 IPv6.
std::string format_addr(std::span<const std::uint8_t> addr);

// A keyword out of a small table of (name, value).
using Keywords = std::initializer_list<std::pair<std::string_view, std::uint32_t>>;
std::uint32_t parse_keyword(std::string_view word, Keywords table, std::string_view what);
// The name of VALUE in TABLE, or "unknown(N)".
std::string keyword_name(std::uint32_t value, Keywords table);

// A device: an rdma device name or its index.
struct DevRef {
    std::string name; // empty when given by index
    std::uint32_t index = 0;
};
DevRef parse_dev(std::string_view word);

} // namespace mrc::ctl

#endif
