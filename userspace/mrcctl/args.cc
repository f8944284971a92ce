// SPDX-License-Identifier: BSD-2-Clause
// args.cc - parsers of single command-line values.
#include "args.h"

#include <arpa/inet.h>
#include <charconv>
#include <cstring>
#include <netinet/in.h>

namespace mrc::ctl {

namespace {

std::string quoted(std::string_view word) {
    return "'" + std::string(word) + "'";
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::string_view Args::peek() const {
    return empty() ? std::string_view{} : words_[pos_];
}

std::string_view Args::next(std::string_view what) {
    if (empty())
        throw UsageError("missing " + std::string(what));
    return words_[pos_++];
}

std::string_view Args::value_of(std::string_view keyword) {
    if (empty())
        throw UsageError("missing value after '" + std::string(keyword) + "'");
    return words_[pos_++];
}

std::uint64_t parse_number(std::string_view word, std::uint64_t min, std::uint64_t max,
                           std::string_view what) {
    const std::string range = "expected " + std::string(what) + " from " + std::to_string(min) +
                              " to " + std::to_string(max);
    int base = 10;
    std::string_view digits = word;
    if (digits.starts_with("0x") || digits.starts_with("0X")) {
        base = 16;
        digits.remove_prefix(2);
    }
    std::uint64_t v = 0;
    const char *end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, v, base);
    if (digits.empty() || ptr != end || ec == std::errc::invalid_argument)
        throw UsageError("invalid " + std::string(what) + " " + quoted(word) + ": " + range);
    if (ec == std::errc::result_out_of_range || v < min || v > max)
        throw UsageError(std::string(what) + " " + quoted(word) + " out of range: " + range);
    return v;
}

std::uint32_t parse_u32(std::string_view word, std::uint32_t min, std::uint32_t max,
                        std::string_view what) {
    return static_cast<std::uint32_t>(parse_number(word, min, max, what));
}

namespace {

// Whether @word reads as IPv6 text rather than hex bytes: it has "::", a ',' or a group of
// more than two digits between colons (hex bytes come in pairs).
bool looks_like_ipv6(std::string_view word) {
    if (word.find("::") != std::string_view::npos || word.find(',') != std::string_view::npos)
        return true;
    std::size_t group = 0;
    for (const char c : word) {
        group = c == ':' ? 0 : group + 1;
        if (group > 2 && word.find(':') != std::string_view::npos)
            return true;
    }
    return false;
}

// An SRV6 EV as text: the destination, optionally ",SEGMENT".
std::vector<std::uint8_t> parse_ev_addrs(std::string_view word, const std::string &bad) {
    std::vector<std::uint8_t> out;
    std::string_view rest = word;
    for (int n = 0; n < 2; n++) {
        const std::size_t comma = rest.find(',');
        const std::string text(rest.substr(0, comma));
        in6_addr a{};
        if (inet_pton(AF_INET6, text.c_str(), &a) != 1)
            throw UsageError(bad + quoted(text) + " is no IPv6 address");
        out.insert(out.end(), a.s6_addr, a.s6_addr + sizeof(a.s6_addr));
        if (comma == std::string_view::npos)
            return out;
        rest.remove_prefix(comma + 1);
    }
    throw UsageError(bad + "at most two IPv6 addresses (destination,segment)");
}

} // namespace

std::vector<std::uint8_t> parse_ev_bytes(std::string_view word) {
    constexpr std::size_t max_bytes = 32;
    const std::string bad = "invalid EV bytes " + quoted(word) + ": ";
    if (looks_like_ipv6(word))
        return parse_ev_addrs(word, bad);
    std::string_view hex = word;
    if (hex.starts_with("0x") || hex.starts_with("0X"))
        hex.remove_prefix(2);
    std::vector<std::uint8_t> out;
    std::size_t i = 0;
    bool after_byte = false; // a ':' may only separate two bytes
    while (i < hex.size()) {
        if (hex[i] == ':') {
            if (!after_byte || i + 1 == hex.size())
                throw UsageError(bad + "misplaced ':'");
            after_byte = false;
            ++i;
            continue;
        }
        after_byte = true;
        const int hi = hex_digit(hex[i]);
        const int lo = i + 1 < hex.size() ? hex_digit(hex[i + 1]) : -2;
        if (hi < 0 || lo == -1)
            throw UsageError(bad + "expected hex digits");
        if (lo == -2)
            throw UsageError(bad + "odd number of hex digits");
        out.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
        if (out.size() > max_bytes)
            throw UsageError(bad + "more than 32 bytes");
        i += 2;
    }
    if (out.empty())
        throw UsageError(bad + "expected 1 to 32 bytes in hex");
    return out;
}

Addr16 parse_addr(std::string_view word) {
    const std::string s(word);
    Addr16 a{};
    in6_addr a6{};
    in_addr a4{};
    if (inet_pton(AF_INET6, s.c_str(), &a6) == 1) {
        std::memcpy(a.data(), &a6, a.size());
    } else if (inet_pton(AF_INET, s.c_str(), &a4) == 1) {
        a[10] = 0xff;
        a[11] = 0xff;
        std::memcpy(&a[12], &a4, 4);
    } else {
        throw UsageError("invalid address " + quoted(word) + ": expected IPv6 or IPv4");
    }
    return a;
}

std::string format_addr(std::span<const std::uint8_t> addr) {
    if (addr.size() != 16)
        return "?";
    std::array<char, INET6_ADDRSTRLEN> buf{};
    static constexpr std::array<std::uint8_t, 12> mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::equal(mapped.begin(), mapped.end(), addr.begin()))
        inet_ntop(AF_INET, &addr[12], buf.data(), buf.size());
    else
        inet_ntop(AF_INET6, addr.data(), buf.data(), buf.size());
    return buf.data();
}

std::uint32_t parse_keyword(std::string_view word, Keywords table, std::string_view what) {
    std::string choices;
    for (const auto &[name, value] : table) {
        if (name == word)
            return value;
        choices += (choices.empty() ? "" : "|") + std::string(name);
    }
    throw UsageError("invalid " + std::string(what) + " " + quoted(word) + ": expected " + choices);
}

std::string keyword_name(std::uint32_t value, Keywords table) {
    for (const auto &[name, v] : table)
        if (v == value)
            return std::string(name);
    return "unknown(" + std::to_string(value) + ")";
}

DevRef parse_dev(std::string_view word) {
    constexpr std::size_t max_name = 63;
    if (word.empty())
        throw UsageError("invalid device '': expected a name or an index");
    if (word.find_first_not_of("0123456789") == std::string_view::npos)
        return {.name = {}, .index = parse_u32(word, 0, UINT32_MAX, "device index")};
    if (word.size() > max_name)
        throw UsageError("invalid device '" + std::string(word) + "': name longer than 63");
    return {.name = std::string(word), .index = 0};
}

} // namespace mrc::ctl
