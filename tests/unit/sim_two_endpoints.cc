// Deterministic simulation: a sender scoreboard (mrc_tx_window) and a receiver window
// (mrc_rx_window) connected by a seeded lossy link that drops, reorders and duplicates
// packets and ACKs.  The sender resends holes once they are older than a round trip, and
// everything unacknowledged on a retransmission timeout.  No go-back-N: only PSNs the
// scoreboard says are unacknowledged are ever resent.
//
// Checked: every PSN is delivered exactly once as NEW; every ACK tells the truth and is
// accepted; the scoreboard agrees with an independent model built from the ACKs; no PSN
// the sender already knew to be acknowledged is resent; una reaches the end; CC accounting
// (newly_acked) counts every PSN exactly once.
extern "C" {
#include "mrc_rx_window.h"
#include "mrc_tx_window.h"
}

#include "sim_rng.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <ostream>
#include <queue>
#include <string>
#include <vector>

namespace {

// Link model, in ticks.  The sender may put kSendsPerTick packets on the link per tick.
constexpr uint32_t kMinDelay = 10;
constexpr uint32_t kJitter = 30; // delay in [kMinDelay, kMinDelay + kJitter): reordering
constexpr uint32_t kLossPercent = 10;
constexpr uint32_t kDupPercent = 5;
constexpr uint32_t kSendsPerTick = 2;
constexpr uint64_t kRttMax = 2ULL * (kMinDelay + kJitter);
constexpr uint64_t kHoleAge = kRttMax + 4;  // a hole older than this is lost, not late
constexpr uint64_t kRto = 3ULL * kRttMax;   // no progress for this long: resend the rest
constexpr uint64_t kTickLimit = 10'000'000; // a stuck connection fails instead of hanging

using mrc::sim::Rng;

struct Packet {
    uint64_t time = 0;
    uint64_t seq = 0; // ties broken by send order, so runs are reproducible
    bool is_ack = false;
    uint32_t psn = 0;
    mrc_sack sack{};
};

struct Later {
    bool operator()(const Packet &a, const Packet &b) const {
        return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
};

class Link {
public:
    explicit Link(uint64_t seed) : rng(seed) {}

    void send(uint64_t now, Packet pkt) {
        const uint32_t copies = rng.percent(kDupPercent) ? 2 : 1;

        for (uint32_t i = 0; i < copies; i++) {
            if (rng.percent(kLossPercent))
                continue;
            pkt.time = now + kMinDelay + rng.below(kJitter);
            pkt.seq = seq++;
            in_flight.push(pkt);
        }
    }

    bool pop_due(uint64_t now, Packet *pkt) {
        if (in_flight.empty() || in_flight.top().time > now)
            return false;
        *pkt = in_flight.top();
        in_flight.pop();
        return true;
    }

    Rng rng;

private:
    std::priority_queue<Packet, std::vector<Packet>, Later> in_flight;
    uint64_t seq = 0;
};

struct SimParams {
    uint64_t seed;
    uint32_t packets;
    uint32_t tx_window;
    uint32_t rx_window;
};

// Names the parameters in test output instead of dumping their bytes.
void PrintTo(const SimParams &p, std::ostream *os) {
    *os << "seed " << p.seed << ", " << p.packets << " PSNs, tx window " << p.tx_window
        << ", rx window " << p.rx_window;
}

class Sim {
public:
    explicit Sim(const SimParams &p)
        : params(p), start(0xffffffffU - p.packets / 2U - static_cast<uint32_t>(p.seed)),
          link(p.seed), tx_bits(MRC_WINDOW_WORDS(p.tx_window)),
          rx_bits(MRC_WINDOW_WORDS(p.rx_window)), delivered(p.packets, 0),
          shadow_acked(p.packets, 0), queued(p.packets, 0), last_sent(p.packets, 0) {}

    void run() {
        ASSERT_EQ(0, mrc_tx_window_init(&tx, params.tx_window, tx_bits.data(),
                                        static_cast<uint32_t>(tx_bits.size()), start));
        ASSERT_EQ(0, mrc_rx_window_init(&rx, params.rx_window, rx_bits.data(),
                                        static_cast<uint32_t>(rx_bits.size()), start));

        for (now = 0; index(mrc_tx_window_una(&tx)) != params.packets; now++) {
            ASSERT_LT(now, kTickLimit)
                    << "connection stuck at una index " << index(mrc_tx_window_una(&tx));
            Packet pkt;
            while (link.pop_due(now, &pkt)) {
                if (pkt.is_ack)
                    on_ack(pkt.sack);
                else
                    on_data(pkt.psn);
                if (::testing::Test::HasFatalFailure())
                    return;
            }
            check_timeout();
            for (uint32_t i = 0; i < kSendsPerTick; i++)
                transmit();
            if (::testing::Test::HasFatalFailure())
                return;
        }
        check_end();
    }

    uint64_t retransmits = 0;
    uint64_t timeouts = 0;
    uint64_t window_full = 0;
    uint64_t stale_acks = 0;
    uint64_t far_sacks = 0;
    uint64_t duplicates = 0;

private:
    [[nodiscard]] uint32_t index(uint32_t psn) const { return psn - start; }

    // Receiver: place new data, then answer every packet with an ACK.
    void on_data(uint32_t psn) {
        uint32_t advance = 0;
        const mrc_rx_result res = mrc_rx_window_accept(&rx, psn, &advance);
        mrc_sack sack{};

        ASSERT_NE(MRC_RX_BEYOND_WINDOW, res) << "sender overran the receive window";
        if (res == MRC_RX_NEW) {
            ASSERT_EQ(0, delivered.at(index(psn))) << "PSN " << psn << " NEW twice";
            delivered.at(index(psn)) = 1;
        } else {
            duplicates++;
        }
        rx_advanced += advance;

        // Now and then describe the region past the first MRC_SACK_BITS PSNs, which a
        // wide window can hold and the usual summary cannot show.
        const uint32_t cum = mrc_rx_window_cum(&rx);
        const uint32_t ahead = mrc_rx_window_highest(&rx) - cum;
        if (++acks_sent % 4 == 0 && mrc_rx_window_has_ooo(&rx) && ahead >= MRC_SACK_BITS &&
            params.rx_window > MRC_SACK_BITS) {
            ASSERT_EQ(0, mrc_rx_window_sack_from(&rx, cum + MRC_SACK_BITS, &sack));
            far_sacks++;
        } else {
            mrc_rx_window_sack(&rx, &sack);
        }

        Packet ack;
        ack.is_ack = true;
        ack.sack = sack;
        link.send(now, ack);
    }

    // Sender: check the ACK against the truth, apply it, then look for holes to resend.
    void on_ack(const mrc_sack &sack) {
        mrc_tx_ack_result res{};

        record_in_model(sack);
        if (::testing::Test::HasFatalFailure())
            return;
        ASSERT_EQ(0, mrc_tx_window_ack(&tx, &sack, &res));
        if (res.stale)
            stale_acks++;
        if (res.una_advance)
            last_progress = now;
        una_advanced += res.una_advance;
        newly_acked += res.newly_acked;
        ASSERT_EQ(model_una, index(mrc_tx_window_una(&tx))) << "scoreboard disagrees";

        uint32_t psn = 0;
        mrc_tx_window_for_each_hole(&tx, psn) {
            const uint32_t i = index(psn);

            ASSERT_FALSE(shadow_acked.at(i));
            if (!queued.at(i) && now - last_sent.at(i) >= kHoleAge)
                enqueue(i);
        }
    }

    // The model: which PSNs the ACKs seen so far claim, each checked against what the
    // receiver really got.
    void record_in_model(const mrc_sack &sack) {
        for (uint32_t i = model_una; mrc_psn_before(start + i, sack.cum_psn); i++) {
            ASSERT_EQ(1, delivered.at(i)) << "ACK claims undelivered PSN";
            shadow_acked.at(i) = 1;
        }
        for (uint32_t w = 0; w < MRC_SACK_WORDS; w++) {
            for (uint64_t bits = sack.bitmap[w]; bits != 0; bits &= bits - 1U) {
                const auto bit = static_cast<uint32_t>(__builtin_ctzll(bits));
                const uint32_t i = index(sack.sack_base + 64U * w + bit);

                ASSERT_EQ(1, delivered.at(i)) << "SACK claims undelivered PSN";
                shadow_acked.at(i) = 1;
            }
        }
        while (model_una < params.packets && shadow_acked.at(model_una))
            model_una++;
    }

    void enqueue(uint32_t i) {
        queued.at(i) = 1;
        retx_queue.push_back(i);
    }

    // Retransmission timeout: resend every unacknowledged PSN not sent within an RTO.
    void check_timeout() {
        uint32_t psn = 0;

        if (mrc_tx_window_outstanding(&tx) == 0 || now - last_progress < kRto)
            return;
        timeouts++;
        for (bool more = mrc_tx_window_next_unacked(&tx, mrc_tx_window_una(&tx), &psn); more;
             more = mrc_tx_window_next_unacked(&tx, psn + 1U, &psn)) {
            const uint32_t i = index(psn);

            if (!queued.at(i) && now - last_sent.at(i) >= kRto)
                enqueue(i);
        }
        last_progress = now;
    }

    // Send one packet: a queued retransmission first, else a new PSN if the window allows.
    void transmit() {
        while (!retx_queue.empty()) {
            const uint32_t i = retx_queue.front();
            const uint32_t psn = start + i;

            retx_queue.pop_front();
            queued.at(i) = 0;
            if (mrc_tx_window_is_acked(&tx, psn))
                continue; // acknowledged while queued
            ASSERT_FALSE(shadow_acked.at(i)) << "resending acknowledged PSN " << psn;
            retransmits++;
            put_on_link(psn);
            return;
        }

        uint32_t psn = 0;
        if (index(mrc_tx_window_nxt(&tx)) == params.packets)
            return;
        if (mrc_tx_window_alloc(&tx, &psn) != 0) {
            window_full++;
            return;
        }
        put_on_link(psn);
    }

    void put_on_link(uint32_t psn) {
        Packet pkt;

        pkt.psn = psn;
        last_sent.at(index(psn)) = now;
        link.send(now, pkt);
    }

    void check_end() {
        for (uint32_t i = 0; i < params.packets; i++)
            ASSERT_EQ(1, delivered.at(i)) << "PSN index " << i;
        EXPECT_EQ(start + params.packets, mrc_rx_window_cum(&rx));
        EXPECT_EQ(params.packets, rx_advanced);
        EXPECT_EQ(params.packets, una_advanced);
        EXPECT_EQ(params.packets, newly_acked) << "CC saw a PSN acked twice or never";
        EXPECT_EQ(0U, mrc_tx_window_outstanding(&tx));
        EXPECT_EQ(0U, mrc_tx_window_holes(&tx));
    }

    SimParams params;
    uint32_t start;
    Link link;
    std::vector<uint64_t> tx_bits;
    std::vector<uint64_t> rx_bits;
    mrc_tx_window tx{};
    mrc_rx_window rx{};
    uint64_t now = 0;
    uint64_t last_progress = 0;
    uint64_t acks_sent = 0;
    uint64_t rx_advanced = 0;
    uint64_t una_advanced = 0;
    uint64_t newly_acked = 0;
    uint32_t model_una = 0;
    std::vector<uint8_t> delivered;
    std::vector<uint8_t> shadow_acked; // uint8_t, not the slow vector<bool>
    std::vector<uint8_t> queued;
    std::vector<uint64_t> last_sent;
    std::deque<uint32_t> retx_queue;
};

class SimTwoEndpoints : public ::testing::TestWithParam<SimParams> {};

TEST_P(SimTwoEndpoints, lossy_link__every_psn_delivered_once) {
    Sim sim(GetParam());

    sim.run();
    RecordProperty("retransmits", std::to_string(sim.retransmits));
    RecordProperty("timeouts", std::to_string(sim.timeouts));
    RecordProperty("window_full", std::to_string(sim.window_full));
    RecordProperty("stale_acks", std::to_string(sim.stale_acks));
    RecordProperty("far_sacks", std::to_string(sim.far_sacks));
    RecordProperty("duplicates", std::to_string(sim.duplicates));
}

// Windows below, at and above the 256-PSN SACK summary and the bandwidth-delay product
// (about 160 packets), so the window sometimes fills and sometimes does not.
INSTANTIATE_TEST_SUITE_P(
        sim_two_endpoints, SimTwoEndpoints,
        ::testing::Values(SimParams{1, 20000, 64, 64}, SimParams{2, 20000, 128, 256},
                          SimParams{3, 20000, 256, 256}, SimParams{4, 20000, 512, 1024},
                          SimParams{5, 20000, 2048, 8192}, SimParams{6, 20000, 64, 8192},
                          SimParams{7, 20000, 1024, 1024}, SimParams{8, 20000, 8192, 8192}),
        [](const ::testing::TestParamInfo<SimParams> &info) {
            return "seed" + std::to_string(info.param.seed) + "_window" +
                   std::to_string(info.param.tx_window);
        });

} // namespace
