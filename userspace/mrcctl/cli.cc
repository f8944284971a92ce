// SPDX-License-Identifier: BSD-2-Clause
// cli.cc - options, the object table and help.
#include "cli.h"

#include <array>

namespace mrc::ctl {

namespace {

constexpr std::string_view options_usage =
        "usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n"
        "       mrcctl [ -j ] monitor\n"
        "OPTIONS := { -j[son] | -p[retty] | -h[elp] }\n"
        "OBJECT := { dev | plane | ev | path | stats | monitor | ev-fmt-profile | ev-profile |"
        " probe }\n"
        "DEV := { rdma device name | index }   ADDR := { IPv6 | IPv4 }\n"
        "BYTES := hex, most significant byte first, 1 to 32 bytes (0x and ':' allowed)\n"
        "Exit status: 0 done, 1 refused by the kernel or failed, 2 bad command line.\n";

const std::array<const Object *, 9> objects{
        &dev_object,     &plane_object,       &ev_object,         &path_object, &stats_object,
        &monitor_object, &fmt_profile_object, &ev_profile_object, &probe_object};

bool is_help(std::string_view w) {
    return w == "help" || w == "--help" || w == "-h";
}

Invocation help(std::string text) {
    Invocation inv;
    inv.action = Action::Help;
    inv.help = std::move(text);
    return inv;
}

std::string object_usage(const Object &o) {
    std::string out;
    std::string_view u = o.usage;
    while (!u.empty()) {
        const std::size_t nl = u.find('\n');
        const std::string_view line = u.substr(0, nl);
        // a continuation line (indented) is not a command of its own
        out += std::string(line.starts_with(" ") ? "      " : "       mrcctl ") +
               std::string(line) + "\n";
        u.remove_prefix(nl == std::string_view::npos ? u.size() : nl + 1);
    }
    out.replace(0, 6, "usage:");
    return out;
}

Invocation parse_object(const Object &o, std::span<const std::string> words) {
    if (!words.empty() && is_help(words.front()))
        return help(object_usage(o));
    const Command *cmd = nullptr;
    std::span<const std::string> rest = words;
    if (!words.empty()) {
        for (const Command &c : o.commands)
            if (words.front() == c.name)
                cmd = &c;
        if (cmd)
            rest = words.subspan(1);
    }
    if (!cmd && !o.default_command.empty()) {
        for (const Command &c : o.commands)
            if (c.name == o.default_command)
                cmd = &c;
    }
    if (!cmd && words.empty())
        throw UsageError(std::string(o.name) + ": missing command (try 'mrcctl " +
                         std::string(o.name) + " help')");
    if (!cmd)
        throw UsageError(std::string(o.name) + ": unknown command '" + words.front() + "'");
    if (!rest.empty() && is_help(rest.front()))
        return help(object_usage(o));
    Args args(rest);
    return cmd->parse(args);
}

} // namespace

std::string usage_all() {
    std::string out(options_usage);
    for (const Object *o : objects) {
        std::string u = object_usage(*o);
        u.replace(0, 6, "      ");
        out += u;
    }
    return out;
}

CommandLine parse_command_line(std::span<const std::string> args) {
    CommandLine cl;
    std::size_t i = 0;
    for (; i < args.size() && args[i].starts_with("-"); ++i) {
        const std::string &o = args[i];
        if (o == "-j" || o == "-json" || o == "--json")
            cl.options.json = true;
        else if (o == "-p" || o == "-pretty" || o == "--pretty")
            cl.options.pretty = true;
        else if (is_help(o))
            return {cl.options, help(usage_all())};
        else
            throw UsageError("unknown option '" + o + "'");
    }
    if (i == args.size())
        throw UsageError("missing OBJECT (try 'mrcctl help')");
    const std::string &name = args[i];
    if (is_help(name))
        return {cl.options, help(usage_all())};
    for (const Object *o : objects) {
        if (name == o->name) {
            cl.invocation = parse_object(*o, args.subspan(i + 1));
            return cl;
        }
    }
    throw UsageError("unknown object '" + name + "' (try 'mrcctl help')");
}

} // namespace mrc::ctl
