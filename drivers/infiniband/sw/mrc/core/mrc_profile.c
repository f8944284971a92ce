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

	err = mrc_ev_fields_check(fields, nr_fields, 16U, why);
	if (err)
		return err;
	if (mrc_ev_fields_count(fields, nr_fields) < count) {
		*why = "the fields generate fewer EVs than count";
		return -MRC_EINVAL;
	}
	for (i = 0; i < count; i++) {
		err = mrc_ev_generate(fields, nr_fields, i, ev);
		if (err) {
			*why = "the fields generate fewer EVs than count";
			return err;
		}
		ports[i] = (uint16_t)((uint16_t)ev[0] << 8 | ev[1]);
	}
	return 0;
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
