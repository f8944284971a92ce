// SPDX-License-Identifier: BSD-2-Clause
// tool_genl.cc - generic netlink spoken raw: see tool_genl.h.
#include "tool_genl.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mrc::tool {

GenlMsg::GenlMsg(std::uint16_t type, std::uint16_t flags, std::uint8_t cmd)
    : buf_(NLMSG_HDRLEN + GENL_HDRLEN) {
    nlmsghdr h{};
    h.nlmsg_type = type;
    h.nlmsg_flags = flags;
    std::memcpy(buf_.data(), &h, sizeof(h));
    genlmsghdr g{};
    g.cmd = cmd;
    g.version = 1;
    std::memcpy(buf_.data() + NLMSG_HDRLEN, &g, sizeof(g));
}

void GenlMsg::put(std::uint16_t type, const void *data, std::size_t len) {
    const std::size_t at = buf_.size();
    buf_.resize(at + NLA_ALIGN(NLA_HDRLEN + len));
    nlattr a{};
    a.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + len);
    a.nla_type = type;
    std::memcpy(buf_.data() + at, &a, sizeof(a));
    if (len)
        std::memcpy(buf_.data() + at + NLA_HDRLEN, data, len);
}

std::size_t GenlMsg::nest_start(std::uint16_t type) {
    const std::size_t at = buf_.size();
    put(static_cast<std::uint16_t>(type | NLA_F_NESTED), nullptr, 0);
    return at;
}

void GenlMsg::nest_end(std::size_t at) {
    const auto len = static_cast<std::uint16_t>(buf_.size() - at);
    std::memcpy(buf_.data() + at, &len, sizeof(len));
}

std::vector<char> &GenlMsg::finish(std::uint32_t seq) {
    nlmsghdr h{};
    std::memcpy(&h, buf_.data(), sizeof(h));
    h.nlmsg_len = static_cast<std::uint32_t>(buf_.size());
    h.nlmsg_seq = seq;
    std::memcpy(buf_.data(), &h, sizeof(h));
    return buf_;
}

std::uint64_t GenlAttr::uint() const {
    std::uint64_t v = 0;
    if (len == 1) {
        v = static_cast<std::uint8_t>(*data);
    } else if (len == 2) {
        std::uint16_t x = 0;
        std::memcpy(&x, data, 2);
        v = x;
    } else if (len == 4) {
        std::uint32_t x = 0;
        std::memcpy(&x, data, 4);
        v = x;
    } else if (len == 8) {
        std::memcpy(&v, data, 8);
    }
    return v;
}

std::string GenlAttr::str() const {
    return {data, strnlen(data, len)};
}

std::string GenlAttr::hex() const {
    std::string s;
    std::array<char, 3> b{};
    for (std::size_t i = 0; i < len; i++) {
        std::snprintf(b.data(), b.size(), "%02x", static_cast<unsigned char>(data[i]));
        s += b.data();
    }
    return s;
}

std::string GenlAttr::in6() const {
    std::array<char, INET6_ADDRSTRLEN> b{};
    if (len != 16 || !inet_ntop(AF_INET6, data, b.data(), b.size()))
        return "?";
    return b.data();
}

std::vector<GenlAttr> genl_attrs(const char *p, std::size_t len) {
    std::vector<GenlAttr> out;
    while (len >= NLA_HDRLEN) {
        nlattr a{};
        std::memcpy(&a, p, sizeof(a));
        if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
            break;
        out.push_back({static_cast<std::uint16_t>(a.nla_type & NLA_TYPE_MASK), p + NLA_HDRLEN,
                       a.nla_len - std::size_t{NLA_HDRLEN}});
        const std::size_t step = NLA_ALIGN(a.nla_len);
        if (step >= len)
            break;
        p += step;
        len -= step;
    }
    return out;
}

GenlSock::GenlSock() : fd_(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC)) {
    const int one = 1;
    if (fd_ >= 0) {
        setsockopt(fd_, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
        setsockopt(fd_, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
    }
}

GenlSock::~GenlSock() {
    if (fd_ >= 0)
        close(fd_);
}

// (send_raw numbers the message)
bool GenlSock::send(GenlMsg &m) {
    return send_raw(m.finish(0));
}

bool GenlSock::send_raw(std::vector<char> &bytes) {
    ++seq_;
    if (bytes.size() >= NLMSG_HDRLEN) {
        nlmsghdr h{};
        std::memcpy(&h, bytes.data(), sizeof(h));
        h.nlmsg_seq = seq_;
        std::memcpy(bytes.data(), &h, sizeof(h));
    }
    return ::send(fd_, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size());
}

namespace {

// The status an NLMSG_ERROR or NLMSG_DONE message at @p (@h its header) carries.
GenlStatus end_status(const char *p, const nlmsghdr &h) {
    GenlStatus st;
    if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(int))
        return {-EBADMSG, "short status message"};
    std::memcpy(&st.err, p + NLMSG_HDRLEN, sizeof(st.err));
    const std::size_t skip = h.nlmsg_type == NLMSG_ERROR ? NLMSG_HDRLEN + sizeof(nlmsgerr)
                                                         : NLMSG_HDRLEN + sizeof(int);
    if (h.nlmsg_len <= skip)
        return st;
    for (const GenlAttr &a : genl_attrs(p + skip, h.nlmsg_len - skip)) {
        if (a.type == NLMSGERR_ATTR_MSG)
            st.why = a.str();
    }
    return st;
}

} // namespace

GenlStatus GenlSock::replies(const Each &each) const {
    std::vector<char> buf(1 << 17);
    for (;;) {
        const ssize_t n = recv(fd_, buf.data(), buf.size(), 0);
        if (n < 0)
            return {-errno, {}};
        auto left = static_cast<std::size_t>(n);
        for (const char *p = buf.data(); left >= NLMSG_HDRLEN;) {
            nlmsghdr h{};
            std::memcpy(&h, p, sizeof(h));
            if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > left)
                return {-EBADMSG, "malformed reply"};
            // a reply to an earlier request (one given up on) is not this one's
            if (h.nlmsg_seq == seq_) {
                if (h.nlmsg_type == NLMSG_ERROR || h.nlmsg_type == NLMSG_DONE)
                    return end_status(p, h);
                if (h.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN) {
                    genlmsghdr g{};
                    std::memcpy(&g, p + NLMSG_HDRLEN, sizeof(g));
                    each(g.cmd, genl_attrs(p + NLMSG_HDRLEN + GENL_HDRLEN,
                                           h.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN));
                }
            }
            const std::size_t step = NLMSG_ALIGN(h.nlmsg_len);
            if (step >= left)
                break;
            p += step;
            left -= step;
        }
    }
}

GenlStatus genl_resolve(GenlSock &s, const char *name, GenlFamily &out) {
    GenlMsg m(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY);
    m.put(CTRL_ATTR_FAMILY_NAME, name, std::strlen(name) + 1);
    out = {};
    if (!s.send(m))
        return {-errno, "send"};
    GenlStatus st = s.replies([&](std::uint8_t, const std::vector<GenlAttr> &as) {
        for (const GenlAttr &a : as) {
            if (a.type == CTRL_ATTR_FAMILY_ID)
                out.id = static_cast<std::uint16_t>(a.uint());
            if (a.type == CTRL_ATTR_OPS) {
                for (const GenlAttr &o : genl_attrs(a.data, a.len)) {
                    GenlFamily::Op op{};
                    for (const GenlAttr &f : genl_attrs(o.data, o.len)) {
                        if (f.type == CTRL_ATTR_OP_ID)
                            op.cmd = static_cast<std::uint32_t>(f.uint());
                        if (f.type == CTRL_ATTR_OP_FLAGS)
                            op.flags = static_cast<std::uint32_t>(f.uint());
                    }
                    out.ops.push_back(op);
                }
            }
            if (a.type != CTRL_ATTR_MCAST_GROUPS)
                continue;
            for (const GenlAttr &g : genl_attrs(a.data, a.len)) {
                std::uint32_t id = 0;
                std::string gname;
                for (const GenlAttr &f : genl_attrs(g.data, g.len)) {
                    if (f.type == CTRL_ATTR_MCAST_GRP_ID)
                        id = static_cast<std::uint32_t>(f.uint());
                    if (f.type == CTRL_ATTR_MCAST_GRP_NAME)
                        gname = f.str();
                }
                out.groups.emplace_back(gname, id);
            }
        }
    });
    if (!st.err && !out.id)
        st = {-ENOENT, std::string("no family ") + name};
    return st;
}

} // namespace mrc::tool
