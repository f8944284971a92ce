// SPDX-License-Identifier: BSD-2-Clause
// request.cc - look-ups in a request's attribute tree.
#include "request.h"

#include <algorithm>

#include <linux/netlink.h>

namespace mrc::ctl {

const Attr *find_attr(std::span<const Attr> attrs, std::uint16_t type) {
    const auto it = std::ranges::find_if(attrs, [type](const Attr &a) { return a.type == type; });
    return it == attrs.end() ? nullptr : &*it;
}

std::size_t count_attr(std::span<const Attr> attrs, std::uint16_t type) {
    return static_cast<std::size_t>(
            std::ranges::count_if(attrs, [type](const Attr &a) { return a.type == type; }));
}

std::size_t attr_wire_size(const Attr &a) {
    std::size_t payload = 0;
    switch (a.kind) {
    case Attr::Kind::U8:
        payload = 1;
        break;
    case Attr::Kind::U32:
        payload = 4;
        break;
    case Attr::Kind::U64:
        payload = 8;
        break;
    case Attr::Kind::Binary:
        payload = a.data.size();
        break;
    case Attr::Kind::String:
        payload = a.str.size() + 1;
        break;
    case Attr::Kind::Flag:
        break;
    case Attr::Kind::Nest:
        for (const Attr &inner : a.nested)
            payload += attr_wire_size(inner);
        break;
    }
    return NLA_ALIGN(NLA_HDRLEN + payload);
}

std::size_t request_wire_size(const Request &req) {
    std::size_t size = 0;
    for (const Attr &a : req.attrs)
        size += attr_wire_size(a);
    return size;
}

} // namespace mrc::ctl
