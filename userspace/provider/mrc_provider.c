// SPDX-License-Identifier: BSD-2-Clause
/*
 * mrc_provider.c - the rdma-core glue of libmrcdv.so.1 (the provider, loaded as
 * libmrc-rdmav34.so): device matching, the verbs ops table, the direct verbs of mrcdv.h, every
 * command to mrc.ko (ibv_cmd_*) and every mapping of a ring. The data path (the rings
 * themselves) is C++ behind mrc_queues.h; this is the one file that sees <infiniband/driver.h>.
 *
 * Built against the system's libibverbs 44.0 public headers and rdma-core 56.1's private ones:
 * abi_pins.h checks at compile time that the private layouts this file shares with the
 * installed library are the ones it was built with.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <infiniband/driver.h>
#include <infiniband/mrcdv.h>
#include <infiniband/verbs.h>
#include <kernel-abi/mrc-abi.h>
#include <rdma/mrc-abi.h>

#include "abi_pins.h"
#include "mrc_queues.h"
#include "qp_profile.h"

/*
 * The command wrappers put driver data after the core command, as rdma-core's own providers do;
 * clang calls that layout a GNU extension.
 */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif
DECLARE_DRV_CMD(umrc_get_context, IB_USER_VERBS_CMD_GET_CONTEXT, empty, mrc_alloc_ucontext_resp);
DECLARE_DRV_CMD(umrc_create_cq, IB_USER_VERBS_CMD_CREATE_CQ, empty, mrc_create_cq_resp);
DECLARE_DRV_CMD(umrc_create_cq_ex, IB_USER_VERBS_EX_CMD_CREATE_CQ, empty, mrc_create_cq_resp);
DECLARE_DRV_CMD(umrc_resize_cq, IB_USER_VERBS_CMD_RESIZE_CQ, empty, mrc_resize_cq_resp);
DECLARE_DRV_CMD(umrc_create_qp, IB_USER_VERBS_CMD_CREATE_QP, mrc_create_qp_cmd, mrc_create_qp_resp);
DECLARE_DRV_CMD(umrc_create_srq, IB_USER_VERBS_CMD_CREATE_SRQ, empty, mrc_create_srq_resp);
DECLARE_DRV_CMD(umrc_create_ah, IB_USER_VERBS_CMD_CREATE_AH, empty, mrc_create_ah_resp);
#ifdef __clang__
#pragma clang diagnostic pop
#endif

struct mrc_device {
    struct verbs_device ibv_dev;
};

struct mrc_context {
    struct verbs_context ibv_ctx;
    uint32_t max_inline_data;
    struct mrc_qp_profile env_profile; /* MRC_EV_PROFILE, read when the context was made */
};

/* A ring mapped from the uverbs command fd. */
struct mrc_mapping {
    void *addr;
    size_t size;
};

struct mrc_cq {
    struct verbs_cq vcq;
    struct mrc_cq_ring *ring;
    struct mrc_mapping map;
    struct ibv_wc cur; /* the extended polling API's current completion */
};

struct mrc_qp {
    struct verbs_qp vqp;
    struct mrc_send_ring *sq;
    struct mrc_recv_ring *rq; /* NULL when the QP receives through an SRQ */
    struct mrc_mapping sq_map;
    struct mrc_mapping rq_map;
};

struct mrc_srq {
    struct verbs_srq vsrq;
    struct mrc_recv_ring *rq;
    struct mrc_mapping map;
};

#define to_mctx(ibctx) container_of(ibctx, struct mrc_context, ibv_ctx.context)
#define to_mcq(ibcq)   container_of(ibcq, struct mrc_cq, vcq.cq)
#define to_mcqx(cqx)   container_of(cqx, struct mrc_cq, vcq.cq_ex)
#define to_mqp(ibqp)   container_of(ibqp, struct mrc_qp, vqp.qp)
#define to_msrq(ibsrq) container_of(ibsrq, struct mrc_srq, vsrq.srq)

/* Slots must hold at least an entry's header and one SGE. */
#define MRC_MIN_SEND_SLOT (MRC_SEND_WQE_HDR_SIZE + sizeof(struct mrc_sge))
#define MRC_MIN_RECV_SLOT (MRC_RECV_WQE_HDR_SIZE + sizeof(struct mrc_sge))

/* Map the ring @info describes; 0 or an errno value. */
static int mrc_map_ring(struct ibv_context *ibctx, const struct mrc_ring_info *info,
                        uint32_t min_slot_size, struct mrc_mapping *map) {
    void *addr;
    int err;

    err = mrc_ring_info_check(info, min_slot_size);
    if (err)
        return err;
    addr = mmap(NULL, info->mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, ibctx->cmd_fd,
                (off_t)info->mmap_offset);
    if (addr == MAP_FAILED)
        return errno;
    map->addr = addr;
    map->size = info->mmap_size;
    return 0;
}

static void mrc_unmap_ring(struct mrc_mapping *map) {
    if (map->addr)
        munmap(map->addr, map->size);
    map->addr = NULL;
    map->size = 0;
}

/* Context and device */

static int mrc_query_device_ex(struct ibv_context *ibctx,
                               const struct ibv_query_device_ex_input *input,
                               struct ibv_device_attr_ex *attr, size_t attr_size) {
    struct ib_uverbs_ex_query_device_resp resp;
    size_t resp_size = sizeof(resp);
    uint64_t fw;
    int err;

    err = ibv_cmd_query_device_any(ibctx, input, attr, attr_size, &resp, &resp_size);
    if (err)
        return err;
    fw = resp.base.fw_ver;
    snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver), "%u.%u.%u",
             (unsigned int)(fw >> 32) & 0xffff, (unsigned int)(fw >> 16) & 0xffff,
             (unsigned int)fw & 0xffff);
    return 0;
}

static int mrc_query_port(struct ibv_context *ibctx, uint8_t port, struct ibv_port_attr *attr) {
    struct ibv_query_port cmd;

    return ibv_cmd_query_port(ibctx, port, attr, &cmd, sizeof(cmd));
}

/* Protection domains, memory regions, address handles */

static struct ibv_pd *mrc_alloc_pd(struct ibv_context *ibctx) {
    struct ib_uverbs_alloc_pd_resp resp;
    struct ibv_alloc_pd cmd;
    struct ibv_pd *pd;
    int err;

    pd = calloc(1, sizeof(*pd));
    if (!pd)
        return NULL;
    err = ibv_cmd_alloc_pd(ibctx, pd, &cmd, sizeof(cmd), &resp, sizeof(resp));
    if (err) {
        free(pd);
        errno = err;
        return NULL;
    }
    return pd;
}

static int mrc_dealloc_pd(struct ibv_pd *pd) {
    int err;

    err = ibv_cmd_dealloc_pd(pd);
    if (!err)
        free(pd);
    return err;
}

static struct ibv_mr *mrc_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
                                 int access) {
    struct ib_uverbs_reg_mr_resp resp;
    struct verbs_mr *vmr;
    struct ibv_reg_mr cmd;
    int err;

    vmr = calloc(1, sizeof(*vmr));
    if (!vmr)
        return NULL;
    err = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr, &cmd, sizeof(cmd), &resp,
                         sizeof(resp));
    if (err) {
        free(vmr);
        errno = err;
        return NULL;
    }
    return &vmr->ibv_mr;
}

static int mrc_dereg_mr(struct verbs_mr *vmr) {
    int err;

    err = ibv_cmd_dereg_mr(vmr);
    if (!err)
        free(vmr);
    return err;
}

/* Address handles: UD send WQEs name them by the number the kernel gave. */
static struct ibv_ah *mrc_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr) {
    struct umrc_create_ah_resp resp;
    struct mrc_ah *ah;
    int err;

    ah = calloc(1, sizeof(*ah));
    if (!ah)
        return NULL;
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp, sizeof(resp));
    if (!err && !resp.ah_num) {
        ibv_cmd_destroy_ah(&ah->ibv_ah); /* a kernel that numbers no AH: UD could not use it */
        err = EPROTO;
    }
    if (err) {
        free(ah);
        errno = err;
        return NULL;
    }
    ah->ah_num = resp.ah_num;
    return &ah->ibv_ah;
}

static int mrc_destroy_ah(struct ibv_ah *ibah) {
    int err;

    err = ibv_cmd_destroy_ah(ibah);
    if (!err)
        free(container_of(ibah, struct mrc_ah, ibv_ah));
    return err;
}

/* Completion queues */

static void mrc_cq_free(struct mrc_cq *cq) {
    mrc_cq_ring_free(cq->ring);
    mrc_unmap_ring(&cq->map);
    free(cq);
}

static int mrc_cq_map_ring(struct ibv_context *ibctx, struct mrc_cq *cq,
                           const struct mrc_ring_info *info) {
    int err;

    err = mrc_map_ring(ibctx, info, sizeof(struct mrc_cqe), &cq->map);
    if (err)
        return err;
    cq->ring = mrc_cq_ring_new(cq->map.addr, info);
    return cq->ring ? 0 : ENOMEM;
}

/*
 * After the create command (@err its result): the ring mapped, or the CQ undone (destroyed if
 * the kernel made it, freed) with errno set and false returned.
 */
static bool mrc_cq_created(struct ibv_context *ibctx, struct mrc_cq *cq, int err,
                           const struct mrc_ring_info *info) {
    if (!err) {
        err = mrc_cq_map_ring(ibctx, cq, info);
        if (err)
            ibv_cmd_destroy_cq(&cq->vcq.cq);
    }
    if (!err)
        return true;
    mrc_cq_free(cq);
    errno = err;
    return false;
}

static struct ibv_cq *mrc_create_cq(struct ibv_context *ibctx, int cqe,
                                    struct ibv_comp_channel *channel, int comp_vector) {
    struct umrc_create_cq_resp resp;
    struct umrc_create_cq cmd;
    struct mrc_cq *cq;
    int err;

    cq = calloc(1, sizeof(*cq));
    if (!cq)
        return NULL;
    memset(&cmd, 0, sizeof(cmd));
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_create_cq(ibctx, cqe, channel, comp_vector, &cq->vcq.cq, &cmd.ibv_cmd,
                            sizeof(cmd), &resp.ibv_resp, sizeof(resp));
    return mrc_cq_created(ibctx, cq, err, &resp.cq) ? &cq->vcq.cq : NULL;
}

/*
 * The extended CQ (ibv_create_cq_ex) and its polling API: the same ring as ibv_poll_cq's, each
 * completion read into the CQ's current one, whose fields the read_* ops return.
 */
#define MRC_WC_EX_SUPPORTED                                                                        \
    (IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM |                        \
     IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |                             \
     IBV_WC_EX_WITH_DLID_PATH_BITS)

/* After start_poll or next_poll (@err its result): the ibv_cq_ex shows the completion taken. */
static int mrc_cqx_took(struct ibv_cq_ex *cqx, int err) {
    const struct ibv_wc *wc = &to_mcqx(cqx)->cur;

    if (!err) {
        cqx->wr_id = wc->wr_id;
        cqx->status = wc->status;
    }
    return err;
}

static int mrc_cqx_start_poll(struct ibv_cq_ex *cqx, struct ibv_poll_cq_attr *attr) {
    if (attr->comp_mask)
        return EINVAL;
    return mrc_cqx_took(cqx, mrc_cq_ring_start_poll(to_mcqx(cqx)->ring, &to_mcqx(cqx)->cur));
}

static int mrc_cqx_next_poll(struct ibv_cq_ex *cqx) {
    return mrc_cqx_took(cqx, mrc_cq_ring_next_poll(to_mcqx(cqx)->ring, &to_mcqx(cqx)->cur));
}

static void mrc_cqx_end_poll(struct ibv_cq_ex *cqx) {
    mrc_cq_ring_end_poll(to_mcqx(cqx)->ring);
}

/* read_<field>: the current completion's field, as ibv_poll_cq would have filled it */
#define MRC_CQX_READ(field, type)                                                                  \
    static type mrc_cqx_##field(struct ibv_cq_ex *cqx) {                                           \
        return to_mcqx(cqx)->cur.field;                                                            \
    }
MRC_CQX_READ(opcode, enum ibv_wc_opcode)
MRC_CQX_READ(vendor_err, uint32_t)
MRC_CQX_READ(byte_len, uint32_t)
MRC_CQX_READ(imm_data, __be32)
MRC_CQX_READ(qp_num, uint32_t)
MRC_CQX_READ(src_qp, uint32_t)
MRC_CQX_READ(wc_flags, unsigned int)
MRC_CQX_READ(slid, uint32_t)
MRC_CQX_READ(sl, uint8_t)
MRC_CQX_READ(dlid_path_bits, uint8_t)
#undef MRC_CQX_READ

static void mrc_cq_ex_init(struct mrc_cq *cq, uint64_t wc_flags) {
    struct ibv_cq_ex *cqx = &cq->vcq.cq_ex;

    cqx->start_poll = mrc_cqx_start_poll;
    cqx->next_poll = mrc_cqx_next_poll;
    cqx->end_poll = mrc_cqx_end_poll;
    cqx->read_opcode = mrc_cqx_opcode;
    cqx->read_vendor_err = mrc_cqx_vendor_err;
    cqx->read_wc_flags = mrc_cqx_wc_flags;
    if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
        cqx->read_byte_len = mrc_cqx_byte_len;
    if (wc_flags & IBV_WC_EX_WITH_IMM)
        cqx->read_imm_data = mrc_cqx_imm_data;
    if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
        cqx->read_qp_num = mrc_cqx_qp_num;
    if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
        cqx->read_src_qp = mrc_cqx_src_qp;
    if (wc_flags & IBV_WC_EX_WITH_SLID)
        cqx->read_slid = mrc_cqx_slid;
    if (wc_flags & IBV_WC_EX_WITH_SL)
        cqx->read_sl = mrc_cqx_sl;
    if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
        cqx->read_dlid_path_bits = mrc_cqx_dlid_path_bits;
}

static struct ibv_cq_ex *mrc_create_cq_ex(struct ibv_context *ibctx,
                                          struct ibv_cq_init_attr_ex *attr) {
    struct umrc_create_cq_ex_resp resp;
    struct umrc_create_cq_ex cmd;
    struct mrc_cq *cq;
    int err;

    /* no timestamps, no CQ flags (overrun ignored), no parent domain */
    if ((attr->wc_flags & ~(uint64_t)MRC_WC_EX_SUPPORTED) ||
        (attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS) ||
        ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) && attr->flags)) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    cq = calloc(1, sizeof(*cq));
    if (!cq)
        return NULL;
    memset(&cmd, 0, sizeof(cmd));
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_create_cq_ex(ibctx, attr, &cq->vcq, &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
                               sizeof(resp), 0);
    if (!mrc_cq_created(ibctx, cq, err, &resp.cq))
        return NULL;
    mrc_cq_ex_init(cq, attr->wc_flags);
    return &cq->vcq.cq_ex;
}

static int mrc_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc) {
    return mrc_cq_ring_poll(to_mcq(ibcq)->ring, ne, wc);
}

struct mrc_resize_arg {
    struct mrc_cq *cq;
    int cqe;
};

/* Runs with the CQ ring locked: the kernel copies the unconsumed CQEs into the new ring. */
static int mrc_resize_remap(void *arg, void **map, struct mrc_ring_info *info) {
    struct mrc_resize_arg *r = arg;
    struct mrc_cq *cq = r->cq;
    struct umrc_resize_cq_resp resp;
    struct umrc_resize_cq cmd;
    struct mrc_mapping new_map;
    int err;

    memset(&cmd, 0, sizeof(cmd));
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_resize_cq(&cq->vcq.cq, r->cqe, &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
                            sizeof(resp));
    if (err)
        return err; /* the old ring is still the CQ's */
    mrc_unmap_ring(&cq->map);
    err = mrc_map_ring(cq->vcq.cq.context, &resp.cq, sizeof(struct mrc_cqe), &new_map);
    if (err) {
        *map = NULL; /* the old ring is gone and the new one unusable */
        return err;
    }
    cq->map = new_map;
    *map = new_map.addr;
    *info = resp.cq;
    return 0;
}

static int mrc_resize_cq(struct ibv_cq *ibcq, int cqe) {
    struct mrc_resize_arg arg = {.cq = to_mcq(ibcq), .cqe = cqe};

    return mrc_cq_ring_resize(arg.cq->ring, mrc_resize_remap, &arg);
}

static int mrc_destroy_cq(struct ibv_cq *ibcq) {
    int err;

    err = ibv_cmd_destroy_cq(ibcq);
    if (err)
        return err;
    mrc_cq_free(to_mcq(ibcq));
    return 0;
}

/* Queue pairs */

static void mrc_qp_free(struct mrc_qp *qp) {
    mrc_send_ring_free(qp->sq);
    mrc_recv_ring_free(qp->rq);
    mrc_unmap_ring(&qp->sq_map);
    mrc_unmap_ring(&qp->rq_map);
    free(qp);
}

static int mrc_qp_map_rings(struct ibv_context *ibctx, struct mrc_qp *qp,
                            const struct mrc_create_qp_resp *resp) {
    int err;

    err = mrc_map_ring(ibctx, &resp->sq, MRC_MIN_SEND_SLOT, &qp->sq_map);
    if (err)
        return err;
    qp->sq = mrc_send_ring_new(qp->sq_map.addr, &resp->sq, qp->vqp.qp.qp_type == IBV_QPT_UD);
    if (!qp->sq)
        return ENOMEM;
    if (!resp->rq.num_slots)
        return 0; /* receives go to the SRQ */
    err = mrc_map_ring(ibctx, &resp->rq, MRC_MIN_RECV_SLOT, &qp->rq_map);
    if (err)
        return err;
    qp->rq = mrc_recv_ring_new(qp->rq_map.addr, &resp->rq);
    return qp->rq ? 0 : ENOMEM;
}

/*
 * The extended post API (ibv_wr_*): each WR is formatted into the send ring as its data setter
 * comes, and ibv_wr_complete publishes the batch and rings the doorbell once, as post_send does.
 */
#define MRC_QP_INIT_ATTR_SUPPORTED (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
#define MRC_QP_SEND_OPS_SUPPORTED                                                                  \
    (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |              \
     IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |                               \
     IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
#define MRC_UD_SEND_OPS_SUPPORTED (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)

#define qpx_sq(qpx) (container_of(qpx, struct mrc_qp, vqp.qp_ex)->sq)

/* A WR of @opcode with what the application set in the ibv_qp_ex before the call. */
static struct ibv_send_wr mrc_qpx_wr(const struct ibv_qp_ex *qpx, enum ibv_wr_opcode opcode) {
    struct ibv_send_wr wr;

    memset(&wr, 0, sizeof(wr));
    wr.wr_id = qpx->wr_id;
    wr.send_flags = qpx->wr_flags;
    wr.opcode = opcode;
    return wr;
}

static void mrc_wr_send(struct ibv_qp_ex *qpx) {
    struct ibv_send_wr wr = mrc_qpx_wr(qpx, IBV_WR_SEND);

    mrc_send_ring_batch_wr(qpx_sq(qpx), &wr);
}

static void mrc_wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm_data) {
    struct ibv_send_wr wr = mrc_qpx_wr(qpx, IBV_WR_SEND_WITH_IMM);

    wr.imm_data = imm_data;
    mrc_send_ring_batch_wr(qpx_sq(qpx), &wr);
}

static void mrc_wr_rdma(struct ibv_qp_ex *qpx, enum ibv_wr_opcode opcode, uint32_t rkey,
                        uint64_t remote_addr, __be32 imm_data) {
    struct ibv_send_wr wr = mrc_qpx_wr(qpx, opcode);

    wr.wr.rdma.rkey = rkey;
    wr.wr.rdma.remote_addr = remote_addr;
    wr.imm_data = imm_data;
    mrc_send_ring_batch_wr(qpx_sq(qpx), &wr);
}

static void mrc_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t remote_addr) {
    mrc_wr_rdma(qpx, IBV_WR_RDMA_WRITE, rkey, remote_addr, 0);
}

static void mrc_wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t remote_addr,
                                  __be32 imm_data) {
    mrc_wr_rdma(qpx, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, remote_addr, imm_data);
}

static void mrc_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t remote_addr) {
    mrc_wr_rdma(qpx, IBV_WR_RDMA_READ, rkey, remote_addr, 0);
}

static void mrc_wr_atomic(struct ibv_qp_ex *qpx, enum ibv_wr_opcode opcode, uint32_t rkey,
                          uint64_t remote_addr, uint64_t compare_add, uint64_t swap) {
    struct ibv_send_wr wr = mrc_qpx_wr(qpx, opcode);

    wr.wr.atomic.rkey = rkey;
    wr.wr.atomic.remote_addr = remote_addr;
    wr.wr.atomic.compare_add = compare_add;
    wr.wr.atomic.swap = swap;
    mrc_send_ring_batch_wr(qpx_sq(qpx), &wr);
}

static void mrc_wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t remote_addr,
                                  uint64_t compare, uint64_t swap) {
    mrc_wr_atomic(qpx, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, remote_addr, compare, swap);
}

static void mrc_wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t remote_addr,
                                    uint64_t add) {
    mrc_wr_atomic(qpx, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, remote_addr, add, 0);
}

static void mrc_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey, uint64_t addr, uint32_t length) {
    struct ibv_sge sge = {.addr = addr, .length = length, .lkey = lkey};

    mrc_send_ring_batch_sges(qpx_sq(qpx), 1, &sge);
}

static void mrc_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num_sge,
                                const struct ibv_sge *sg_list) {
    mrc_send_ring_batch_sges(qpx_sq(qpx), num_sge, sg_list);
}

static void mrc_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr, size_t length) {
    struct ibv_data_buf buf = {.addr = addr, .length = length};

    mrc_send_ring_batch_inline(qpx_sq(qpx), 1, &buf);
}

static void mrc_wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t num_buf,
                                        const struct ibv_data_buf *buf_list) {
    mrc_send_ring_batch_inline(qpx_sq(qpx), num_buf, buf_list);
}

static void mrc_wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah, uint32_t remote_qpn,
                               uint32_t remote_qkey) {
    mrc_send_ring_batch_ud_addr(qpx_sq(qpx), ah, remote_qpn, remote_qkey);
}

static void mrc_wr_start(struct ibv_qp_ex *qpx) {
    mrc_send_ring_batch_start(qpx_sq(qpx));
}

static int mrc_wr_complete(struct ibv_qp_ex *qpx) {
    struct ibv_send_wr *unused;
    unsigned int posted;
    int err;

    err = mrc_send_ring_batch_complete(qpx_sq(qpx), &posted);
    if (err || !posted)
        return err;
    return ibv_cmd_post_send(&qpx->qp_base, NULL, &unused);
}

static void mrc_wr_abort(struct ibv_qp_ex *qpx) {
    mrc_send_ring_batch_abort(qpx_sq(qpx));
}

/* The ops of @send_ops_flags (checked against MRC_QP_SEND_OPS_SUPPORTED); the rest stay NULL. */
static void mrc_qp_ex_init(struct mrc_qp *qp, uint64_t send_ops_flags) {
    struct ibv_qp_ex *qpx = &qp->vqp.qp_ex;

    if (send_ops_flags & IBV_QP_EX_WITH_SEND)
        qpx->wr_send = mrc_wr_send;
    if (send_ops_flags & IBV_QP_EX_WITH_SEND_WITH_IMM)
        qpx->wr_send_imm = mrc_wr_send_imm;
    if (send_ops_flags & IBV_QP_EX_WITH_RDMA_WRITE)
        qpx->wr_rdma_write = mrc_wr_rdma_write;
    if (send_ops_flags & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
        qpx->wr_rdma_write_imm = mrc_wr_rdma_write_imm;
    if (send_ops_flags & IBV_QP_EX_WITH_RDMA_READ)
        qpx->wr_rdma_read = mrc_wr_rdma_read;
    if (send_ops_flags & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
        qpx->wr_atomic_cmp_swp = mrc_wr_atomic_cmp_swp;
    if (send_ops_flags & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
        qpx->wr_atomic_fetch_add = mrc_wr_atomic_fetch_add;
    qpx->wr_set_sge = mrc_wr_set_sge;
    qpx->wr_set_sge_list = mrc_wr_set_sge_list;
    qpx->wr_set_inline_data = mrc_wr_set_inline_data;
    qpx->wr_set_inline_data_list = mrc_wr_set_inline_data_list;
    if (qp->vqp.qp.qp_type == IBV_QPT_UD)
        qpx->wr_set_ud_addr = mrc_wr_set_ud_addr;
    qpx->wr_start = mrc_wr_start;
    qpx->wr_complete = mrc_wr_complete;
    qpx->wr_abort = mrc_wr_abort;
    qp->vqp.comp_mask |= VERBS_QP_EX;
}

static struct ibv_qp *mrc_create_qp_bound(struct ibv_context *ibctx,
                                          struct ibv_qp_init_attr_ex *attr,
                                          const struct mrc_qp_profile *profile) {
    struct umrc_create_qp_resp resp;
    struct umrc_create_qp cmd;
    struct mrc_qp *qp;
    int err;

    /* RC and UD; of the extended features, the ibv_wr_* API for the opcodes the QP carries */
    const uint64_t ops =
            attr->qp_type == IBV_QPT_UD ? MRC_UD_SEND_OPS_SUPPORTED : MRC_QP_SEND_OPS_SUPPORTED;

    if ((attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD) ||
        !(attr->comp_mask & IBV_QP_INIT_ATTR_PD) ||
        (attr->comp_mask & ~MRC_QP_INIT_ATTR_SUPPORTED) ||
        ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) && (attr->send_ops_flags & ~ops))) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    if (profile->bad) {
        errno = EINVAL;
        return NULL;
    }
    qp = calloc(1, sizeof(*qp));
    if (!qp)
        return NULL;
    memset(&cmd, 0, sizeof(cmd));
    memset(&resp, 0, sizeof(resp));
    cmd.ev_profile_id = profile->named ? profile->id : 0;
    cmd.flags = profile->named ? MRC_CREATE_QP_EV_PROFILE : 0;
    err = ibv_cmd_create_qp_ex(ibctx, &qp->vqp, attr, &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
                               sizeof(resp));
    if (err) {
        free(qp);
        errno = err;
        return NULL;
    }
    err = mrc_qp_map_rings(ibctx, qp, &resp.drv_payload);
    if (err) {
        ibv_cmd_destroy_qp(&qp->vqp.qp);
        mrc_qp_free(qp);
        errno = err;
        return NULL;
    }
    if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
        mrc_qp_ex_init(qp, attr->send_ops_flags);
    return &qp->vqp.qp;
}

/*
 * MRC_EV_PROFILE binds the program's RC QPs: a UD QP has no EVs (its datagrams go the way the
 * AH routes), so it is created as if the variable were not set.
 */
static struct ibv_qp *mrc_create_qp_ex(struct ibv_context *ibctx,
                                       struct ibv_qp_init_attr_ex *attr) {
    static const struct mrc_qp_profile no_profile;

    return mrc_create_qp_bound(
            ibctx, attr, attr->qp_type == IBV_QPT_UD ? &no_profile : &to_mctx(ibctx)->env_profile);
}

static struct ibv_qp *mrc_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr) {
    struct ibv_qp_init_attr_ex attr_ex;
    struct ibv_qp *qp;

    memset(&attr_ex, 0, sizeof(attr_ex));
    memcpy(&attr_ex, attr, sizeof(*attr)); /* ibv_qp_init_attr is attr_ex's prefix */
    attr_ex.comp_mask = IBV_QP_INIT_ATTR_PD;
    attr_ex.pd = pd;
    qp = mrc_create_qp_ex(pd->context, &attr_ex);
    if (qp)
        attr->cap = attr_ex.cap; /* what the kernel granted */
    return qp;
}

static int mrc_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask,
                        struct ibv_qp_init_attr *init_attr) {
    struct ibv_query_qp cmd;

    return ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr, &cmd, sizeof(cmd));
}

static int mrc_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask) {
    struct ibv_modify_qp cmd;

    return ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
}

static int mrc_destroy_qp(struct ibv_qp *ibqp) {
    int err;

    err = ibv_cmd_destroy_qp(ibqp);
    if (err)
        return err;
    mrc_qp_free(to_mqp(ibqp));
    return 0;
}

/*
 * The WRs go into the mapped SQ; then one doorbell for the whole list: the uverbs POST_SEND
 * command with no work requests, which mrc.ko reads as "this QP's SQ has new entries".
 */
static int mrc_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr) {
    struct ibv_send_wr *unused;
    unsigned int posted;
    int db_err;
    int err;

    err = mrc_send_ring_post(to_mqp(ibqp)->sq, wr, bad_wr, &posted);
    if (!posted)
        return err;
    db_err = ibv_cmd_post_send(ibqp, NULL, &unused);
    if (db_err && !err) {
        /* published, but the kernel was not told: report it on the first WR */
        *bad_wr = wr;
        return db_err;
    }
    return err;
}

/*
 * No system call, except in ERR: the kernel flushes receives posted then (the application may
 * be draining the QP) when the doorbell tells it they are there. The WRs are posted either way:
 * a doorbell refused because the QP left ERR meanwhile (a reset discards them, a QP back in
 * INIT keeps them) must not make the application post them twice.
 */
static int mrc_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr) {
    struct mrc_qp *qp = to_mqp(ibqp);
    struct ibv_send_wr *unused;
    bool flush = false;
    int err;

    if (!qp->rq) {
        *bad_wr = wr; /* the QP receives through its SRQ */
        return EINVAL;
    }
    err = mrc_recv_ring_post(qp->rq, wr, bad_wr, &flush);
    if (flush)
        (void)ibv_cmd_post_send(ibqp, NULL, &unused);
    return err;
}

/* Shared receive queues */

static void mrc_srq_free(struct mrc_srq *srq) {
    mrc_recv_ring_free(srq->rq);
    mrc_unmap_ring(&srq->map);
    free(srq);
}

static struct ibv_srq *mrc_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr) {
    struct umrc_create_srq_resp resp;
    struct umrc_create_srq cmd;
    struct mrc_srq *srq;
    int err;

    srq = calloc(1, sizeof(*srq));
    if (!srq)
        return NULL;
    memset(&cmd, 0, sizeof(cmd));
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_create_srq(pd, &srq->vsrq.srq, attr, &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
                             sizeof(resp));
    if (err) {
        free(srq);
        errno = err;
        return NULL;
    }
    err = mrc_map_ring(pd->context, &resp.rq, MRC_MIN_RECV_SLOT, &srq->map);
    if (!err) {
        srq->rq = mrc_recv_ring_new(srq->map.addr, &resp.rq);
        if (!srq->rq)
            err = ENOMEM;
    }
    if (err) {
        ibv_cmd_destroy_srq(&srq->vsrq.srq);
        mrc_srq_free(srq);
        errno = err;
        return NULL;
    }
    return &srq->vsrq.srq;
}

static int mrc_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr, int attr_mask) {
    struct ibv_modify_srq cmd;

    return ibv_cmd_modify_srq(ibsrq, attr, attr_mask, &cmd, sizeof(cmd));
}

static int mrc_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr) {
    struct ibv_query_srq cmd;

    return ibv_cmd_query_srq(ibsrq, attr, &cmd, sizeof(cmd));
}

static int mrc_destroy_srq(struct ibv_srq *ibsrq) {
    int err;

    err = ibv_cmd_destroy_srq(ibsrq);
    if (err)
        return err;
    mrc_srq_free(to_msrq(ibsrq));
    return 0;
}

static int mrc_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
                             struct ibv_recv_wr **bad_wr) {
    return mrc_recv_ring_post(to_msrq(ibsrq)->rq, wr, bad_wr, NULL);
}

static void mrc_free_context(struct ibv_context *ibctx) {
    struct mrc_context *ctx = to_mctx(ibctx);

    verbs_uninit_context(&ctx->ibv_ctx);
    free(ctx);
}

static const struct verbs_context_ops mrc_ctx_ops = {
        .alloc_pd = mrc_alloc_pd,
        .create_ah = mrc_create_ah,
        .create_cq = mrc_create_cq,
        .create_cq_ex = mrc_create_cq_ex,
        .create_qp = mrc_create_qp,
        .create_qp_ex = mrc_create_qp_ex,
        .create_srq = mrc_create_srq,
        .dealloc_pd = mrc_dealloc_pd,
        .dereg_mr = mrc_dereg_mr,
        .destroy_ah = mrc_destroy_ah,
        .destroy_cq = mrc_destroy_cq,
        .destroy_qp = mrc_destroy_qp,
        .destroy_srq = mrc_destroy_srq,
        .free_context = mrc_free_context,
        .modify_qp = mrc_modify_qp,
        .modify_srq = mrc_modify_srq,
        .poll_cq = mrc_poll_cq,
        .post_recv = mrc_post_recv,
        .post_send = mrc_post_send,
        .post_srq_recv = mrc_post_srq_recv,
        .query_device_ex = mrc_query_device_ex,
        .query_port = mrc_query_port,
        .query_qp = mrc_query_qp,
        .query_srq = mrc_query_srq,
        .reg_mr = mrc_reg_mr,
        .req_notify_cq = ibv_cmd_req_notify_cq,
        .resize_cq = mrc_resize_cq,
};

static struct verbs_context *mrc_alloc_context(struct ibv_device *ibdev, int cmd_fd,
                                               void *private_data) {
    struct umrc_get_context_resp resp;
    struct ibv_get_context cmd;
    struct mrc_context *ctx;
    int err;

    (void)private_data;
    ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, ibv_ctx, RDMA_DRIVER_UNKNOWN);
    if (!ctx)
        return NULL;
    memset(&resp, 0, sizeof(resp));
    err = ibv_cmd_get_context(&ctx->ibv_ctx, &cmd, sizeof(cmd), &resp.ibv_resp, sizeof(resp));
    if (err) {
        verbs_uninit_context(&ctx->ibv_ctx);
        free(ctx);
        errno = err;
        return NULL;
    }
    ctx->max_inline_data = resp.max_inline_data;
    ctx->env_profile = mrc_qp_profile_from_env(getenv("MRC_EV_PROFILE"));
    verbs_set_ops(&ctx->ibv_ctx, &mrc_ctx_ops);
    return &ctx->ibv_ctx;
}

static struct verbs_device *mrc_alloc_device(struct verbs_sysfs_dev *sysfs_dev) {
    struct mrc_device *dev;

    (void)sysfs_dev;
    dev = calloc(1, sizeof(*dev));
    return dev ? &dev->ibv_dev : NULL;
}

static void mrc_uninit_device(struct verbs_device *verbs_device) {
    free(container_of(verbs_device, struct mrc_device, ibv_dev));
}

/*
 * mrc.ko registers with driver_id RDMA_DRIVER_UNKNOWN (it is out of tree), so libibverbs can
 * only match its devices by name: every device called mrc*.
 */
static const struct verbs_match_ent mrc_match_table[] = {
        VERBS_NAME_MATCH("mrc", NULL),
        {},
};

static const struct verbs_device_ops mrc_dev_ops = {
        .name = "mrc",
        .match_min_abi_version = MRC_UVERBS_ABI_VERSION,
        .match_max_abi_version = MRC_UVERBS_ABI_VERSION,
        .match_table = mrc_match_table,
        .alloc_device = mrc_alloc_device,
        .uninit_device = mrc_uninit_device,
        .alloc_context = mrc_alloc_context,
};
PROVIDER_DRIVER(mrc, mrc_dev_ops);

/* Direct verbs (mrcdv.h): the library's only exports besides the provider registration. */

#define MRCDV_EXPORT __attribute__((visibility("default")))

MRCDV_EXPORT bool mrcdv_is_supported(struct ibv_device *device) {
    return device && verbs_get_device(device)->ops == &mrc_dev_ops;
}

MRCDV_EXPORT struct ibv_qp *mrcdv_create_qp(struct ibv_context *context,
                                            struct ibv_qp_init_attr_ex *attr,
                                            struct mrcdv_qp_init_attr *mrc_attr) {
    struct mrc_qp_profile profile;
    int err;

    if (!context || !attr) {
        errno = EINVAL;
        return NULL;
    }
    if (!mrcdv_is_supported(context->device)) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    err = mrc_qp_profile_from_attr(mrc_attr, to_mctx(context)->env_profile, &profile);
    if (err) {
        errno = err;
        return NULL;
    }
    return mrc_create_qp_bound(context, attr, &profile);
}
