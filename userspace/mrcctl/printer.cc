// SPDX-License-Identifier: BSD-2-Clause
// printer.cc - text and JSON rendering of mrcctl's output.
#include "printer.h"

#include <array>
#include <ostream>

namespace mrc::ctl {

std::string json_quote(std::string_view s) {
    static constexpr std::string_view hex = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xf];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

std::string Value::json() const {
    struct Visit {
        std::string operator()(std::monostate /*unused*/) const { return "null"; }
        std::string operator()(std::uint64_t v) const { return std::to_string(v); }
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(const std::string &v) const { return json_quote(v); }
        std::string operator()(bool v) const { return v ? "true" : "false"; }
    };
    return std::visit(Visit{}, v_);
}

std::string Value::text() const {
    if (const auto *s = std::get_if<std::string>(&v_))
        return *s;
    if (std::holds_alternative<std::monostate>(v_))
        return "-";
    return json();
}

Printer::Printer(std::ostream &out, bool json, bool pretty)
    : out_(out), json_(json), pretty_(pretty) {}

void Printer::json_member(std::string_view key) {
    if (stack_.empty())
        return;
    Level &top = stack_.back();
    if (top.members++ > 0)
        out_ << ',';
    if (pretty_)
        out_ << '\n' << std::string(4 * stack_.size(), ' ');
    if (!top.array)
        out_ << json_quote(key) << (pretty_ ? ": " : ":");
}

void Printer::begin_array(std::string_view key) {
    if (!json_)
        return;
    json_member(key);
    out_ << '[';
    stack_.push_back({.array = true, .members = 0});
}

void Printer::begin_object(std::string_view key) {
    if (!json_)
        return;
    json_member(key);
    out_ << '{';
    stack_.push_back({.array = false, .members = 0});
}

void Printer::end_array() {
    if (!json_ || stack_.empty())
        return;
    const bool had = stack_.back().members > 0;
    stack_.pop_back();
    if (pretty_ && had)
        out_ << '\n' << std::string(4 * stack_.size(), ' ');
    out_ << ']';
}

void Printer::end_object() {
    if (!json_ || stack_.empty())
        return;
    const bool had = stack_.back().members > 0;
    stack_.pop_back();
    if (pretty_ && had)
        out_ << '\n' << std::string(4 * stack_.size(), ' ');
    out_ << '}';
}

void Printer::text_item(std::string_view s) {
    if (!line_.empty() && line_.back() != ' ')
        line_ += ' ';
    line_ += s;
}

void Printer::field(std::string_view key, const Value &v, std::optional<std::string_view> text) {
    if (json_) {
        json_member(key);
        out_ << v.json();
        return;
    }
    text_item(std::string(key) + " " + (text ? std::string(*text) : v.text()));
}

void Printer::cell(std::string_view key, const Value &v, int width,
                   std::optional<std::string_view> text) {
    if (json_) {
        json_member(key);
        out_ << v.json();
        return;
    }
    std::string s = text ? std::string(*text) : v.text();
    if (s.size() < static_cast<std::size_t>(width))
        s.append(static_cast<std::size_t>(width) - s.size(), ' ');
    text_item(s);
}

void Printer::text(std::string_view s) {
    if (!json_)
        text_item(s);
}

void Printer::end_line() {
    if (json_)
        return;
    while (!line_.empty() && line_.back() == ' ')
        line_.pop_back();
    out_ << line_ << '\n';
    line_.clear();
}

void Printer::finish() {
    if (json_) {
        while (!stack_.empty()) {
            if (stack_.back().array)
                end_array();
            else
                end_object();
        }
        out_ << '\n';
    } else if (!line_.empty()) {
        end_line();
    }
    out_.flush();
}

} // namespace mrc::ctl
