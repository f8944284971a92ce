// SPDX-License-Identifier: BSD-2-Clause
// parse_dev.cc - the dev and plane objects.
#include "names.h"
#include "parse_common.h"

#include <array>
#include <net/if.h>

namespace mrc::ctl {

namespace {

// dev show [DEV]
Invocation dev_show(Args &args) {
    Invocation inv = invocation(Action::DevShow, MRC_CMD_DEV_GET, true);
    if (!args.empty()) {
        inv.dev = parse_dev(args.next("DEV"));
        inv.dev_attr = MRC_A_DEV_INDEX;
        inv.request.dump = false;
    }
    if (!args.empty())
        throw UsageError("dev show: unexpected '" + std::string(args.peek()) + "'");
    return inv;
}

// dev set dev DEV default-profile ID: the EV profile of the device's new path sets (new QPs).
Invocation dev_set(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_DEV_SET, false);
    KeywordLoop kw(args, "dev set");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_DEV_INDEX);
        } else if (k == "default-profile") {
            kw.once(k);
            inv.request.add(Attr::u32(MRC_A_DEV_DEFAULT_PROFILE,
                                      parse_u32(kw.value(k), 0, UINT32_MAX, "default-profile")));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("default-profile", "ID");
    return inv;
}

constexpr std::array dev_commands{Command{"show", dev_show}, Command{"list", dev_show},
                                  Command{"set", dev_set}};

// plane show [dev DEV]: the planes from dev-get (the family has no plane-get).
Invocation plane_show(Args &args) {
    Invocation inv = invocation(Action::PlaneShow, MRC_CMD_DEV_GET, true);
    KeywordLoop kw(args, "plane show");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k != "dev")
            kw.unknown(k);
        take_dev(kw, inv, MRC_A_DEV_INDEX);
        inv.request.dump = false;
    }
    return inv;
}

std::uint32_t plane_id(std::string_view word) {
    return parse_u32(word, 1, 16, "plane id");
}

std::uint32_t netdev_index(std::string_view name) {
    if (name.empty() || name.size() >= IF_NAMESIZE)
        throw UsageError("invalid netdev '" + std::string(name) + "'");
    const unsigned int ifindex = if_nametoindex(std::string(name).c_str());
    if (ifindex == 0)
        throw UsageError("unknown netdev '" + std::string(name) + "'");
    return ifindex;
}

// plane add dev DEV id N netdev IFNAME
Invocation plane_add(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_PLANE_ADD, false);
    KeywordLoop kw(args, "plane add");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PLANE_DEV_INDEX);
        } else if (k == "id") {
            kw.once(k);
            inv.request.add(Attr::u8(MRC_A_PLANE_ID, plane_id(kw.value(k))));
        } else if (k == "netdev") {
            kw.once(k);
            inv.request.add(Attr::u32(MRC_A_PLANE_IFINDEX, netdev_index(kw.value(k))));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("id", "N");
    kw.require("netdev", "IFNAME");
    return inv;
}

// plane del dev DEV id N
Invocation plane_del(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_PLANE_DEL, false);
    KeywordLoop kw(args, "plane del");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PLANE_DEV_INDEX);
        } else if (k == "id") {
            kw.once(k);
            inv.request.add(Attr::u8(MRC_A_PLANE_ID, plane_id(kw.value(k))));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("id", "N");
    return inv;
}

// plane set dev DEV id N admin up|down
Invocation plane_set(Args &args) {
    Invocation inv = invocation(Action::Change, MRC_CMD_PLANE_SET, false);
    KeywordLoop kw(args, "plane set");
    for (auto k = kw.next(); !k.empty(); k = kw.next()) {
        if (k == "dev") {
            take_dev(kw, inv, MRC_A_PLANE_DEV_INDEX);
        } else if (k == "id") {
            kw.once(k);
            inv.request.add(Attr::u8(MRC_A_PLANE_ID, plane_id(kw.value(k))));
        } else if (k == "admin") {
            kw.once(k);
            const auto up = parse_keyword(kw.value(k), names::up_down, "admin state");
            inv.request.add(Attr::u8(MRC_A_PLANE_ADMIN_UP, static_cast<std::uint8_t>(up)));
        } else {
            kw.unknown(k);
        }
    }
    kw.require("dev", "DEV");
    kw.require("id", "N");
    kw.require("admin", "up|down");
    return inv;
}

constexpr std::array plane_commands{Command{"show", plane_show}, Command{"list", plane_show},
                                    Command{"add", plane_add}, Command{"del", plane_del},
                                    Command{"set", plane_set}};

} // namespace

const Object dev_object{"dev", dev_commands,
                        "dev show [DEV]\n"
                        "dev set dev DEV default-profile ID\n",
                        "show"};

const Object plane_object{"plane", plane_commands,
                          "plane show [dev DEV]\n"
                          "plane add dev DEV id N netdev IFNAME\n"
                          "plane del dev DEV id N\n"
                          "plane set dev DEV id N admin { up | down }\n",
                          "show"};

} // namespace mrc::ctl
