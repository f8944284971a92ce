// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV format profiles and EV profiles: checks and EVs (see mrc_profile.h).
 * Every check returns 0, or -MRC_EINVAL with *@why saying what is wrong
 * (the extack message the kernel sends back).
 */
#include "mrc_profile.h"

/* Bits of one EV of format @mode; 0: no such format. */
uint32_t mrc_prof_fmt_bits(uint32_t mode)
{
	switch (mode) {
	case MRC_PROF_FMT_UDP:
		return 16U;
	case MRC_PROF_FMT_STEV:
		return 32U;
	case MRC_PROF_FMT_SRV6:
		return 256U;	/* a destination and one SRH segment */
	default:
		return 0;
	}
}

/* An EV format profile's mode and field widths. */
int mrc_prof_fmt_check(uint32_t mode, const uint32_t *widths, uint32_t nr_widths,
		       const char **why)
{
	uint32_t bits = mrc_prof_fmt_bits(mode), sum = 0, i;

	*why = NULL;
	if (!bits) {
		*why = "unknown EV format mode";
		return -MRC_EINVAL;
	}
	if (nr_widths > MRC_EV_FIELDS_MAX) {
		*why = "an EV format has at most 8 fields";
		return -MRC_EINVAL;
	}
	for (i = 0; i < nr_widths; i++) {
		if (!widths[i] || widths[i] > 32U) {
			*why = "field width must be 1 to 32 bits";
			return -MRC_EINVAL;
		}
		sum += widths[i];
	}
	if (sum > bits) {
		*why = "fields are wider than the EV format";
		return -MRC_EINVAL;
	}
	return 0;
}

/*
 * A profile's state moves INIT <-> OFFLINE <-> ONLINE, one step at a time;
 * staying where it is, is no move and always fine.
 */
int mrc_prof_state_check(uint32_t from, uint32_t to, const char **why)
{
	*why = NULL;
	if (to > MRC_PROF_ONLINE) {
		*why = "unknown profile state";
		return -MRC_EINVAL;
	}
	if (from == to || from + 1U == to || to + 1U == from)
		return 0;
	*why = "a profile moves init <-> offline <-> online, one step at a time";
	return -MRC_EINVAL;
}

/* ev_count and ev_min_active of an EV profile. */
int mrc_prof_counts_check(uint32_t count, uint32_t min_active, const char **why)
{
	*why = NULL;
	if (!count) {
		*why = "an EV profile needs at least one EV";
		return -MRC_EINVAL;
	}
	if (count > MRC_PROFILE_EV_MAX) {
		*why = "an EV profile holds at most 4096 EVs";
		return -MRC_EINVAL;
	}
	if (min_active > count) {
		*why = "min-active is above the profile's EV count";
		return -MRC_EINVAL;
	}
	return 0;
}

/* An explicit UDP EV: exactly two bytes, the source port big-endian. */
int mrc_prof_udp_port(const uint8_t *bytes, uint32_t len, uint16_t *port, const char **why)
{
	*why = NULL;
	if (len != MRC_PROF_UDP_BYTES) {
		*why = "a UDP EV is 2 bytes, the source port big-endian";
		return -MRC_EINVAL;
	}
	*port = (uint16_t)((uint16_t)bytes[0] << 8 | bytes[1]);
	return 0;
}

/* Whether @fields, within @ev_bits, generate at least @count EVs. */
static int mrc_prof_gen_check(const struct mrc_ev_field *fields, uint32_t nr_fields,
			      uint32_t ev_bits, uint32_t count, const char **why)
{
	int err;

	err = mrc_ev_fields_check(fields, nr_fields, ev_bits, why);
	if (err)
		return err;
	if (mrc_ev_fields_count(fields, nr_fields) < count) {
		*why = "the fields generate fewer EVs than count";
		return -MRC_EINVAL;
	}
	return 0;
}

/* EV number @i of @fields, into @ev. */
static int mrc_prof_gen_ev(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t i,
			   uint8_t ev[MRC_EV_BYTES], const char **why)
{
	int err = mrc_ev_generate(fields, nr_fields, i, ev);

	if (err)
		*why = "the fields generate fewer EVs than count";
	return err;
}

/*
 * @count UDP ports generated from @fields (their widths add up to at most
 * 16 bits, the port's; EV i is mrc_ev_generate()'s number i).
 */
int mrc_prof_gen_udp_ports(const struct mrc_ev_field *fields, uint32_t nr_fields,
			   uint32_t count, uint16_t *ports, const char **why)
{
	uint8_t ev[MRC_EV_BYTES];
	uint32_t i;
	int err;

	err = mrc_prof_gen_check(fields, nr_fields, 16U, count, why);
	for (i = 0; !err && i < count; i++) {
		err = mrc_prof_gen_ev(fields, nr_fields, i, ev, why);
		if (!err)
			ports[i] = (uint16_t)((uint16_t)ev[0] << 8 | ev[1]);
	}
	return err;
}

/* The device's own EVs (AUTO): @count ports from MRC_PROF_AUTO_PORT up. */
int mrc_prof_auto_ports(uint32_t count, uint16_t *ports, const char **why)
{
	uint32_t i;

	*why = NULL;
	if (count > 65536U - MRC_PROF_AUTO_PORT) {
		*why = "mode auto has at most 16384 EVs";
		return -MRC_EINVAL;
	}
	for (i = 0; i < count; i++)
		ports[i] = (uint16_t)(MRC_PROF_AUTO_PORT + i);
	return 0;
}

/*
 * A STEV EV: 4 bytes, big-endian; the high 16 bits go into the flow label,
 * the low 16 are the UDP source port.
 */
int mrc_prof_stev_ev(const uint8_t *bytes, uint32_t len, uint16_t *port, uint16_t *label,
		     const char **why)
{
	*why = NULL;
	if (len != MRC_PROF_STEV_BYTES) {
		*why = "a STEV EV is 4 bytes: 16 bits of flow label, then the UDP source port";
		return -MRC_EINVAL;
	}
	*label = (uint16_t)((uint16_t)bytes[0] << 8 | bytes[1]);
	*port = (uint16_t)((uint16_t)bytes[2] << 8 | bytes[3]);
	return 0;
}

/* @count STEV EVs generated from @fields (at most 32 bits in all). */
int mrc_prof_gen_stev(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t count,
		      uint16_t *ports, uint16_t *labels, const char **why)
{
	uint8_t ev[MRC_EV_BYTES];
	uint32_t i;
	int err;

	err = mrc_prof_gen_check(fields, nr_fields, 32U, count, why);
	for (i = 0; !err && i < count; i++) {
		err = mrc_prof_gen_ev(fields, nr_fields, i, ev, why);
		if (!err)
			err = mrc_prof_stev_ev(ev, MRC_PROF_STEV_BYTES, &ports[i], &labels[i], why);
	}
	return err;
}

/*
 * Whether @a can be a segment: a unicast address a router can route to
 * (not unspecified, loopback, multicast, link-local or IPv4-mapped).
 */
bool mrc_prof_sid_routable(const uint8_t *a)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	uint32_t i, zero = 0;

	for (i = 0; i < MRC_PROF_SID_BYTES - 1U; i++)
		zero += !a[i];
	if (zero == MRC_PROF_SID_BYTES - 1U && a[15] <= 1U)
		return false;	/* :: and ::1 */
	if (a[0] == 0xffU || (a[0] == 0xfeU && (a[1] & 0xc0U) == 0x80U))
		return false;	/* ff00::/8, fe80::/10 */
	return memcmp(a, v4mapped, sizeof(v4mapped)) != 0;
}

/*
 * An SRV6 EV from its bytes: 16 (the destination) or 32 (the destination,
 * then one more segment), each a routable IPv6 address.
 */
int mrc_prof_srv6_ev(const uint8_t *bytes, uint32_t len, struct mrc_ev_srv6 *ev,
		     const char **why)
{
	uint32_t i;

	*why = NULL;
	if (len != MRC_PROF_SID_BYTES && len != MRC_PROF_SRV6_SIDS * MRC_PROF_SID_BYTES) {
		*why = "an SRV6 EV is 16 bytes (a destination) or 32 (and one SRH segment)";
		return -MRC_EINVAL;
	}
	memset(ev, 0, sizeof(*ev));
	ev->nr_sids = (uint8_t)(len / MRC_PROF_SID_BYTES);
	for (i = 0; i < ev->nr_sids; i++) {
		memcpy(ev->sid[i], bytes + i * MRC_PROF_SID_BYTES, MRC_PROF_SID_BYTES);
		if (!mrc_prof_sid_routable(ev->sid[i])) {
			*why = "an SRV6 EV's segments are routable unicast IPv6 addresses";
			return -MRC_EINVAL;
		}
	}
	return 0;
}

/*
 * The bits a generated SRV6 EV has under a format of @widths: one segment
 * (128) when the fields fit in it, else two (256).
 */
uint32_t mrc_prof_srv6_bits(const uint32_t *widths, uint32_t nr_widths)
{
	uint32_t i, sum = 0;

	for (i = 0; i < nr_widths; i++)
		sum += widths[i];
	return sum > 128U ? 256U : 128U;
}

/* @count SRV6 EVs of @ev_bits (128 or 256) generated from @fields. */
int mrc_prof_gen_srv6(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t ev_bits,
		      uint32_t count, struct mrc_ev_srv6 *evs, const char **why)
{
	uint8_t ev[MRC_EV_BYTES];
	uint32_t i;
	int err;

	err = mrc_prof_gen_check(fields, nr_fields, ev_bits, count, why);
	for (i = 0; !err && i < count; i++) {
		err = mrc_prof_gen_ev(fields, nr_fields, i, ev, why);
		if (!err)
			err = mrc_prof_srv6_ev(ev, ev_bits / 8U, &evs[i], why);
	}
	return err;
}
