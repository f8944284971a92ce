/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every limit of the MRC protocol core, in one place (the device's limits
 * and defaults live in ../mrc_param.h).
 */
#ifndef MRC_CORE_PARAM_H
#define MRC_CORE_PARAM_H

#include "mrc_core_compat.h"

/*
 * PSN windows (the receiver's out-of-order window, the OCP "MPR", and the
 * sender's scoreboard) are bitmaps of 64-bit words, so their size is a whole
 * number of words.  8192 PSNs cost 1 KiB of bitmap per direction per QP.
 */
#define MRC_WINDOW_ALIGN	64U
#define MRC_WINDOW_MIN		64U
#define MRC_WINDOW_MAX		8192U

/* 64-bit words of caller storage a window of @window PSNs needs. */
#define MRC_WINDOW_WORDS(window)	(((window) + 63U) / 64U)

/* A SACK summary covers 256 PSNs: 4 words of 64 bits (see mrc_sack.h). */
#define MRC_SACK_WORDS		4U
#define MRC_SACK_BITS		(MRC_SACK_WORDS * 64U)

#endif /* MRC_CORE_PARAM_H */
