// SPDX-License-Identifier: BSD-2-Clause
// main.cc - mrcctl: parse, run, and turn every failure into one line on stderr.
//   exit 0: done; 1: the kernel refused, or the device is unknown, or I/O failed;
//   2: the command line was refused (nothing was sent).
#include "cli.h"
#include "run.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    using namespace mrc::ctl;
    const std::vector<std::string> args(argv + 1, argv + argc);
    CommandLine cl;
    try {
        cl = parse_command_line(args);
    } catch (const UsageError &e) {
        std::cerr << "mrcctl: " << e.what() << '\n';
        return 2;
    }
    if (cl.invocation.action == Action::Help) {
        std::cout << cl.invocation.help;
        return 0;
    }
    try {
        run(cl);
    } catch (const std::exception &e) {
        std::cerr << "mrcctl: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
