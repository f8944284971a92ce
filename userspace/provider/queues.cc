// SPDX-License-Identifier: BSD-2-Clause
// queues.cc - the provider's rings as objects: a completion queue that poll_cq drains, a send
// queue post_send fills, a receive queue (of a QP or an SRQ) post_recv fills. Each has its own
// lock, as verbs lets any thread post or poll at any time. Behind mrc_queues.h.
#include "mrc_queues.h"

#include <cerrno>
#include <climits>
#include <cstdint>
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

    // The extended polling API: start locks the ring and hands out the oldest completion, next
    // the one after, end gives back the slots handed out and unlocks. An error from start
    // (ENOENT: no completion) unlocks at once, as the API calls no end then.
    int start_poll(ibv_wc &wc) noexcept {
        lock_.lock();
        cursor_ = consumer_;
        const int err = ring_.valid() ? take(wc) : EIO;
        if (err)
            lock_.unlock();
        return err;
    }

    int next_poll(ibv_wc &wc) noexcept { return take(wc); }

    void end_poll() noexcept {
        if (cursor_ != consumer_) {
            ring_.store_consumer(cursor_);
            consumer_ = cursor_;
        }
        lock_.unlock();
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
    // The completion at the cursor, which moves past it; ENOENT at the producer, EIO when the
    // kernel broke the ring.
    int take(ibv_wc &wc) {
        const std::uint32_t producer = ring_.load_producer();
        if (producer - consumer_ > ring_.num_slots())
            return EIO;
        if (cursor_ == producer)
            return ENOENT;
        mrc_cqe cqe;
        std::memcpy(&cqe, ring_.slot(cursor_).data(), sizeof(cqe));
        cqe_to_wc(cqe, wc);
        cursor_++;
        return 0;
    }

    std::mutex lock_;
    RingView ring_;
    std::uint32_t consumer_;
    std::uint32_t cursor_ = 0; // between start_poll and end_poll: the next completion to take
};

// What the send and receive queues share: we produce, the kernel consumes.
// How a work request becomes a slot: Format(slot, wr) returns 0 or an errno.
template <typename Wr, typename Format> class WorkQueue {
public:
    WorkQueue(void *map, const mrc_ring_info &info, Format format = {}) noexcept
        : ring_(map, info), producer_(ring_.load_producer()), format_(format) {}

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
            err = format_(ring_.slot(producer), *wr);
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

protected:
    // A consumer index ahead of ours (a confused kernel) also reads as full.
    [[nodiscard]] bool full(std::uint32_t producer, std::uint32_t consumer) const {
        return producer - consumer >= ring_.num_slots();
    }

    std::mutex lock_;
    RingView ring_;
    std::uint32_t producer_;
    Format format_;
};

struct RecvFormat {
    int operator()(std::span<std::byte> slot, const ibv_recv_wr &wr) const noexcept {
        return format_recv_wqe(slot, wr);
    }
};
using RecvQueue = WorkQueue<ibv_recv_wr, RecvFormat>;

// A send queue formats for its QP's kind (connected or datagram).
struct SendFormat {
    SendKind kind = SendKind::connected;
    int operator()(std::span<std::byte> slot, const ibv_send_wr &wr) const noexcept {
        return format_send_wqe(slot, wr, kind);
    }
};

// The send queue also takes the extended post API's batches (ibv_wr_start .. ibv_wr_complete):
// the queue stays locked from start to complete or abort, as the API's contract for the
// calls in between has it. Each WR goes into the next free slot when its data setter comes (the
// bytes of inline data are copied then, so the caller may reuse them at once); a WR whose
// setter never came goes in with no data when the next WR or complete arrives. A WR the ring
// cannot take (full, an opcode, flag or size it cannot carry, a setter with no WR) spoils the
// batch: complete publishes none of it and returns that WR's errno.
class SendQueue : public WorkQueue<ibv_send_wr, SendFormat> {
public:
    using WorkQueue::WorkQueue;

    void batch_start() noexcept {
        lock_.lock();
        staged_ = producer_;
        open_ = false;
        err_ = 0;
    }

    void batch_wr(const ibv_send_wr &wr) noexcept {
        close_open();
        if (err_)
            return;
        if (full(staged_, ring_.load_consumer())) {
            err_ = ENOMEM;
            return;
        }
        open_wr_ = wr;
        open_wr_.next = nullptr;
        open_wr_.sg_list = nullptr;
        open_wr_.num_sge = 0;
        open_ = true;
    }

    void batch_sges(const ibv_sge *sges, std::size_t n) noexcept {
        if (!take_open())
            return;
        if ((n && !sges) || n > static_cast<std::size_t>(INT_MAX)) {
            err_ = EINVAL;
            return;
        }
        ibv_send_wr wr = open_wr_;
        wr.sg_list = const_cast<ibv_sge *>(sges); // NOLINT: ibv_send_wr's field is not const
        wr.num_sge = static_cast<int>(n);
        wr.send_flags &= ~static_cast<unsigned int>(IBV_SEND_INLINE); // SGEs: the kernel reads
        stage(format_(ring_.slot(staged_), wr));
    }

    void batch_inline(const ibv_data_buf *bufs, std::size_t n) noexcept {
        if (!take_open())
            return;
        if (n && !bufs) {
            err_ = EINVAL;
            return;
        }
        stage(format_send_wqe_inline(ring_.slot(staged_), open_wr_, {bufs, n}, format_.kind));
    }

    // The open WR's destination (ibv_wr_set_ud_addr comes between the WR and its data).
    void batch_ud_addr(ibv_ah *ah, std::uint32_t remote_qpn, std::uint32_t remote_qkey) noexcept {
        if (err_)
            return;
        if (!open_) {
            err_ = EINVAL;
            return;
        }
        open_wr_.wr.ud.ah = ah;
        open_wr_.wr.ud.remote_qpn = remote_qpn;
        open_wr_.wr.ud.remote_qkey = remote_qkey;
    }

    int batch_complete(unsigned int *posted) noexcept {
        close_open();
        const int err = err_;
        *posted = 0;
        if (!err && staged_ != producer_) {
            *posted = staged_ - producer_;
            ring_.store_producer(staged_);
            producer_ = staged_;
        }
        lock_.unlock();
        return err;
    }

    // Nothing staged was published: the next batch writes over it.
    void batch_abort() noexcept { lock_.unlock(); }

private:
    // The WR a data setter completes; none (a setter twice, or before any WR) spoils the batch.
    bool take_open() {
        if (err_)
            return false;
        if (!open_) {
            err_ = EINVAL;
            return false;
        }
        open_ = false;
        return true;
    }

    void close_open() {
        if (open_) {
            open_ = false;
            stage(format_(ring_.slot(staged_), open_wr_));
        }
    }

    void stage(int err) {
        if (err)
            err_ = err;
        else
            staged_++;
    }

    std::uint32_t staged_ = 0; // the slot the batch's next WR takes
    ibv_send_wr open_wr_{};    // the WR whose data setter is awaited ...
    bool open_ = false;        // ... if any
    int err_ = 0;              // the first WR the ring could not take: its errno
};

} // namespace
} // namespace mrc

struct mrc_cq_ring : mrc::CompletionQueue {
    using CompletionQueue::CompletionQueue;
};
struct mrc_send_ring : mrc::SendQueue {
    using SendQueue::SendQueue;
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

int mrc_cq_ring_start_poll(struct mrc_cq_ring *cq, struct ibv_wc *wc) {
    return cq->start_poll(*wc);
}

int mrc_cq_ring_next_poll(struct mrc_cq_ring *cq, struct ibv_wc *wc) {
    return cq->next_poll(*wc);
}

void mrc_cq_ring_end_poll(struct mrc_cq_ring *cq) {
    cq->end_poll();
}

int mrc_cq_ring_resize(struct mrc_cq_ring *cq, mrc_cq_remap_fn remap, void *arg) {
    return cq->resize(remap, arg);
}

struct mrc_send_ring *mrc_send_ring_new(void *map, const struct mrc_ring_info *info,
                                        bool datagram) {
    const mrc::SendFormat format = {datagram ? mrc::SendKind::datagram : mrc::SendKind::connected};
    return new (std::nothrow) mrc_send_ring(map, *info, format);
}

void mrc_send_ring_free(struct mrc_send_ring *sq) {
    delete sq;
}

int mrc_send_ring_post(struct mrc_send_ring *sq, struct ibv_send_wr *wr,
                       struct ibv_send_wr **bad_wr, unsigned int *posted) {
    return sq->post(wr, bad_wr, posted);
}

void mrc_send_ring_batch_start(struct mrc_send_ring *sq) {
    sq->batch_start();
}

void mrc_send_ring_batch_wr(struct mrc_send_ring *sq, const struct ibv_send_wr *wr) {
    sq->batch_wr(*wr);
}

void mrc_send_ring_batch_sges(struct mrc_send_ring *sq, size_t num_sge,
                              const struct ibv_sge *sg_list) {
    sq->batch_sges(sg_list, num_sge);
}

void mrc_send_ring_batch_inline(struct mrc_send_ring *sq, size_t num_buf,
                                const struct ibv_data_buf *bufs) {
    sq->batch_inline(bufs, num_buf);
}

void mrc_send_ring_batch_ud_addr(struct mrc_send_ring *sq, struct ibv_ah *ah, uint32_t remote_qpn,
                                 uint32_t remote_qkey) {
    sq->batch_ud_addr(ah, remote_qpn, remote_qkey);
}

int mrc_send_ring_batch_complete(struct mrc_send_ring *sq, unsigned int *posted) {
    return sq->batch_complete(posted);
}

void mrc_send_ring_batch_abort(struct mrc_send_ring *sq) {
    sq->batch_abort();
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
