// SPDX-License-Identifier: BSD-2-Clause
// keywords.h - the loop every command's parser shares: KEYWORD VALUE pairs in any order, each at
// most once (unless repeatable), unknown ones refused with the command's name.
#ifndef MRC_CTL_KEYWORDS_H
#define MRC_CTL_KEYWORDS_H

#include "args.h"

#include <set>
#include <string>
#include <string_view>

namespace mrc::ctl {

class KeywordLoop {
public:
    KeywordLoop(Args &args, std::string_view command) : args_(args), command_(command) {}
    // The next keyword, or empty at the end of the words.
    std::string_view next();
    // Refuses a second use of KEYWORD.
    void once(std::string_view keyword);
    // Refuses the current keyword as unknown.
    [[noreturn]] void unknown(std::string_view keyword) const;
    // Refuses the command when KEYWORD was never given.
    void require(std::string_view keyword, std::string_view value_name) const;
    [[nodiscard]] bool seen(std::string_view keyword) const { return seen_.contains(keyword); }
    std::string_view value(std::string_view keyword) { return args_.value_of(keyword); }
    [[nodiscard]] Args &args() { return args_; }

private:
    Args &args_;
    std::string command_;
    std::set<std::string, std::less<>> seen_;
};

} // namespace mrc::ctl

#endif
