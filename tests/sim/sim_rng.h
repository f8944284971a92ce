// The simulators' random numbers (tests/sim and tests/unit/sim_two_endpoints.cc).
#pragma once

#include <cstdint>

namespace mrc::sim {

// splitmix64: the same numbers on every host and compiler, unlike std distributions.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31U);
    }

    // Uniform in [0, n); 0 when n is 0.
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }

    // True with probability @ppm parts per million.
    bool ppm(uint32_t ppm) { return below(1'000'000) < ppm; }
    bool percent(uint32_t pct) { return below(100) < pct; }

private:
    uint64_t state_;
};

} // namespace mrc::sim
