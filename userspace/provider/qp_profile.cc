// SPDX-License-Identifier: BSD-2-Clause
// qp_profile.cc - see qp_profile.h.
#include "qp_profile.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <string_view>

struct mrc_qp_profile mrc_qp_profile_from_env(const char *text) {
    mrc_qp_profile profile{};
    if (text == nullptr)
        return profile;
    const std::string_view s(text);
    std::uint32_t id = 0;
    // from_chars takes no sign, no space and no base prefix: "1" is the only way to say 1
    const auto [end, err] = std::from_chars(s.data(), s.data() + s.size(), id, 10);
    if (s.empty() || err != std::errc() || end != s.data() + s.size()) {
        profile.bad = true;
        return profile;
    }
    profile.named = true;
    profile.id = id;
    return profile;
}

int mrc_qp_profile_from_attr(const struct mrcdv_qp_init_attr *attr, struct mrc_qp_profile env,
                             struct mrc_qp_profile *out) {
    constexpr std::uint64_t kKnown = MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE;
    *out = env;
    if (attr == nullptr)
        return 0;
    if ((attr->comp_mask & ~kKnown) != 0 || attr->reserved != 0)
        return EINVAL;
    if ((attr->comp_mask & MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE) != 0)
        *out = mrc_qp_profile{.named = true, .bad = false, .id = attr->ev_profile_id};
    return 0;
}
