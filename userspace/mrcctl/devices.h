// SPDX-License-Identifier: BSD-2-Clause
// devices.h - a DEV argument (name or index) resolved against a dev-get dump.
#ifndef MRC_CTL_DEVICES_H
#define MRC_CTL_DEVICES_H

#include "args.h"
#include "model.h"

#include <cstdint>
#include <span>

namespace mrc::ctl {

// The index of the device REF names among DEVS; Failure("unknown device ...") when none.
std::uint32_t resolve_dev(std::span<const DevInfo> devs, const DevRef &ref);

} // namespace mrc::ctl

#endif
