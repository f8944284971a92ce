// SPDX-License-Identifier: BSD-2-Clause
// mrc_nl_fuzz - hostile requests to a generic netlink family (by default "mrc"), generated from
// what the kernel itself says of the family:
//
//     mrc_nl_fuzz [-u] [--seed N] [--count N] [--family NAME] [--show N] [--why]
//
// It learns the family's operations (CTRL_CMD_GETFAMILY), every attribute policy of them
// (CTRL_CMD_GETPOLICY) and a dictionary of the values its dumps show (device indices, profile
// and plane ids, names, EV bytes), and then sends COUNT requests. Each is an operation's do or
// dump (sometimes the one it has not, or a command the family has not) with attributes built
// from the policy: values at and beyond its bounds, from the dictionary, at random; lengths
// wrong; nests without their flag or deeper than asked; arrays of hundreds of entries;
// attributes repeated or unknown; then bit flips or a cut in the finished bytes. Some dumps
// are abandoned after their first part, the socket closed under them.
//
// Every request must be answered (within 15 s: the longest a request may wait by the family's
// policies is a probe's 10 s) by well-formed replies, and every refusal must say why: an
// errno with an extack message. The exceptions are the genetlink core's own
// refusals, made before the family sees the request: EOPNOTSUPP for a command or a do/dump
// the family has not, and EPERM for an admin operation of an unprivileged user.
// -u: as user nobody, whom no admin operation may be granted.
//
// Prints a summary (per operation: sent, accepted, refused by errno) and the first SHOW
// findings (default 10), each with its request in hex; --why: every extack message the
// refusals gave, counted per operation. Exit status 0 when every check held,
// 1 on a finding, 2 for bad usage.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tool_genl.h"

namespace {

using mrc::tool::genl_attrs;
using mrc::tool::GenlAttr;
using mrc::tool::GenlFamily;
using mrc::tool::GenlMsg;
using mrc::tool::GenlSock;
using mrc::tool::GenlStatus;

// How long a request may go unanswered: past the longest wait the family's policies allow (a
// probe's timeout-ms, at most 10 s).
constexpr time_t kReplySeconds = 15;

// One attribute's policy, as the kernel dumps it (linux/netlink.h, NL_POLICY_TYPE_ATTR_*).
// A signed attribute's bounds are not kept: the values come from the unsigned ones (the
// "mrc" family has no signed attribute).
struct AttrPolicy {
    std::uint32_t type = NL_ATTR_TYPE_INVALID;
    std::uint64_t min_u = 0, max_u = UINT64_MAX;
    std::uint32_t min_len = 0, max_len = 0;
    std::uint64_t mask = 0;
    std::uint32_t nested = UINT32_MAX; // policy index of a nest's or an array's entries
};
using Policy = std::map<std::uint16_t, AttrPolicy>; // by attribute type

struct OpInfo {
    std::uint32_t cmd = 0;
    std::uint32_t flags = 0;
    std::uint32_t do_policy = UINT32_MAX, dump_policy = UINT32_MAX;
};

struct Family {
    GenlFamily genl;
    std::vector<OpInfo> ops;
    std::map<std::uint32_t, Policy> policies;
};

void read_policy_attr(AttrPolicy &p, const GenlAttr &f) {
    switch (f.type) {
    case NL_POLICY_TYPE_ATTR_TYPE:
        p.type = static_cast<std::uint32_t>(f.uint());
        break;
    case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
        p.min_u = f.uint();
        break;
    case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
        p.max_u = f.uint();
        break;
    case NL_POLICY_TYPE_ATTR_MIN_LENGTH:
        p.min_len = static_cast<std::uint32_t>(f.uint());
        break;
    case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
        p.max_len = static_cast<std::uint32_t>(f.uint());
        break;
    case NL_POLICY_TYPE_ATTR_MASK:
        p.mask = f.uint();
        break;
    case NL_POLICY_TYPE_ATTR_POLICY_IDX:
        p.nested = static_cast<std::uint32_t>(f.uint());
        break;
    default:
        break;
    }
}

// CTRL_ATTR_OP_POLICY: per operation, the policies its do and its dump parse with.
void read_op_policies(Family &fam, const GenlAttr &a) {
    for (const GenlAttr &op : genl_attrs(a.data, a.len)) {
        const auto o = std::find_if(fam.ops.begin(), fam.ops.end(),
                                    [&](const OpInfo &x) { return x.cmd == op.type; });
        if (o == fam.ops.end())
            continue;
        for (const GenlAttr &f : genl_attrs(op.data, op.len)) {
            const auto idx = static_cast<std::uint32_t>(f.uint());
            if (f.type == CTRL_ATTR_POLICY_DO)
                o->do_policy = idx;
            if (f.type == CTRL_ATTR_POLICY_DUMP)
                o->dump_policy = idx;
        }
    }
}

// CTRL_ATTR_POLICY: policy index -> attribute type -> that attribute's policy.
void read_policies(Family &fam, const GenlAttr &a) {
    for (const GenlAttr &pol : genl_attrs(a.data, a.len)) {
        for (const GenlAttr &attr : genl_attrs(pol.data, pol.len)) {
            AttrPolicy &p = fam.policies[pol.type][attr.type];
            for (const GenlAttr &f : genl_attrs(attr.data, attr.len))
                read_policy_attr(p, f);
        }
    }
}

// The family's operations and policies, from CTRL_CMD_GETFAMILY and CTRL_CMD_GETPOLICY.
GenlStatus learn_family(GenlSock &s, const char *name, Family &fam) {
    GenlStatus st = genl_resolve(s, name, fam.genl);
    if (st.err)
        return st;
    for (const GenlFamily::Op &o : fam.genl.ops)
        fam.ops.push_back({o.cmd, o.flags});
    GenlMsg m(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, CTRL_CMD_GETPOLICY);
    m.put(CTRL_ATTR_FAMILY_ID, &fam.genl.id, sizeof(fam.genl.id));
    if (!s.send(m))
        return {-errno, "send"};
    return s.replies([&](std::uint8_t, const std::vector<GenlAttr> &as) {
        for (const GenlAttr &a : as) {
            if (a.type == CTRL_ATTR_OP_POLICY)
                read_op_policies(fam, a);
            if (a.type == CTRL_ATTR_POLICY)
                read_policies(fam, a);
        }
    });
}

// Values the family's dumps showed, by attribute type and length: a request built from them
// names objects that exist, so it gets past the lookups to the code behind them. Attribute
// numbers restart in every attribute set, so one (type, length) gathers values of several
// meanings (type 1 is a device index in most sets, an EV index in one); a pick first draws
// where the value was seen (the dump, the nest), so the meaning seen in most places -- the
// device index -- is not drowned by one place's 256 EV indices.
class Dictionary {
public:
    void learn(const std::vector<GenlAttr> &as, const std::string &where, int depth = 0) {
        for (const GenlAttr &a : as) {
            const std::string here = where + '/' + std::to_string(a.type);
            auto &vals = seen_[{a.type, a.len}][here];
            if (vals.size() < 64)
                vals.insert(std::string(a.data, a.len));
            // a nest parses whole; anything else is a value only
            if (depth < 4 && a.len >= NLA_HDRLEN && parses_whole(a))
                learn(genl_attrs(a.data, a.len), here, depth + 1);
        }
    }
    // A value seen for attribute @type of @len bytes (len 0: any length), if any.
    template <typename Rng>
    bool pick(std::uint16_t type, std::size_t len, Rng &rng, std::string &out) const {
        std::vector<const std::set<std::string> *> places;
        for (const auto &[key, by_place] : seen_) {
            if (key.first != type || (len != 0 && key.second != len))
                continue;
            for (const auto &[where, vals] : by_place)
                places.push_back(&vals);
        }
        if (places.empty())
            return false;
        const auto &vals =
                *places[std::uniform_int_distribution<std::size_t>(0, places.size() - 1)(rng)];
        auto it = vals.begin();
        std::advance(it, std::uniform_int_distribution<std::size_t>(0, vals.size() - 1)(rng));
        out = *it;
        return true;
    }
    void clear() { seen_.clear(); }

private:
    static bool parses_whole(const GenlAttr &a) {
        std::size_t used = 0;
        for (const GenlAttr &in : genl_attrs(a.data, a.len))
            used = static_cast<std::size_t>(in.data - a.data) + in.len;
        return NLA_ALIGN(used) == NLA_ALIGN(a.len);
    }
    using Places = std::map<std::string, std::set<std::string>>;
    std::map<std::pair<std::uint16_t, std::size_t>, Places> seen_;
};

struct Tally {
    unsigned long sent = 0, ok = 0;
    std::map<int, unsigned long> refused;     // by errno
    std::map<std::string, unsigned long> why; // by extack message
};

class Fuzzer {
public:
    Fuzzer(Family &fam, std::uint64_t seed, bool unprivileged, unsigned int show, bool why)
        : fam_(fam), rng_(seed), unprivileged_(unprivileged), show_(show), why_(why) {}

    // Dumps every operation that dumps, into the dictionary (a refused dump adds nothing).
    void learn_dictionary() {
        dict_.clear();
        for (const OpInfo &o : fam_.ops) {
            if ((o.flags & GENL_CMD_CAP_DUMP) == 0)
                continue;
            GenlMsg m(fam_.genl.id, NLM_F_REQUEST | NLM_F_DUMP, static_cast<std::uint8_t>(o.cmd));
            if (!sock_->send(m))
                continue;
            const GenlStatus st =
                    sock_->replies([&](std::uint8_t, const std::vector<GenlAttr> &as) {
                        dict_.learn(as, std::to_string(o.cmd));
                    });
            if (st.err == -EAGAIN)
                fresh_socket();
        }
    }

    void run(unsigned long count) {
        for (unsigned long i = 0; i < count; i++) {
            if (i % 2000 == 0)
                learn_dictionary();
            one();
        }
    }

    // A new socket (an abandoned dump, a lost reply: the old one's state goes with it).
    void fresh_socket() {
        sock_ = std::make_unique<GenlSock>();
        timeval tv{kReplySeconds, 0};
        setsockopt(sock_->fd(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    }

    [[nodiscard]] unsigned long findings() const { return findings_; }

    void summary(unsigned long count, double secs) const {
        unsigned long ok = 0;
        unsigned long refused = 0;
        for (const auto &[cmd, t] : tally_) {
            ok += t.ok;
            for (const auto &[err, n] : t.refused)
                refused += n;
        }
        std::printf("mrc_nl_fuzz: %lu requests in %.1f s: %lu accepted, %lu refused, %lu dumps "
                    "abandoned, %lu findings\n",
                    count, secs, ok, refused, abandoned_, findings_);
        unsigned long unknown = 0;
        for (const auto &[cmd, t] : tally_) {
            if (find_op(cmd) == nullptr) { // refused by the core, EOPNOTSUPP (else a finding)
                unknown += t.sent;
                continue;
            }
            std::printf("  cmd %u: sent %lu, accepted %lu", cmd, t.sent, t.ok);
            for (const auto &[err, n] : t.refused) {
                const char *name = strerrorname_np(err);
                std::printf(", %s %lu", name ? name : "?", n);
            }
            std::printf("\n");
            for (const auto &[msg, n] : t.why)
                std::printf("    %lu: %s\n", n, msg.empty() ? "<no message>" : msg.c_str());
        }
        std::printf("  commands the family has not: sent %lu\n", unknown);
    }

private:
    template <typename T> T uniform(T lo, T hi) {
        return std::uniform_int_distribution<T>(lo, hi)(rng_);
    }
    bool chance(unsigned int percent) { return uniform(0U, 99U) < percent; }

    // A value seen in the dumps for attributes of @type and @width bytes, if any.
    bool seen_int(std::uint16_t type, std::size_t width, std::uint64_t &v) {
        std::string seen;
        if (!dict_.pick(type, width, rng_, seen))
            return false;
        v = 0;
        std::memcpy(&v, seen.data(), std::min(seen.size(), sizeof(v)));
        return true;
    }

    std::uint64_t int_value(std::uint16_t type, const AttrPolicy &p, std::size_t width) {
        const std::uint64_t all = width >= 8 ? UINT64_MAX : (1ULL << (width * 8)) - 1;
        std::uint64_t v = 0;
        if (tame_) { // what exists, or a small value in range
            if (chance(50) && seen_int(type, width, v))
                return v;
            if (p.mask != 0)
                return rng_() & p.mask;
            return std::min(p.min_u + uniform(0, 8), p.max_u) & all;
        }
        switch (uniform(0, 9)) {
        case 0:
            return 0;
        case 1:
            return p.min_u;
        case 2:
            return p.max_u & all;
        case 3:
            return p.min_u - 1;
        case 4:
            return p.max_u + 1;
        case 5:
            return all;
        case 6:
            return p.mask ? (rng_() & p.mask) | (chance(20) ? rng_() : 0) : uniform(0, 8);
        case 7:
        case 8:
            return seen_int(type, width, v) ? v : uniform(0, 4);
        default:
            return rng_() & all;
        }
    }

    std::string bytes_value(std::uint16_t type, const AttrPolicy &p, bool string) {
        std::string v;
        if (chance(tame_ ? 60 : 40) && dict_.pick(type, 0, rng_, v))
            return v;
        const std::uint32_t hi = std::max<std::uint32_t>(p.max_len, 40) + 2;
        if (tame_)
            v.resize(uniform<std::uint32_t>(p.min_len, p.max_len ? p.max_len : 16));
        else
            v.resize(uniform<std::uint32_t>(p.min_len ? p.min_len - 1 : 0, hi));
        for (char &c : v)
            c = static_cast<char>(string ? uniform('!', '~') : uniform(0, 255));
        if (string && (tame_ || chance(80)))
            v.push_back('\0');
        return v;
    }

    // The attributes of policy @idx (or any numbers, UINT32_MAX) into @m, @depth nests deep.
    void put_attrs(GenlMsg &m, std::uint32_t idx, int depth) {
        const auto pol = fam_.policies.find(idx);
        const Policy none;
        const Policy &p = pol == fam_.policies.end() ? none : pol->second;
        const bool valid_ish = tame_ || chance(60);
        for (const auto &[type, ap] : p) {
            if (chance(tame_ ? 85 : valid_ish ? 75 : 40))
                put_attr(m, type, ap, depth);
            if (!tame_ && chance(3))
                put_attr(m, type, ap, depth); // repeated
        }
        const std::uint16_t maxtype = p.empty() ? 12 : p.rbegin()->first;
        while (!valid_ish && chance(25)) // of a type the policy has not, or as another type
            put_attr(m, uniform<std::uint16_t>(0, maxtype + 3),
                     p.empty() ? AttrPolicy{} : p.begin()->second, depth);
    }

    void put_attr(GenlMsg &m, std::uint16_t type, const AttrPolicy &p, int depth) {
        if (m.bytes().size() > 48000) // nla_len is 16 bits: the nests around must fit it
            return;
        std::uint32_t kind = p.type;
        if (!tame_ && chance(4))
            kind = uniform<std::uint32_t>(NL_ATTR_TYPE_FLAG, NL_ATTR_TYPE_BITFIELD32);
        std::size_t width = 0;
        switch (kind) {
        case NL_ATTR_TYPE_U8:
        case NL_ATTR_TYPE_S8:
            width = 1;
            break;
        case NL_ATTR_TYPE_U16:
        case NL_ATTR_TYPE_S16:
            width = 2;
            break;
        case NL_ATTR_TYPE_U32:
        case NL_ATTR_TYPE_S32:
        case NL_ATTR_TYPE_BITFIELD32:
            width = 4;
            break;
        case NL_ATTR_TYPE_U64:
        case NL_ATTR_TYPE_S64:
            width = 8;
            break;
        default:
            break;
        }
        if (width) {
            const std::uint64_t v = int_value(type, p, width);
            const std::size_t len = !tame_ && chance(5) ? uniform<std::size_t>(0, 9) : width;
            std::uint64_t buf[2] = {v, rng_()};
            m.put(type, buf, len);
            return;
        }
        if (kind == NL_ATTR_TYPE_NESTED || kind == NL_ATTR_TYPE_NESTED_ARRAY) {
            const bool flagged = tame_ || !chance(5);
            const std::size_t at = m.nest_start(type);
            if (!flagged)
                std::memset(m.bytes().data() + at + 3, 0, 1); // NLA_F_NESTED cleared
            if (depth < 6 && kind == NL_ATTR_TYPE_NESTED) {
                put_attrs(m, p.nested, depth + 1);
            } else if (depth < 6) {
                unsigned int n = chance(10) ? uniform(64U, 700U) : uniform(0U, 6U);
                if (tame_)
                    n = uniform(1U, 4U);
                for (unsigned int i = 0; i < n && m.bytes().size() < 48000; i++) {
                    const std::size_t e = m.nest_start(static_cast<std::uint16_t>(
                            tame_ || chance(90) ? i : uniform(0, 0xffff) & NLA_TYPE_MASK));
                    put_attrs(m, p.nested, depth + 2);
                    m.nest_end(e);
                }
            }
            m.nest_end(at);
            return;
        }
        if (kind == NL_ATTR_TYPE_FLAG) {
            const auto junk = static_cast<std::uint32_t>(rng_());
            m.put(type, &junk, chance(90) ? 0 : 4);
            return;
        }
        const std::string v = bytes_value(
                type, p, kind == NL_ATTR_TYPE_STRING || kind == NL_ATTR_TYPE_NUL_STRING);
        m.put(type, v.data(), v.size());
    }

    // The request: an op's do or dump as a rule, its attributes from the policy, the finished
    // bytes now and then mangled.
    std::vector<char> build(std::uint32_t &cmd, bool &dump) {
        const OpInfo *op = &fam_.ops[uniform<std::size_t>(0, fam_.ops.size() - 1)];
        tame_ = chance(30);
        cmd = op->cmd;
        dump = (op->flags & GENL_CMD_CAP_DUMP) != 0 &&
               ((op->flags & GENL_CMD_CAP_DO) == 0 || chance(50));
        if (!tame_ && chance(3))
            dump = !dump;
        if (!tame_ && chance(2))
            cmd = uniform(0U, 255U);
        const auto flags =
                static_cast<std::uint16_t>(NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK));
        GenlMsg m(fam_.genl.id, flags, static_cast<std::uint8_t>(cmd));
        put_attrs(m, dump ? op->dump_policy : op->do_policy, 0);
        std::vector<char> b = m.finish(0);
        const std::size_t head = NLMSG_HDRLEN + GENL_HDRLEN;
        if (tame_)
            return b;
        if (b.size() > head && chance(8)) { // bit flips in the attributes
            for (unsigned int k = uniform(1U, 4U); k != 0; k--) {
                char &c = b[uniform(head, b.size() - 1)];
                c = static_cast<char>(static_cast<unsigned char>(c) ^ (1U << uniform(0, 7)));
            }
        }
        if (b.size() > head && chance(4)) { // cut, the header's length along
            b.resize(uniform(head, b.size() - 1));
            const auto len = static_cast<std::uint32_t>(b.size());
            std::memcpy(b.data(), &len, sizeof(len));
        }
        return b;
    }

    void one() {
        std::uint32_t cmd = 0;
        bool dump = false;
        std::vector<char> req = build(cmd, dump);
        const std::vector<char> sent_copy = req;
        Tally &t = tally_[cmd];
        t.sent++;
        if (!sock_->send_raw(req)) {
            finding("send failed", sent_copy, -errno, "");
            return;
        }
        if (dump && chance(3)) { // the first part only: the dump is left to the socket's close
            std::vector<char> buf(1 << 17);
            if (recv(sock_->fd(), buf.data(), buf.size(), 0) < 0)
                finding("no reply in time", sent_copy, -errno, "");
            abandoned_++;
            fresh_socket();
            return;
        }
        const GenlStatus st = sock_->replies([](std::uint8_t, const std::vector<GenlAttr> &) {});
        if (st.err == -EAGAIN || st.err == -EBADMSG) {
            finding(st.err == -EAGAIN ? "no reply in time" : "malformed reply", sent_copy, st.err,
                    st.why);
            fresh_socket();
            return;
        }
        if (!st.err) {
            t.ok++;
            if (unprivileged_ && admin(cmd) && !dump)
                finding("granted to an unprivileged user", sent_copy, 0, "");
            return;
        }
        t.refused[-st.err]++;
        if (why_)
            t.why[st.why]++;
        if (st.why.empty() && !core_refusal(cmd, dump, st.err))
            finding("refused without an extack message", sent_copy, st.err, "");
    }

    [[nodiscard]] const OpInfo *find_op(std::uint32_t cmd) const {
        for (const OpInfo &o : fam_.ops)
            if (o.cmd == cmd)
                return &o;
        return nullptr;
    }
    [[nodiscard]] bool admin(std::uint32_t cmd) const {
        const OpInfo *o = find_op(cmd);
        return o != nullptr && (o->flags & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)) != 0;
    }
    // The genetlink core refuses these itself, with no message (the family never saw them).
    [[nodiscard]] bool core_refusal(std::uint32_t cmd, bool dump, int err) const {
        const OpInfo *o = find_op(cmd);
        if (err == -EOPNOTSUPP)
            return o == nullptr || (o->flags & (dump ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO)) == 0;
        return err == -EPERM && unprivileged_ && admin(cmd);
    }

    void finding(const char *what, const std::vector<char> &req, int err, const std::string &why) {
        if (findings_++ >= show_)
            return;
        const char *name = strerrorname_np(-err);
        std::printf("FINDING: %s (%s%s%s):", what, err ? (name ? name : "?") : "ok",
                    why.empty() ? "" : ": ", why.c_str());
        for (const char c : req)
            std::printf(" %02x", static_cast<unsigned char>(c));
        std::printf("\n");
    }

    Family &fam_;
    std::mt19937_64 rng_;
    bool unprivileged_;
    unsigned int show_;
    bool why_;
    bool tame_ = false; // this request: well-formed, values in range or seen (past the checks)
    std::unique_ptr<GenlSock> sock_;
    Dictionary dict_;
    std::map<std::uint32_t, Tally> tally_;
    unsigned long findings_ = 0, abandoned_ = 0;
};

int usage() {
    std::fprintf(stderr, "usage: mrc_nl_fuzz [-u] [--seed N] [--count N] [--family NAME] "
                         "[--show N] [--why]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    std::uint64_t seed = 1;
    unsigned long count = 10000;
    unsigned int show = 10;
    const char *family = "mrc";
    bool unprivileged = false;
    bool why = false;
    for (int i = 1; i < argc; i++) {
        const std::string_view a = argv[i];
        if (a == "-u") {
            unprivileged = true;
        } else if (a == "--why") {
            why = true;
        } else if (i + 1 < argc && a == "--seed") {
            seed = std::strtoull(argv[++i], nullptr, 0);
        } else if (i + 1 < argc && a == "--count") {
            count = std::strtoul(argv[++i], nullptr, 0);
        } else if (i + 1 < argc && a == "--show") {
            show = static_cast<unsigned int>(std::strtoul(argv[++i], nullptr, 0));
        } else if (i + 1 < argc && a == "--family") {
            family = argv[++i];
        } else {
            return usage();
        }
    }
    // as nobody before the first socket: the kernel checks the opener's credentials too
    if (unprivileged && (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))) {
        std::perror("mrc_nl_fuzz: cannot become nobody");
        return 1;
    }
    Family fam;
    {
        GenlSock s;
        const GenlStatus st = learn_family(s, family, fam);
        if (st.err || fam.ops.empty()) {
            std::fprintf(stderr, "mrc_nl_fuzz: family %s: %s %s\n", family,
                         std::strerror(st.err ? -st.err : ENOENT), st.why.c_str());
            return 1;
        }
    }
    std::printf("mrc_nl_fuzz: family %s (id %u): %zu operations, %zu policies, seed %llu\n", family,
                fam.genl.id, fam.ops.size(), fam.policies.size(),
                static_cast<unsigned long long>(seed));
    Fuzzer f(fam, seed, unprivileged, show, why);
    f.fresh_socket();
    const auto t0 = std::chrono::steady_clock::now();
    f.run(count);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    f.summary(count, took.count());
    return f.findings() ? 1 : 0;
}
