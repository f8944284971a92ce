// SPDX-License-Identifier: BSD-2-Clause
// tool_report.h - how mrc's verbs test tools report: one "ok: " or "FAIL: " line per check on
// stdout, and a main() that turns an escaped exception into a message and exit status 1.
#ifndef MRC_TOOL_REPORT_H
#define MRC_TOOL_REPORT_H

#include <span>

namespace mrc::tool {

// Print the check's line (flushed: a tool killed by its timeout still shows how far it got)
// and return @ok.
bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// The body of a tool's main(): stdout line-buffered, @fn's exit status, or 1 when an exception
// escapes it (printed on stderr after @name).
int guarded_main(const char *name, int (*fn)(std::span<char *>), int argc, char **argv) noexcept;

} // namespace mrc::tool

#endif // MRC_TOOL_REPORT_H
