/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mrc_queues.h - the provider's data path, seen from C.
 *
 * The rings a CQ, a QP and an SRQ share with mrc.ko (layout in <rdma/mrc-abi.h>) are driven by
 * C++ objects behind this interface. The C glue maps and unmaps the memory and issues every
 * system call; these functions only read and write the mapped rings, under each ring's own lock,
 * and never throw. Errors are errno values.
 */
#ifndef MRC_QUEUES_H
#define MRC_QUEUES_H

#include <stdbool.h> // NOLINT(modernize-deprecated-headers): a C header too
#include <stddef.h>  // NOLINT(modernize-deprecated-headers): a C header too
#include <stdint.h>  // NOLINT(modernize-deprecated-headers): a C header too

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mrc_cq_ring;
struct mrc_send_ring;
struct mrc_recv_ring;

/* An address handle: a UD send WQE names it by the number mrc.ko gave it (mrc_create_ah_resp). */
struct mrc_ah {
    struct ibv_ah ibv_ah; /* first: a struct ibv_ah * from the application points here */
    uint32_t ah_num;
};

/*
 * 0 when @info describes a ring the provider can use: a power-of-two number of slots, slots of
 * at least @min_slot_size bytes and a multiple of 16, all within mmap_size. EINVAL otherwise.
 */
int mrc_ring_info_check(const struct mrc_ring_info *info, uint32_t min_slot_size);

/* Completion queue: the kernel produces struct mrc_cqe, poll_cq consumes them. */
struct mrc_cq_ring *mrc_cq_ring_new(void *map, const struct mrc_ring_info *info);
void mrc_cq_ring_free(struct mrc_cq_ring *cq);
/* ibv_poll_cq: the number of completions written to @wc (at most @ne), or -1. */
int mrc_cq_ring_poll(struct mrc_cq_ring *cq, int ne, struct ibv_wc *wc);

/*
 * The extended polling API (ibv_start_poll, ibv_next_poll, ibv_end_poll): start_poll returns 0
 * with the oldest completion in *@wc and the ring locked until end_poll, or an errno (ENOENT:
 * none; EIO: the ring is broken) with the ring unlocked; next_poll returns 0 with the next one,
 * or ENOENT or EIO; end_poll consumes what they handed out and unlocks.
 */
int mrc_cq_ring_start_poll(struct mrc_cq_ring *cq, struct ibv_wc *wc);
int mrc_cq_ring_next_poll(struct mrc_cq_ring *cq, struct ibv_wc *wc);
void mrc_cq_ring_end_poll(struct mrc_cq_ring *cq);

/*
 * Replace the ring (ibv_resize_cq) while no poller can touch it: @remap runs with the ring
 * locked; on success it has unmapped the old ring and stored the new mapping in *@map and its
 * description in *@info. On failure it returns an errno value and leaves *@map alone when the
 * old ring is still good, or sets it to NULL when the old ring is gone (the CQ then reports
 * errors from poll).
 */
// NOLINTNEXTLINE(modernize-use-using): a C header too
typedef int (*mrc_cq_remap_fn)(void *arg, void **map, struct mrc_ring_info *info);
int mrc_cq_ring_resize(struct mrc_cq_ring *cq, mrc_cq_remap_fn remap, void *arg);

/*
 * Send queue: the provider produces struct mrc_send_wqe, the kernel consumes them. A @datagram
 * ring (a UD QP's) takes SEND and SEND_WITH_IMM only, each with its wr.ud address (a struct
 * mrc_ah); any other ring ignores wr.ud.
 */
struct mrc_send_ring *mrc_send_ring_new(void *map, const struct mrc_ring_info *info, bool datagram);
void mrc_send_ring_free(struct mrc_send_ring *sq);
/*
 * ibv_post_send without the doorbell: writes the WRs of @wr into the ring until one fails, then
 * publishes the written ones. Returns 0, or the errno of the WR stored in *@bad_wr (ENOMEM: the
 * ring is full; EINVAL: an opcode, flag or size the ring cannot carry). *@posted is the number of
 * WRs published, so the caller knows whether to ring the doorbell.
 */
int mrc_send_ring_post(struct mrc_send_ring *sq, struct ibv_send_wr *wr,
                       struct ibv_send_wr **bad_wr, unsigned int *posted);

/*
 * The extended post API (ibv_wr_start, the ibv_wr_* of each WR and its data setter,
 * ibv_wr_complete or ibv_wr_abort): the ring stays locked from batch_start to batch_complete or
 * batch_abort. batch_wr opens a WR (@wr's opcode, flags, wr_id, remote address or atomic
 * operands and immediate; its SGEs are not read), batch_sges or batch_inline gives it its data
 * (inline bytes copied at once). batch_complete publishes the batch and returns 0 with
 * *@posted WRs to ring the doorbell for, or the errno of the first WR the ring could not take
 * (ENOMEM: full; EINVAL: see mrc_send_ring_post) and publishes none of it. batch_abort
 * forgets the batch.
 */
void mrc_send_ring_batch_start(struct mrc_send_ring *sq);
void mrc_send_ring_batch_wr(struct mrc_send_ring *sq, const struct ibv_send_wr *wr);
void mrc_send_ring_batch_sges(struct mrc_send_ring *sq, size_t num_sge,
                              const struct ibv_sge *sg_list);
void mrc_send_ring_batch_inline(struct mrc_send_ring *sq, size_t num_buf,
                                const struct ibv_data_buf *bufs);
/* ibv_wr_set_ud_addr: the open WR's destination, before its data setter (datagram rings). */
void mrc_send_ring_batch_ud_addr(struct mrc_send_ring *sq, struct ibv_ah *ah, uint32_t remote_qpn,
                                 uint32_t remote_qkey);
int mrc_send_ring_batch_complete(struct mrc_send_ring *sq, unsigned int *posted);
void mrc_send_ring_batch_abort(struct mrc_send_ring *sq);

/* Receive queue of a QP, or an SRQ: the provider produces struct mrc_recv_wqe. */
struct mrc_recv_ring *mrc_recv_ring_new(void *map, const struct mrc_ring_info *info);
void mrc_recv_ring_free(struct mrc_recv_ring *rq);
/*
 * ibv_post_recv / ibv_post_srq_recv: like mrc_send_ring_post, no system call needed, unless
 * *@flush_doorbell comes back true: WRs were published while the kernel flushes this ring (a QP
 * in ERR), and it flushes them when the caller rings the QP's send doorbell. An SRQ passes NULL:
 * no QP's ERR flushes its WRs, so it skips the fence the flag is read after.
 */
int mrc_recv_ring_post(struct mrc_recv_ring *rq, struct ibv_recv_wr *wr,
                       struct ibv_recv_wr **bad_wr, bool *flush_doorbell);

#ifdef __cplusplus
}
#endif

#endif /* MRC_QUEUES_H */
