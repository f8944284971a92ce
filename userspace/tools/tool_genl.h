// SPDX-License-Identifier: BSD-2-Clause
// tool_genl.h - generic netlink spoken raw (no libnl), for the tools that send the kernel what a
// well-behaved client never would: messages built byte by byte, replies walked attribute by
// attribute, the kernel's errno and extack message returned as they came.
#ifndef MRC_TOOL_GENL_H
#define MRC_TOOL_GENL_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mrc::tool {

// One netlink message under construction; attributes appended in place.
class GenlMsg {
public:
    GenlMsg(std::uint16_t type, std::uint16_t flags, std::uint8_t cmd);

    void put(std::uint16_t type, const void *data, std::size_t len);
    std::size_t nest_start(std::uint16_t type); // NLA_F_NESTED set
    void nest_end(std::size_t at);

    // The bytes to send: header length and sequence number filled in.
    std::vector<char> &finish(std::uint32_t seq);
    // The bytes as they stand, for a caller that mutates them before finish().
    std::vector<char> &bytes() { return buf_; }

private:
    std::vector<char> buf_;
};

// One attribute of a received message, pointing into its buffer.
struct GenlAttr {
    std::uint16_t type; // NLA_TYPE_MASK applied
    const char *data;
    std::size_t len;

    [[nodiscard]] std::uint64_t uint() const; // 1, 2, 4 or 8 bytes; else 0
    [[nodiscard]] std::string str() const;
    [[nodiscard]] std::string hex() const;
    [[nodiscard]] std::string in6() const;
};

// The attributes in @len bytes at @p, up to the first malformed one.
std::vector<GenlAttr> genl_attrs(const char *p, std::size_t len);

// What ended a request: 0 or a -errno, and the extack message if the kernel gave one.
struct GenlStatus {
    int err = 0;
    std::string why;
};

// A NETLINK_GENERIC socket with extended ACKs and capped ACKs (the refused request is not
// echoed back).
class GenlSock {
public:
    GenlSock();
    GenlSock(const GenlSock &) = delete;
    GenlSock &operator=(const GenlSock &) = delete;
    GenlSock(GenlSock &&) = delete;
    GenlSock &operator=(GenlSock &&) = delete;
    ~GenlSock();

    [[nodiscard]] int fd() const { return fd_; }
    [[nodiscard]] std::uint32_t seq() const { return seq_; }

    bool send(GenlMsg &m);
    // Sends @bytes as they are (their header's sequence number set to the next one).
    bool send_raw(std::vector<char> &bytes);

    // Reads the replies to the last request, calling @each per message (its genl command and
    // attributes), until its NLMSG_ERROR or NLMSG_DONE. A recv error (a timeout included)
    // ends it with that -errno.
    using Each = std::function<void(std::uint8_t, const std::vector<GenlAttr> &)>;
    [[nodiscard]] GenlStatus replies(const Each &each) const;

private:
    int fd_;
    std::uint32_t seq_ = 0;
};

// A family's id and its operations (id and GENL_* flags), from the controller.
struct GenlFamily {
    std::uint16_t id = 0;
    struct Op {
        std::uint32_t cmd;
        std::uint32_t flags;
    };
    std::vector<Op> ops;
    std::vector<std::pair<std::string, std::uint32_t>> groups; // multicast: name, id
};
GenlStatus genl_resolve(GenlSock &s, const char *name, GenlFamily &out);

} // namespace mrc::tool

#endif // MRC_TOOL_GENL_H
