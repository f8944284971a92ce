/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * mrc-abi.h - the contract between mrc.ko and its rdma-core provider
 * (udata layouts, mmap offsets, ring formats).
 *
 * The provider's match range must contain MRC_UVERBS_ABI_VERSION: bump it
 * whenever a layout in this file changes incompatibly.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>

#define MRC_UVERBS_ABI_VERSION	1

#endif /* MRC_ABI_USER_H */
