// SPDX-License-Identifier: BSD-2-Clause
// pkt_fuzz_srh.h - mrc_pkt_fuzz's SRv6 copies: an MRC packet (a UDP payload) wrapped in IPv6 and a
// segment routing header that has arrived at its last segment, as a raw socket sends it; the SRH
// mutated on request.
#ifndef MRC_PKT_FUZZ_SRH_H
#define MRC_PKT_FUZZ_SRH_H

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include <netinet/in.h>

namespace mrc::pkt_fuzz {

class SrhWrapper {
public:
    explicit SrhWrapper(std::uint64_t seed) : rng_(seed) {}

    // IPv6 from @src to @dst, an SRH (segments left 0, segment 0 @dst, one to three transit
    // segments), UDP from @sport to @dport with its checksum, then @payload. With @mutate, the SRH
    // then gets one mutation (it may no longer reach UDP at all).
    std::vector<std::uint8_t> wrap(const in6_addr &src, const in6_addr &dst, std::uint16_t sport,
                                   std::uint16_t dport, std::span<const std::uint8_t> payload,
                                   bool mutate);

private:
    template <typename T> T uniform(T lo, T hi) {
        return std::uniform_int_distribution<T>(lo, hi)(rng_);
    }
    in6_addr plausible(const in6_addr &src, const in6_addr &dst);
    in6_addr implausible(const in6_addr &dst);
    void mutate(std::vector<std::uint8_t> &pkt, const in6_addr &dst);

    std::mt19937_64 rng_;
};

// The source address the kernel picks towards @dst, or nothing when it has no route there.
std::optional<in6_addr> source_towards(const in6_addr &dst);

} // namespace mrc::pkt_fuzz

#endif // MRC_PKT_FUZZ_SRH_H
