// SPDX-License-Identifier: BSD-2-Clause
// queues.cc - the provider's rings as objects: a completion queue that poll_cq drains, a send
// queue post_send fills, a receive queue (of a QP or an SRQ) post_recv fills. Each has its own
// lock, as verbs lets any thread post or poll at any time. Behind mrc_queues.h.
#include "mrc_queues.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>

#include "ring.h"
#include "wqe.h"

namespace mrc {
namespace {

class CompletionQueue {
public:
    CompletionQueue(void *map, const mrc_ring_info &info) noexcept
        : ring_(map, info), consumer_(ring_.load_consumer()) {}

    int poll(int ne, ibv_wc *wc) noexcept {
        const std::lock_guard guard(lock_);
        if (!ring_.valid())
            return -1;
        if (ne <= 0)
            return 0;
        const std::uint32_t producer = ring_.load_producer();
        std::uint32_t consumer = consumer_;
        if (producer - consumer > ring_.num_slots())
            return -1; // the kernel broke the ring: report it, never read past it
        const std::span<ibv_wc> out(wc, static_cast<std::size_t>(ne));
        std::size_t n = 0;
        for (; n < out.size() && consumer != producer; n++, consumer++) {
            mrc_cqe cqe;
            std::memcpy(&cqe, ring_.slot(consumer).data(), sizeof(cqe));
            cqe_to_wc(cqe, out[n]);
        }
        if (n) {
            ring_.store_consumer(consumer);
            consumer_ = consumer;
        }
        return static_cast<int>(n);
    }

    int resize(mrc_cq_remap_fn remap, void *arg) noexcept {
        const std::lock_guard guard(lock_);
        void *map = ring_.base(); // the callback clears it when the old ring is gone
        mrc_ring_info info{};
        const int err = remap(arg, &map, &info);
        if (err) {
            if (!map)
                ring_ = RingView{};
            return err;
        }
        ring_ = RingView(map, info);
        consumer_ = ring_.load_consumer();
        return 0;
    }

private:
    std::mutex lock_;
    RingView ring_;
    std::uint32_t consumer_;
};

// What the send and receive queues share: we produce, the kernel consumes.
template <typename Wr, int (*Format)(std::span<std::byte>, const Wr &) noexcept> class WorkQueue {
public:
    WorkQueue(void *map, const mrc_ring_info &info) noexcept
        : ring_(map, info), producer_(ring_.load_producer()) {}

    int post(Wr *wr, Wr **bad_wr, unsigned int *posted) noexcept {
        const std::lock_guard guard(lock_);
        std::uint32_t producer = producer_;
        std::uint32_t consumer = ring_.load_consumer();
        unsigned int n = 0;
        int err = 0;
        for (; wr; wr = wr->next, n++, producer++) {
            if (full(producer, consumer)) {
                consumer = ring_.load_consumer();
                if (full(producer, consumer)) {
                    err = ENOMEM;
                    break;
                }
            }
            err = Format(ring_.slot(producer), *wr);
            if (err)
                break;
        }
        *bad_wr = err ? wr : nullptr;
        if (n) {
            ring_.store_producer(producer);
            producer_ = producer;
        }
        *posted = n;
        return err;
    }

    // What the consumer asks of the producer now (MRC_RING_F_*), read after what we published.
    [[nodiscard]] std::uint32_t consumer_flags() const noexcept {
        return ring_.load_consumer_flags_after_fence();
    }

private:
    // A consumer index ahead of ours (a confused kernel) also reads as full.
    [[nodiscard]] bool full(std::uint32_t producer, std::uint32_t consumer) const {
        return producer - consumer >= ring_.num_slots();
    }

    std::mutex lock_;
    RingView ring_;
    std::uint32_t producer_;
};

using SendQueue = WorkQueue<ibv_send_wr, format_send_wqe>;
using RecvQueue = WorkQueue<ibv_recv_wr, format_recv_wqe>;

} // namespace
} // namespace mrc

struct mrc_cq_ring : mrc::CompletionQueue {
    using CompletionQueue::CompletionQueue;
};
struct mrc_send_ring : mrc::SendQueue {
    using WorkQueue::WorkQueue;
};
struct mrc_recv_ring : mrc::RecvQueue {
    using WorkQueue::WorkQueue;
};

extern "C" {

int mrc_ring_info_check(const struct mrc_ring_info *info, uint32_t min_slot_size) {
    const std::uint64_t slots = info->num_slots;
    if (!slots || (slots & (slots - 1)) || info->slot_size % 16 || info->slot_size < min_slot_size)
        return EINVAL;
    if (MRC_RING_SLOTS_OFFSET + slots * info->slot_size > info->mmap_size)
        return EINVAL;
    return 0;
}

struct mrc_cq_ring *mrc_cq_ring_new(void *map, const struct mrc_ring_info *info) {
    return new (std::nothrow) mrc_cq_ring(map, *info);
}

void mrc_cq_ring_free(struct mrc_cq_ring *cq) {
    delete cq;
}

int mrc_cq_ring_poll(struct mrc_cq_ring *cq, int ne, struct ibv_wc *wc) {
    return cq->poll(ne, wc);
}

int mrc_cq_ring_resize(struct mrc_cq_ring *cq, mrc_cq_remap_fn remap, void *arg) {
    return cq->resize(remap, arg);
}

struct mrc_send_ring *mrc_send_ring_new(void *map, const struct mrc_ring_info *info) {
    return new (std::nothrow) mrc_send_ring(map, *info);
}

void mrc_send_ring_free(struct mrc_send_ring *sq) {
    delete sq;
}

int mrc_send_ring_post(struct mrc_send_ring *sq, struct ibv_send_wr *wr,
                       struct ibv_send_wr **bad_wr, unsigned int *posted) {
    return sq->post(wr, bad_wr, posted);
}

struct mrc_recv_ring *mrc_recv_ring_new(void *map, const struct mrc_ring_info *info) {
    return new (std::nothrow) mrc_recv_ring(map, *info);
}

void mrc_recv_ring_free(struct mrc_recv_ring *rq) {
    delete rq;
}

int mrc_recv_ring_post(struct mrc_recv_ring *rq, struct ibv_recv_wr *wr,
                       struct ibv_recv_wr **bad_wr, bool *flush_doorbell) {
    unsigned int posted = 0;
    const int err = rq->post(wr, bad_wr, &posted);
    if (flush_doorbell != nullptr) // the fence is for a QP's RQ only
        *flush_doorbell = posted != 0 && (rq->consumer_flags() & MRC_RING_F_FLUSH) != 0;
    return err;
}

} // extern "C"
