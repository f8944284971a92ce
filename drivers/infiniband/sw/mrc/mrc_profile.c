// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_profile.c - the device's profile table (see mrc_profile.h). The
 * netlink handlers that change it are in mrc_nl_profile.c.
 */
#include <linux/slab.h>

#include "mrc.h"
#include "mrc_profile.h"

struct mrc_ev_profile *mrc_ev_profile_alloc(u32 count)
{
	struct mrc_ev_profile *prof;

	prof = kzalloc(sizeof(*prof), GFP_KERNEL);
	if (!prof)
		return NULL;
	prof->sport = kvcalloc(count, sizeof(*prof->sport), GFP_KERNEL);
	prof->weight = kvcalloc(count, sizeof(*prof->weight), GFP_KERNEL);
	prof->plane = kvcalloc(count, sizeof(*prof->plane), GFP_KERNEL);
	if (!prof->sport || !prof->weight || !prof->plane) {
		mrc_ev_profile_free(prof);
		return NULL;
	}
	prof->count = count;
	return prof;
}

void mrc_ev_profile_free(struct mrc_ev_profile *prof)
{
	if (!prof)
		return;
	kvfree(prof->sport);
	kvfree(prof->weight);
	kvfree(prof->plane);
	kvfree(prof->label);
	kvfree(prof->srv6);
	kfree(prof);
}

/* Profile 0 of both kinds, the device's own: 256 UDP ports from 49152. */
int mrc_profiles_init(struct mrc_dev *mdev)
{
	struct mrc_profiles *t = &mdev->profiles;
	struct mrc_ev_profile *ev;
	struct mrc_fmt_profile *fmt;
	const char *why;
	u32 i;

	mutex_init(&t->lock);
	for (i = 0; i < MRC_PROFILES_MAX; i++)
		atomic_set(&t->users[i], 0);
	fmt = kzalloc(sizeof(*fmt), GFP_KERNEL);
	ev = mrc_ev_profile_alloc(MRC_PROF_AUTO_EVS);
	if (!fmt || !ev) {
		kfree(fmt);
		mrc_ev_profile_free(ev);
		return -ENOMEM;
	}
	fmt->mode = MRC_PROF_FMT_UDP;
	fmt->state = MRC_PROF_ONLINE;
	ev->mode = MRC_PROF_AUTO;
	ev->state = MRC_PROF_ONLINE;
	ev->min_active = 1;
	ev->event_mask = MRC_PROF_EV_STATES;
	ev->policy = MRC_SPRAY_ROUND_ROBIN;
	if (WARN_ON(mrc_prof_auto_ports(ev->count, ev->sport, &why))) {
		kfree(fmt);
		mrc_ev_profile_free(ev);
		return -EINVAL;
	}
	memset(ev->weight, 1, ev->count);
	t->fmt[0] = fmt;
	t->ev[0] = ev;
	t->default_id = 0;
	return 0;
}

/* Device removal: every path set is gone, so no profile has users. */
void mrc_profiles_free(struct mrc_dev *mdev)
{
	struct mrc_profiles *t = &mdev->profiles;
	u32 i;

	for (i = 0; i < MRC_PROFILES_MAX; i++) {
		WARN_ON(atomic_read(&t->users[i]));
		mrc_ev_profile_free(t->ev[i]);
		t->ev[i] = NULL;
		kfree(t->fmt[i]);
		t->fmt[i] = NULL;
	}
	mutex_destroy(&t->lock);
}

static void *mrc_kvdup(const void *src, size_t len)
{
	void *p = kvmalloc(len, GFP_KERNEL);

	if (p)
		memcpy(p, src, len);
	return p;
}

/* Under the table's lock: EV profile @id if it exists and is online. */
static struct mrc_ev_profile *mrc_profile_usable_locked(struct mrc_profiles *t, u32 id)
{
	struct mrc_ev_profile *prof = id < MRC_PROFILES_MAX ? t->ev[id] : NULL;

	return prof && prof->state == MRC_PROF_ONLINE ? prof : NULL;
}

/*
 * A copy of EV profile @id (MRC_PROFILE_DEFAULT: the device's default) for
 * a new path set, and one user of it. Process context (QP modify);
 * allocates under the table's mutex. A profile named by id must be online:
 * the QP bound to it holds it, so it exists, but the controller may have
 * taken it offline since.
 */
int mrc_profile_snap(struct mrc_dev *mdev, u32 id, struct mrc_profile_snap *snap)
{
	struct mrc_profiles *t = &mdev->profiles;
	struct mrc_ev_profile *prof;
	int err = 0;

	might_sleep();
	mutex_lock(&t->lock);
	snap->id = id == MRC_PROFILE_DEFAULT ? t->default_id : id;
	prof = mrc_profile_usable_locked(t, snap->id);
	if (!prof) {	/* never the default: it exists and stays online */
		WARN_ON(id == MRC_PROFILE_DEFAULT);
		err = -EINVAL;
		goto out;
	}
	snap->count = prof->count;
	snap->min_active = prof->min_active;
	snap->policy = prof->policy;
	snap->sport = mrc_kvdup(prof->sport, prof->count * sizeof(*prof->sport));
	snap->weight = mrc_kvdup(prof->weight, prof->count * sizeof(*prof->weight));
	snap->plane = mrc_kvdup(prof->plane, prof->count * sizeof(*prof->plane));
	snap->srv6 = prof->srv6 ? mrc_kvdup(prof->srv6, prof->count * sizeof(*prof->srv6)) :
		     NULL;
	snap->label = prof->label ? mrc_kvdup(prof->label, prof->count * sizeof(*prof->label)) :
		      NULL;
	if (!snap->sport || !snap->weight || !snap->plane || (prof->srv6 && !snap->srv6) ||
	    (prof->label && !snap->label)) {
		kvfree(snap->sport);
		kvfree(snap->weight);
		kvfree(snap->plane);
		kvfree(snap->label);
		kvfree(snap->srv6);
		err = -ENOMEM;
		goto out;
	}
	atomic_inc(&t->users[snap->id]);
out:
	mutex_unlock(&t->lock);
	return err;
}

/*
 * A QP is created bound to EV profile @id: it must exist and be online,
 * and it stays (with its EVs) until mrc_profile_put. Process context.
 */
int mrc_profile_hold(struct mrc_dev *mdev, u32 id)
{
	struct mrc_profiles *t = &mdev->profiles;
	int err = 0;

	mutex_lock(&t->lock);
	if (mrc_profile_usable_locked(t, id))
		atomic_inc(&t->users[id]);
	else
		err = id < MRC_PROFILES_MAX && t->ev[id] ? -EINVAL : -ENOENT;
	mutex_unlock(&t->lock);
	return err;
}

/* A path set of profile @id, or a QP bound to it, is gone. Any context. */
void mrc_profile_put(struct mrc_dev *mdev, u32 id)
{
	if (!WARN_ON(id >= MRC_PROFILES_MAX))
		atomic_dec(&mdev->profiles.users[id]);
}
