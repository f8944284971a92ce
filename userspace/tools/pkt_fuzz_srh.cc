// SPDX-License-Identifier: BSD-2-Clause
// pkt_fuzz_srh.cc - SRv6 copies for mrc_pkt_fuzz (pkt_fuzz_srh.h). The layout is RFC 8754's: the
// SRH's segment list is in reverse order, entry 0 being the last segment (here: the destination).
#include "pkt_fuzz_srh.h"

#include <array>
#include <cstring>

#include <arpa/inet.h>
#include <sys/socket.h>

#include "tool_channel.h"

namespace mrc::pkt_fuzz {
namespace {

constexpr std::size_t kIp6Len = 40;
constexpr std::size_t kSrhFixed = 8;
constexpr std::size_t kSegLen = 16;
constexpr std::size_t kUdpLen = 8;
constexpr std::uint8_t kNextRouting = 43;
constexpr std::uint8_t kNextUdp = 17;
constexpr std::uint8_t kSrhType = 4;

void put16(std::uint8_t *p, std::size_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}

// The one's complement sum of @b as big-endian 16-bit words, added to @sum.
std::uint32_t sum16(std::span<const std::uint8_t> b, std::uint32_t sum) {
    for (std::size_t i = 0; i + 1 < b.size(); i += 2)
        sum += static_cast<std::uint32_t>(b[i] << 8 | b[i + 1]);
    if (b.size() % 2 != 0)
        sum += static_cast<std::uint32_t>(b.back() << 8);
    return sum;
}

// UDP's checksum over IPv6 (RFC 8200 8.1): the pseudo-header names the final destination.
std::uint16_t udp6_checksum(const in6_addr &src, const in6_addr &dst,
                            std::span<const std::uint8_t> udp) {
    std::array<std::uint8_t, 40> pseudo{};
    std::memcpy(pseudo.data(), &src, 16);
    std::memcpy(pseudo.data() + 16, &dst, 16);
    pseudo[34] = static_cast<std::uint8_t>(udp.size() >> 8);
    pseudo[35] = static_cast<std::uint8_t>(udp.size());
    pseudo[39] = kNextUdp;
    std::uint32_t sum = sum16(udp, sum16(pseudo, 0));
    while (sum >> 16 != 0)
        sum = (sum & 0xffffU) + (sum >> 16);
    const auto folded = static_cast<std::uint16_t>(~sum & 0xffffU);
    return folded == 0 ? 0xffff : folded;
}

in6_addr address(const char *text) {
    in6_addr a{};
    inet_pton(AF_INET6, text, &a);
    return a;
}

} // namespace

// A segment an SRv6 fabric could have sent it through: the sender itself, a neighbour of the
// destination, a documentation address.
in6_addr SrhWrapper::plausible(const in6_addr &src, const in6_addr &dst) {
    in6_addr a = dst;
    switch (uniform(0, 2)) {
    case 0:
        return src;
    case 1:
        for (std::size_t i = 8; i < 16; i++)
            a.s6_addr[i] = static_cast<std::uint8_t>(rng_());
        return a;
    default:
        a = address("2001:db8::");
        for (std::size_t i = 4; i < 16; i++)
            a.s6_addr[i] = static_cast<std::uint8_t>(rng_());
        return a;
    }
}

// A segment no answer may be sent through.
in6_addr SrhWrapper::implausible(const in6_addr &dst) {
    static constexpr std::array<const char *, 6> kNames{
            "::", "::1", "ff02::1", "fe80::1", "::ffff:10.0.0.1", "ff05::2"};
    const auto i = uniform<std::size_t>(0, kNames.size());
    if (i == kNames.size())
        return dst; // the destination once more
    return address(kNames.at(i));
}

std::vector<std::uint8_t> SrhWrapper::wrap(const in6_addr &src, const in6_addr &dst,
                                           std::uint16_t sport, std::uint16_t dport,
                                           std::span<const std::uint8_t> payload, bool mutate) {
    const auto transit = uniform<std::size_t>(1, 3);
    const std::size_t srh = kSrhFixed + (transit + 1) * kSegLen;
    const std::size_t udp = kUdpLen + payload.size();
    std::vector<std::uint8_t> pkt(kIp6Len + srh + udp);
    std::uint8_t *ip = pkt.data();
    ip[0] = 0x60;
    put16(ip + 4, srh + udp);
    ip[6] = kNextRouting;
    ip[7] = 64;
    std::memcpy(ip + 8, &src, 16);
    std::memcpy(ip + 24, &dst, 16);

    std::uint8_t *rh = ip + kIp6Len;
    rh[0] = kNextUdp;
    rh[1] = static_cast<std::uint8_t>((srh - 8) / 8);
    rh[2] = kSrhType;
    rh[3] = 0; // arrived
    rh[4] = static_cast<std::uint8_t>(transit);
    std::memcpy(rh + kSrhFixed, &dst, 16);
    for (std::size_t i = 1; i <= transit; i++) {
        const in6_addr seg = plausible(src, dst);
        std::memcpy(rh + kSrhFixed + i * kSegLen, &seg, 16);
    }

    std::uint8_t *u = rh + srh;
    put16(u, sport);
    put16(u + 2, dport);
    put16(u + 4, udp);
    std::memcpy(u + kUdpLen, payload.data(), payload.size());
    put16(u + 6, udp6_checksum(src, dst, std::span<const std::uint8_t>(u, udp)));
    if (mutate)
        this->mutate(pkt, dst);
    return pkt;
}

void SrhWrapper::mutate(std::vector<std::uint8_t> &pkt, const in6_addr &dst) {
    std::uint8_t *rh = pkt.data() + kIp6Len;
    const std::size_t segs = rh[4] + std::size_t{1};
    switch (uniform(0, 7)) {
    case 0: // the length: the UDP header is no longer where it says
        rh[1] = static_cast<std::uint8_t>(uniform(0, 1) ? rh[1] + uniform(-2, 2) : rng_());
        break;
    case 1: // another routing header type
        rh[2] = static_cast<std::uint8_t>(uniform(0, 1) ? uniform(0, 5) : rng_());
        break;
    case 2: // not arrived: the stack moves it on (or drops it), never to us
        rh[3] = static_cast<std::uint8_t>(uniform<unsigned int>(1, 255));
        break;
    case 3: // a last entry past the list, or naming fewer segments than there are
        rh[4] = static_cast<std::uint8_t>(uniform(0, 1) ? uniform<std::size_t>(0, segs + 2)
                                                        : rng_());
        break;
    case 4: // flags, tag
        rh[5] = static_cast<std::uint8_t>(rng_());
        put16(rh + 6, static_cast<std::uint16_t>(rng_()));
        break;
    case 5:
    case 6: { // a transit segment no answer may go through
        const in6_addr seg = implausible(dst);
        std::memcpy(rh + kSrhFixed + uniform<std::size_t>(1, segs - 1) * kSegLen, &seg, 16);
        break;
    }
    default: { // TLV space after the segments: PadN, or anything
        const std::size_t pad = 8 * uniform<std::size_t>(1, 4);
        const std::size_t at = kIp6Len + kSrhFixed + segs * kSegLen;
        std::vector<std::uint8_t> tlv(pad);
        if (uniform(0, 1)) {
            tlv[0] = 4; // PadN
            tlv[1] = static_cast<std::uint8_t>(pad - 2);
        } else {
            for (std::uint8_t &c : tlv)
                c = static_cast<std::uint8_t>(rng_());
        }
        pkt.insert(pkt.begin() + static_cast<std::ptrdiff_t>(at), tlv.begin(), tlv.end());
        rh = pkt.data() + kIp6Len;
        rh[1] = static_cast<std::uint8_t>(rh[1] + pad / 8);
        put16(pkt.data() + 4, pkt.size() - kIp6Len);
        break;
    }
    }
}

std::optional<in6_addr> source_towards(const in6_addr &dst) {
    const tool::Fd fd(socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    sockaddr_in6 to{};
    to.sin6_family = AF_INET6;
    to.sin6_port = htons(9);
    to.sin6_addr = dst;
    sockaddr_in6 me{};
    socklen_t len = sizeof(me);
    if (fd.get() < 0 || connect(fd.get(), reinterpret_cast<const sockaddr *>(&to), sizeof(to)) ||
        getsockname(fd.get(), reinterpret_cast<sockaddr *>(&me), &len))
        return std::nullopt;
    return me.sin6_addr;
}

} // namespace mrc::pkt_fuzz
