// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_mr.c - memory regions.
 *
 * A user MR pins its pages (ib_umem) and keeps a page array so that a
 * packet for any offset finds its page in O(1): with spraying, payloads
 * arrive in any order and each is copied straight to its final address.
 *
 * Lifetime: the xarray holds the registration reference. Deregistration
 * erases the key (no new lookups), drops that reference and waits until
 * in-flight copies have dropped theirs before unpinning the pages. The
 * structure itself goes only after an RCU grace period: a lookup that found
 * it just before the erase still reads its key and reference count.
 */
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mrc.h"
#include "mrc_mr.h"
#include "mrc_param.h"
#include "mrc_race.h"

static int mrc_mr_check_access(int access)
{
	/* remote write/atomic need local write, as the IB spec requires */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (access & ~(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		       IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC |
		       IB_ACCESS_RELAXED_ORDERING))
		return -EOPNOTSUPP;
	return 0;
}

static int mrc_mr_fill_pages(struct mrc_mr *mr)
{
	struct sg_table *sgt = &mr->umem->sgt_append.sgt;
	struct sg_page_iter iter;
	unsigned long i = 0;

	mr->nr_pages = ib_umem_num_pages(mr->umem);
	mr->pages = kvcalloc(mr->nr_pages, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages)
		return -ENOMEM;

	for_each_sgtable_page(sgt, &iter, 0) {
		if (i == mr->nr_pages)
			break;
		mr->pages[i++] = sg_page_iter_page(&iter);
	}
	if (i != mr->nr_pages) {
		kvfree(mr->pages);
		mr->pages = NULL;
		return -EFAULT;
	}
	mr->first_page_offset = ib_umem_offset(mr->umem);
	return 0;
}

/* Publish @mr under a fresh key. */
static int mrc_mr_insert(struct mrc_dev *mdev, struct mrc_mr *mr)
{
	u32 index, key;
	int err;

	refcount_set(&mr->refs, 1);
	init_completion(&mr->released);
	err = xa_alloc_cyclic(&mdev->mr_xa, &index, mr,
			      XA_LIMIT(1, MRC_MAX_MR), &mdev->mr_next,
			      GFP_KERNEL);
	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;

	/* a new generation byte so a stale key for a reused index misses */
	key = index << 8 | (atomic_inc_return(&mdev->mr_gen) & 0xff);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	return 0;
}

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);
	struct mrc_mr *mr;
	int err;

	err = mrc_mr_check_access(access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > MRC_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	err = mrc_mr_fill_pages(mr);
	if (err)
		goto err_umem;

	mr->iova = iova;
	mr->length = length;
	mr->access = access;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	err = mrc_mr_insert(mdev, mr);
	if (err)
		goto err_pages;
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/*
 * A kernel PD's DMA MR (its local_dma_lkey): mrc has no DMA device, so
 * ib_core hands kernel ULPs virtual addresses as DMA addresses, and this
 * MR's addresses are those. Local access only: a remote peer never gets
 * at kernel memory (no IB_PD_UNSAFE_GLOBAL_RKEY), and a process never gets
 * this MR (user PDs are refused; lookups check the PD).
 */
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_mr *mr;
	int err;

	if (ibpd->uobject || (access & ~IB_ACCESS_LOCAL_WRITE))
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->kernel_va = true;
	mr->iova = 0;
	mr->length = U64_MAX;
	mr->access = access;
	err = mrc_mr_insert(to_mdev(ibpd->device), mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibmr->device);
	struct mrc_mr *mr = to_mmr(ibmr);

	xa_erase(&mdev->mr_xa, MRC_MR_KEY_INDEX(ibmr->lkey));
	mrc_mr_put(mr);
	wait_for_completion(&mr->released);

	kvfree(mr->pages);
	mr->pages = NULL;
	ib_umem_release(mr->umem);
	kfree_rcu(mr, rcu);
	return 0;
}

struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
			  int access, u64 va, u64 len)
{
	struct mrc_mr *mr;

	rcu_read_lock();
	mr = xa_load(&mdev->mr_xa, MRC_MR_KEY_INDEX(key));
	if (mr)
		mrc_race_window(MRC_RACE_MR_LOOKUP);
	if (!mr || mr->ibmr.lkey != key || !refcount_inc_not_zero(&mr->refs))
		mr = NULL;
	rcu_read_unlock();
	if (!mr)
		return ERR_PTR(-ENOENT);

	if (mr->ibmr.pd != pd || (access & ~mr->access)) {
		mrc_mr_put(mr);
		return ERR_PTR(-EACCES);
	}
	if (va < mr->iova || len > mr->length ||
	    va - mr->iova > mr->length - len) {
		mrc_mr_put(mr);
		return ERR_PTR(-ERANGE);
	}
	return mr;
}

void mrc_mr_put(struct mrc_mr *mr)
{
	if (refcount_dec_and_test(&mr->refs))
		complete(&mr->released);
}

/* Copy @len bytes between @buf and the MR at @va (already bounds-checked). */
void mrc_mr_copy(struct mrc_mr *mr, u64 va, void *buf, u64 len,
		 enum mrc_copy_dir dir)
{
	u64 off = va - mr->iova + mr->first_page_offset;

	if (mr->kernel_va) {
		void *addr = (void *)(uintptr_t)va;

		if (dir == MRC_TO_MR)
			memcpy(addr, buf, len);
		else
			memcpy(buf, addr, len);
		return;
	}
	while (len) {
		struct page *page = mr->pages[off >> PAGE_SHIFT];
		unsigned int in_page = offset_in_page(off);
		unsigned int n = min_t(u64, len, PAGE_SIZE - in_page);
		void *addr = kmap_local_page(page);

		if (dir == MRC_TO_MR)
			memcpy(addr + in_page, buf, n);
		else
			memcpy(buf, addr + in_page, n);
		kunmap_local(addr);

		buf += n;
		off += n;
		len -= n;
	}
}
