/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qp_profile.h - which EV profile a new QP is bound to (mrcdv.h): the one a program names in
 * struct mrcdv_qp_init_attr, else the one MRC_EV_PROFILE names, else none (the device's
 * default). Plain parsing, seen from C; the unit tests compile it too.
 */
#ifndef MRC_QP_PROFILE_H
#define MRC_QP_PROFILE_H

#include <stdbool.h> // NOLINT(modernize-deprecated-headers): a C header too
#include <stdint.h>  // NOLINT(modernize-deprecated-headers)

#include <infiniband/mrcdv.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mrc_qp_profile {
    bool named; /* bound to @id; else the device's default */
    bool bad;   /* the environment names no profile id: creating a QP fails with EINVAL */
    uint32_t id;
};

/* MRC_EV_PROFILE's value @text (NULL: not set): a decimal id, nothing before or after it. */
struct mrc_qp_profile mrc_qp_profile_from_env(const char *text);

/*
 * The profile of a QP made by mrcdv_create_qp() with @attr (NULL: no MRC attributes) where
 * the environment gave @env: 0, or EINVAL for attributes this provider does not know.
 */
int mrc_qp_profile_from_attr(const struct mrcdv_qp_init_attr *attr, struct mrc_qp_profile env,
                             struct mrc_qp_profile *out);

#ifdef __cplusplus
}
#endif

#endif /* MRC_QP_PROFILE_H */
