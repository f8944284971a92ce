// SPDX-License-Identifier: BSD-2-Clause
// request.h - a generic netlink request as plain data: the command, dump or do, and a tree of
// attributes. The parser builds one, the tests look into it, and the transport (genl.cc) turns
// it into a netlink message; so what is sent can be checked without a kernel.
#ifndef MRC_CTL_REQUEST_H
#define MRC_CTL_REQUEST_H

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mrc::ctl {

struct Attr {
    enum class Kind : std::uint8_t { U8, U32, U64, Binary, String, Flag, Nest };
    std::uint16_t type = 0;
    Kind kind = Kind::U32;
    std::uint64_t num = 0;          // U8, U32, U64
    std::vector<std::uint8_t> data; // Binary
    std::string str;                // String
    std::vector<Attr> nested;       // Nest

    static Attr u8(std::uint16_t type, std::uint8_t v) { return {type, Kind::U8, v, {}, {}, {}}; }
    static Attr u32(std::uint16_t type, std::uint32_t v) {
        return {type, Kind::U32, v, {}, {}, {}};
    }
    static Attr u64(std::uint16_t type, std::uint64_t v) {
        return {type, Kind::U64, v, {}, {}, {}};
    }
    static Attr binary(std::uint16_t type, std::span<const std::uint8_t> v) {
        return {type, Kind::Binary, 0, {v.begin(), v.end()}, {}, {}};
    }
    static Attr string(std::uint16_t type, std::string v) {
        return {type, Kind::String, 0, {}, std::move(v), {}};
    }
    static Attr flag(std::uint16_t type) { return {type, Kind::Flag, 0, {}, {}, {}}; }
    static Attr nest(std::uint16_t type, std::vector<Attr> inner) {
        return {type, Kind::Nest, 0, {}, {}, std::move(inner)};
    }
};

// The first attribute of TYPE in ATTRS, or nullptr.
const Attr *find_attr(std::span<const Attr> attrs, std::uint16_t type);
// How many attributes of TYPE ATTRS holds.
std::size_t count_attr(std::span<const Attr> attrs, std::uint16_t type);

struct Request {
    std::uint8_t cmd = 0;
    bool dump = false;
    std::vector<Attr> attrs;

    void add(Attr a) { attrs.push_back(std::move(a)); }
    [[nodiscard]] const Attr *find(std::uint16_t type) const { return find_attr(attrs, type); }
};

// Bytes attribute A takes in a netlink message, header and padding included.
std::size_t attr_wire_size(const Attr &a);
// Bytes the attributes of REQ take after the netlink and genetlink headers (an explicit
// profile of 4096 EVs needs far more than libnl's default message of one page).
std::size_t request_wire_size(const Request &req);

} // namespace mrc::ctl

#endif
