// SPDX-License-Identifier: BSD-2-Clause
// tool_report.cc - check lines and the guarded main() of mrc's verbs test tools.
#include "tool_report.h"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <exception>

namespace mrc::tool {

bool check(bool ok, const char *fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fputs(ok ? "ok: " : "FAIL: ", stdout);
    std::vprintf(fmt, ap);
    std::fputc('\n', stdout);
    va_end(ap);
    std::fflush(stdout);
    return ok;
}

int guarded_main(const char *name, int (*fn)(std::span<char *>), int argc, char **argv) noexcept {
    try {
        std::setvbuf(stdout, nullptr, _IOLBF, 0);
        return fn(std::span<char *>(argv, static_cast<std::size_t>(argc)));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
    } catch (...) {
        std::fprintf(stderr, "%s: unknown exception\n", name);
    }
    return 1;
}

} // namespace mrc::tool
