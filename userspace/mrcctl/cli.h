// SPDX-License-Identifier: BSD-2-Clause
// cli.h - mrcctl's grammar, `mrcctl [OPTIONS] OBJECT COMMAND [ARGS]`: small tables of objects
// and their commands, each with a parser that turns the words into an Invocation (the request
// to send and how to show the answer) or refuses them with a UsageError. No I/O happens here,
// so everything is checked before anything is sent.
#ifndef MRC_CTL_CLI_H
#define MRC_CTL_CLI_H

#include "args.h"
#include "request.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mrc::ctl {

enum class Action : std::uint8_t {
    Help,        // print Invocation::help
    DevShow,     // dev-get: do with a device, dump without
    PlaneShow,   // dev-get, planes only
    EvShow,      // path-get dump, as the EV table
    PathShow,    // path-get dump, one line per path set
    QpStats,     // qp-stats-get dump
    FmtShow,     // ev-fmt-profile-get
    ProfileShow, // ev-profile-get
    Probe,       // probe, with its results
    Change,      // a do request answered by an ACK (ev set, plane add, ...)
    Monitor,     // listen to ev-events
};

struct Invocation {
    Action action = Action::Help;
    Request request;
    // The device named on the command line, resolved through a dev-get dump; its index goes
    // into attribute dev_attr of the request (0: the request has no such attribute).
    std::optional<DevRef> dev;
    std::uint16_t dev_attr = 0;
    // ev show ... state S: only EVs in that state are printed.
    std::optional<std::uint32_t> state_filter;
    std::string help;
};

struct Options {
    bool json = false;
    bool pretty = false;
};

struct CommandLine {
    Options options;
    Invocation invocation;
};

// ARGS are the words after the program name.
CommandLine parse_command_line(std::span<const std::string> args);

// The usage text of every object (mrcctl help).
std::string usage_all();

// One object's commands: their name and parser.
struct Command {
    std::string_view name;
    Invocation (*parse)(Args &args);
};

struct Object {
    std::string_view name;
    std::span<const Command> commands;
    std::string_view usage;
    std::string_view default_command; // for `mrcctl OBJECT` alone; empty: none
};

// The object tables (parse_*.cc).
extern const Object dev_object, plane_object, ev_object, path_object, stats_object, monitor_object,
        fmt_profile_object, ev_profile_object, probe_object;

} // namespace mrc::ctl

#endif
