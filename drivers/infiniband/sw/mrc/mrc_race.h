/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_race.h - race windows that tests can open.
 *
 * Some teardown races last a few instructions: a lookup under RCU has found
 * an object and not yet pinned or used it while the object is torn down on
 * another CPU. A stress loop hits such a window once in millions of tries, so
 * a regression would pass the selftests. A module built with
 * MRC_RACE_WINDOWS=y (make check-debug builds it so) can stall at those
 * points: the selftests write a site mask to the race_windows parameter and
 * a delay to race_window_us, and the teardown lands inside the window on
 * almost every try, where the debug kernel's KASAN sees any use after free.
 * Other builds compile the windows to nothing.
 */
#ifndef MRC_RACE_H
#define MRC_RACE_H

enum mrc_race_site {
	MRC_RACE_MR_LOOKUP,	/* an MR found by key, its reference not yet taken */
	MRC_RACE_DEV_LOOKUP,	/* a device found for a packet, not yet used */
};

#ifdef MRC_RACE_WINDOWS
void mrc_race_window(enum mrc_race_site site);
#else
static inline void mrc_race_window(enum mrc_race_site site) {}
#endif

#endif /* MRC_RACE_H */
