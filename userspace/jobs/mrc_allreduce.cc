// SPDX-License-Identifier: BSD-2-Clause
// mrc_allreduce - a training job's communication, reduced to its rhythm: every step each rank
// contributes a gradient-sized buffer to an MPI_Allreduce, checks every element of the sum, and
// rank 0 records how long the step took. The selftests run it over mrc (Open MPI, pml ucx) and over
// TCP while the fabric's links flap, and compare the step times.
//
//   mrc_allreduce [--bytes N] [--steps N] [--seconds S] [--quiet]
//
// Rank 0 prints "start_epoch S" (the wall clock of the first step), "step N AT_S MS" per step
// (unless --quiet; AT_S counts from the first step), then
// "summary steps N verified N median_ms X p99_ms Y max_ms Z". Exit status 0 only when every
// element of every step on every rank was right.
// A step's time is the whole iteration on rank 0: the go/stop broadcast, the allreduce and the
// reduce of the verdicts. Each of them crosses the fabric, and a stall in any one holds the job.
#include "percentile.h"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mrc::jobs::percentile;

struct Options {
    std::size_t bytes = 16UL << 20;
    long steps = 0;       // 0: run for `seconds`
    double seconds = 0.0; // 0 with steps 0: 10 steps
    bool quiet = false;
};

long parse_number(std::string_view what, const char *text) {
    long value = 0;
    const std::string_view s(text);
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || value < 0)
        throw std::invalid_argument(std::string(what) + ": not a number: " + text);
    return value;
}

Options parse_options(std::span<char *> args) {
    Options o;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view a(args[i]);
        const bool has_value = i + 1 < args.size();
        if (a == "--quiet") {
            o.quiet = true;
        } else if (a == "--bytes" && has_value) {
            o.bytes = static_cast<std::size_t>(parse_number(a, args[++i]));
        } else if (a == "--steps" && has_value) {
            o.steps = parse_number(a, args[++i]);
        } else if (a == "--seconds" && has_value) {
            o.seconds = static_cast<double>(parse_number(a, args[++i]));
        } else {
            throw std::invalid_argument("usage: mrc_allreduce [--bytes N] [--steps N] "
                                        "[--seconds S] [--quiet]");
        }
    }
    if (o.steps == 0 && o.seconds == 0.0)
        o.steps = 10;
    if (o.bytes < sizeof(float) || o.bytes > (1UL << 30))
        throw std::invalid_argument("--bytes: between 4 and 1 GiB");
    return o;
}

// Small integers, so that float sums are exact whatever order the reduction adds them in; the
// step shifts the pattern so a stale buffer from the step before cannot pass.
float contribution(int rank, long step, std::size_t i) {
    return static_cast<float>((rank + 1) *
                              static_cast<long>((i + static_cast<std::size_t>(step)) % 251));
}

void fill(std::vector<float> &buf, int rank, long step) {
    for (std::size_t i = 0; i < buf.size(); ++i)
        buf[i] = contribution(rank, step, i);
}

// How many elements of the sum are wrong.
std::size_t count_wrong(const std::vector<float> &sum, int ranks, long step) {
    const long weight = static_cast<long>(ranks) * (ranks + 1) / 2;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < sum.size(); ++i) {
        const auto want = static_cast<float>(
                weight * static_cast<long>((i + static_cast<std::size_t>(step)) % 251));
        wrong += sum[i] != want ? 1 : 0;
    }
    return wrong;
}

// MPI_Init / MPI_Finalize for the life of main's body.
class MpiSession {
public:
    MpiSession(int *argc, char ***argv) { MPI_Init(argc, argv); }
    ~MpiSession() { MPI_Finalize(); }
    MpiSession(const MpiSession &) = delete;
    MpiSession &operator=(const MpiSession &) = delete;
    MpiSession(MpiSession &&) = delete;
    MpiSession &operator=(MpiSession &&) = delete;
};

int run(const Options &o) {
    int rank = 0;
    int ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::vector<float> send(o.bytes / sizeof(float));
    std::vector<float> sum(send.size());
    std::vector<double> step_ms;
    long verified = 0;
    long wrong_steps = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    // the wall clock of step 0's start, so a log of the fabric's events can be laid beside
    if (rank == 0) {
        const std::chrono::duration<double> epoch =
                std::chrono::system_clock::now().time_since_epoch();
        std::printf("start_epoch %.6f\n", epoch.count());
    }
    for (long step = 0;; ++step) {
        const double t0 = MPI_Wtime();
        // every rank takes the same decision: rank 0's clock rules
        int go = o.steps != 0 ? static_cast<int>(step < o.steps)
                              : static_cast<int>(MPI_Wtime() - start < o.seconds);
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (go == 0)
            break;
        fill(send, rank, step);
        MPI_Allreduce(send.data(), sum.data(), static_cast<int>(send.size()), MPI_FLOAT, MPI_SUM,
                      MPI_COMM_WORLD);
        // a step counts as verified when no rank found a wrong element
        const long mine = count_wrong(sum, ranks, step) != 0 ? 1 : 0;
        long bad_ranks = 0;
        MPI_Reduce(&mine, &bad_ranks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        const double ms = (MPI_Wtime() - t0) * 1e3;
        if (mine != 0)
            std::fprintf(stderr, "rank %d: step %ld: wrong sum\n", rank, step);
        if (rank != 0)
            continue;
        step_ms.push_back(ms);
        (bad_ranks == 0 ? verified : wrong_steps) += 1;
        if (!o.quiet)
            std::printf("step %ld %.3f %.3f\n", step, t0 - start, ms);
    }
    if (rank == 0) {
        std::printf("summary ranks %d bytes %zu steps %zu verified %ld median_ms %.3f p99_ms %.3f "
                    "max_ms %.3f\n",
                    ranks, o.bytes, step_ms.size(), verified, percentile(step_ms, 0.5),
                    percentile(step_ms, 0.99), percentile(step_ms, 1.0));
    }
    int failed = rank == 0 ? static_cast<int>(wrong_steps != 0 || step_ms.empty()) : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return failed;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    try {
        o = parse_options(std::span<char *>(argv, static_cast<std::size_t>(argc)));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "mrc_allreduce: %s\n", e.what());
        return 2;
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const MpiSession mpi(&argc, &argv);
    try {
        return run(o);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "mrc_allreduce: %s\n", e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return 1;
}
