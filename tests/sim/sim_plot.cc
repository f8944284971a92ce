// The plot `make sim` writes: one requester's delivered rate across a failure.
//   x: time, from 20 RTT before the failure to 80 RTT after; a tick every 10 RTT
//   y: delivered rate (averaged over one RTT) / the rate before; ticks at 0.25 steps
//   red: the failure; grey: the recovery threshold 0.9 (N-1)/N; blue: the rate
#include "png_canvas.h"
#include "sim_scenario.h"

#include <algorithm>
#include <cstddef>

namespace mrc::sim {

namespace {

using plot::Canvas;
using plot::Rgb;

constexpr int kWidth = 800;
constexpr int kHeight = 320;
constexpr int kMargin = 20;
constexpr double kYMax = 1.25;
constexpr int kBinsPerRtt = 4;
constexpr int kBefore = 20 * kBinsPerRtt;
constexpr int kAfter = 80 * kBinsPerRtt;

} // namespace

bool plot(const Scenario &sc, const Result &r, const std::string &path) {
    Canvas c(kWidth, kHeight, {255, 255, 255});
    const int w = kWidth - 2 * kMargin;
    const int h = kHeight - 2 * kMargin;
    const auto first = static_cast<std::ptrdiff_t>(r.event_bin) - kBefore;
    auto x_of = [&](std::ptrdiff_t bin) {
        return kMargin + static_cast<int>((bin - first) * w / (kBefore + kAfter));
    };
    auto y_of = [&](double v) {
        return kMargin + h - static_cast<int>(std::clamp(v, 0.0, kYMax) / kYMax * h);
    };
    const Rgb axis = {0, 0, 0};
    const double threshold = 0.9 * (sc.spines - 1.0) / sc.spines;

    if (r.rate.empty() || first < 0)
        return false;
    c.line(kMargin, kMargin + h, kMargin + w, kMargin + h, axis);
    c.line(kMargin, kMargin, kMargin, kMargin + h, axis);
    for (int t = 0; t <= kBefore + kAfter; t += 10 * kBinsPerRtt)
        c.line(x_of(first + t), kMargin + h, x_of(first + t), kMargin + h + 6, axis);
    for (double v = 0.25; v <= kYMax; v += 0.25)
        c.line(kMargin - 6, y_of(v), kMargin, y_of(v), axis);
    c.line(kMargin, y_of(threshold), kMargin + w, y_of(threshold), {170, 170, 170});
    c.line(x_of(static_cast<std::ptrdiff_t>(r.event_bin)), kMargin,
           x_of(static_cast<std::ptrdiff_t>(r.event_bin)), kMargin + h, {220, 0, 0});
    int px = -1;
    int py = -1;

    for (std::ptrdiff_t b = first; b < first + kBefore + kAfter; b++) {
        double sum = 0;
        int n = 0;

        // the RTT up to this bin, so nothing shows before it happened
        for (std::ptrdiff_t k = b - kBinsPerRtt + 1;
             k <= b && k < static_cast<std::ptrdiff_t>(r.rate.size()); k++, n++)
            sum += r.rate[static_cast<size_t>(k)];
        if (!n)
            break;
        const int x = x_of(b);
        const int y = y_of(sum / n);

        if (px >= 0)
            c.line(px, py, x, y, {0, 60, 200});
        px = x;
        py = y;
    }
    return c.write_png(path);
}

} // namespace mrc::sim
