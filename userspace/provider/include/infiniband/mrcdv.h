/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mrcdv.h - direct verbs of mrc devices: what plain verbs cannot say about an MRC QP.
 *
 * Link with -lmrcdv (libmrcdv.so.1 is also the libibverbs provider of mrc devices, so the
 * functions below work on contexts that ibv_open_device() made). Every other verb stays the
 * plain libibverbs one.
 *
 * EV profiles are the controller's (mrcctl ev-profile, Documentation/multipath.rst): a QP takes
 * the paths of its packets, its entropy values, from one profile. By default that is the
 * device's default profile when the QP is connected (ibv_modify_qp with an address); a QP made
 * by mrcdv_create_qp() may name its own instead, and is bound to it for its life.
 *
 * Programs that know nothing of this header can have their QPs bound to one profile through the
 * environment: MRC_EV_PROFILE=ID (a decimal profile id) applies to every QP of the process
 * that does not name a profile itself.
 */
#ifndef MRCDV_H
#define MRCDV_H

#include <stdbool.h> // NOLINT(modernize-deprecated-headers): a C header
#include <stdint.h>  // NOLINT(modernize-deprecated-headers)

#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mrcdv_qp_init_attr_mask {
    MRCDV_QP_INIT_ATTR_MASK_EV_PROFILE = 1 << 0, /* ev_profile_id is set */
};

struct mrcdv_qp_init_attr {
    uint64_t comp_mask; /* enum mrcdv_qp_init_attr_mask; bits not known fail with EINVAL */
    uint32_t ev_profile_id;
    uint32_t reserved; /* 0 */
};

/* True if @device is an mrc device, one the functions below work on. */
bool mrcdv_is_supported(struct ibv_device *device);

/*
 * ibv_create_qp_ex() with MRC attributes (@mrc_attr may be NULL: none). Fails with errno
 * EOPNOTSUPP on a context of another device, EINVAL for bad attributes or a profile that is not
 * online, ENOENT for a profile that does not exist. A profile a QP is bound to cannot be
 * deleted, nor its EVs changed, while the QP lives.
 */
struct ibv_qp *mrcdv_create_qp(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr,
                               struct mrcdv_qp_init_attr *mrc_attr);

#ifdef __cplusplus
}
#endif

#endif /* MRCDV_H */
