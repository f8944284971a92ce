// SPDX-License-Identifier: BSD-2-Clause
// attr_view.h - read-only access to the attributes of a received netlink message or nest, with
// every length checked (the kernel's reply is trusted no more than it has to be).
#ifndef MRC_CTL_ATTR_VIEW_H
#define MRC_CTL_ATTR_VIEW_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct nlattr;

namespace mrc::ctl {

class AttrView {
public:
    // The attributes in [HEAD, HEAD + LEN).
    AttrView(const nlattr *head, int len);
    // The attributes inside nest A.
    static AttrView nested(const nlattr *a);

    [[nodiscard]] const nlattr *find(std::uint16_t type) const;
    [[nodiscard]] std::vector<const nlattr *> all(std::uint16_t type) const;
    [[nodiscard]] std::optional<std::uint32_t> u8(std::uint16_t type) const;
    [[nodiscard]] std::optional<std::uint32_t> u32(std::uint16_t type) const;
    [[nodiscard]] std::optional<std::uint64_t> u64(std::uint16_t type) const;
    [[nodiscard]] std::vector<std::uint8_t> bytes(std::uint16_t type) const;
    [[nodiscard]] std::string str(std::uint16_t type) const;
    [[nodiscard]] bool has(std::uint16_t type) const { return find(type) != nullptr; }

private:
    std::vector<const nlattr *> attrs_;
};

} // namespace mrc::ctl

#endif
