/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_queue.h - rings shared with userspace (CQ, SQ, RQ, SRQ).
 *
 * The layout is the ABI in <rdma/mrc-abi.h>. A ring's memory is vmalloc'd
 * and mapped into the process through an rdma_user_mmap_entry, which owns
 * the memory: destroying the object only removes the entry, and the memory
 * goes when the last mapping of it does. Kernel consumers get the same ring
 * without a mapping.
 */
#ifndef MRC_QUEUE_H
#define MRC_QUEUE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	void *buf;
	size_t size;
};

struct mrc_queue {
	void *buf;
	struct mrc_mmap_entry *mmap;	/* NULL for a kernel consumer's ring */
	u32 num_slots;			/* power of two */
	u32 slot_size;
};

int mrc_queue_init(struct mrc_queue *q, struct ib_udata *udata,
		   u32 min_slots, u32 slot_size);
void mrc_queue_fill_info(const struct mrc_queue *q, struct mrc_ring_info *info);
void mrc_queue_destroy(struct mrc_queue *q);
void mrc_queue_put_sges(struct mrc_sge *dst, const struct ib_sge *src, int num_sge);
int mrc_queue_put_recv(struct mrc_queue *q, u32 max_sge,
		       const struct ib_recv_wr *wr);

int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry);

static inline u32 *mrc_queue_prod_ptr(const struct mrc_queue *q)
{
	return q->buf + MRC_RING_PROD_OFFSET;
}

static inline u32 *mrc_queue_cons_ptr(const struct mrc_queue *q)
{
	return q->buf + MRC_RING_CONS_OFFSET;
}

/*
 * The consumer's flags for the producer (MRC_RING_F_*), then a full fence:
 * what the producer published before it could see them is loaded after.
 */
static inline void mrc_queue_set_flags(const struct mrc_queue *q, u32 flags)
{
	WRITE_ONCE(*(u32 *)(q->buf + MRC_RING_FLAGS_OFFSET), flags);
	smp_mb();
}

/*
 * The consumer index this side wrote last. The page is mapped writable into
 * the process, so the value may have changed under us: read it once and
 * check it like any other value from userspace.
 */
static inline u32 mrc_queue_peek_cons(const struct mrc_queue *q)
{
	return READ_ONCE(*mrc_queue_cons_ptr(q));
}

static inline void *mrc_queue_slot(const struct mrc_queue *q, u32 index)
{
	return q->buf + MRC_RING_SLOTS_OFFSET +
	       (size_t)(index & (q->num_slots - 1)) * q->slot_size;
}

/*
 * The index written by the other side. For rings that userspace produces
 * the value is untrusted: callers check it with mrc_queue_count().
 */
static inline u32 mrc_queue_load_prod(const struct mrc_queue *q)
{
	/* Acquire: the slots the producer filled are visible once we see the index. */
	return smp_load_acquire(mrc_queue_prod_ptr(q));
}

static inline u32 mrc_queue_load_cons(const struct mrc_queue *q)
{
	/* Acquire: the consumer is done reading the slots it released. */
	return smp_load_acquire(mrc_queue_cons_ptr(q));
}

static inline void mrc_queue_store_prod(struct mrc_queue *q, u32 v)
{
	/* Release: slot contents are written before the index that publishes them. */
	smp_store_release(mrc_queue_prod_ptr(q), v);
}

static inline void mrc_queue_store_cons(struct mrc_queue *q, u32 v)
{
	/* Release: slot reads are done before the producer may reuse the slots. */
	smp_store_release(mrc_queue_cons_ptr(q), v);
}

/* Bytes of an RQ/SRQ slot holding a receive WQE with @max_sge SGEs. */
static inline u32 mrc_recv_slot_size(u32 max_sge)
{
	return MRC_RECV_WQE_HDR_SIZE + max_sge * sizeof(struct mrc_sge);
}

/* Slots in use between @cons and @prod, or -EPROTO if userspace lied. */
static inline int mrc_queue_count(const struct mrc_queue *q, u32 prod, u32 cons)
{
	u32 n = prod - cons;

	return n <= q->num_slots ? (int)n : -EPROTO;
}

#endif /* MRC_QUEUE_H */
