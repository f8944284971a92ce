// The simulator's clock and event queue: nanoseconds, deterministic (ties run in the order
// they were scheduled), single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace mrc::sim {

class EventLoop {
public:
    using Action = std::function<void()>;

    [[nodiscard]] uint64_t now() const { return now_; }

    void at(uint64_t when, Action action) {
        queue_.push(Event{when < now_ ? now_ : when, seq_++, std::move(action)});
    }

    // Runs every event due before @end; the clock stops at @end.
    void run_until(uint64_t end) {
        while (!queue_.empty() && queue_.top().when < end) {
            // top() is const: the action is copied out before pop() frees it.
            Event ev = queue_.top();
            queue_.pop();
            now_ = ev.when;
            ev.action();
        }
        now_ = end;
    }

private:
    struct Event {
        uint64_t when;
        uint64_t seq;
        Action action;
    };
    struct Later {
        bool operator()(const Event &a, const Event &b) const {
            return a.when != b.when ? a.when > b.when : a.seq > b.seq;
        }
    };

    uint64_t now_ = 0;
    uint64_t seq_ = 0;
    std::priority_queue<Event, std::vector<Event>, Later> queue_;
};

} // namespace mrc::sim
