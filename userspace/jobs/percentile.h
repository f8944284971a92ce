// The step-time percentile the jobs report (mrc_allreduce's summary) and mrc_flap_plot's table
// recomputes from the steps: the value at the nearest rank p * (n - 1) of the sorted samples,
// so p = 1 is the maximum; 0 for no samples.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace mrc::jobs {

inline double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const auto at = static_cast<std::size_t>(std::lround(p * static_cast<double>(v.size() - 1)));
    return v[std::min(at, v.size() - 1)];
}

} // namespace mrc::jobs
