// SPDX-License-Identifier: BSD-2-Clause
// tool_channel.h - the TCP side channel of mrc's verbs test tools: the client connects to the
// server, both exchange fixed-size messages (the same program on the same architecture on both
// ends, so structs travel as they are). Every blocking call has a deadline.
#ifndef MRC_TOOL_CHANNEL_H
#define MRC_TOOL_CHANNEL_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

namespace mrc::tool {

using Clock = std::chrono::steady_clock;

// A file descriptor that closes itself.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    Fd(Fd &&other) noexcept : fd_(other.release()) {}
    Fd &operator=(Fd &&other) noexcept;
    ~Fd();
    [[nodiscard]] int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    explicit operator bool() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

class Channel {
public:
    Channel() = default; // not connected
    // Server: listen on @port (any address, v4 and v6), accept one client before @deadline.
    static Channel accept_one(std::uint16_t port, Clock::time_point deadline);
    // Client: connect to @host:@port, retrying until @deadline (the server may start late).
    static Channel connect_to(const std::string &host, std::uint16_t port,
                              Clock::time_point deadline);

    // The server's end when @server is empty, else the client's end towards @server.
    static Channel open(const std::string &server, std::uint16_t port, Clock::time_point deadline) {
        return server.empty() ? accept_one(port, deadline) : connect_to(server, port, deadline);
    }
    explicit operator bool() const { return static_cast<bool>(fd_); }
    [[nodiscard]] int fd() const { return fd_.get(); }

    // Send all of @bytes. False when the peer is gone.
    bool send(std::span<const std::byte> bytes);
    // Receive exactly @bytes.size() bytes before @deadline. False on EOF, error or timeout
    // (eof() tells EOF apart).
    bool recv(std::span<std::byte> bytes, Clock::time_point deadline);
    // Receive @bytes.size() bytes if they are all there without waiting (a partial message is
    // kept for the next call). False when nothing complete is there yet, or the peer is gone.
    bool try_recv(std::span<std::byte> bytes);
    [[nodiscard]] bool eof() const { return eof_; }

    template <typename T> bool send_obj(const T &obj) {
        return send(std::as_bytes(std::span<const T, 1>(&obj, 1)));
    }
    template <typename T> bool recv_obj(T &obj, Clock::time_point deadline) {
        return recv(std::as_writable_bytes(std::span<T, 1>(&obj, 1)), deadline);
    }
    template <typename T> bool try_recv_obj(T &obj) {
        return try_recv(std::as_writable_bytes(std::span<T, 1>(&obj, 1)));
    }

private:
    explicit Channel(Fd fd) : fd_(std::move(fd)) {}

    Fd fd_;
    bool eof_ = false;
    std::string partial_; // bytes of a message try_recv() has not completed yet
};

} // namespace mrc::tool

#endif // MRC_TOOL_CHANNEL_H
