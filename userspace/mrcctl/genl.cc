// SPDX-License-Identifier: BSD-2-Clause
// genl.cc - requests and replies over libnl-genl-3, with extack.
#include "genl.h"

#include "args.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <linux/mrc.h>

namespace mrc::ctl {

namespace {

struct MsgFree {
    void operator()(nl_msg *m) const { nlmsg_free(m); }
};
struct CbFree {
    void operator()(nl_cb *c) const { nl_cb_put(c); }
};
using MsgPtr = std::unique_ptr<nl_msg, MsgFree>;
using CbPtr = std::unique_ptr<nl_cb, CbFree>;

void put(nl_msg *msg, const Attr &a) {
    int rc = 0;
    switch (a.kind) {
    case Attr::Kind::U8:
        rc = nla_put_u8(msg, a.type, static_cast<std::uint8_t>(a.num));
        break;
    case Attr::Kind::U32:
        rc = nla_put_u32(msg, a.type, static_cast<std::uint32_t>(a.num));
        break;
    case Attr::Kind::U64:
        rc = nla_put_u64(msg, a.type, a.num);
        break;
    case Attr::Kind::Binary:
        rc = nla_put(msg, a.type, static_cast<int>(a.data.size()), a.data.data());
        break;
    case Attr::Kind::String:
        rc = nla_put_string(msg, a.type, a.str.c_str());
        break;
    case Attr::Kind::Flag:
        rc = nla_put_flag(msg, a.type);
        break;
    case Attr::Kind::Nest: {
        nlattr *nest = nla_nest_start(msg, a.type);
        if (!nest)
            throw Failure("request too large");
        for (const Attr &inner : a.nested)
            put(msg, inner);
        rc = nla_nest_end(msg, nest);
        break;
    }
    }
    if (rc < 0)
        throw Failure("request too large");
}

// What the callbacks of one transaction found.
struct State {
    const ReplyFn *on_reply = nullptr;
    bool done = false;
    int error = 0;       // negative errno from the kernel
    std::string message; // its extack message
    std::exception_ptr thrown;
};

// The extack message in the TLVs at [P, P + LEN).
std::string extack_message(const unsigned char *p, int len) {
    const AttrView tlvs(reinterpret_cast<const nlattr *>(p), len);
    return tlvs.str(NLMSGERR_ATTR_MSG);
}

int on_valid(nl_msg *msg, void *arg) {
    auto *st = static_cast<State *>(arg);
    try {
        nlmsghdr *nlh = nlmsg_hdr(msg);
        const auto *g = static_cast<const genlmsghdr *>(nlmsg_data(nlh));
        const Reply r{g->cmd, AttrView(genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0))};
        if (st->on_reply && *st->on_reply)
            (*st->on_reply)(r);
        return NL_OK;
    } catch (...) {
        st->thrown = std::current_exception();
        st->done = true;
        return NL_STOP;
    }
}

int on_error(sockaddr_nl * /*from*/, nlmsgerr *err, void *arg) {
    auto *st = static_cast<State *>(arg);
    st->error = err->error;
    st->done = true;
    try {
        const auto *base = reinterpret_cast<const unsigned char *>(err);
        const auto *nlh = reinterpret_cast<const nlmsghdr *>(base - NLMSG_HDRLEN);
        if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
            std::size_t off = sizeof(*err);
            if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
                off += err->msg.nlmsg_len - NLMSG_HDRLEN;
            const auto total = static_cast<std::size_t>(nlh->nlmsg_len) - NLMSG_HDRLEN;
            if (off < total)
                st->message = extack_message(base + off, static_cast<int>(total - off));
        }
    } catch (...) {
        st->thrown = std::current_exception();
    }
    return NL_STOP;
}

int on_ack(nl_msg * /*msg*/, void *arg) {
    static_cast<State *>(arg)->done = true;
    return NL_STOP;
}

// NLMSG_DONE ends a dump; an error found while dumping rides in it (with extack TLVs).
int on_finish(nl_msg *msg, void *arg) {
    auto *st = static_cast<State *>(arg);
    st->done = true;
    const nlmsghdr *nlh = nlmsg_hdr(msg);
    const auto len = static_cast<std::size_t>(nlh->nlmsg_len) - NLMSG_HDRLEN;
    if (len >= sizeof(int)) {
        int err = 0;
        std::memcpy(&err, nlmsg_data(nlh), sizeof(err));
        if (err < 0) {
            st->error = err;
            if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
                try {
                    st->message = extack_message(
                            static_cast<const unsigned char *>(nlmsg_data(nlh)) + sizeof(int),
                            static_cast<int>(len - sizeof(int)));
                } catch (...) {
                    st->thrown = std::current_exception();
                }
            }
        }
    }
    return NL_STOP;
}

// Events carry no sequence number of ours.
int any_seq(nl_msg * /*msg*/, void * /*arg*/) {
    return NL_OK;
}

[[noreturn]] void refused(const State &st) {
    if (!st.message.empty())
        throw Failure(st.message);
    throw Failure(std::strerror(-st.error));
}

} // namespace

void Genl::SockFree::operator()(nl_sock *s) const {
    nl_socket_free(s);
}

Genl::Genl() : sock_(nl_socket_alloc()) {
    if (!sock_)
        throw Failure("cannot allocate a netlink socket");
    if (const int rc = genl_connect(sock_.get()); rc < 0)
        throw Failure(std::string("cannot open a generic netlink socket: ") + nl_geterror(rc));
    const int one = 1;
    setsockopt(fd(), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
    setsockopt(fd(), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
    family_ = genl_ctrl_resolve(sock_.get(), MRC_FAMILY_NAME);
    if (family_ < 0)
        throw Failure("no generic netlink family \"mrc\" (is mrc.ko loaded?)");
}

Genl::~Genl() = default;

int Genl::fd() const {
    return nl_socket_get_fd(sock_.get());
}

void Genl::transact(const Request &req, const ReplyFn &on_reply) {
    // the headers, the attributes, and room to spare: no request is refused for its size
    const std::size_t size = NLMSG_HDRLEN + GENL_HDRLEN + request_wire_size(req) + 256;
    MsgPtr msg(nlmsg_alloc_size(std::max<std::size_t>(size, 4096)));
    if (!msg)
        throw Failure("out of memory");
    if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, req.dump ? NLM_F_DUMP : 0,
                     req.cmd, MRC_FAMILY_VERSION))
        throw Failure("request too large");
    for (const Attr &a : req.attrs)
        put(msg.get(), a);

    CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb)
        throw Failure("out of memory");
    State st;
    st.on_reply = &on_reply;
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
    nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &st);
    nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &st);
    nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &st);

    // A do is answered by an ACK; a dump ends with NLMSG_DONE, and an ACK asked for as well
    // could be left behind for the next request to trip over.
    if (req.dump)
        nl_socket_disable_auto_ack(sock_.get());
    else
        nl_socket_enable_auto_ack(sock_.get());
    if (const int rc = nl_send_auto(sock_.get(), msg.get()); rc < 0)
        throw Failure(std::string("cannot send the request: ") + nl_geterror(rc));
    while (!st.done) {
        const int rc = nl_recvmsgs(sock_.get(), cb.get());
        if (rc < 0 && !st.done)
            throw Failure(std::string("cannot read the reply: ") + nl_geterror(rc));
    }
    if (st.thrown)
        std::rethrow_exception(st.thrown);
    if (st.error < 0)
        refused(st);
}

void Genl::subscribe(const std::string &group) {
    const int id = genl_ctrl_resolve_grp(sock_.get(), MRC_FAMILY_NAME, group.c_str());
    if (id < 0)
        throw Failure("no multicast group \"" + group + "\" in the mrc family");
    nl_socket_disable_seq_check(sock_.get());
    nl_socket_set_buffer_size(sock_.get(), 1 << 20, 0); // bursts of EV changes
    if (const int rc = nl_socket_add_membership(sock_.get(), id); rc < 0)
        throw Failure(std::string("cannot join \"") + group + "\": " + nl_geterror(rc));
}

void Genl::receive(const ReplyFn &on_message) {
    CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb)
        throw Failure("out of memory");
    State st;
    st.on_reply = &on_message;
    nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, any_seq, nullptr);
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
    const int rc = nl_recvmsgs(sock_.get(), cb.get());
    if (rc == -NLE_NOMEM && !st.thrown) // ENOBUFS: the kernel dropped events for us
        throw EventsLost("events lost: receive buffer overrun");
    if (rc < 0 && !st.thrown)
        throw Failure(std::string("cannot read events: ") + nl_geterror(rc));
    if (st.thrown)
        std::rethrow_exception(st.thrown);
}

} // namespace mrc::ctl
