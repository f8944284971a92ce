// SPDX-License-Identifier: BSD-2-Clause
// mrc_pkt_fuzz - mutated copies of a live transfer's own MRC packets, sent back at its QPs:
//
//     mrc_pkt_fuzz -i IFNAME [--learn-ms MS] [--stale-ms MS] [--count N] [--pps N] [--seed N]
//                  [--port P] [--mutations M] [--srh] [--qpns N,N,..]
//                  [--save FILE | --load FILE]
//
// It learns for MS ms (default 2000) the MRC packets this host sends on IFNAME (UDP to port P,
// 4791; IPv6 or IPv4, an SRH or other extension headers skipped): up to 64 of each opcode, every
// one it sees a copy of. It waits until the newest is STALE ms old (default 2000), so that what
// it replays is long acknowledged, and then sends COUNT (default 50000) mutated copies to the
// addresses they went to, from this host (so from the peer of the QPs they name), at up to N
// packets a second (default 20000). Each copy gets one to three mutations, aware of the wire's
// shape (Documentation/protocol.rst: a base header of opcode, length, flags, QPN and PSN, then
// sub-headers of 32-bit big-endian words): opcode, hdr_len, flags and version bytes; the QPN
// (unknown, 0, the largest); the PSN; any header word set to a boundary value or flipped; the
// packet cut short, extended, spliced with another's; bit flips in the payload. Sequence
// numbers stay stale: the PSN, and a header word within 2^20 of it (an ACK's cum_psn and
// sack_base), only move back, a little or 2^20 to 2^31.
// A stale ACK whose cum_psn or sack_base a bit flip moved into the sender's window would be a
// forged acknowledgment, which MRC (like RoCE: no ICRC is a MAC) cannot tell from a real one:
// the transfer under attack would lose what it said had arrived. The test keeps its bytes.
// --mutations M: at most M per copy (default 3; 0: copies as they were).
//
// --qpns N,N,..: every copy is addressed to one of these QPNs (before it is mutated): the packets
// of a transfer at QPs that never took part in it, in whatever state the test holds them.
//
// --srh: every copy to an IPv6 address goes out as a raw IPv6 packet with a segment routing header
// that has arrived (segments left 0; the destination is its segment 0) after one to three transit
// segments, as if it had come over an SRv6 fabric; the UDP checksum is computed over it. The SRH is
// mutated in half of them: its length, type, segments left, last entry, flags or tag, a transit
// segment that is no unicast address (::, ::1, multicast, link-local, v4-mapped), ours or random,
// or padding after the segments. The receiving host must accept SRH packets (seg6_enabled).
//
// --save FILE writes what it learnt, one packet a line ("ADDRESS HEX"); --load FILE sends from
// such a file instead of learning (and waits for nothing): the QPs the packets name may be gone
// by then, and a seed with its file replays a run.
//
// Prints what it learnt and sent (per opcode); exit status 0 when it sent COUNT packets, 1 when
// it learnt nothing or could not send, 2 for bad usage. What the receiver did with them is its
// counters' to say (rdma statistic, hw_counters).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pkt_fuzz_srh.h"
#include "tool_channel.h"

namespace {

using mrc::tool::Clock;
using mrc::tool::Fd;

constexpr std::size_t kBaseLen = 12;     // version, opcode, hdr_len, flags, QPN, PSN
constexpr std::size_t kPerOpcode = 64;   // templates kept of each opcode
constexpr std::size_t kMaxPacket = 1400; // what a copy may grow to (the fabric's MTU is 1500)
constexpr std::size_t kMaxLearnt = 9216; // a jumbo frame's UDP payload fits

// One learnt packet: where it went and its UDP payload (the MRC packet).
struct Template {
    sockaddr_storage dst{};
    socklen_t dst_len = 0;
    std::uint16_t src_port = 0;
    std::vector<std::uint8_t> bytes;
};

// The UDP payload of an IPv6 or IPv4 packet @p (@len bytes) to @port, its destination in @t.
bool parse_ip(const std::uint8_t *p, std::size_t len, std::uint16_t port, Template &t) {
    std::size_t off = 0;
    std::uint8_t next = 0;
    if (len >= 40 && p[0] >> 4 == 6) {
        auto &a6 = reinterpret_cast<sockaddr_in6 &>(t.dst);
        a6.sin6_family = AF_INET6;
        std::memcpy(&a6.sin6_addr, p + 24, 16);
        t.dst_len = sizeof(a6);
        next = p[6];
        off = 40;
        // hop-by-hop, routing (the SRH), destination options: skipped
        for (int i = 0; i < 8 && (next == 0 || next == 43 || next == 60); i++) {
            if (off + 8 > len)
                return false;
            const std::size_t ext = (std::size_t{p[off + 1]} + 1) * 8;
            next = p[off];
            off += ext;
        }
    } else if (len >= 20 && p[0] >> 4 == 4) {
        auto &a4 = reinterpret_cast<sockaddr_in &>(t.dst);
        a4.sin_family = AF_INET;
        std::memcpy(&a4.sin_addr, p + 16, 4);
        t.dst_len = sizeof(a4);
        next = p[9];
        off = std::size_t{p[0] & 0xfU} * 4;
    } else {
        return false;
    }
    if (next != IPPROTO_UDP || off + 8 > len)
        return false;
    const auto be16 = [&](std::size_t at) {
        return static_cast<std::uint16_t>(p[at] << 8 | p[at + 1]);
    };
    if (be16(off + 2) != port)
        return false;
    const std::size_t udp_len = be16(off + 4);
    if (udp_len < 8 + kBaseLen || off + udp_len > len)
        return false;
    t.src_port = be16(off);
    if (t.dst.ss_family == AF_INET6)
        reinterpret_cast<sockaddr_in6 &>(t.dst).sin6_port = htons(port);
    else
        reinterpret_cast<sockaddr_in &>(t.dst).sin_port = htons(port);
    t.bytes.assign(p + off + 8, p + off + udp_len);
    return t.bytes.size() <= kMaxLearnt;
}

using Learnt = std::map<std::uint8_t, std::vector<Template>>; // by opcode

// What this host sent to @port on @ifname for @ms.
Learnt learn(const char *ifname, std::uint16_t port, int ms) {
    Learnt out;
    const Fd fd(socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_ALL)));
    sockaddr_ll ll{};
    ll.sll_family = AF_PACKET;
    ll.sll_protocol = htons(ETH_P_ALL);
    ll.sll_ifindex = static_cast<int>(if_nametoindex(ifname));
    if (fd.get() < 0 || ll.sll_ifindex == 0 ||
        bind(fd.get(), reinterpret_cast<sockaddr *>(&ll), sizeof(ll)) != 0) {
        std::perror("mrc_pkt_fuzz: packet socket");
        return out;
    }
    std::vector<std::uint8_t> buf(65536);
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    for (auto now = Clock::now(); now < end; now = Clock::now()) {
        pollfd pfd{fd.get(), POLLIN, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now);
        if (poll(&pfd, 1, static_cast<int>(left.count()) + 1) <= 0)
            continue;
        sockaddr_ll from{};
        socklen_t from_len = sizeof(from);
        const ssize_t n = recvfrom(fd.get(), buf.data(), buf.size(), 0,
                                   reinterpret_cast<sockaddr *>(&from), &from_len);
        Template t;
        if (n <= 0 || from.sll_pkttype != PACKET_OUTGOING ||
            !parse_ip(buf.data(), static_cast<std::size_t>(n), port, t))
            continue;
        auto &kept = out[t.bytes[1]];
        if (kept.size() < kPerOpcode)
            kept.push_back(std::move(t));
    }
    return out;
}

// @learnt into @path, a packet a line: its destination address, its bytes in hex.
bool save(const char *path, const Learnt &learnt) {
    std::FILE *f = std::fopen(path, "w");
    if (f == nullptr) {
        std::perror(path);
        return false;
    }
    for (const auto &[op, ts] : learnt) {
        for (const Template &t : ts) {
            std::array<char, INET6_ADDRSTRLEN> a{};
            const void *addr =
                    t.dst.ss_family == AF_INET6
                            ? static_cast<const void *>(
                                      &reinterpret_cast<const sockaddr_in6 &>(t.dst).sin6_addr)
                            : &reinterpret_cast<const sockaddr_in &>(t.dst).sin_addr;
            inet_ntop(t.dst.ss_family, addr, a.data(), a.size());
            std::fprintf(f, "%s ", a.data());
            for (const std::uint8_t c : t.bytes)
                std::fprintf(f, "%02x", c);
            std::fprintf(f, "\n");
        }
    }
    return std::fclose(f) == 0;
}

// What save() wrote, the packets to @port of the addresses on each line.
bool load(const char *path, std::uint16_t port, Learnt &out) {
    std::FILE *f = std::fopen(path, "r");
    if (f == nullptr) {
        std::perror(path);
        return false;
    }
    std::array<char, 64> addr{};
    std::vector<char> hex(2 * kMaxLearnt + 1);
    static_assert(2 * kMaxLearnt == 18432, "the width in the format below");
    while (std::fscanf(f, "%63s %18432s", addr.data(), hex.data()) == 2) {
        Template t;
        auto &a6 = reinterpret_cast<sockaddr_in6 &>(t.dst);
        auto &a4 = reinterpret_cast<sockaddr_in &>(t.dst);
        if (inet_pton(AF_INET6, addr.data(), &a6.sin6_addr) == 1) {
            a6.sin6_family = AF_INET6;
            a6.sin6_port = htons(port);
            t.dst_len = sizeof(a6);
        } else if (inet_pton(AF_INET, addr.data(), &a4.sin_addr) == 1) {
            a4.sin_family = AF_INET;
            a4.sin_port = htons(port);
            t.dst_len = sizeof(a4);
        } else {
            continue;
        }
        for (std::size_t i = 0; hex[i] != '\0' && hex[i + 1] != '\0'; i += 2)
            t.bytes.push_back(static_cast<std::uint8_t>(
                    std::strtoul(std::string(hex.data() + i, 2).c_str(), nullptr, 16)));
        if (t.bytes.size() >= 2)
            out[t.bytes[1]].push_back(std::move(t));
    }
    std::fclose(f);
    return true;
}

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}

    // One to three mutations of @b, @other another template (for a splice).
    void mutate(std::vector<std::uint8_t> &b, const std::vector<std::uint8_t> &other,
                unsigned int most) {
        if (most == 0)
            return;
        for (unsigned int k = uniform(1U, most); k != 0 && !b.empty(); k--)
            one(b, other);
    }

private:
    template <typename T> T uniform(T lo, T hi) {
        return std::uniform_int_distribution<T>(lo, hi)(rng_);
    }

    static std::uint32_t word(const std::vector<std::uint8_t> &b, std::size_t at) {
        return static_cast<std::uint32_t>(b[at]) << 24 |
               static_cast<std::uint32_t>(b[at + 1]) << 16 |
               static_cast<std::uint32_t>(b[at + 2]) << 8 | b[at + 3];
    }
    static void set_word(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; i++)
            b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
    }

    std::uint32_t boundary(std::uint32_t orig) {
        static constexpr std::array<std::uint32_t, 7> kValues{
                0, 1, 0xffffffffU, 0x7fffffffU, 0x80000000U, 0x00ffffffU, 0x10000U};
        switch (uniform(0, 3)) {
        case 0:
            return kValues[uniform<std::size_t>(0, kValues.size() - 1)];
        case 1:
            return orig + uniform(1U, 64U) * (uniform(0, 1) ? 1U : -1U);
        case 2:
            return orig ^ (1U << uniform(0, 31));
        default:
            return static_cast<std::uint32_t>(rng_());
        }
    }

    // Within 2^20 of @psn, either way: a sequence number.
    static bool near(std::uint32_t v, std::uint32_t psn) {
        constexpr std::uint32_t kNear = 1U << 20;
        return v - psn < kNear || psn - v < kNear;
    }

    // A sequence number moved where no window can be: back a little, or 2^20 to 2^31 back.
    std::uint32_t stale(std::uint32_t v) {
        return uniform(0, 1) ? v - uniform(1U, 64U) : v - uniform(1U << 20, 1U << 31);
    }

    void one(std::vector<std::uint8_t> &b, const std::vector<std::uint8_t> &other) {
        static constexpr std::array<std::uint8_t, 17> kOpcodes{0x01, 0x02, 0x03, 0x04, 0x05, 0x08,
                                                               0x09, 0x10, 0x11, 0x18, 0x19, 0x1a,
                                                               0x20, 0x21, 0x30, 0x31, 0x00};
        const std::size_t hdr = std::min<std::size_t>(std::size_t{b.size() >= 3 ? b[2] : 0U} * 4,
                                                      b.size() & ~std::size_t{3});
        switch (uniform(0, 11)) {
        case 0: // opcode: another's, or any byte
            if (b.size() > 1)
                b[1] = uniform(0, 1) ? kOpcodes[uniform<std::size_t>(0, kOpcodes.size() - 1)]
                                     : static_cast<std::uint8_t>(rng_());
            break;
        case 1: // hdr_len
            if (b.size() > 2)
                b[2] = static_cast<std::uint8_t>(uniform(0, 1) ? b[2] + uniform(-2, 2)
                                                               : static_cast<int>(rng_() & 0xff));
            break;
        case 2: // flags, version
            if (b.size() > 3)
                b[uniform(0, 1) ? 3 : 0] = static_cast<std::uint8_t>(rng_());
            break;
        case 3: // QPN: none such, 0, the largest, or one bit off
            if (b.size() >= 8) {
                const std::uint32_t qpn = word(b, 4) & 0xffffffU;
                const std::array<std::uint32_t, 4> v{static_cast<std::uint32_t>(rng_()), 0,
                                                     0xffffffU, qpn ^ (1U << uniform(0, 23))};
                set_word(b, 4, v[uniform<std::size_t>(0, 3)] & (uniform(0, 9) ? 0xffffffU : ~0U));
            }
            break;
        case 4: // PSN
            if (b.size() >= kBaseLen)
                set_word(b, 8, stale(word(b, 8)));
            break;
        case 5:
        case 6:
        case 7: // a sub-header word (MSN, offset, lengths, va, rkey, SACK, NAK code, probe)
            if (hdr > kBaseLen) {
                const std::size_t at = uniform<std::size_t>(kBaseLen / 4, hdr / 4 - 1) * 4;
                const std::uint32_t v = word(b, at);
                set_word(b, at, near(v, word(b, 8)) ? stale(v) : boundary(v));
            }
            break;
        case 8: // cut short
            b.resize(uniform<std::size_t>(0, b.size() - 1));
            break;
        case 9: // extended
            for (auto n = uniform<std::size_t>(1, 64); n != 0 && b.size() < kMaxPacket; n--)
                b.push_back(static_cast<std::uint8_t>(rng_()));
            break;
        case 10: // this header, the other's rest
            if (hdr < other.size()) {
                b.resize(hdr);
                b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(hdr), other.end());
                b.resize(std::min(b.size(), kMaxPacket));
            }
            break;
        default: // bit flips anywhere
            for (unsigned int k = uniform(1U, 8U); k != 0; k--) {
                std::uint8_t &c = b[uniform<std::size_t>(0, b.size() - 1)];
                c = static_cast<std::uint8_t>(c ^ (1U << uniform(0, 7)));
            }
            break;
        }
    }

    std::mt19937_64 rng_;
};

// Where copies leave: UDP sockets, or with --srh for IPv6 a raw socket and an SRH around them.
struct Sender {
    int udp4;
    int udp6;
    int raw6;
    mrc::pkt_fuzz::SrhWrapper srh;
    std::mt19937_64 coin;                                   // mutate this copy's SRH?
    std::map<std::string, std::optional<in6_addr>> sources; // by destination, as bytes

    bool send(const Template &t, const std::vector<std::uint8_t> &b, bool wrap,
              std::uint16_t port) {
        if (t.dst.ss_family != AF_INET6 || !wrap) {
            const int fd = t.dst.ss_family == AF_INET6 ? udp6 : udp4;
            return sendto(fd, b.data(), b.size(), 0, reinterpret_cast<const sockaddr *>(&t.dst),
                          t.dst_len) >= 0;
        }
        sockaddr_in6 to = reinterpret_cast<const sockaddr_in6 &>(t.dst);
        to.sin6_port = 0; // a raw socket reads it as the protocol
        const std::string key(reinterpret_cast<const char *>(&to.sin6_addr), 16);
        auto it = sources.find(key);
        if (it == sources.end())
            it = sources.emplace(key, mrc::pkt_fuzz::source_towards(to.sin6_addr)).first;
        if (!it->second)
            return false;
        const std::vector<std::uint8_t> pkt =
                srh.wrap(*it->second, to.sin6_addr, t.src_port, port, b, (coin() & 1) != 0);
        return sendto(raw6, pkt.data(), pkt.size(), 0, reinterpret_cast<const sockaddr *>(&to),
                      sizeof(to)) >= 0;
    }
};

int usage() {
    std::fprintf(stderr, "usage: mrc_pkt_fuzz -i IFNAME [--learn-ms MS] [--stale-ms MS] "
                         "[--count N] [--pps N] [--seed N] [--port P] [--mutations M] [--srh] "
                         "[--qpns N,N,..] [--save FILE | --load FILE]\n");
    return 2;
}

struct Options {
    const char *ifname = nullptr;
    int learn_ms = 2000;
    int stale_ms = 2000;
    unsigned long count = 50000;
    unsigned long pps = 20000;
    std::uint64_t seed = 1;
    std::uint16_t port = 4791;
    unsigned int mutations = 3;
    bool srh = false;
    const char *qpns_arg = nullptr;
    std::vector<std::uint32_t> qpns; // parsed from qpns_arg
    const char *save = nullptr;
    const char *load = nullptr;
};

// "N,N,.." into @out: QPNs, decimal or 0x-hex, below 2^24.
bool parse_qpns(const char *v, std::vector<std::uint32_t> &out) {
    std::string_view rest(v);
    while (!rest.empty()) {
        const std::string one(rest.substr(0, rest.find(',')));
        char *end = nullptr;
        const unsigned long qpn = std::strtoul(one.c_str(), &end, 0);
        if (one.empty() || *end != '\0' || qpn > 0xffffffUL)
            return false;
        out.push_back(static_cast<std::uint32_t>(qpn));
        rest.remove_prefix(std::min(rest.size(), one.size() + 1));
    }
    return !out.empty();
}

bool parse(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; i += 2) {
        const std::string_view a = argv[i];
        if (a == "--srh") {
            o.srh = true;
            i--; // a flag: no value
            continue;
        }
        if (i + 1 == argc)
            return false;
        const char *v = argv[i + 1];
        if (a == "-i")
            o.ifname = v;
        else if (a == "--learn-ms")
            o.learn_ms = std::atoi(v);
        else if (a == "--stale-ms")
            o.stale_ms = std::atoi(v);
        else if (a == "--count")
            o.count = std::strtoul(v, nullptr, 0);
        else if (a == "--pps")
            o.pps = std::max(1UL, std::strtoul(v, nullptr, 0));
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 0);
        else if (a == "--port")
            o.port = static_cast<std::uint16_t>(std::strtoul(v, nullptr, 0));
        else if (a == "--mutations")
            o.mutations = static_cast<unsigned int>(std::strtoul(v, nullptr, 0));
        else if (a == "--qpns")
            o.qpns_arg = v;
        else if (a == "--save")
            o.save = v;
        else if (a == "--load")
            o.load = v;
        else
            return false;
    }
    return o.ifname != nullptr && (o.save == nullptr || o.load == nullptr) &&
           (o.qpns_arg == nullptr || parse_qpns(o.qpns_arg, o.qpns));
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    if (!parse(argc, argv, o))
        return usage();
    Learnt learnt;
    if (o.load != nullptr && !load(o.load, o.port, learnt))
        return 1;
    if (o.load == nullptr)
        learnt = learn(o.ifname, o.port, o.learn_ms);
    if (o.save != nullptr && !save(o.save, learnt))
        return 1;
    std::vector<const Template *> all;
    std::printf("mrc_pkt_fuzz: %s %s:", o.load != nullptr ? "loaded from" : "learnt on",
                o.load != nullptr ? o.load : o.ifname);
    for (const auto &[op, ts] : learnt) {
        std::printf(" opcode 0x%02x x%zu", op, ts.size());
        for (const Template &t : ts)
            all.push_back(&t);
    }
    std::printf("\n");
    if (all.empty()) {
        std::fprintf(stderr, "mrc_pkt_fuzz: no MRC packet seen leaving %s\n", o.ifname);
        return 1;
    }
    if (o.load == nullptr)
        std::this_thread::sleep_for(std::chrono::milliseconds(o.stale_ms));

    const Fd udp6(socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    const Fd udp4(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    const Fd raw6(o.srh ? socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW) : -1);
    if (o.srh && raw6.get() < 0) {
        std::perror("mrc_pkt_fuzz: raw IPv6 socket");
        return 1;
    }
    Sender sender{udp4.get(),
                  udp6.get(),
                  raw6.get(),
                  mrc::pkt_fuzz::SrhWrapper(o.seed ^ 0x5248ULL),
                  std::mt19937_64(o.seed ^ 0x636f696eULL),
                  {}};
    Mutator mut(o.seed);
    std::mt19937_64 pick(o.seed ^ 0x9e3779b97f4a7c15ULL);
    std::map<std::uint8_t, unsigned long> sent;
    unsigned long refused = 0;
    const auto t0 = Clock::now();
    for (unsigned long i = 0; i < o.count; i++) {
        std::uniform_int_distribution<std::size_t> dist(0, all.size() - 1);
        const Template &t = *all[dist(pick)];
        std::vector<std::uint8_t> b = t.bytes;
        if (!o.qpns.empty() && b.size() >= kBaseLen) {
            const std::uint32_t qpn = o.qpns[i % o.qpns.size()];
            b[5] = static_cast<std::uint8_t>(qpn >> 16);
            b[6] = static_cast<std::uint8_t>(qpn >> 8);
            b[7] = static_cast<std::uint8_t>(qpn);
        }
        mut.mutate(b, all[dist(pick)]->bytes, o.mutations);
        if (!sender.send(t, b, o.srh, o.port))
            refused++; // a full socket buffer, say: the next goes on
        else
            sent[t.bytes[1]]++;
        // paced: i packets by i / pps seconds
        const auto due = t0 + std::chrono::microseconds(i * 1000000ULL / o.pps);
        if (due > Clock::now())
            std::this_thread::sleep_until(due);
    }
    const std::chrono::duration<double> took = Clock::now() - t0;
    std::printf("mrc_pkt_fuzz: %lu copies, up to %u mutations each, in %.1f s (seed %llu), %lu "
                "not sent; by the opcode copied:",
                o.count, o.mutations, took.count(), static_cast<unsigned long long>(o.seed),
                refused);
    for (const auto &[op, n] : sent)
        std::printf(" 0x%02x %lu", op, n);
    std::printf("\n");
    return refused == o.count ? 1 : 0;
}
