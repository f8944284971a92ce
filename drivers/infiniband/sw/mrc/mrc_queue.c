// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_queue.c - allocation and mmap of the rings shared with userspace.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/uverbs_ioctl.h>

#include "mrc_queue.h"

int mrc_queue_init(struct mrc_queue *q, struct ib_udata *udata,
		   u32 min_slots, u32 slot_size)
{
	struct ib_ucontext *uctx;
	struct mrc_mmap_entry *entry;
	size_t size;
	int err;

	if (!min_slots || min_slots > (1U << 20) || !slot_size ||
	    slot_size % 16)
		return -EINVAL;

	q->num_slots = roundup_pow_of_two(min_slots);
	q->slot_size = slot_size;
	size = PAGE_ALIGN(MRC_RING_SLOTS_OFFSET +
			  (size_t)q->num_slots * slot_size);

	q->buf = vmalloc_user(size);	/* zeroed: both indices start at 0 */
	if (!q->buf)
		return -ENOMEM;
	q->mmap = NULL;
	if (!udata)
		return 0;

	uctx = rdma_udata_to_uverbs_attr_bundle(udata)->context;
	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry) {
		err = -ENOMEM;
		goto err_free;
	}
	entry->buf = q->buf;
	entry->size = size;
	err = rdma_user_mmap_entry_insert(uctx, &entry->rdma_entry, size);
	if (err) {
		kfree(entry);
		goto err_free;
	}
	q->mmap = entry;
	return 0;

err_free:
	vfree(q->buf);
	q->buf = NULL;
	return err;
}

void mrc_queue_fill_info(const struct mrc_queue *q, struct mrc_ring_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!q->mmap)
		return;
	info->mmap_offset = rdma_user_mmap_get_offset(&q->mmap->rdma_entry);
	info->mmap_size = q->mmap->size;
	info->num_slots = q->num_slots;
	info->slot_size = q->slot_size;
}

/* After this the kernel must not touch q->buf: a mapping may outlive us. */
void mrc_queue_destroy(struct mrc_queue *q)
{
	if (q->mmap)
		rdma_user_mmap_entry_remove(&q->mmap->rdma_entry);
	else
		vfree(q->buf);
	q->buf = NULL;
	q->mmap = NULL;
}

int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct mrc_mmap_entry *entry;
	int err;

	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	if (vma->vm_end - vma->vm_start > entry->size)
		err = -EINVAL;
	else
		err = remap_vmalloc_range(vma, entry->buf, 0);

	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

/* The last reference to a ring's memory is gone (object and mappings). */
void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	struct mrc_mmap_entry *entry =
		container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	vfree(entry->buf);
	kfree(entry);
}

/* A kernel consumer's scatter list, as a ring slot holds it. */
void mrc_queue_put_sges(struct mrc_sge *dst, const struct ib_sge *src, int num_sge)
{
	int i;

	for (i = 0; i < num_sge; i++) {
		dst[i].addr = src[i].addr;
		dst[i].length = src[i].length;
		dst[i].lkey = src[i].lkey;
	}
}

/* A kernel consumer's receive WR into an RQ/SRQ ring (the caller locks). */
int mrc_queue_put_recv(struct mrc_queue *q, u32 max_sge,
		       const struct ib_recv_wr *wr)
{
	u32 prod = *mrc_queue_prod_ptr(q);
	u32 cons = mrc_queue_load_cons(q);
	struct mrc_recv_wqe *wqe;

	if (wr->num_sge < 0 || wr->num_sge > max_sge)
		return -EINVAL;
	if (prod - cons >= q->num_slots)
		return -ENOMEM;

	wqe = mrc_queue_slot(q, prod);
	wqe->wr_id = wr->wr_id;
	wqe->num_sge = wr->num_sge;
	wqe->reserved = 0;
	mrc_queue_put_sges((struct mrc_sge *)(wqe + 1), wr->sg_list, wr->num_sge);
	mrc_queue_store_prod(q, prod + 1);
	return 0;
}
