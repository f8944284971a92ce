// One simulated run: a fabric, requester/responder pairs on it, an event (a spine failing, a
// host stalling, nothing), and what the run measured, judged against the criteria of
// issue 16 (Documentation/multipath.rst, "The fabric simulator").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrc::sim {

// AllDown: every spine down (both ways) for kOutageNs, then back.
enum class Event : uint8_t { None, LinkDown, Blackhole, HostStall, AllDown };
enum class Check : uint8_t { Failover, Reorder, HostStall, RandomLoss, Incast, Return };

struct Scenario {
    std::string name;
    Check check = Check::Failover;
    Event event = Event::None;
    uint64_t rtt_ns = 100'000; // propagation round trip
    uint32_t nr_ev = 256;
    uint32_t spines = 4;
    bool srv6 = false;
    uint64_t jitter_ns = 0;
    uint32_t loss_ppm = 0;
    uint32_t senders = 1;
    uint32_t ecn_pkts = 64;
    uint8_t policy = 0; // enum mrc_spray_policy: round robin, as a profile's default
    uint64_t seed = 1;
};

struct Result {
    double rtt_unit_ns = 0; // the base round trip the RTT figures count in
    double stall_rtt = 0;   // time lost behind 0.9 (N-1)/N of the rate before
    double last_new_on_dead_rtt = 0;
    double oldest_wait_rtt = 0; // qp-stats' stall-max-ns over the run after the event
    double reo_rtt = 0;         // the reordering window at the failure, in RTTs
    uint64_t rto = 0;
    double spurious_pct = 0; // packets the responder got twice, of all sent
    double resend_pct = 0;
    double after_vs_fair = 0;    // rate at the end / ((N-1)/N of before)
    double rate_vs_capacity = 0; // RandomLoss: rate after the event / what the links carry
    double rate_vs_lossless = 0; // RandomLoss: that rate / the same fabric's without loss
    double fairness_spread = 0;  // Incast: largest deviation from the mean share
    double max_queue_pkts = 0;   // Incast: after convergence
    uint64_t queue_drops = 0;    // Incast: after convergence
    double resume_ms = 0;        // Return: from the fabric's return to the next delivery
    uint64_t return_resends = 0; // Return: the oldest PSN sent at the first news after a timeout
    uint64_t false_bad = 0;      // EVs whose path works, marked ASSUMED_BAD
    uint32_t max_copies = 0;     // the most transmissions of one PSN
    bool pass = false;
    std::string why; // the criteria missed
    // requester 0's delivered rate in bins of a quarter RTT, relative to its rate before
    std::vector<double> rate;
    size_t event_bin = 0;
};

// @trace_ns: every this many ns from shortly before the event, a TRACE line to stderr.
Result run(const Scenario &sc, uint64_t trace_ns = 0);
// Event::AllDown: longer than the retransmit timeout, whose resend dies with the rest.
constexpr uint64_t kOutageNs = 100'000'000;
std::string format(const Scenario &sc, const Result &r);
std::vector<Scenario> matrix();
// The scenario the plot shows.
constexpr const char *kPlotScenario = "rtt100us-ev256-s4-srv6-down";
bool plot(const Scenario &sc, const Result &r, const std::string &path);

} // namespace mrc::sim
