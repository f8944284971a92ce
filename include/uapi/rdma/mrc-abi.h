/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * mrc-abi.h - the contract between mrc.ko and its rdma-core provider:
 * driver-specific udata of the verbs commands and the layout of the rings
 * that userspace and the kernel share through mmap.
 *
 * The provider's match range must contain MRC_UVERBS_ABI_VERSION: bump it
 * whenever a layout in this file changes incompatibly.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>

#define MRC_UVERBS_ABI_VERSION	1

/*
 * Rings
 * =====
 * A CQ, a QP's send queue and receive queue, and an SRQ are each a ring in
 * one mmap'd region:
 *
 *	offset 0			__u32 producer   (free-running index)
 *	offset MRC_RING_CONS_OFFSET	__u32 consumer   (free-running index)
 *	offset MRC_RING_FLAGS_OFFSET	__u32 consumer's flags (MRC_RING_F_*)
 *	offset MRC_RING_SLOTS_OFFSET	num_slots slots of slot_size bytes
 *
 * num_slots is a power of two; slot i holds index (i & (num_slots - 1)).
 * The ring is empty when producer == consumer and full when
 * producer - consumer == num_slots. Each side writes only its own index,
 * with a release store after filling/draining slots, and reads the other
 * side's with an acquire load.
 *
 *	ring		producer	consumer
 *	CQ		kernel		provider (poll_cq, no syscall)
 *	SQ		provider	kernel   (doorbell: post_send with no WRs)
 *	RQ, SRQ		provider	kernel   (no doorbell needed)
 *
 * The kernel copies each slot out before it validates or uses it, so
 * userspace changing a slot it already published can only hurt itself.
 *
 * A QP's RQ carries MRC_RING_F_FLUSH while the QP is in ERR: receives
 * published then are flushed (IBV_WC_WR_FLUSH_ERR) only once the provider
 * rings the send doorbell, so it rings it when it finds the flag after
 * publishing (a full fence between the two; the kernel sets the flag, then
 * fences, then flushes what is published).
 */
#define MRC_RING_PROD_OFFSET	0
#define MRC_RING_CONS_OFFSET	64
#define MRC_RING_FLAGS_OFFSET	68
#define MRC_RING_SLOTS_OFFSET	128

#define MRC_RING_F_FLUSH	(1U << 0)

/* Where a ring lives: pass to mmap(2) on the uverbs command fd. */
struct mrc_ring_info {
	__aligned_u64 mmap_offset;
	__u32 mmap_size;	/* bytes, header included */
	__u32 num_slots;	/* power of two */
	__u32 slot_size;	/* bytes, multiple of 16 */
	__u32 reserved;
};

/* Completion queue entry, written by the kernel. */
struct mrc_cqe {
	__aligned_u64 wr_id;
	__u32 status;		/* enum ibv_wc_status values */
	__u32 opcode;		/* enum ibv_wc_opcode values */
	__u32 vendor_err;
	__u32 byte_len;
	__u32 imm_data;		/* network byte order, as in ibv_wc */
	__u32 qp_num;
	__u32 src_qp;
	__u32 wc_flags;		/* enum ibv_wc_flags values */
	__u16 pkey_index;
	__u16 slid;
	__u8 sl;
	__u8 dlid_path_bits;
	__u8 reserved[2];
};

/* Scatter/gather element of a work request. */
struct mrc_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/*
 * Send work request, written by the provider. MRC_SEND_WQE_HDR_SIZE bytes
 * of header, then either num_sge struct mrc_sge or, with IBV_SEND_INLINE,
 * inline_len bytes of data; the slot size bounds both.
 */
struct mrc_send_wqe {
	__aligned_u64 wr_id;
	__u32 opcode;		/* enum ibv_wr_opcode values */
	__u32 send_flags;	/* enum ibv_send_flags values */
	__u32 ex;		/* imm_data (network order) or invalidate_rkey */
	__u32 num_sge;
	__u32 inline_len;
	__u32 reserved;
	union {
		struct {
			__aligned_u64 remote_addr;
			__u32 rkey;
			__u32 reserved;
		} rdma;
		struct {
			__aligned_u64 remote_addr;
			__aligned_u64 compare_add;
			__aligned_u64 swap;
			__u32 rkey;
			__u32 reserved;
		} atomic;
		struct {
			__u32 ah_num;	/* from mrc_create_ah_resp */
			__u32 remote_qpn;
			__u32 remote_qkey;	/* MSB set: the QP's own Q_Key */
			__u32 reserved;
		} ud;
	} wr;
	/* struct mrc_sge sge[num_sge] or __u8 inline_data[inline_len] */
};

#define MRC_SEND_WQE_HDR_SIZE	64

/* Receive work request (RQ and SRQ), written by the provider. */
struct mrc_recv_wqe {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
	/* struct mrc_sge sge[num_sge] */
};

#define MRC_RECV_WQE_HDR_SIZE	16

/* ibv_get_context */
struct mrc_alloc_ucontext_resp {
	__u32 max_inline_data;	/* the most a send slot can carry inline */
	__u32 reserved;
};

/* ibv_create_cq, ibv_resize_cq: the (new) CQ ring */
struct mrc_create_cq_resp {
	struct mrc_ring_info cq;
};

struct mrc_resize_cq_resp {
	struct mrc_ring_info cq;
};

/* ibv_create_qp */
enum mrc_create_qp_flags {
	/*
	 * The QP is bound to EV profile ev_profile_id for its life: it must
	 * exist (else ENOENT) and be online (else EINVAL), and it cannot be
	 * deleted while the QP lives. Without this flag the QP takes the
	 * device's default profile when it gets its AV, and ev_profile_id
	 * must be 0.
	 */
	MRC_CREATE_QP_EV_PROFILE = 1 << 0,
};

struct mrc_create_qp_cmd {
	__u32 ev_profile_id;
	__u32 flags;		/* enum mrc_create_qp_flags */
};

struct mrc_create_qp_resp {
	struct mrc_ring_info sq;
	struct mrc_ring_info rq;	/* num_slots 0 when the QP uses an SRQ */
};

/*
 * ibv_create_ah: the number a UD send WQE names the AH by. The kernel looks
 * it up in the PD of the sending QP; a number of another PD or of an AH
 * destroyed meanwhile fails the WQE (IBV_WC_LOC_QP_OP_ERR).
 */
struct mrc_create_ah_resp {
	__u32 ah_num;
	__u32 reserved;
};

/* ibv_create_srq */
struct mrc_create_srq_resp {
	struct mrc_ring_info rq;
};

#endif /* MRC_ABI_USER_H */
