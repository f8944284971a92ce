// SPDX-License-Identifier: BSD-2-Clause
// monitor.cc - `mrcctl monitor`: EV events as they arrive, one line (or JSON object) each, until
// SIGINT or SIGTERM, which end it with status 0. The signals are taken through a signalfd, so
// none can slip in between the check and the wait.
#include "decode.h"
#include "run.h"
#include "show.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <linux/mrc.h>

namespace mrc::ctl {

namespace {

class SignalFd {
public:
    SignalFd() {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        if (sigprocmask(SIG_BLOCK, &set, nullptr) < 0)
            throw Failure(std::string("sigprocmask: ") + std::strerror(errno));
        fd_ = signalfd(-1, &set, SFD_CLOEXEC);
        if (fd_ < 0)
            throw Failure(std::string("signalfd: ") + std::strerror(errno));
    }
    SignalFd(const SignalFd &) = delete;
    SignalFd &operator=(const SignalFd &) = delete;
    SignalFd(SignalFd &&) = delete;
    SignalFd &operator=(SignalFd &&) = delete;
    ~SignalFd() { close(fd_); }
    [[nodiscard]] int fd() const { return fd_; }

private:
    int fd_ = -1;
};

} // namespace

void run_monitor(Genl &nl, const Options &opts) {
    const SignalFd sig;
    // Names of the devices, for the lines; refreshed when an unknown index shows up.
    std::map<std::uint32_t, std::string> names;
    const auto refresh = [&] {
        names.clear();
        for (const DevInfo &d : list_devs(nl))
            names[d.index] = d.name;
    };
    refresh();
    Genl events;
    events.subscribe(MRC_MCGRP_EV_EVENTS);
    Printer p(std::cout, opts.json, opts.pretty);
    while (true) {
        std::array<pollfd, 2> fds{{{events.fd(), POLLIN, 0}, {sig.fd(), POLLIN, 0}}};
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            throw Failure(std::string("poll: ") + std::strerror(errno));
        }
        if (fds[1].revents)
            return;
        if (!fds[0].revents)
            continue;
        try {
            events.receive([&](const Reply &r) {
                if (r.cmd != MRC_CMD_EV_EVENT)
                    return;
                const EvEvent e = decode_ev_event(r.attrs);
                if (!names.contains(e.dev_index))
                    refresh();
                show_event(p, e, names.contains(e.dev_index) ? names[e.dev_index] : "");
            });
        } catch (const EventsLost &e) {
            std::cerr << "mrcctl: " << e.what() << '\n'; // and go on listening
        }
    }
}

} // namespace mrc::ctl
