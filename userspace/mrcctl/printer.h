// SPDX-License-Identifier: BSD-2-Clause
// printer.h - the one print path of mrcctl: every command describes its output once, as
// members with a JSON key and a value, and the printer renders that either as text lines or as
// a JSON document (-j, -p for indentation). So text and JSON cannot drift apart.
#ifndef MRC_CTL_PRINTER_H
#define MRC_CTL_PRINTER_H

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mrc::ctl {

// A JSON scalar.
class Value {
public:
    Value(std::uint64_t v) : v_(v) {}                 // NOLINT(google-explicit-constructor)
    Value(std::uint32_t v) : v_(std::uint64_t{v}) {}  // NOLINT(google-explicit-constructor)
    Value(std::int64_t v) : v_(v) {}                  // NOLINT(google-explicit-constructor)
    Value(std::string v) : v_(std::move(v)) {}        // NOLINT(google-explicit-constructor)
    Value(std::string_view v) : v_(std::string(v)) {} // NOLINT(google-explicit-constructor)
    Value(const char *v) : v_(std::string(v)) {}      // NOLINT(google-explicit-constructor)
    Value(bool v) : v_(v) {}                          // NOLINT(google-explicit-constructor)
    static Value null() { return Value(std::monostate{}); }

    [[nodiscard]] std::string json() const;
    [[nodiscard]] std::string text() const;

private:
    explicit Value(std::monostate v) : v_(v) {}
    std::variant<std::monostate, std::uint64_t, std::int64_t, std::string, bool> v_;
};

// S as a JSON string literal, quotes included.
std::string json_quote(std::string_view s);

class Printer {
public:
    Printer(std::ostream &out, bool json, bool pretty = false);
    [[nodiscard]] bool json() const { return json_; }

    // JSON containers; in text they only group members (arrays and objects print nothing).
    void begin_array(std::string_view key = {});
    void end_array();
    void begin_object(std::string_view key = {});
    void end_object();

    // A member. Text shows "key value", or TEXT in place of the value when given.
    void field(std::string_view key, const Value &v, std::optional<std::string_view> text = {});
    // A table cell. Text shows the value (or TEXT) left-aligned in WIDTH columns.
    void cell(std::string_view key, const Value &v, int width,
              std::optional<std::string_view> text = {});
    // Text output only (headings, labels); nothing in JSON.
    void text(std::string_view s);
    // End of a text line; nothing in JSON.
    void end_line();
    // End of the document: JSON gets its final newline; both are flushed.
    void finish();

private:
    struct Level {
        bool array;
        std::size_t members;
    };
    void json_member(std::string_view key);
    void text_item(std::string_view s);

    std::ostream &out_;
    bool json_;
    bool pretty_;
    std::vector<Level> stack_;
    std::string line_; // the text line being built
};

} // namespace mrc::ctl

#endif
