/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * abi_pins.h - the private rdma-core layouts the provider (libmrcdv.so.1) shares with the
 * installed libibverbs, pinned so that a mismatch fails the build instead of corrupting memory at
 * run time.
 *
 * The provider compiles against rdma-core 56.1's private headers but is loaded by Debian 12's
 * libibverbs 44.0 (private ABI tag IBVERBS_PRIVATE_34). Both use the tag 34, yet 56.1 changed
 * public layouts (ibv_qp_ex, ibv_port_attr) that the private structs embed: with the 44.0 public
 * headers every value below was measured on the 44.0 binary. Included by mrc_provider.c only.
 */
#ifndef MRC_ABI_PINS_H
#define MRC_ABI_PINS_H

#include <assert.h>
#include <stddef.h>

#include <infiniband/driver.h>

/* The provider file name suffix (-rdmav34.so) and the registration symbol's version. */
static_assert(IBVERBS_PABI_VERSION == 34, "libibverbs private ABI is not 34");

/* What libibverbs reads from the provider. */
static_assert(sizeof(struct verbs_device_ops) == 72, "verbs_device_ops");
static_assert(offsetof(struct verbs_device_ops, alloc_context) == 40, "verbs_device_ops");
static_assert(sizeof(struct verbs_context_ops) == 0x260, "verbs_context_ops: 76 ops");
static_assert(sizeof(struct verbs_match_ent) == 24, "verbs_match_ent");
static_assert(VERBS_MATCH_MODALIAS == 2, "verbs_match_ent kind");

/* What libibverbs allocates or fills for the provider. */
static_assert(sizeof(struct verbs_context) == 648, "verbs_context");
static_assert(offsetof(struct verbs_context, context) == 320, "verbs_context.context");
static_assert(sizeof(struct verbs_sysfs_dev) == 0x3e0, "verbs_sysfs_dev");
static_assert(offsetof(struct verbs_sysfs_dev, num_ports) == 0x3c4, "verbs_sysfs_dev.num_ports");
static_assert(offsetof(struct verbs_sysfs_dev, abi_ver) == 0x3c8, "verbs_sysfs_dev.abi_ver");
static_assert(offsetof(struct verbs_device, sysfs) == 696, "verbs_device.sysfs");
static_assert(offsetof(struct verbs_device, ops) == 664, "verbs_device.ops (mrcdv_is_supported)");
static_assert(offsetof(struct verbs_qp, comp_mask) == 0x160, "verbs_qp.comp_mask (44.0 ibv_qp_ex)");
static_assert(sizeof(struct ibv_port_attr) == 52, "ibv_port_attr (44.0; 56 in 56.1)");

#endif /* MRC_ABI_PINS_H */
