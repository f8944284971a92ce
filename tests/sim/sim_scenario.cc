#include "sim_scenario.h"

#include "sim_fabric.h"
#include "sim_loop.h"
#include "sim_receiver.h"
#include "sim_sender.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <numeric>

namespace mrc::sim {

namespace {

constexpr double kNicBytesPerNs = 12.5;      // 100 Gb/s per host
constexpr uint64_t kMinPostNs = 150'000'000; // two retransmit timeouts: they must show
constexpr uint32_t kRateBinsPerRtt = 4;

// Rate samples of the delivered (in-order) packets, in bins of a quarter RTT.
class Timeline {
public:
    Timeline(uint64_t bin_ns, uint64_t end_ns) : bin_ns_(bin_ns), bins_(end_ns / bin_ns + 1) {}

    void add(uint64_t now, uint32_t pkts) {
        const uint64_t i = now / bin_ns_;

        if (i < bins_.size())
            bins_[i] += pkts;
    }
    // Packets per bin over [from, to).
    [[nodiscard]] double mean(uint64_t from, uint64_t to) const {
        const size_t a = from / bin_ns_;
        const size_t b = std::min<size_t>(to / bin_ns_, bins_.size());

        if (b <= a)
            return 0;
        return std::accumulate(bins_.begin() + static_cast<std::ptrdiff_t>(a),
                               bins_.begin() + static_cast<std::ptrdiff_t>(b), 0.0) /
               static_cast<double>(b - a);
    }
    // The time lost from @from to @to against a transfer that moved on at @rate per bin
    // without a break: the largest backlog of delivered packets behind it, in ns of @rate.
    // One late ACK that the next bins make up for costs only its own delay, and a rate
    // that stays below @rate loses more the longer it lasts.
    [[nodiscard]] uint64_t lost_time(uint64_t from, uint64_t to, double rate) const {
        const size_t a = from / bin_ns_;
        const size_t b = std::min<size_t>(to / bin_ns_, bins_.size());
        double backlog = 0;
        double worst = 0;

        for (size_t j = a; j < b; j++) {
            backlog += rate - bins_[j];
            worst = std::max(worst, backlog);
        }
        return static_cast<uint64_t>(worst / rate * static_cast<double>(bin_ns_));
    }
    [[nodiscard]] uint64_t bin_ns() const { return bin_ns_; }

private:
    uint64_t bin_ns_;
    std::vector<double> bins_;
};

struct Pair {
    std::unique_ptr<Sender> sender;
    std::unique_ptr<Receiver> receiver;
    std::unique_ptr<Timeline> delivered;
};

double pct(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0;
}

void fail(Result &r, const char *what) {
    if (!r.why.empty())
        r.why += ",";
    r.why += what;
}

// One line of requester 0's state, for --trace.
void trace(uint64_t now, const Sender &s, const Receiver &rx) {
    const mrc_path_set &ps = s.paths();
    const mrc_tx_window &txw = s.txw();

    std::fprintf(stderr,
                 "TRACE t_us=%llu una=%u nxt=%u sacked=%u cum=%u cwnd=%u srtt_us=%u base_us=%.1f "
                 "target_us=%.1f reo_us=%u "
                 "usable=%u suspect=%u bad=%u tx=%llu retx=%llu tlp=%llu rto=%llu "
                 "cuts_delay=%u cuts_loss=%u cuts_ecn=%u marks_avg=%.2f\n",
                 static_cast<unsigned long long>(now / 1000), txw.una, txw.nxt, txw.nr_sacked,
                 rx.cum(), mrc_cc_cwnd(&s.cc()), s.cc().srtt_ns / 1000,
                 mrc_cc_base_rtt(&s.cc()) / 1000.0, mrc_cc_target_delay(&s.cc()) / 1000.0,
                 mrc_loss_reo_wnd(&s.loss()) / 1000, ps.nr_usable, ps.nr_suspect, ps.nr_bad,
                 static_cast<unsigned long long>(s.stats().tx_packets),
                 static_cast<unsigned long long>(s.stats().retransmits),
                 static_cast<unsigned long long>(s.stats().tail_probes),
                 static_cast<unsigned long long>(s.stats().rto), s.cc().delay_decreases,
                 s.cc().loss_decreases, s.cc().ecn_decreases,
                 s.cc().marks_avg / static_cast<double>(1U << MRC_CC_SHIFT));
}

// The spine most of requester 0's EVs take: a hash may leave a spine with none of 16 EVs, and
// its failure would test nothing.
uint32_t busiest_spine(const Fabric &fabric, const Scenario &sc) {
    std::vector<uint32_t> evs(sc.spines);

    for (uint32_t ev = 0; ev < sc.nr_ev; ev++)
        evs[fabric.spine_of(0, ev, true)]++;
    return static_cast<uint32_t>(std::max_element(evs.begin(), evs.end()) - evs.begin());
}

void judge(const Scenario &sc, Result &r) {
    switch (sc.check) {
    case Check::Failover:
        if (r.stall_rtt > 3)
            fail(r, "stall>3rtt");
        if (r.last_new_on_dead_rtt > 2 + r.reo_rtt)
            fail(r, "new_on_dead>2rtt+reo");
        if (r.rto)
            fail(r, "rto");
        if (r.max_copies > 3)
            fail(r, "resent>2x");
        if (r.after_vs_fair < 0.9)
            fail(r, "after<0.9fair");
        if (r.false_bad)
            fail(r, "false_bad");
        break;
    case Check::Reorder:
    case Check::HostStall:
        if (r.false_bad)
            fail(r, "false_bad");
        if (r.resend_pct >= 0.1)
            fail(r, "resend>=0.1%");
        break;
    case Check::RandomLoss:
        if (r.rate_vs_lossless < 0.9)
            fail(r, "collapsed");
        if (r.rto)
            fail(r, "rto");
        break;
    case Check::Return:
        // the control probe (every 50 ms while nothing answers, on a suspect EV when no EV is
        // usable) hears of the way back within a tick (2 ms), the look-out (every 1 ms) of
        // it, and the resend takes a round trip: the doubled timeout waits 134 ms instead
        if (r.resume_ms > 55)
            fail(r, "slow_return");
        if (!r.return_resends)
            fail(r, "no_return_resend");
        if (r.after_vs_fair < 0.9)
            fail(r, "after<0.9before");
        break;
    case Check::Incast:
        if (r.fairness_spread > 0.1)
            fail(r, "unfair");
        if (r.max_queue_pkts > 4.0 * sc.ecn_pkts)
            fail(r, "queue");
        if (r.queue_drops)
            fail(r, "drops");
        break;
    }
    r.pass = r.why.empty();
}

} // namespace

Result run(const Scenario &sc, uint64_t trace_ns) {
    const uint32_t hosts = sc.senders + 1;
    const uint32_t rx_host = sc.senders;
    const double spine_rate = kNicBytesPerNs / sc.spines;
    const double ser = (kDataBytes + kCtrlBytes) / spine_rate;
    Result r;

    r.rtt_unit_ns = static_cast<double>(sc.rtt_ns) + 2 * ser;
    const auto rtt = static_cast<uint64_t>(r.rtt_unit_ns);
    const uint64_t t_event = std::max<uint64_t>(100 * rtt, 2'000'000);
    uint64_t post = std::max<uint64_t>(200 * rtt, 20'000'000);

    if (sc.check == Check::Failover)
        post = std::max<uint64_t>(100 * rtt, kMinPostNs);
    else if (sc.check == Check::Return)
        post = kOutageNs + kMinPostNs;
    const uint64_t t_end = t_event + post;

    EventLoop loop;
    FabricConfig fc;
    fc.spines = sc.spines;
    fc.hosts = hosts;
    fc.nic_bytes_per_ns = kNicBytesPerNs;
    fc.one_way_ns = sc.rtt_ns / 2;
    fc.jitter_ns = sc.jitter_ns;
    fc.ecn_pkts = sc.ecn_pkts;
    fc.loss_ppm = sc.loss_ppm;
    fc.srv6 = sc.srv6;
    fc.seed = sc.seed;
    Fabric fabric(loop, fc);

    std::vector<Pair> pairs(sc.senders);
    std::vector<std::vector<Receiver *>> rx_of(hosts);
    uint64_t last_new_on_dead = 0;
    const bool failing = sc.event == Event::LinkDown || sc.event == Event::Blackhole;

    for (uint32_t f = 0; f < sc.senders; f++) {
        Pair &p = pairs[f];
        SenderConfig cfg;
        SenderHooks hooks;

        cfg.nr_ev = sc.nr_ev;
        cfg.policy = sc.policy;
        cfg.probe_secret = sc.seed * 7919 + f;
        hooks.sent = [&, f](uint64_t now, uint32_t ev, bool retx) {
            if (failing && !retx && now >= t_event &&
                !fabric.carries(fabric.spine_of(f, ev, true), true))
                last_new_on_dead = now;
        };
        hooks.changed = [&, f](uint64_t, const mrc_ev_change &c) {
            if (c.to == MRC_EV_ASSUMED_BAD && fabric.carries(fabric.spine_of(f, c.ev, true), true))
                r.false_bad++;
        };
        p.delivered = std::make_unique<Timeline>(rtt / kRateBinsPerRtt, t_end);
        p.sender = std::make_unique<Sender>(loop, fabric, f, rx_host, f, cfg, hooks);
        p.receiver = std::make_unique<Receiver>(loop, fabric, rx_host, f, f, cfg.window, sc.nr_ev);
        p.receiver->on_delivered(
                [tl = p.delivered.get()](uint64_t now, uint32_t n) { tl->add(now, n); });
    }
    for (uint32_t f = 0; f < sc.senders; f++)
        fabric.attach(f, [&pairs, f](const Packet &pkt) { pairs[f].sender->on_packet(pkt); });
    fabric.attach(rx_host,
                  [&pairs](const Packet &pkt) { pairs[pkt.flow].receiver->on_packet(pkt); });
    if (sc.event == Event::HostStall)
        pairs[0].sender->stall(t_event, t_event + 20 * rtt);
    for (auto &p : pairs)
        p.sender->start();

    if (trace_ns) {
        for (uint64_t t = t_event >= 5 * trace_ns ? t_event - 5 * trace_ns : 0; t < t_end;
             t += trace_ns)
            loop.at(t,
                    [&pairs, &loop] { trace(loop.now(), *pairs[0].sender, *pairs[0].receiver); });
    }
    loop.run_until(t_event);
    const Sender &s0 = *pairs[0].sender;
    const uint64_t tx_before = s0.stats().tx_packets;
    const uint64_t retx_before = s0.stats().retransmits;
    const uint64_t dup_before = pairs[0].receiver->duplicates();

    r.reo_rtt = mrc_loss_reo_wnd(&s0.loss()) / r.rtt_unit_ns;
    pairs[0].sender->stall_reset();
    if (sc.event == Event::LinkDown)
        fabric.set_spine(busiest_spine(fabric, sc), SpineState::Down);
    else if (sc.event == Event::Blackhole)
        fabric.set_spine(busiest_spine(fabric, sc), SpineState::Blackhole);
    if (sc.event == Event::AllDown) {
        for (uint32_t s = 0; s < sc.spines; s++)
            fabric.set_spine(s, SpineState::Down);
        loop.at(t_event + kOutageNs, [&fabric, &sc] {
            for (uint32_t s = 0; s < sc.spines; s++)
                fabric.set_spine(s, SpineState::Up);
        });
    }
    if (sc.check == Check::Incast) {
        loop.run_until(t_event + post / 2);
        fabric.reset_queue_stats();
    }
    loop.run_until(t_end);

    const Timeline &tl = *pairs[0].delivered;
    const double before = tl.mean(t_event - 20 * rtt, t_event);
    const double n = sc.spines;
    const double fair_after = failing ? before * (n - 1) / n : before;

    r.rto = s0.stats().rto;
    r.oldest_wait_rtt = static_cast<double>(s0.stall_max_ns()) / r.rtt_unit_ns;
    r.max_copies = s0.stats().max_copies;
    r.spurious_pct =
            pct(pairs[0].receiver->duplicates() - dup_before, s0.stats().tx_packets - tx_before);
    r.resend_pct = pct(s0.stats().retransmits - retx_before, s0.stats().tx_packets - tx_before);
    r.after_vs_fair = fair_after > 0 ? tl.mean(t_end - 20 * rtt, t_end) / fair_after : 0;
    if (failing) {
        const double floor = std::max(0.9 * fair_after, 1e-9);

        r.stall_rtt = static_cast<double>(tl.lost_time(t_event, t_end, floor)) / r.rtt_unit_ns;
        r.last_new_on_dead_rtt =
                last_new_on_dead ? static_cast<double>(last_new_on_dead - t_event) / r.rtt_unit_ns
                                 : 0;
    }
    // what the links could carry, in packets per bin: the NIC, or the window per RTT
    const double capacity = std::min(kNicBytesPerNs * static_cast<double>(tl.bin_ns()) / kDataBytes,
                                     MRC_DEFAULT_WINDOW / static_cast<double>(kRateBinsPerRtt));
    r.rate_vs_capacity = tl.mean(t_event, t_end) / capacity;
    if (sc.check == Check::Incast) {
        std::vector<double> share;

        share.reserve(pairs.size());
        for (const auto &p : pairs)
            share.push_back(p.delivered->mean(t_event + post / 2, t_end));
        const double mean = std::accumulate(share.begin(), share.end(), 0.0) /
                            static_cast<double>(share.size());
        for (double s : share)
            r.fairness_spread = std::max(r.fairness_spread, std::fabs(s - mean) / mean);
        r.max_queue_pkts = fabric.max_queue_pkts(rx_host);
        r.queue_drops = fabric.queue_drops_since_reset();
    }
    if (before > 0) {
        r.event_bin = t_event / tl.bin_ns();
        for (uint64_t t = 0; t + tl.bin_ns() <= t_end; t += tl.bin_ns())
            r.rate.push_back(tl.mean(t, t + tl.bin_ns()) / before);
    }
    if (sc.check == Check::Return) {
        const uint64_t back = t_event + kOutageNs;
        uint64_t t = back;

        while (t < t_end && tl.mean(t, t + tl.bin_ns()) == 0)
            t += tl.bin_ns();
        r.resume_ms = static_cast<double>(t - back) / 1e6;
        r.return_resends = s0.stats().return_resends;
    }
    if (sc.check == Check::RandomLoss) {
        // what the same fabric carries without the loss: ECMP's uneven hash caps both alike
        Scenario lossless = sc;

        lossless.loss_ppm = 0;
        lossless.check = Check::Reorder;
        const double base = run(lossless, 0).rate_vs_capacity;

        r.rate_vs_lossless = base > 0 ? r.rate_vs_capacity / base : 0;
    }
    judge(sc, r);
    return r;
}

std::string format(const Scenario &sc, const Result &r) {
    char line[512];

    std::snprintf(line, sizeof(line),
                  "SIM %s stall_rtt=%.1f last_new_on_dead_rtt=%.1f rto=%llu spurious=%.3f%% "
                  "after_vs_fair=%.2f false_bad=%llu max_copies=%u resend=%.3f%% reo_rtt=%.2f "
                  "oldest_wait_rtt=%.1f",
                  sc.name.c_str(), r.stall_rtt, r.last_new_on_dead_rtt,
                  static_cast<unsigned long long>(r.rto), r.spurious_pct, r.after_vs_fair,
                  static_cast<unsigned long long>(r.false_bad), r.max_copies, r.resend_pct,
                  r.reo_rtt, r.oldest_wait_rtt);
    std::string out = line;

    if (sc.check == Check::RandomLoss) {
        std::snprintf(line, sizeof(line), " rate_vs_capacity=%.2f rate_vs_lossless=%.2f",
                      r.rate_vs_capacity, r.rate_vs_lossless);
        out += line;
    }
    if (sc.check == Check::Return) {
        std::snprintf(line, sizeof(line), " resume_ms=%.2f return_resends=%llu", r.resume_ms,
                      static_cast<unsigned long long>(r.return_resends));
        out += line;
    }
    if (sc.check == Check::Incast) {
        std::snprintf(line, sizeof(line), " spread=%.3f max_queue=%.0f drops=%llu",
                      r.fairness_spread, r.max_queue_pkts,
                      static_cast<unsigned long long>(r.queue_drops));
        out += line;
    }
    return out;
}

namespace {

Scenario failover(uint64_t rtt_ns, const char *rtt_name, uint32_t evs, uint32_t spines, bool srv6,
                  Event ev) {
    Scenario sc;

    sc.rtt_ns = rtt_ns;
    sc.nr_ev = evs;
    sc.spines = spines;
    sc.srv6 = srv6;
    sc.event = ev;
    sc.name = std::string("rtt") + rtt_name + "-ev" + std::to_string(evs) + "-s" +
              std::to_string(spines) + (srv6 ? "-srv6" : "-ecmp") +
              (ev == Event::LinkDown ? "-down" : "-blackhole");
    return sc;
}

} // namespace

std::vector<Scenario> matrix() {
    std::vector<Scenario> out;
    const struct {
        uint64_t ns;
        const char *name;
    } rtts[] = {{10'000, "10us"}, {100'000, "100us"}, {3'000'000, "3ms"}};

    for (const auto &rtt : rtts) {
        for (uint32_t evs : {16U, 256U, 4096U}) {
            for (uint32_t spines : {2U, 4U, 8U}) {
                for (bool srv6 : {false, true}) {
                    for (Event ev : {Event::LinkDown, Event::Blackhole})
                        out.push_back(failover(rtt.ns, rtt.name, evs, spines, srv6, ev));
                }
            }
        }
    }

    Scenario reorder;
    reorder.name = "control-reorder";
    reorder.check = Check::Reorder;
    reorder.jitter_ns = 20'000; // a fifth of the round trip
    out.push_back(reorder);

    Scenario stall;
    stall.name = "control-host-stall-20rtt";
    stall.check = Check::HostStall;
    stall.event = Event::HostStall;
    out.push_back(stall);

    Scenario back;
    back.name = "control-all-down-100ms-and-back";
    back.check = Check::Return;
    back.event = Event::AllDown;
    out.push_back(back);

    Scenario loss;
    loss.name = "control-random-loss-0.1pct";
    loss.check = Check::RandomLoss;
    loss.loss_ppm = 1000;
    out.push_back(loss);

    // ECMP's hash gives each sender its own uneven split over the spines, SRv6 an even one;
    // the adaptive spray rests the EVs whose packets come back marked, which evens out the
    // spines' queues and so the marks each sender gets
    Scenario incast;
    incast.name = "control-incast-8to1-ecn";
    incast.check = Check::Incast;
    incast.senders = 8;
    out.push_back(incast);
    Scenario adaptive = incast;
    adaptive.name += "-adaptive";
    adaptive.policy = MRC_SPRAY_ADAPTIVE;
    out.push_back(adaptive);
    incast.name += "-srv6";
    incast.srv6 = true;
    out.push_back(incast);
    return out;
}

} // namespace mrc::sim
