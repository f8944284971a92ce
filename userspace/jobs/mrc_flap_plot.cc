// mrc_flap_plot: the flapping-fabric job's step times as a PNG, and their summary as a table.
//
//   mrc_flap_plot LOG OUT.png
//
// LOG is what selftests/mpi_flap.sh printed (the VM's serial log will do: the rows are found
// anywhere in a line). Its rows, one run per TRANSPORT and EVENTS (the run's name for its set
// of events; mpi_flap.sh's one job per transport goes through all of them: "all"):
//   flapstart TRANSPORT EVENTS EPOCH_S         the wall clock of the run's first step
//   flapstep TRANSPORT EVENTS N AT_S MS        step N began AT_S after the first, took MS
//   flapevent TRANSPORT EVENTS EPOCH_S WHAT    an event (flaps start/end, spines out/back)
// A run printed twice (a rerun) keeps its last rows: its steps after its last start row, its
// events after the start row before.
//
// The plot has one panel per run, top to bottom in the order the runs first appear, on the same
// axes: x the seconds since the run's first step, y the step time from 0 to a ceiling of four
// times the slowest run's median (a step above it is drawn at the ceiling, in orange). Steps
// over mrc are blue, over TCP green; an event is a red line, and the time between a start
// (start, out) and its end (end, back) is shaded. Each panel's title gives its run and its
// median, p99 and max step time, as the table on stdout does.
#include "percentile.h"
#include "png_canvas.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mrc::jobs::percentile;
using mrc::plot::Canvas;
using mrc::plot::Rgb;

struct Step {
    double at_s;
    double ms;
};

struct Event {
    double epoch_s;
    std::string what;
};

struct Run {
    std::string transport;
    std::string events;
    double start_epoch_s = 0.0;
    std::vector<Step> steps;
    std::vector<Event> marks;
    size_t marks_at_start = 0; // marks[0, this) came before the run's start row (a rerun's)
};

struct Stats {
    double median = 0.0;
    double p99 = 0.0;
    double max = 0.0;
};

Stats stats_of(const Run &r) {
    std::vector<double> ms;

    ms.reserve(r.steps.size());
    for (const Step &s : r.steps)
        ms.push_back(s.ms);
    return {percentile(ms, 0.5), percentile(ms, 0.99), percentile(ms, 1.0)};
}

class Log {
public:
    // false when a row is malformed (its line is named on stderr)
    bool read(std::istream &in) {
        std::string line;
        bool ok = true;

        for (int n = 1; std::getline(in, line); n++) {
            if (!row(line)) {
                std::fprintf(stderr, "mrc_flap_plot: line %d: malformed row: %s\n", n,
                             line.c_str());
                ok = false;
            }
        }
        return ok;
    }

    [[nodiscard]] const std::vector<Run> &runs() const { return runs_; }

private:
    bool row(const std::string &line) {
        for (const std::string_view kind : {"flapstart ", "flapstep ", "flapevent "}) {
            const size_t at = line.find(kind);

            if (at == std::string::npos)
                continue;
            std::istringstream in(line.substr(at + kind.size()));
            std::string transport;
            std::string events;

            if (!(in >> transport >> events))
                return false;
            Run &r = run(transport, events, kind == "flapstart ");
            if (kind == "flapstart ")
                return static_cast<bool>(in >> r.start_epoch_s);
            if (kind == "flapstep ") {
                long n = 0;
                Step s{};

                if (!(in >> n >> s.at_s >> s.ms))
                    return false;
                r.steps.push_back(s);
                return true;
            }
            Event e;
            if (!(in >> e.epoch_s >> e.what))
                return false;
            r.marks.push_back(e);
            return true;
        }
        return true;
    }

    // the run's rows so far; a new start begins it again
    Run &run(const std::string &transport, const std::string &events, bool restart) {
        const std::string key = transport + " " + events;
        auto it = index_.find(key);

        if (it == index_.end()) {
            index_[key] = runs_.size();
            runs_.push_back({transport, events, 0.0, {}, {}, 0});
            return runs_.back();
        }
        Run &r = runs_[it->second];
        if (restart) {
            // a rerun: its events came before its start row, after the previous start row
            std::vector<Event> marks(
                    r.marks.begin() + static_cast<std::ptrdiff_t>(r.marks_at_start), r.marks.end());
            r = {transport, events, 0.0, {}, std::move(marks), 0};
            r.marks_at_start = r.marks.size();
        }
        return r;
    }

    std::vector<Run> runs_;
    std::map<std::string, size_t> index_;
};

constexpr int kWidth = 900;
constexpr int kPanelHeight = 150;
constexpr int kMargin = 20;
constexpr Rgb kWhite = {255, 255, 255};
constexpr Rgb kAxis = {0, 0, 0};
constexpr Rgb kEvent = {220, 0, 0};
constexpr Rgb kShade = {255, 225, 225};
constexpr Rgb kClipped = {240, 140, 0};

bool opens_span(const std::string &what) {
    return what == "start" || what == "out";
}

class Plot {
public:
    Plot(const std::vector<Run> &runs, double x_max_s, double y_max_ms)
        : runs_(runs), x_max_s_(x_max_s), y_max_ms_(y_max_ms),
          canvas_(kWidth, static_cast<uint32_t>(runs.size()) * kPanelHeight, kWhite) {}

    bool write(const std::string &path) {
        for (size_t i = 0; i < runs_.size(); i++)
            panel(runs_[i], static_cast<int>(i) * kPanelHeight);
        return canvas_.write_png(path);
    }

private:
    [[nodiscard]] int x_of(double s) const {
        const int w = kWidth - 2 * kMargin;
        return kMargin + static_cast<int>(std::clamp(s / x_max_s_, 0.0, 1.0) * w);
    }

    [[nodiscard]] int y_of(int top, double ms) const {
        const int h = kPanelHeight - 2 * kMargin;
        return top + kMargin + h - static_cast<int>(std::min(ms / y_max_ms_, 1.0) * h);
    }

    void vline(int x, int top, Rgb c) {
        canvas_.line(x, top + kMargin, x, top + kPanelHeight - kMargin, c);
    }

    void panel(const Run &r, int top) {
        const Stats st = stats_of(r);
        char title[160];
        const int bottom = top + kPanelHeight - kMargin;
        const Rgb color = r.transport == "tcp" ? Rgb{0, 150, 60} : Rgb{0, 60, 200};
        double open = -1.0;

        for (const Event &e : r.marks) {
            const double s = e.epoch_s - r.start_epoch_s;

            if (opens_span(e.what)) {
                open = s;
                continue;
            }
            if (open >= 0.0)
                for (int x = x_of(open); x <= x_of(s); x++)
                    vline(x, top, kShade);
            open = -1.0;
        }
        for (const Event &e : r.marks)
            vline(x_of(e.epoch_s - r.start_epoch_s), top, kEvent);
        std::snprintf(title, sizeof(title), "%s, %s: median %.0f ms, p99 %.0f ms, max %.0f ms",
                      r.transport.c_str(), r.events.c_str(), st.median, st.p99, st.max);
        canvas_.text(kMargin + 8, top + 4, title, kAxis);
        std::snprintf(title, sizeof(title), "%.0f ms", y_max_ms_);
        canvas_.text(kWidth - kMargin - 8 * Canvas::kGlyphWidth * 2, top + 4, title, kAxis);
        canvas_.line(kWidth - kMargin - 5, top + kMargin, kWidth - kMargin, top + kMargin, kAxis);
        canvas_.line(kMargin, bottom, kWidth - kMargin, bottom, kAxis);
        canvas_.line(kMargin, top + kMargin, kMargin, bottom, kAxis);
        for (int t = 0; t <= static_cast<int>(x_max_s_); t += 10) {
            canvas_.line(x_of(t), bottom, x_of(t), bottom + 4, kAxis);
            canvas_.text(x_of(t) + 3, bottom + 6, std::to_string(t) + " s", kAxis, 1);
        }
        for (double ms = 1000.0; ms <= y_max_ms_; ms += 1000.0)
            canvas_.line(kMargin - 5, y_of(top, ms), kMargin, y_of(top, ms), kAxis);
        int px = -1;
        int py = -1;
        for (const Step &s : r.steps) {
            const int x = x_of(s.at_s);
            const int y = y_of(top, s.ms);

            if (px >= 0)
                canvas_.line(px, py, x, y, color);
            dot(x, y, s.ms > y_max_ms_ ? kClipped : color);
            px = x;
            py = y;
        }
    }

    void dot(int x, int y, Rgb c) { canvas_.block(x - 1, y - 1, 3, c); }

    const std::vector<Run> &runs_;
    double x_max_s_;
    double y_max_ms_;
    Canvas canvas_;
};

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: mrc_flap_plot LOG OUT.png\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    Log log;

    if (!in) {
        std::fprintf(stderr, "mrc_flap_plot: cannot read %s\n", argv[1]);
        return 1;
    }
    const bool ok = log.read(in);
    std::vector<Run> runs;
    for (const Run &r : log.runs())
        if (!r.steps.empty())
            runs.push_back(r);
    if (runs.empty()) {
        std::fprintf(stderr, "mrc_flap_plot: no flapstep rows in %s\n", argv[1]);
        return 1;
    }
    double x_max = 10.0;
    double slowest_median = 0.0;
    std::printf("%-6s %-8s %-6s %-10s %-10s %-10s\n", "panel", "transport", "events", "median_ms",
                "p99_ms", "max_ms");
    for (size_t i = 0; i < runs.size(); i++) {
        const Stats st = stats_of(runs[i]);
        const Step &last = runs[i].steps.back();

        x_max = std::max(x_max, last.at_s + last.ms / 1000.0);
        slowest_median = std::max(slowest_median, st.median);
        std::printf("%-6zu %-9s %-6s %-10.1f %-10.1f %-10.1f\n", i + 1, runs[i].transport.c_str(),
                    runs[i].events.c_str(), st.median, st.p99, st.max);
    }
    Plot plot(runs, x_max, std::max(4.0 * slowest_median, 1.0));
    if (!plot.write(argv[2])) {
        std::fprintf(stderr, "mrc_flap_plot: cannot write %s\n", argv[2]);
        return 1;
    }
    std::printf("plot: %s (%zu panels, top to bottom; x to %.0f s, y to %.0f ms)\n", argv[2],
                runs.size(), x_max, 4.0 * slowest_median);
    return ok ? 0 : 1;
}
