// SPDX-License-Identifier: BSD-2-Clause
// keywords.cc - the shared KEYWORD VALUE loop of the command parsers.
#include "keywords.h"

namespace mrc::ctl {

std::string_view KeywordLoop::next() {
    return args_.empty() ? std::string_view{} : args_.next("");
}

void KeywordLoop::once(std::string_view keyword) {
    if (!seen_.emplace(keyword).second)
        throw UsageError(command_ + ": " + std::string(keyword) + " given twice");
}

void KeywordLoop::unknown(std::string_view keyword) const {
    throw UsageError(command_ + ": unknown keyword '" + std::string(keyword) + "'");
}

void KeywordLoop::require(std::string_view keyword, std::string_view value_name) const {
    if (!seen(keyword))
        throw UsageError(command_ + ": missing " + std::string(keyword) + " " +
                         std::string(value_name));
}

} // namespace mrc::ctl
