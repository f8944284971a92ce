/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc_profile.h - a device's EV format profiles and EV profiles, and which
 * EV profile new path sets use (Documentation/multipath.rst). The checks
 * and the EVs are the protocol core's (core/mrc_profile.c); this is the
 * table, its lock and its lifetime.
 *
 * Profile 0 (EV and format) always exists: 256 UDP source ports from
 * 49152, min-active 1, round robin. Ids run below MRC_PROFILES_MAX. A path
 * set copies what it needs from its profile when it is made, and counts as
 * a user of it while it lives: a used profile keeps its EVs and cannot go.
 */
#ifndef MRC_PROFILES_H
#define MRC_PROFILES_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "core/mrc_ev_gen.h"
#include "core/mrc_profile.h"

struct mrc_dev;

#define MRC_PROFILES_MAX	16U	/* EV profiles, and format profiles, per device */
#define MRC_PROFILE_DEFAULT	U32_MAX	/* "the device's default EV profile" */

struct mrc_fmt_profile {
	u32 mode;			/* enum mrc_prof_fmt */
	u32 state;			/* enum mrc_prof_state */
	u32 nr_fields;
	u32 widths[MRC_EV_FIELDS_MAX];
};

struct mrc_ev_profile {
	u32 mode;			/* enum mrc_prof_mode */
	u32 fmt_id;
	u32 state;			/* enum mrc_prof_state */
	u32 count;			/* EVs */
	u32 min_active;
	u32 event_mask;
	u32 policy;			/* enum mrc_spray_policy */
	u32 nr_fields;			/* mode GEN */
	struct mrc_ev_field fields[MRC_EV_FIELDS_MAX];
	u16 *sport;			/* @count UDP source ports */
	u8 *weight;			/* @count weights, 1 ... 255 */
	u8 *plane;			/* @count planes, 1 ... 16; 0: spread over the attached */
	u16 *label;			/* format STEV: @count flow label bits; else NULL */
	struct mrc_ev_srv6 *srv6;	/* format SRV6: @count EVs' segments; else NULL */
};

struct mrc_profiles {
	struct mutex lock;		/* everything below but @users */
	u32 default_id;			/* the EV profile of QPs bound to none */
	struct mrc_fmt_profile *fmt[MRC_PROFILES_MAX];
	struct mrc_ev_profile *ev[MRC_PROFILES_MAX];
	/*
	 * path sets of EV profile i and QPs bound to it at creation; taken
	 * under @lock, dropped anywhere. A used profile keeps its EVs.
	 */
	atomic_t users[MRC_PROFILES_MAX];
};

int mrc_profiles_init(struct mrc_dev *mdev);
void mrc_profiles_free(struct mrc_dev *mdev);

struct mrc_ev_profile *mrc_ev_profile_alloc(u32 count);
void mrc_ev_profile_free(struct mrc_ev_profile *prof);

/*
 * What a new path set takes from its EV profile, copied under the table's
 * lock; the caller owns the arrays (kvfree) and one user of profile @id
 * (mrc_profile_put).
 */
struct mrc_profile_snap {
	u32 id;
	u32 count;
	u32 min_active;
	u32 policy;
	u16 *sport;
	u8 *weight;
	u8 *plane;			/* 0: the path set spreads the EV over its planes */
	u16 *label;			/* NULL unless the profile is of format STEV */
	struct mrc_ev_srv6 *srv6;	/* NULL unless the profile is of format SRV6 */
};

int mrc_profile_snap(struct mrc_dev *mdev, u32 id, struct mrc_profile_snap *snap);
int mrc_profile_hold(struct mrc_dev *mdev, u32 id);
void mrc_profile_put(struct mrc_dev *mdev, u32 id);

#endif /* MRC_PROFILES_H */
