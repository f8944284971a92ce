// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_race.c - the race windows of mrc_race.h, built only with
 * MRC_RACE_WINDOWS=y. The stall busy-waits: the sites run inside RCU
 * read-side sections and in softirq context, where sleeping is not allowed.
 */
#include <linux/delay.h>
#include <linux/module.h>

#include "mrc_race.h"

static unsigned int mrc_race_windows;
module_param_named(race_windows, mrc_race_windows, uint, 0644);
MODULE_PARM_DESC(race_windows,
		 "Test builds only: bit mask of the race sites that stall (bit 0 MR lookup, bit 1 device lookup)");

static unsigned int mrc_race_window_us = 200;
module_param_named(race_window_us, mrc_race_window_us, uint, 0644);
MODULE_PARM_DESC(race_window_us, "Test builds only: how long an open race site stalls, in us (at most 5000)");

void mrc_race_window(enum mrc_race_site site)
{
	if (READ_ONCE(mrc_race_windows) & BIT(site))
		udelay(min(READ_ONCE(mrc_race_window_us), 5000U));
}
