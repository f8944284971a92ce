// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_nl_profile.c - the netlink handlers of EV format profiles, EV
 * profiles and the device's default profile (ev-fmt-profile-*,
 * ev-profile-*, dev-set). The table is mrc_profile.c's; the checks are the
 * protocol core's (core/mrc_profile.c).
 *
 * A change is checked whole under the table's mutex before anything is
 * written, so a refused request changes nothing. Every handler runs in
 * process context and may allocate under the mutex.
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_netlink.h"
#include "mrc_nl_gen.h"
#include "mrc_profile.h"

static_assert((int)MRC_PROFILE_STATE_INIT == (int)MRC_PROF_INIT);
static_assert((int)MRC_PROFILE_STATE_OFFLINE == (int)MRC_PROF_OFFLINE);
static_assert((int)MRC_PROFILE_STATE_ONLINE == (int)MRC_PROF_ONLINE);
static_assert((int)MRC_EV_FMT_MODE_UDP == (int)MRC_PROF_FMT_UDP);
static_assert((int)MRC_EV_FMT_MODE_STEV == (int)MRC_PROF_FMT_STEV);
static_assert((int)MRC_EV_FMT_MODE_SRV6 == (int)MRC_PROF_FMT_SRV6);
static_assert((int)MRC_EV_MODE_AUTO == (int)MRC_PROF_AUTO);
static_assert((int)MRC_EV_MODE_EXP == (int)MRC_PROF_EXP);
static_assert((int)MRC_EV_MODE_GEN == (int)MRC_PROF_GEN);
static_assert(MRC_FIELDS_MAX == MRC_EV_FIELDS_MAX);
static_assert((int)MRC_EV_POLICY_ROUND_ROBIN == (int)MRC_SPRAY_ROUND_ROBIN);
static_assert((int)MRC_EV_POLICY_WEIGHTED == (int)MRC_SPRAY_WEIGHTED);
static_assert((int)MRC_EV_POLICY_ADAPTIVE == (int)MRC_SPRAY_ADAPTIVE);

/* The extack of a core check: its reason, on the attribute when there is one. */
static int mrc_nl_why(struct netlink_ext_ack *extack, const struct nlattr *attr, int err,
		      const char *why)
{
	/* NL_SET_ERR_MSG* take literals; the core's reasons are literals too */
	if (extack) {
		extack->_msg = why;
		extack->bad_attr = attr;
	}
	return err;
}

/* A profile id from a request: below MRC_PROFILES_MAX. */
static int mrc_nl_profile_id(struct genl_info *info, int type, u32 *id)
{
	struct nlattr *attr = info->attrs[type];

	if (mrc_nl_require(info, type))
		return -EINVAL;
	*id = nla_get_u32(attr);
	if (*id >= MRC_PROFILES_MAX)
		return mrc_nl_why(info->extack, attr, -EINVAL,
				  "profile id must be below profiles-max (16)");
	return 0;
}

/* The attributes of type @type in the request, in their order. */
#define mrc_nl_for_each_req_attr(pos, info, type, rem)					\
	nlmsg_for_each_attr(pos, (info)->nlhdr, GENL_HDRLEN, rem)			\
		if (nla_type(pos) == (type))

static u32 mrc_nl_count_attr(struct genl_info *info, int type)
{
	struct nlattr *a;
	u32 n = 0;
	int rem;

	mrc_nl_for_each_req_attr(a, info, type, rem)
		n++;
	return n;
}

/* Whether an ONLINE EV profile (or, with @any, any EV profile) uses format @fmt_id. */
static bool mrc_fmt_used(const struct mrc_profiles *t, u32 fmt_id, bool any)
{
	u32 i;

	for (i = 0; i < MRC_PROFILES_MAX; i++)
		if (t->ev[i] && t->ev[i]->fmt_id == fmt_id &&
		    (any || t->ev[i]->state == MRC_PROF_ONLINE))
			return true;
	return false;
}

/* ev-fmt-profile-* */

/* The widths of the request's fields; *@nr: how many. */
static int mrc_nl_fmt_fields(struct genl_info *info, u32 *widths, u32 *nr)
{
	struct nlattr *tb[MRC_A_FMT_FIELD_MAX + 1];
	struct nlattr *a;
	int rem, err;

	*nr = 0;
	mrc_nl_for_each_req_attr(a, info, MRC_A_EV_FMT_PROFILE_FIELDS, rem) {
		if (*nr >= MRC_EV_FIELDS_MAX)
			return mrc_nl_why(info->extack, a, -EINVAL,
					  "an EV format has at most 8 fields");
		err = nla_parse_nested(tb, MRC_A_FMT_FIELD_MAX, a, mrc_fmt_field_nl_policy,
				       info->extack);
		if (err)
			return err;
		if (!tb[MRC_A_FMT_FIELD_WIDTH])
			return mrc_nl_why(info->extack, a, -EINVAL, "a field needs a width");
		widths[(*nr)++] = nla_get_u32(tb[MRC_A_FMT_FIELD_WIDTH]);
	}
	return 0;
}

int mrc_nl_ev_fmt_profile_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_fmt_profile *fmt = NULL;
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	const char *why;
	u32 id, mode;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_FMT_PROFILE_DEV_INDEX) ||
	    mrc_nl_require(info, MRC_A_EV_FMT_PROFILE_MODE))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_FMT_PROFILE_ID, &id);
	if (err)
		return err;
	mode = nla_get_u32(info->attrs[MRC_A_EV_FMT_PROFILE_MODE]);
	if (!mrc_prof_fmt_bits(mode))
		return mrc_nl_why(extack, info->attrs[MRC_A_EV_FMT_PROFILE_MODE], -EINVAL,
				  "unknown EV format mode");
	fmt = kzalloc(sizeof(*fmt), GFP_KERNEL);
	if (!fmt)
		return -ENOMEM;
	fmt->mode = mode;
	fmt->state = MRC_PROF_OFFLINE;
	err = mrc_nl_fmt_fields(info, fmt->widths, &fmt->nr_fields);
	if (!err) {
		err = mrc_prof_fmt_check(mode, fmt->widths, fmt->nr_fields, &why);
		if (err)
			mrc_nl_why(extack, NULL, err, why);
	}
	if (err) {
		kfree(fmt);
		return err;
	}

	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_FMT_PROFILE_DEV_INDEX],
			      extack);
	if (!mdev) {
		kfree(fmt);
		return -ENODEV;
	}
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (t->fmt[id]) {
		NL_SET_ERR_MSG_MOD(extack, "an EV format profile with this id exists");
		err = -EEXIST;
	} else {
		t->fmt[id] = fmt;
		fmt = NULL;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	kfree(fmt);
	return err;
}

int mrc_nl_ev_fmt_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *state_attr = info->attrs[MRC_A_EV_FMT_PROFILE_STATE];
	struct netlink_ext_ack *extack = info->extack;
	u32 widths[MRC_EV_FIELDS_MAX], nr = 0, id;
	bool fields = mrc_nl_count_attr(info, MRC_A_EV_FMT_PROFILE_FIELDS);
	struct mrc_fmt_profile *fmt;
	const char *why = NULL;
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_FMT_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_FMT_PROFILE_ID, &id);
	if (err)
		return err;
	if (!state_attr && !fields) {
		NL_SET_ERR_MSG_MOD(extack, "nothing to change: give a state or fields");
		return -EINVAL;
	}
	if (!id) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[MRC_A_EV_FMT_PROFILE_ID],
				    "format profile 0 is built in and does not change");
		return -EINVAL;
	}
	err = mrc_nl_fmt_fields(info, widths, &nr);
	if (err)
		return err;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_FMT_PROFILE_DEV_INDEX],
			      extack);
	if (!mdev)
		return -ENODEV;
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	fmt = t->fmt[id];
	if (!fmt) {
		NL_SET_ERR_MSG_MOD(extack, "no such EV format profile");
		err = -ENOENT;
		goto out;
	}
	if (fields && fmt->state == MRC_PROF_ONLINE) {
		NL_SET_ERR_MSG_MOD(extack, "fields change only while the format profile is not online");
		err = -EBUSY;
		goto out;
	}
	if (fields && mrc_fmt_used(t, id, true)) {
		NL_SET_ERR_MSG_MOD(extack, "format profile in use by an EV profile");
		err = -EBUSY;
		goto out;
	}
	if (fields) {
		err = mrc_prof_fmt_check(fmt->mode, widths, nr, &why);
		if (err) {
			mrc_nl_why(extack, NULL, err, why);
			goto out;
		}
	}
	if (state_attr) {
		u32 state = nla_get_u32(state_attr);

		err = mrc_prof_state_check(fmt->state, state, &why);
		if (err) {
			mrc_nl_why(extack, state_attr, err, why);
			goto out;
		}
		if (fmt->state == MRC_PROF_ONLINE && state != MRC_PROF_ONLINE &&
		    mrc_fmt_used(t, id, false)) {
			NL_SET_ERR_MSG_ATTR(extack, state_attr,
					    "an online EV profile uses this format profile");
			err = -EBUSY;
			goto out;
		}
		fmt->state = state;
	}
	if (fields) {
		memcpy(fmt->widths, widths, sizeof(widths));
		fmt->nr_fields = nr;
	}
out:
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	return err;
}

static int mrc_nl_fmt_fill(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
			   const struct mrc_fmt_profile *fmt, u32 portid, u32 seq, int flags)
{
	struct nlattr *nest;
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &mrc_nl_family, flags, MRC_CMD_EV_FMT_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_FMT_PROFILE_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_u32(skb, MRC_A_EV_FMT_PROFILE_ID, id) ||
	    nla_put_u32(skb, MRC_A_EV_FMT_PROFILE_MODE, fmt->mode) ||
	    nla_put_u32(skb, MRC_A_EV_FMT_PROFILE_STATE, fmt->state))
		goto cancel;
	for (i = 0; i < fmt->nr_fields; i++) {
		nest = nla_nest_start(skb, MRC_A_EV_FMT_PROFILE_FIELDS);
		if (!nest || nla_put_u32(skb, MRC_A_FMT_FIELD_WIDTH, fmt->widths[i]))
			goto cancel;
		nla_nest_end(skb, nest);
	}
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int mrc_nl_ev_fmt_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_FMT_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_FMT_PROFILE_ID, &id);
	if (err)
		return err;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_FMT_PROFILE_DEV_INDEX],
			      info->extack);
	if (!mdev)
		return -ENODEV;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		mrc_dev_put(mdev);
		return -ENOMEM;
	}
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (t->fmt[id]) {
		err = mrc_nl_fmt_fill(msg, mdev, id, t->fmt[id], info->snd_portid, info->snd_seq, 0);
	} else {
		NL_SET_ERR_MSG_MOD(info->extack, "no such EV format profile");
		err = -ENOENT;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* ev-fmt-profile-get and ev-profile-get dumps: by device, then by profile id. */
typedef int (*mrc_nl_prof_fill_t)(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
				  u32 portid, u32 seq);

static int mrc_nl_fmt_dump_one(struct sk_buff *skb, struct mrc_dev *mdev, u32 id, u32 portid,
			       u32 seq)
{
	const struct mrc_fmt_profile *fmt = mdev->profiles.fmt[id];

	return fmt ? mrc_nl_fmt_fill(skb, mdev, id, fmt, portid, seq, NLM_F_MULTI) : 0;
}

static int mrc_nl_prof_dump(struct sk_buff *skb, struct netlink_callback *cb,
			    struct nlattr *dev_attr, mrc_nl_prof_fill_t fill)
{
	s64 want = mrc_nl_dump_want(dev_attr);
	u64 index = cb->args[MRC_NL_ARG_DEV];
	unsigned long id = cb->args[MRC_NL_ARG_POS];
	struct mrc_dev *mdev;
	u64 at;
	int err;

	err = mrc_nl_dump_check_dev(cb, dev_attr);
	if (err)
		return err;
	for (;;) {
		at = index;
		mdev = mrc_nl_dump_next_dev(cb, &index, want);
		if (!mdev)
			break;
		if (index != at)
			id = 0;
		mutex_lock(&mdev->profiles.lock);
		for (; id < MRC_PROFILES_MAX; id++) {
			err = fill(skb, mdev, id, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq);
			if (err)
				break;
		}
		mutex_unlock(&mdev->profiles.lock);
		mrc_dev_put(mdev);
		if (err)
			break;
		index++;
		id = 0;
	}
	cb->args[MRC_NL_ARG_DEV] = index;
	cb->args[MRC_NL_ARG_POS] = id;
	return mrc_nl_dump_ret(skb, err);
}

int mrc_nl_ev_fmt_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_prof_dump(skb, cb,
				genl_dumpit_info(cb)->attrs[MRC_A_EV_FMT_PROFILE_DEV_INDEX],
				mrc_nl_fmt_dump_one);
}

int mrc_nl_ev_fmt_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_fmt_profile *fmt = NULL;
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_FMT_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_FMT_PROFILE_ID, &id);
	if (err)
		return err;
	if (!id) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[MRC_A_EV_FMT_PROFILE_ID],
				    "format profile 0 is built in and cannot be deleted");
		return -EINVAL;
	}
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_FMT_PROFILE_DEV_INDEX],
			      extack);
	if (!mdev)
		return -ENODEV;
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (!t->fmt[id]) {
		NL_SET_ERR_MSG_MOD(extack, "no such EV format profile");
		err = -ENOENT;
	} else if (mrc_fmt_used(t, id, true)) {
		NL_SET_ERR_MSG_MOD(extack, "format profile in use by an EV profile");
		err = -EBUSY;
	} else {
		fmt = t->fmt[id];
		t->fmt[id] = NULL;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	kfree(fmt);
	return err;
}

/* ev-profile-* */

/* What a request gives for a profile's EVs, parsed before the table is looked at. */
struct mrc_nl_evs {
	u32 nr_evs;			/* explicit EVs given */
	u8 (*bytes)[MRC_EV_BYTES];	/* ... their bytes (kvmalloc), read by format later */
	u8 *len;
	u8 *weight;
	u8 *plane;
	u32 nr_fields;			/* generator fields given */
	struct mrc_ev_field fields[MRC_EV_FIELDS_MAX];
};

static void mrc_nl_evs_free(struct mrc_nl_evs *e)
{
	kvfree(e->bytes);
	kvfree(e->len);
	kvfree(e->weight);
	kvfree(e->plane);
}

/*
 * One explicit EV, number @i: index (if given) i, bytes (what they mean is
 * the format's, checked when the profile is built), plane (if given: else
 * its path sets spread it over their planes), weight.
 */
static int mrc_nl_explicit_ev(struct genl_info *info, struct nlattr *a, u32 i,
			      struct mrc_nl_evs *e)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MRC_A_EV_MAX + 1];
	int err, k, len;

	err = nla_parse_nested(tb, MRC_A_EV_MAX, a, mrc_ev_nl_policy, extack);
	if (err)
		return err;
	for (k = 1; k <= MRC_A_EV_MAX; k++)
		if (tb[k] && k != MRC_A_EV_INDEX && k != MRC_A_EV_BYTES && k != MRC_A_EV_PLANE &&
		    k != MRC_A_EV_WEIGHT)
			return mrc_nl_why(extack, tb[k], -EINVAL,
					  "an explicit EV has an index, bytes, a plane and a weight");
	if (tb[MRC_A_EV_INDEX] && nla_get_u32(tb[MRC_A_EV_INDEX]) != i)
		return mrc_nl_why(extack, tb[MRC_A_EV_INDEX], -EINVAL,
				  "explicit EVs are given in index order, from 0");
	if (!tb[MRC_A_EV_BYTES])
		return mrc_nl_why(extack, a, -EINVAL, "an explicit EV needs its bytes");
	if (tb[MRC_A_EV_PLANE] && (!nla_get_u8(tb[MRC_A_EV_PLANE]) ||
				   nla_get_u8(tb[MRC_A_EV_PLANE]) > MRC_PLANES_MAX))
		return mrc_nl_why(extack, tb[MRC_A_EV_PLANE], -EINVAL,
				  "an EV's plane is 1 to 16");
	e->plane[i] = tb[MRC_A_EV_PLANE] ? nla_get_u8(tb[MRC_A_EV_PLANE]) : 0;
	len = nla_len(tb[MRC_A_EV_BYTES]);
	if (len > MRC_EV_BYTES)
		return mrc_nl_why(extack, tb[MRC_A_EV_BYTES], -EINVAL,
				  "an EV has at most 32 bytes");
	memcpy(e->bytes[i], nla_data(tb[MRC_A_EV_BYTES]), len);
	e->len[i] = len;
	e->weight[i] = tb[MRC_A_EV_WEIGHT] ? nla_get_u8(tb[MRC_A_EV_WEIGHT]) : 1;
	return 0;
}

/* The explicit EVs and generator fields of a request. */
static int mrc_nl_evs_parse(struct genl_info *info, struct mrc_nl_evs *e)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MRC_A_EV_FIELD_ATTR_MAX + 1];
	struct mrc_ev_field *f;
	struct nlattr *a;
	int rem, err;
	u32 i = 0;

	memset(e, 0, sizeof(*e));
	e->nr_evs = mrc_nl_count_attr(info, MRC_A_EV_PROFILE_EVS);
	if (e->nr_evs > MRC_PROFILE_EV_MAX) {
		NL_SET_ERR_MSG_MOD(extack, "an EV profile holds at most 4096 EVs");
		return -EINVAL;
	}
	if (e->nr_evs) {
		e->bytes = kvcalloc(e->nr_evs, sizeof(*e->bytes), GFP_KERNEL);
		e->len = kvcalloc(e->nr_evs, sizeof(*e->len), GFP_KERNEL);
		e->weight = kvcalloc(e->nr_evs, sizeof(*e->weight), GFP_KERNEL);
		e->plane = kvcalloc(e->nr_evs, sizeof(*e->plane), GFP_KERNEL);
		if (!e->bytes || !e->len || !e->weight || !e->plane)
			return -ENOMEM;
	}
	mrc_nl_for_each_req_attr(a, info, MRC_A_EV_PROFILE_EVS, rem) {
		err = mrc_nl_explicit_ev(info, a, i++, e);
		if (err)
			return err;
	}
	mrc_nl_for_each_req_attr(a, info, MRC_A_EV_PROFILE_FIELDS, rem) {
		if (e->nr_fields >= MRC_EV_FIELDS_MAX)
			return mrc_nl_why(extack, a, -EINVAL,
					  "a generated profile has at most 8 fields");
		err = nla_parse_nested(tb, MRC_A_EV_FIELD_ATTR_MAX, a, mrc_ev_field_nl_policy,
				       extack);
		if (err)
			return err;
		if (!tb[MRC_A_EV_FIELD_WIDTH])
			return mrc_nl_why(extack, a, -EINVAL, "a field needs a width");
		f = &e->fields[e->nr_fields++];
		f->width = nla_get_u32(tb[MRC_A_EV_FIELD_WIDTH]);
		f->init = tb[MRC_A_EV_FIELD_INIT] ? nla_get_u32(tb[MRC_A_EV_FIELD_INIT]) : 0;
		f->min = tb[MRC_A_EV_FIELD_MIN] ? nla_get_u32(tb[MRC_A_EV_FIELD_MIN]) : 0;
		f->max = tb[MRC_A_EV_FIELD_MAX] ? nla_get_u32(tb[MRC_A_EV_FIELD_MAX]) : 0;
		f->mask = tb[MRC_A_EV_FIELD_MASK] ? nla_get_u32(tb[MRC_A_EV_FIELD_MASK]) : 0;
	}
	return 0;
}

/* Explicit EVs of format UDP: source ports. */
static int mrc_nl_evs_udp(struct mrc_ev_profile *prof, const struct mrc_nl_evs *e,
			  const char **why)
{
	u32 i;
	int err;

	for (i = 0; i < prof->count; i++) {
		err = mrc_prof_udp_port(e->bytes[i], e->len[i], &prof->sport[i], why);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Fill @prof's EVs of format UDP (its mode and count set) from @e: AUTO
 * from the device's ports, EXP the ports given, GEN generated from the
 * fields.
 */
static int mrc_nl_evs_build_udp(struct mrc_ev_profile *prof, const struct mrc_nl_evs *e,
				const char **why)
{
	switch (prof->mode) {
	case MRC_PROF_AUTO:
		return mrc_prof_auto_ports(prof->count, prof->sport, why);
	case MRC_PROF_EXP:
		return mrc_nl_evs_udp(prof, e, why);
	case MRC_PROF_GEN:
		return mrc_prof_gen_udp_ports(e->fields, e->nr_fields, prof->count, prof->sport,
					      why);
	}
	*why = "unknown EV mode";
	return -EINVAL;
}

/*
 * Fill @prof's EVs of format STEV from @e: EXP the EVs given, GEN
 * generated from the fields; ports and flow label bits.
 */
static int mrc_nl_evs_build_stev(struct mrc_ev_profile *prof, const struct mrc_nl_evs *e,
				 const char **why)
{
	u32 i;
	int err;

	if (prof->mode == MRC_PROF_AUTO) {
		*why = "mode auto makes UDP EVs: a STEV profile is exp or gen";
		return -EINVAL;
	}
	prof->label = kvcalloc(prof->count, sizeof(*prof->label), GFP_KERNEL);
	if (!prof->label)
		return -ENOMEM;
	if (prof->mode == MRC_PROF_GEN)
		return mrc_prof_gen_stev(e->fields, e->nr_fields, prof->count, prof->sport,
					 prof->label, why);
	for (i = 0; i < prof->count; i++) {
		err = mrc_prof_stev_ev(e->bytes[i], e->len[i], &prof->sport[i], &prof->label[i],
				       why);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Fill @prof's EVs of format SRV6 from @e: EXP the segments given, GEN
 * generated from the fields (one segment or two, as wide as @fmt's fields
 * are). The UDP source ports only tell the EVs apart in the peer's echoes.
 */
static int mrc_nl_evs_build_srv6(struct mrc_ev_profile *prof, const struct mrc_fmt_profile *fmt,
				 const struct mrc_nl_evs *e, const char **why)
{
	u32 i;
	int err;

	if (prof->mode == MRC_PROF_AUTO) {
		*why = "mode auto makes UDP EVs: an SRV6 profile is exp or gen";
		return -EINVAL;
	}
	prof->srv6 = kvcalloc(prof->count, sizeof(*prof->srv6), GFP_KERNEL);
	if (!prof->srv6)
		return -ENOMEM;
	if (prof->mode == MRC_PROF_GEN) {
		err = mrc_prof_gen_srv6(e->fields, e->nr_fields,
					mrc_prof_srv6_bits(fmt->widths, fmt->nr_fields),
					prof->count, prof->srv6, why);
		if (err)
			return err;
	}
	for (i = 0; i < prof->count; i++) {
		if (prof->mode == MRC_PROF_EXP) {
			err = mrc_prof_srv6_ev(e->bytes[i], e->len[i], &prof->srv6[i], why);
			if (err)
				return err;
		}
		prof->sport[i] = MRC_PROF_AUTO_PORT + i;
	}
	return 0;
}

/*
 * Fill @prof's EVs (its mode and count set) from @e, as format @fmt reads
 * them; with the weights given (explicit EVs) or 1.
 */
static int mrc_nl_evs_build(struct mrc_ev_profile *prof, const struct mrc_fmt_profile *fmt,
			    const struct mrc_nl_evs *e, struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	int err;

	memset(prof->weight, 1, prof->count);
	if (prof->mode == MRC_PROF_EXP) {
		memcpy(prof->weight, e->weight, prof->count);
		memcpy(prof->plane, e->plane, prof->count);
	}
	if (fmt->mode == MRC_PROF_FMT_SRV6)
		err = mrc_nl_evs_build_srv6(prof, fmt, e, &why);
	else if (fmt->mode == MRC_PROF_FMT_STEV)
		err = mrc_nl_evs_build_stev(prof, e, &why);
	else
		err = mrc_nl_evs_build_udp(prof, e, &why);
	if (!err && prof->mode == MRC_PROF_GEN) {
		memcpy(prof->fields, e->fields, sizeof(e->fields));
		prof->nr_fields = e->nr_fields;
	}
	if (err && why)
		mrc_nl_why(extack, NULL, err, why);
	return err;
}

/* Which of explicit EVs and fields mode @mode takes; NULL: these fit. */
static const char *mrc_nl_evs_fit(u32 mode, const struct mrc_nl_evs *e)
{
	switch (mode) {
	case MRC_PROF_AUTO:
		return e->nr_evs || e->nr_fields ? "mode auto takes neither EVs nor fields" : NULL;
	case MRC_PROF_EXP:
		return !e->nr_evs || e->nr_fields ? "mode exp takes explicit EVs, and no fields" :
						    NULL;
	case MRC_PROF_GEN:
		return !e->nr_fields || e->nr_evs ? "mode gen takes fields, and no explicit EVs" :
						    NULL;
	default:
		return "unknown EV mode";
	}
}

/* The count of a new profile: given, else what its EVs or fields make. */
static int mrc_nl_new_count(struct genl_info *info, u32 mode, const struct mrc_nl_evs *e,
			    u32 *count)
{
	struct nlattr *attr = info->attrs[MRC_A_EV_PROFILE_COUNT];
	u32 made;

	if (mode == MRC_PROF_EXP) {
		if (attr && nla_get_u32(attr) != e->nr_evs)
			return mrc_nl_why(info->extack, attr, -EINVAL,
					  "count differs from the number of EVs given");
		*count = e->nr_evs;
		return 0;
	}
	if (attr) {
		*count = nla_get_u32(attr);
		return 0;
	}
	if (mode == MRC_PROF_AUTO) {
		*count = MRC_PROF_AUTO_EVS;
		return 0;
	}
	made = mrc_ev_fields_count(e->fields, e->nr_fields);
	if (made > MRC_PROFILE_EV_MAX)
		return mrc_nl_why(info->extack, NULL, -EINVAL,
				  "the fields make more than 4096 EVs: give a count");
	*count = made;
	return 0;
}

int mrc_nl_ev_profile_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_ev_profile *prof = NULL;
	u32 id, mode, count, fmt_id;
	struct mrc_profiles *t;
	struct mrc_nl_evs e;
	struct mrc_dev *mdev;
	const char *why;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_PROFILE_DEV_INDEX) ||
	    mrc_nl_require(info, MRC_A_EV_PROFILE_MODE))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	mode = nla_get_u32(attrs[MRC_A_EV_PROFILE_MODE]);
	fmt_id = attrs[MRC_A_EV_PROFILE_FMT_ID] ? nla_get_u32(attrs[MRC_A_EV_PROFILE_FMT_ID]) : 0;
	err = mrc_nl_evs_parse(info, &e);
	if (err)
		goto out_evs;
	why = mrc_nl_evs_fit(mode, &e);
	if (why) {
		err = mrc_nl_why(extack, attrs[MRC_A_EV_PROFILE_MODE], -EINVAL, why);
		goto out_evs;
	}
	err = mrc_nl_new_count(info, mode, &e, &count);
	if (err)
		goto out_evs;
	err = mrc_prof_counts_check(count, attrs[MRC_A_EV_PROFILE_MIN_ACTIVE] ?
				    nla_get_u32(attrs[MRC_A_EV_PROFILE_MIN_ACTIVE]) : 1, &why);
	if (err) {
		mrc_nl_why(extack, attrs[MRC_A_EV_PROFILE_MIN_ACTIVE], err, why);
		goto out_evs;
	}
	prof = mrc_ev_profile_alloc(count);
	if (!prof) {
		err = -ENOMEM;
		goto out_evs;
	}
	prof->mode = mode;
	prof->fmt_id = fmt_id;
	prof->state = MRC_PROF_OFFLINE;
	prof->min_active = attrs[MRC_A_EV_PROFILE_MIN_ACTIVE] ?
			   nla_get_u32(attrs[MRC_A_EV_PROFILE_MIN_ACTIVE]) : 1;
	prof->event_mask = attrs[MRC_A_EV_PROFILE_EVENT_MASK] ?
			   nla_get_u32(attrs[MRC_A_EV_PROFILE_EVENT_MASK]) : MRC_PROF_EV_STATES;
	prof->policy = attrs[MRC_A_EV_PROFILE_POLICY] ?
		       nla_get_u32(attrs[MRC_A_EV_PROFILE_POLICY]) : MRC_SPRAY_ROUND_ROBIN;
	if (prof->event_mask & ~MRC_PROF_EV_STATES) {
		err = mrc_nl_why(extack, attrs[MRC_A_EV_PROFILE_EVENT_MASK], -EINVAL,
				 "event mask has bits of no EV state");
		goto out_evs;
	}
	mdev = mrc_nl_dev_get(genl_info_net(info), attrs[MRC_A_EV_PROFILE_DEV_INDEX], extack);
	if (!mdev) {
		err = -ENODEV;
		goto out_evs;
	}
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (t->ev[id]) {
		NL_SET_ERR_MSG_MOD(extack, "an EV profile with this id exists");
		err = -EEXIST;
	} else if (fmt_id >= MRC_PROFILES_MAX || !t->fmt[fmt_id]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[MRC_A_EV_PROFILE_FMT_ID],
				    "no such EV format profile");
		err = -ENOENT;
	} else {
		/* the format is fixed from here: a used one does not change */
		err = mrc_nl_evs_build(prof, t->fmt[fmt_id], &e, extack);
		if (!err) {
			t->ev[id] = prof;
			prof = NULL;
		}
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
out_evs:
	mrc_ev_profile_free(prof);
	mrc_nl_evs_free(&e);
	return err;
}

/*
 * ev-profile-set on @prof (id @id), under the table's lock: check all,
 * then change. EVs and fields change only while the profile is not
 * ONLINE and no path set uses it.
 */
static int mrc_nl_ev_profile_change(struct mrc_profiles *t, u32 id, struct mrc_ev_profile *prof,
				    struct genl_info *info, const struct mrc_nl_evs *e)
{
	struct nlattr *state_attr = info->attrs[MRC_A_EV_PROFILE_STATE];
	struct nlattr *min_attr = info->attrs[MRC_A_EV_PROFILE_MIN_ACTIVE];
	struct nlattr *mask_attr = info->attrs[MRC_A_EV_PROFILE_EVENT_MASK];
	struct nlattr *policy_attr = info->attrs[MRC_A_EV_PROFILE_POLICY];
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_ev_profile *fresh = NULL;
	bool evs = e->nr_evs || e->nr_fields;
	u32 count = prof->count, state = prof->state;
	const char *why;
	int err;

	if (!id && (evs || min_attr || policy_attr ||
		    (state_attr && nla_get_u32(state_attr) != MRC_PROF_ONLINE))) {
		NL_SET_ERR_MSG_MOD(extack, "profile 0 is built in: only its event mask changes");
		return -EINVAL;
	}
	if (state_attr) {
		state = nla_get_u32(state_attr);
		err = mrc_prof_state_check(prof->state, state, &why);
		if (err)
			return mrc_nl_why(extack, state_attr, err, why);
		if (state != MRC_PROF_ONLINE && t->default_id == id)
			return mrc_nl_why(extack, state_attr, -EBUSY,
					  "the device's default profile stays online");
		if (state == MRC_PROF_ONLINE && t->fmt[prof->fmt_id]->state != MRC_PROF_ONLINE)
			return mrc_nl_why(extack, state_attr, -EINVAL,
					  "its EV format profile is not online");
	}
	if (evs) {
		if (prof->state == MRC_PROF_ONLINE)
			return mrc_nl_why(extack, NULL, -EBUSY,
					  "EVs change only while the profile is not online");
		if (atomic_read(&t->users[id]))
			return mrc_nl_why(extack, NULL, -EBUSY,
					  "profile in use by QPs: its EVs do not change");
		why = mrc_nl_evs_fit(prof->mode, e);
		if (why)
			return mrc_nl_why(extack, NULL, -EINVAL, why);
		if (prof->mode == MRC_PROF_EXP)
			count = e->nr_evs;
	}
	err = mrc_prof_counts_check(count, min_attr ? nla_get_u32(min_attr) : prof->min_active,
				    &why);
	if (err)
		return mrc_nl_why(extack, min_attr, err, why);
	if (mask_attr && (nla_get_u32(mask_attr) & ~MRC_PROF_EV_STATES))
		return mrc_nl_why(extack, mask_attr, -EINVAL, "event mask has bits of no EV state");
	if (evs) {
		fresh = mrc_ev_profile_alloc(count);
		if (!fresh)
			return -ENOMEM;
		fresh->mode = prof->mode;
		err = mrc_nl_evs_build(fresh, t->fmt[prof->fmt_id], e, extack);
		if (err) {
			mrc_ev_profile_free(fresh);
			return err;
		}
	}

	/* all checked: change */
	if (fresh) {
		swap(prof->sport, fresh->sport);
		swap(prof->weight, fresh->weight);
		swap(prof->plane, fresh->plane);
		swap(prof->srv6, fresh->srv6);
		swap(prof->label, fresh->label);
		prof->count = fresh->count;
		prof->nr_fields = fresh->nr_fields;
		memcpy(prof->fields, fresh->fields, sizeof(prof->fields));
		mrc_ev_profile_free(fresh);
	}
	prof->state = state;
	if (min_attr)
		prof->min_active = nla_get_u32(min_attr);
	if (mask_attr)	/* read locklessly by the path sets' reports */
		WRITE_ONCE(prof->event_mask, nla_get_u32(mask_attr));
	if (policy_attr)
		prof->policy = nla_get_u32(policy_attr);
	return 0;
}

int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_profiles *t;
	struct mrc_nl_evs e;
	struct mrc_dev *mdev;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	err = mrc_nl_evs_parse(info, &e);
	if (err)
		goto out_evs;
	if (!e.nr_evs && !e.nr_fields && !info->attrs[MRC_A_EV_PROFILE_STATE] &&
	    !info->attrs[MRC_A_EV_PROFILE_MIN_ACTIVE] &&
	    !info->attrs[MRC_A_EV_PROFILE_EVENT_MASK] && !info->attrs[MRC_A_EV_PROFILE_POLICY]) {
		NL_SET_ERR_MSG_MOD(extack, "nothing to change");
		err = -EINVAL;
		goto out_evs;
	}
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_PROFILE_DEV_INDEX],
			      extack);
	if (!mdev) {
		err = -ENODEV;
		goto out_evs;
	}
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (t->ev[id]) {
		err = mrc_nl_ev_profile_change(t, id, t->ev[id], info, &e);
	} else {
		NL_SET_ERR_MSG_MOD(extack, "no such EV profile");
		err = -ENOENT;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
out_evs:
	mrc_nl_evs_free(&e);
	return err;
}

static int mrc_nl_ev_profile_fill(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
				  const struct mrc_ev_profile *prof, u32 portid, u32 seq, int flags)
{
	const struct mrc_ev_field *f;
	struct nlattr *nest;
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &mrc_nl_family, flags, MRC_CMD_EV_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_PROFILE_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_ID, id) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_MODE, prof->mode) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_FMT_ID, prof->fmt_id) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_STATE, prof->state) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_COUNT, prof->count) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_MIN_ACTIVE, prof->min_active) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_EVENT_MASK, prof->event_mask) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_POLICY, prof->policy))
		goto cancel;
	for (i = 0; i < prof->nr_fields; i++) {
		f = &prof->fields[i];
		nest = nla_nest_start(skb, MRC_A_EV_PROFILE_FIELDS);
		if (!nest || nla_put_u32(skb, MRC_A_EV_FIELD_WIDTH, f->width) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_INIT, f->init) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MIN, f->min) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MAX, f->max) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MASK, f->mask))
			goto cancel;
		nla_nest_end(skb, nest);
	}
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_PROFILE_DEV_INDEX],
			      info->extack);
	if (!mdev)
		return -ENODEV;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		mrc_dev_put(mdev);
		return -ENOMEM;
	}
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (t->ev[id]) {
		err = mrc_nl_ev_profile_fill(msg, mdev, id, t->ev[id], info->snd_portid,
					     info->snd_seq, 0);
	} else {
		NL_SET_ERR_MSG_MOD(info->extack, "no such EV profile");
		err = -ENOENT;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_nl_ev_profile_dump_one(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
				      u32 portid, u32 seq)
{
	const struct mrc_ev_profile *prof = mdev->profiles.ev[id];

	return prof ? mrc_nl_ev_profile_fill(skb, mdev, id, prof, portid, seq, NLM_F_MULTI) : 0;
}

int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_prof_dump(skb, cb, genl_dumpit_info(cb)->attrs[MRC_A_EV_PROFILE_DEV_INDEX],
				mrc_nl_ev_profile_dump_one);
}

int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_ev_profile *prof = NULL;
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_EV_PROFILE_DEV_INDEX))
		return -EINVAL;
	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	if (!id) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[MRC_A_EV_PROFILE_ID],
				    "profile 0 is built in and cannot be deleted");
		return -EINVAL;
	}
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_EV_PROFILE_DEV_INDEX],
			      extack);
	if (!mdev)
		return -ENODEV;
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (!t->ev[id]) {
		NL_SET_ERR_MSG_MOD(extack, "no such EV profile");
		err = -ENOENT;
	} else if (t->default_id == id) {
		NL_SET_ERR_MSG_MOD(extack, "the device's default profile cannot be deleted");
		err = -EBUSY;
	} else if (atomic_read(&t->users[id])) {
		NL_SET_ERR_MSG_MOD(extack, "profile in use by QPs");
		err = -EBUSY;
	} else {
		prof = t->ev[id];
		t->ev[id] = NULL;
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	mrc_ev_profile_free(prof);
	return err;
}

/* dev-set: the default profile */

int mrc_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[MRC_A_DEV_DEFAULT_PROFILE];
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_profiles *t;
	struct mrc_dev *mdev;
	u32 id;
	int err;

	if (mrc_nl_require(info, MRC_A_DEV_INDEX))
		return -EINVAL;
	if (!attr) {
		NL_SET_ERR_MSG_MOD(extack, "nothing to change: give a default profile");
		return -EINVAL;
	}
	err = mrc_nl_profile_id(info, MRC_A_DEV_DEFAULT_PROFILE, &id);
	if (err)
		return err;
	mdev = mrc_nl_dev_get(genl_info_net(info), info->attrs[MRC_A_DEV_INDEX], extack);
	if (!mdev)
		return -ENODEV;
	t = &mdev->profiles;
	mutex_lock(&t->lock);
	if (!t->ev[id]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "no such EV profile");
		err = -ENOENT;
	} else if (t->ev[id]->state != MRC_PROF_ONLINE) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "the default profile must be online");
		err = -EINVAL;
	} else {
		WRITE_ONCE(t->default_id, id);
	}
	mutex_unlock(&t->lock);
	mrc_dev_put(mdev);
	return err;
}
