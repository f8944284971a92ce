// SPDX-License-Identifier: BSD-2-Clause
// attr_view.cc - checked reads of received attributes.
#include "attr_view.h"

#include <cstring>
#include <netlink/attr.h>

namespace mrc::ctl {

AttrView::AttrView(const nlattr *head, int len) {
    const nlattr *a = head;
    int rem = len;
    while (a && nla_ok(a, rem)) {
        attrs_.push_back(a);
        a = nla_next(a, &rem);
    }
}

AttrView AttrView::nested(const nlattr *a) {
    if (!a)
        return {nullptr, 0};
    return {static_cast<const nlattr *>(nla_data(a)), nla_len(a)};
}

const nlattr *AttrView::find(std::uint16_t type) const {
    for (const nlattr *a : attrs_)
        if (nla_type(a) == type)
            return a;
    return nullptr;
}

std::vector<const nlattr *> AttrView::all(std::uint16_t type) const {
    std::vector<const nlattr *> out;
    for (const nlattr *a : attrs_)
        if (nla_type(a) == type)
            out.push_back(a);
    return out;
}

namespace {

template <typename T> std::optional<T> read(const nlattr *a) {
    if (!a || nla_len(a) < static_cast<int>(sizeof(T)))
        return std::nullopt;
    T v{};
    std::memcpy(&v, nla_data(a), sizeof(T));
    return v;
}

} // namespace

std::optional<std::uint32_t> AttrView::u8(std::uint16_t type) const {
    const auto v = read<std::uint8_t>(find(type));
    return v ? std::optional<std::uint32_t>(*v) : std::nullopt;
}

std::optional<std::uint32_t> AttrView::u32(std::uint16_t type) const {
    return read<std::uint32_t>(find(type));
}

std::optional<std::uint64_t> AttrView::u64(std::uint16_t type) const {
    return read<std::uint64_t>(find(type));
}

std::vector<std::uint8_t> AttrView::bytes(std::uint16_t type) const {
    const nlattr *a = find(type);
    if (!a)
        return {};
    const auto *p = static_cast<const std::uint8_t *>(nla_data(a));
    return {p, p + nla_len(a)};
}

std::string AttrView::str(std::uint16_t type) const {
    const nlattr *a = find(type);
    if (!a)
        return {};
    const auto *p = static_cast<const char *>(nla_data(a));
    return {p, strnlen(p, static_cast<std::size_t>(nla_len(a)))};
}

} // namespace mrc::ctl
