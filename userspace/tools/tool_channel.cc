// SPDX-License-Identifier: BSD-2-Clause
#include "tool_channel.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mrc::tool {

Fd &Fd::operator=(Fd &&other) noexcept {
    if (this != &other) {
        if (fd_ >= 0)
            close(fd_);
        fd_ = other.release();
    }
    return *this;
}

Fd::~Fd() {
    if (fd_ >= 0)
        close(fd_);
}

namespace {

int ms_until(Clock::time_point deadline) {
    const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1000));
}

// Wait until @fd is readable (or writable) or @deadline passes.
bool wait_fd(int fd, short events, Clock::time_point deadline) {
    while (Clock::now() < deadline) {
        pollfd p{.fd = fd, .events = events, .revents = 0};
        const int n = poll(&p, 1, ms_until(deadline));
        if (n > 0)
            return true;
        if (n < 0 && errno != EINTR)
            return false;
    }
    return false;
}

void set_nodelay(int fd) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

} // namespace

Channel Channel::accept_one(std::uint16_t port, Clock::time_point deadline) {
    Fd lfd(socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!lfd) {
        std::fprintf(stderr, "socket: %s\n", std::strerror(errno));
        return {};
    }
    const int one = 1;
    const int zero = 0;
    setsockopt(lfd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    setsockopt(lfd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_port = htons(port);
    addr.sin6_addr = in6addr_any;
    if (bind(lfd.get(), reinterpret_cast<const sockaddr *>(&addr), sizeof(addr)) != 0 ||
        listen(lfd.get(), 1) != 0) {
        std::fprintf(stderr, "listen on port %u: %s\n", port, std::strerror(errno));
        return {};
    }
    if (!wait_fd(lfd.get(), POLLIN, deadline)) {
        std::fprintf(stderr, "no client connected to port %u in time\n", port);
        return {};
    }
    Fd cfd(accept4(lfd.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!cfd) {
        std::fprintf(stderr, "accept: %s\n", std::strerror(errno));
        return {};
    }
    set_nodelay(cfd.get());
    return Channel(std::move(cfd));
}

Channel Channel::connect_to(const std::string &host, std::uint16_t port,
                            Clock::time_point deadline) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    const std::string service = std::to_string(port);
    if (const int err = getaddrinfo(host.c_str(), service.c_str(), &hints, &res)) {
        std::fprintf(stderr, "%s: %s\n", host.c_str(), gai_strerror(err));
        return {};
    }
    const std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owner(res, &freeaddrinfo);
    int last_err = 0;
    while (Clock::now() < deadline) {
        for (const addrinfo *ai = res; ai; ai = ai->ai_next) {
            Fd fd(socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
            if (!fd)
                continue;
            if (connect(fd.get(), ai->ai_addr, ai->ai_addrlen) == 0) {
                set_nodelay(fd.get());
                return Channel(std::move(fd));
            }
            last_err = errno;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::fprintf(stderr, "connect to %s:%u: %s\n", host.c_str(), port, std::strerror(last_err));
    return {};
}

bool Channel::send(std::span<const std::byte> bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes = bytes.subspan(static_cast<std::size_t>(n));
    }
    return true;
}

bool Channel::recv(std::span<std::byte> bytes, Clock::time_point deadline) {
    while (!try_recv(bytes)) {
        if (eof_ || !wait_fd(fd_.get(), POLLIN, deadline))
            return false;
    }
    return true;
}

bool Channel::try_recv(std::span<std::byte> bytes) {
    if (eof_)
        return false;
    while (partial_.size() < bytes.size()) {
        std::array<char, 4096> buf{};
        const std::size_t want = std::min(buf.size(), bytes.size() - partial_.size());
        const ssize_t n = ::recv(fd_.get(), buf.data(), want, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return false;
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        partial_.append(buf.data(), static_cast<std::size_t>(n));
    }
    std::memcpy(bytes.data(), partial_.data(), bytes.size());
    partial_.erase(0, bytes.size());
    return true;
}

} // namespace mrc::tool
