// SPDX-License-Identifier: BSD-2-Clause
// genl.h - the transport: a libnl-genl socket bound to the "mrc" family, one request at a time
// (do or dump) with its replies, errors with the kernel's extack message, and the ev-events
// multicast group. libnl calls back in C: nothing thrown inside a callback leaves it.
#ifndef MRC_CTL_GENL_H
#define MRC_CTL_GENL_H

#include "attr_view.h"
#include "request.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

struct nl_sock;

namespace mrc::ctl {

// Multicast messages were dropped (the socket's buffer overran); the socket still works.
class EventsLost : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One received message of the family: its command and top-level attributes.
struct Reply {
    std::uint8_t cmd;
    AttrView attrs;
};
using ReplyFn = std::function<void(const Reply &)>;

class Genl {
public:
    Genl(); // connects and resolves the family; throws Failure
    Genl(const Genl &) = delete;
    Genl &operator=(const Genl &) = delete;
    Genl(Genl &&) = delete;
    Genl &operator=(Genl &&) = delete;
    ~Genl();

    // Sends REQ and hands every reply to ON_REPLY until the ACK or the end of the dump.
    // A refusal throws Failure with the extack message, or strerror when there is none.
    void transact(const Request &req, const ReplyFn &on_reply);

    // Joins multicast group GROUP of the family (for monitor).
    void subscribe(const std::string &group);
    [[nodiscard]] int fd() const;
    // Reads what is waiting and hands each message to ON_MESSAGE.
    void receive(const ReplyFn &on_message);

private:
    struct SockFree {
        void operator()(nl_sock *s) const;
    };
    std::unique_ptr<nl_sock, SockFree> sock_;
    int family_ = 0;
};

} // namespace mrc::ctl

#endif
