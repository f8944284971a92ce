// SPDX-License-Identifier: BSD-2-Clause
// devices.cc - device names and indexes.
#include "devices.h"

#include <algorithm>

namespace mrc::ctl {

std::uint32_t resolve_dev(std::span<const DevInfo> devs, const DevRef &ref) {
    const auto it = std::ranges::find_if(devs, [&ref](const DevInfo &d) {
        return ref.name.empty() ? d.index == ref.index : d.name == ref.name;
    });
    if (it == devs.end())
        throw Failure("unknown device '" +
                      (ref.name.empty() ? std::to_string(ref.index) : ref.name) + "'");
    return it->index;
}

} // namespace mrc::ctl
