// SPDX-License-Identifier: BSD-2-Clause
// mrc_nl_check - the kernel side of the "mrc" generic netlink family, spoken raw (no libnl), so
// the selftests can check what a well-behaved client (mrcctl) never sends:
//
//     mrc_nl_check [-u] WHAT ...             -u: as user nobody
//     mrc_nl_check dev                       dev-get dump, one line per device
//     mrc_nl_check dev-get INDEX             dev-get do
//     mrc_nl_check paths [INDEX]             path-get dump, one line per EV
//     mrc_nl_check qps [INDEX]               qp-stats-get dump, one line per QP
//     mrc_nl_check monitor SECONDS           ev-events for that long, one line per event
//     mrc_nl_check send [-d] OP ATTR...      any request; ATTR is u8:T=V, u16:T=V, u32:T=V,
//                                            u64:T=V, str:T=S, hex:T=HEX (raw bytes),
//                                            in6:T=ADDR, flag:T, nest:T{ ... } (own words)
//
//     dev index=0 name=mrcsta ev_max=4096 profiles_max=1 fmt_modes=4 ev_modes=1 plane id=1 ...
//     error ERANGE (Numerical result out of range): mrc: EV index beyond the path set's EVs
//
// OP is an operation's name in the spec (dev-get, ev-set, ...). Replies to send are counted
// ("ok 3 messages"); refusals print errno's name and the kernel's extack message.
// Exit status: 0 on success, 1 when the kernel refused, 2 for bad usage.
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool_genl.h"

namespace {

using mrc::tool::genl_attrs;
using mrc::tool::genl_resolve;
using mrc::tool::GenlAttr;
using mrc::tool::GenlFamily;
using mrc::tool::GenlMsg;
using mrc::tool::GenlSock;
using mrc::tool::GenlStatus;

struct Op {
    std::string_view name;
    std::uint8_t cmd;
};

constexpr std::array kOps{
        Op{"dev-get", MRC_CMD_DEV_GET},
        Op{"plane-add", MRC_CMD_PLANE_ADD},
        Op{"plane-del", MRC_CMD_PLANE_DEL},
        Op{"plane-set", MRC_CMD_PLANE_SET},
        Op{"ev-fmt-profile-new", MRC_CMD_EV_FMT_PROFILE_NEW},
        Op{"ev-fmt-profile-set", MRC_CMD_EV_FMT_PROFILE_SET},
        Op{"ev-fmt-profile-get", MRC_CMD_EV_FMT_PROFILE_GET},
        Op{"ev-fmt-profile-del", MRC_CMD_EV_FMT_PROFILE_DEL},
        Op{"ev-profile-new", MRC_CMD_EV_PROFILE_NEW},
        Op{"ev-profile-set", MRC_CMD_EV_PROFILE_SET},
        Op{"ev-profile-get", MRC_CMD_EV_PROFILE_GET},
        Op{"ev-profile-del", MRC_CMD_EV_PROFILE_DEL},
        Op{"path-get", MRC_CMD_PATH_GET},
        Op{"ev-set", MRC_CMD_EV_SET},
        Op{"probe", MRC_CMD_PROBE},
        Op{"qp-stats-get", MRC_CMD_QP_STATS_GET},
        Op{"dev-set", MRC_CMD_DEV_SET},
        Op{"qp-stall-reset", MRC_CMD_QP_STALL_RESET},
};

// name=value for each attribute @names knows, in the message's order (nests: the caller).
struct Field {
    std::uint16_t type;
    const char *name;
    char kind; // u: unsigned, s: string, x: hex, 6: IPv6, n: nest (printed by the caller)
};

std::string fields(const std::vector<GenlAttr> &as, const std::vector<Field> &names) {
    std::string out;
    for (const GenlAttr &a : as) {
        for (const Field &f : names) {
            if (f.type != a.type || f.kind == 'n')
                continue;
            out += ' ';
            out += f.name;
            out += '=';
            if (f.kind == 'u')
                out += std::to_string(a.uint());
            else if (f.kind == 's')
                out += a.str();
            else if (f.kind == 'x')
                out += a.hex();
            else
                out += a.in6();
        }
    }
    return out;
}

const std::vector<Field> kPlane{{MRC_A_PLANE_ID, "id", 'u'},
                                {MRC_A_PLANE_IFINDEX, "ifindex", 'u'},
                                {MRC_A_PLANE_IFNAME, "ifname", 's'},
                                {MRC_A_PLANE_ADMIN_UP, "admin_up", 'u'}};
const std::vector<Field> kDev{{MRC_A_DEV_INDEX, "index", 'u'},
                              {MRC_A_DEV_NAME, "name", 's'},
                              {MRC_A_DEV_EV_MAX, "ev_max", 'u'},
                              {MRC_A_DEV_PROFILES_MAX, "profiles_max", 'u'},
                              {MRC_A_DEV_FMT_MODES, "fmt_modes", 'u'},
                              {MRC_A_DEV_EV_MODES, "ev_modes", 'u'},
                              {MRC_A_DEV_DEFAULT_PROFILE, "default_profile", 'u'}};
const std::vector<Field> kPath{{MRC_A_PATH_DEV_INDEX, "dev", 'u'},
                               {MRC_A_PATH_PROFILE_ID, "profile", 'u'},
                               {MRC_A_PATH_DST, "dst", '6'},
                               {MRC_A_PATH_GOOD, "good", 'u'}};
const std::vector<Field> kEv{{MRC_A_EV_INDEX, "ev", 'u'},
                             {MRC_A_EV_BYTES, "bytes", 'x'},
                             {MRC_A_EV_PLANE, "plane", 'u'},
                             {MRC_A_EV_WEIGHT, "weight", 'u'},
                             {MRC_A_EV_STATE, "state", 'u'},
                             {MRC_A_EV_REASON, "reason", 'u'},
                             {MRC_A_EV_CHANGED_NS, "changed_ns", 'u'},
                             {MRC_A_EV_PACKETS, "packets", 'u'},
                             {MRC_A_EV_ACKED, "acked", 'u'},
                             {MRC_A_EV_LOSSES, "losses", 'u'},
                             {MRC_A_EV_RTT_NS, "rtt_ns", 'u'}};
const std::vector<Field> kQp{{MRC_A_QP_STATS_DEV_INDEX, "dev", 'u'},
                             {MRC_A_QP_STATS_QPN, "qpn", 'u'},
                             {MRC_A_QP_STATS_PROFILE_ID, "profile", 'u'},
                             {MRC_A_QP_STATS_PACKETS, "packets", 'u'},
                             {MRC_A_QP_STATS_RETRANSMITS, "retransmits", 'u'},
                             {MRC_A_QP_STATS_TIMEOUTS, "timeouts", 'u'}};
const std::vector<Field> kEvent{
        {MRC_A_EV_EVENT_DEV_INDEX, "dev", 'u'}, {MRC_A_EV_EVENT_PROFILE_ID, "profile", 'u'},
        {MRC_A_EV_EVENT_DST, "dst", '6'},       {MRC_A_EV_EVENT_EV_INDEX, "ev", 'u'},
        {MRC_A_EV_EVENT_FROM, "from", 'u'},     {MRC_A_EV_EVENT_TO, "to", 'u'},
        {MRC_A_EV_EVENT_REASON, "reason", 'u'}, {MRC_A_EV_EVENT_TIME_NS, "time_ns", 'u'}};

// How to print one reply message of an operation, or nothing (send counts them).
std::string describe(std::uint8_t cmd, const std::vector<GenlAttr> &as) {
    std::string line;
    switch (cmd) {
    case MRC_CMD_DEV_GET:
        line = "dev" + fields(as, kDev);
        for (const GenlAttr &a : as)
            if (a.type == MRC_A_DEV_PLANES)
                line += " plane" + fields(genl_attrs(a.data, a.len), kPlane);
        break;
    case MRC_CMD_PATH_GET:
        line = "path" + fields(as, kPath);
        for (const GenlAttr &a : as)
            if (a.type == MRC_A_PATH_EV)
                line += fields(genl_attrs(a.data, a.len), kEv);
        break;
    case MRC_CMD_QP_STATS_GET:
        line = "qp" + fields(as, kQp);
        break;
    case MRC_CMD_EV_EVENT:
        line = "event" + fields(as, kEvent);
        break;
    default:
        break;
    }
    return line;
}

int report(int err, const std::string &why) {
    if (!err)
        return 0;
    const char *name = strerrorname_np(-err);
    std::printf("error %s (%s): %s\n", name ? name : "?", std::strerror(-err),
                why.empty() ? "<no message>" : why.c_str());
    return 1;
}

// The family's id and its ev-events group, from the controller.
bool resolve(GenlSock &s, std::uint16_t &family, std::uint32_t &group) {
    GenlFamily f;
    const GenlStatus st = genl_resolve(s, MRC_FAMILY_NAME, f);
    family = f.id;
    group = 0;
    for (const auto &[name, id] : f.groups)
        if (name == MRC_MCGRP_EV_EVENTS)
            group = id;
    if (st.err) {
        report(st.err, st.why);
        return false;
    }
    return true;
}

// Appends ATTR words from @argv[@i] on to @m until the end or a closing "}".
bool parse_attrs(GenlMsg &m, int argc, char **argv, int &i) {
    for (; i < argc; i++) {
        const std::string w = argv[i];
        if (w == "}")
            return true;
        const auto colon = w.find(':');
        const auto eq = w.find_first_of("={", colon);
        if (colon == std::string::npos || (eq == std::string::npos && w.substr(0, colon) != "flag"))
            return false;
        const std::string kind = w.substr(0, colon);
        const auto type = static_cast<std::uint16_t>(
                std::strtoul(w.substr(colon + 1, eq - colon - 1).c_str(), nullptr, 0));
        const std::string val = eq == std::string::npos ? "" : w.substr(eq + 1);
        const std::uint64_t num = std::strtoull(val.c_str(), nullptr, 0);
        if (kind == "u8") {
            const auto v = static_cast<std::uint8_t>(num);
            m.put(type, &v, sizeof(v));
        } else if (kind == "u16") {
            const auto v = static_cast<std::uint16_t>(num);
            m.put(type, &v, sizeof(v));
        } else if (kind == "u32") {
            const auto v = static_cast<std::uint32_t>(num);
            m.put(type, &v, sizeof(v));
        } else if (kind == "u64") {
            m.put(type, &num, sizeof(num));
        } else if (kind == "str") {
            m.put(type, val.c_str(), val.size() + 1);
        } else if (kind == "flag") {
            m.put(type, nullptr, 0);
        } else if (kind == "hex") {
            std::vector<unsigned char> b;
            for (std::size_t k = 0; k + 1 < val.size(); k += 2)
                b.push_back(static_cast<unsigned char>(
                        std::strtoul(val.substr(k, 2).c_str(), nullptr, 16)));
            m.put(type, b.data(), b.size());
        } else if (kind == "in6") {
            std::array<unsigned char, 16> a{};
            if (inet_pton(AF_INET6, val.c_str(), a.data()) != 1)
                return false;
            m.put(type, a.data(), a.size());
        } else if (kind == "nest" && w[eq] == '{') {
            const std::size_t at = m.nest_start(type);
            if (!parse_attrs(m, argc, argv, ++i) || i >= argc)
                return false;
            m.nest_end(at);
        } else {
            return false;
        }
    }
    return true;
}

int usage() {
    std::fprintf(stderr, "usage: mrc_nl_check [-u] dev | dev-get INDEX | paths [INDEX] | "
                         "qps [INDEX] | monitor SECONDS | send [-d] OP ATTR...\n");
    return 2;
}

// A request and its replies: one line per reply message, or (@count) just their number.
int request(GenlSock &s, GenlMsg &m, bool count) {
    unsigned int n = 0;
    if (!s.send(m))
        return report(-errno, "send");
    const GenlStatus st = s.replies([&](std::uint8_t c, const std::vector<GenlAttr> &as) {
        n++;
        if (!count)
            std::printf("%s\n", describe(c, as).c_str());
    });
    if (st.err)
        return report(st.err, st.why);
    if (count)
        std::printf("ok %u messages\n", n);
    return 0;
}

int monitor(GenlSock &s, std::uint32_t group, int seconds) {
    if (setsockopt(s.fd(), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)))
        return report(-errno, "join ev-events");
    std::printf("listening\n");
    std::fflush(stdout);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    std::vector<char> buf(1 << 16);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                end - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return 0;
        pollfd p{s.fd(), POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        const ssize_t n = recv(s.fd(), buf.data(), buf.size(), 0);
        if (n < static_cast<ssize_t>(NLMSG_HDRLEN + GENL_HDRLEN))
            continue;
        nlmsghdr h{};
        std::memcpy(&h, buf.data(), sizeof(h));
        genlmsghdr g{};
        std::memcpy(&g, buf.data() + NLMSG_HDRLEN, sizeof(g));
        const std::size_t len = std::min<std::size_t>(h.nlmsg_len, static_cast<std::size_t>(n));
        std::printf("%s\n", describe(g.cmd, genl_attrs(buf.data() + NLMSG_HDRLEN + GENL_HDRLEN,
                                                       len - NLMSG_HDRLEN - GENL_HDRLEN))
                                    .c_str());
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char **argv) {
    // -u: as nobody, whose requests that change anything must be refused (before the socket:
    // the kernel checks the opener's credentials too)
    if (argc > 1 && std::string_view(argv[1]) == "-u") {
        if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
            return report(-errno, "cannot become nobody");
        argv++;
        argc--;
    }
    if (argc < 2)
        return usage();
    GenlSock s;
    std::uint16_t family = 0;
    std::uint32_t group = 0;
    if (s.fd() < 0 || !resolve(s, family, group))
        return 1;
    const std::string what = argv[1];
    const auto dump_flags = static_cast<std::uint16_t>(NLM_F_REQUEST | NLM_F_DUMP);

    if (what == "dev" || what == "paths" || what == "qps" || what == "dev-get") {
        const bool dump = what != "dev-get";
        std::uint8_t cmd = MRC_CMD_DEV_GET;
        std::uint16_t index_attr = MRC_A_DEV_INDEX;
        if (what == "paths") {
            cmd = MRC_CMD_PATH_GET;
            index_attr = MRC_A_PATH_DEV_INDEX;
        } else if (what == "qps") {
            cmd = MRC_CMD_QP_STATS_GET;
            index_attr = MRC_A_QP_STATS_DEV_INDEX;
        }
        GenlMsg m(family, dump ? dump_flags : NLM_F_REQUEST | NLM_F_ACK, cmd);
        if (argc > 2) {
            const auto index = static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 0));
            m.put(index_attr, &index, sizeof(index));
        } else if (!dump) {
            return usage();
        }
        return request(s, m, false);
    }
    if (what == "monitor" && argc == 3)
        return monitor(s, group, std::atoi(argv[2]));
    if (what == "send" && argc >= 3) {
        int i = 2;
        const bool dump = std::string_view(argv[i]) == "-d";
        if (dump)
            i++;
        if (i >= argc)
            return usage();
        const std::string_view opname = argv[i++];
        const Op *op = nullptr;
        for (const Op &o : kOps)
            if (o.name == opname)
                op = &o;
        if (!op)
            return usage();
        GenlMsg m(family, dump ? dump_flags : NLM_F_REQUEST | NLM_F_ACK, op->cmd);
        if (!parse_attrs(m, argc, argv, i) || i < argc)
            return usage();
        return request(s, m, true);
    }
    return usage();
}
