// mrc_sim: the fabric simulator's scenario matrix (make sim). One line per scenario, then a
// summary; exits non-zero when a scenario fails that is not listed as an expected failure,
// or one listed passes (the list must shrink as the transport improves).
//
//   mrc_sim [--only SUBSTRING] [--xfail FILE] [--plot FILE.png] [--trace NS] [--seed N]
//
// --seed runs every scenario on another draw of the fabric (ECMP hash, jitter, random loss):
// make sim-seeds shows how much of the matrix holds beyond the seed it is judged on.
#include "sim_scenario.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>

namespace {

std::set<std::string> read_list(const char *path) {
    std::set<std::string> names;
    std::ifstream in(path);
    std::string line;

    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#')
            names.insert(line);
    return names;
}

} // namespace

int main(int argc, char **argv) {
    const char *only = nullptr;
    const char *plot_path = nullptr;
    uint64_t trace_ns = 0;
    uint64_t seed = 0;
    std::set<std::string> xfail;
    unsigned passed = 0;
    unsigned failed = 0;
    unsigned expected = 0;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--only")) {
            only = argv[i + 1];
        } else if (!std::strcmp(argv[i], "--trace")) {
            trace_ns = std::strtoull(argv[i + 1], nullptr, 0);
        } else if (!std::strcmp(argv[i], "--seed")) {
            seed = std::strtoull(argv[i + 1], nullptr, 0);
        } else if (!std::strcmp(argv[i], "--plot")) {
            plot_path = argv[i + 1];
        } else if (!std::strcmp(argv[i], "--xfail")) {
            xfail = read_list(argv[i + 1]);
        } else {
            std::fprintf(
                    stderr,
                    "usage: %s [--only SUBSTRING] [--xfail FILE] [--plot FILE.png] [--trace NS] "
                    "[--seed N]\n",
                    argv[0]);
            return 2;
        }
    }
    for (auto sc : mrc::sim::matrix()) {
        if (only && sc.name.find(only) == std::string::npos)
            continue;
        if (seed)
            sc.seed = seed;
        const mrc::sim::Result r = mrc::sim::run(sc, trace_ns);
        const bool listed = xfail.contains(sc.name);
        std::string verdict;

        if (r.pass && !listed) {
            verdict = "PASS";
            passed++;
        } else if (r.pass) {
            verdict = "XPASS (listed as an expected failure: remove it)";
            failed++;
        } else if (listed) {
            verdict = "XFAIL " + r.why;
            expected++;
        } else {
            verdict = "FAIL " + r.why;
            failed++;
        }
        std::printf("%s %s\n", mrc::sim::format(sc, r).c_str(), verdict.c_str());
        if (plot_path && sc.name == mrc::sim::kPlotScenario) {
            if (mrc::sim::plot(sc, r, plot_path)) {
                std::printf("PLOT %s: %s\n", sc.name.c_str(), plot_path);
            } else {
                std::printf("PLOT %s: cannot write %s\n", sc.name.c_str(), plot_path);
                failed++;
            }
        }
        std::fflush(stdout);
    }
    std::printf("%u passed, %u failed, %u expected failures\n", passed, failed, expected);
    return failed ? 1 : 0;
}
