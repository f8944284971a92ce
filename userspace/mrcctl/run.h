// SPDX-License-Identifier: BSD-2-Clause
// run.h - carrying out a parsed command line against the kernel.
#ifndef MRC_CTL_RUN_H
#define MRC_CTL_RUN_H

#include "cli.h"
#include "genl.h"
#include "model.h"

#include <vector>

namespace mrc::ctl {

// Runs CL (anything but Help); prints to stdout; throws Failure.
void run(const CommandLine &cl);

// Every device the caller's namespace sees (a dev-get dump).
std::vector<DevInfo> list_devs(Genl &nl);

// The monitor (monitor.cc): prints EV events until SIGINT or SIGTERM.
void run_monitor(Genl &nl, const Options &opts);

} // namespace mrc::ctl

#endif
