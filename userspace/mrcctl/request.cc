// SPDX-License-Identifier: BSD-2-Clause
// request.cc - look-ups in a request's attribute tree.
#include "request.h"

#include <algorithm>

namespace mrc::ctl {

const Attr *find_attr(std::span<const Attr> attrs, std::uint16_t type) {
    const auto it = std::ranges::find_if(attrs, [type](const Attr &a) { return a.type == type; });
    return it == attrs.end() ? nullptr : &*it;
}

std::size_t count_attr(std::span<const Attr> attrs, std::uint16_t type) {
    return static_cast<std::size_t>(
            std::ranges::count_if(attrs, [type](const Attr &a) { return a.type == type; }));
}

} // namespace mrc::ctl
