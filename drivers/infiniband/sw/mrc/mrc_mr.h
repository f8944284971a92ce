/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_mr.h - memory regions: registration, key lookup, and copying
 * to and from registered memory at any offset (packets arrive in any order).
 */
#ifndef MRC_MR_H
#define MRC_MR_H

#include <linux/refcount.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

struct mrc_dev;

struct mrc_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct page **pages;		/* one per PAGE_SIZE of the region */
	unsigned long nr_pages;
	unsigned int first_page_offset;	/* of iova inside pages[0] */
	u64 iova;
	u64 length;
	int access;
	bool kernel_va;			/* a kernel PD's DMA MR: addresses are kernel virtual */
	refcount_t refs;		/* lookups in flight + registration */
	struct completion released;
	struct rcu_head rcu;		/* lookups may still read lkey and refs */
};

static inline struct mrc_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

/* Keys: the xarray index in the top 24 bits, a generation byte below. */
#define MRC_MR_KEY_INDEX(key)	((key) >> 8)

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access);
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

/*
 * Find the MR for @key that belongs to @pd, allows @access and covers
 * [va, va + len). Returns a reference (mrc_mr_put) or an ERR_PTR:
 * -ENOENT unknown key, -EACCES wrong PD or access, -ERANGE out of bounds.
 */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
			  int access, u64 va, u64 len);
void mrc_mr_put(struct mrc_mr *mr);

enum mrc_copy_dir { MRC_TO_MR, MRC_FROM_MR };

void mrc_mr_copy(struct mrc_mr *mr, u64 va, void *buf, u64 len,
		 enum mrc_copy_dir dir);

#endif /* MRC_MR_H */
