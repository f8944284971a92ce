/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * EV format profiles and EV profiles: the checks a controller's profile
 * must pass and the EVs it yields (Documentation/multipath.rst). Pure
 * functions; the kernel keeps the profile table (mrc_profile.c) and the
 * locking.
 *
 * Only the UDP format yields EVs today: an EV is a 16-bit UDP source port,
 * its bytes big-endian. An EV profile is AUTO (the device's own ports from
 * MRC_PROF_AUTO_PORT up), EXP (ports the controller lists) or GEN
 * (ports generated from fields by mrc_ev_generate()).
 */
#ifndef MRC_PROFILE_H
#define MRC_PROFILE_H

#include "mrc_core_compat.h"
#include "mrc_ev_gen.h"
#include "mrc_path_set.h"

/* The values of the uapi's enum mrc_profile_state. */
enum mrc_prof_state {
	MRC_PROF_INIT,
	MRC_PROF_OFFLINE,
	MRC_PROF_ONLINE,
};

/* The values of the uapi's enum mrc_ev_fmt_mode (the OCP API's). */
enum mrc_prof_fmt {
	MRC_PROF_FMT_STEV = 1,
	MRC_PROF_FMT_SRV6 = 2,
	MRC_PROF_FMT_UDP = 4,
};

/* The values of the uapi's enum mrc_ev_mode (the OCP API's). */
enum mrc_prof_mode {
	MRC_PROF_AUTO = 1,
	MRC_PROF_EXP = 2,
	MRC_PROF_GEN = 4,
};

#define MRC_PROF_AUTO_PORT	49152U	/* AUTO EVs: UDP source ports from here up */
#define MRC_PROF_AUTO_EVS	256U	/* ... this many in profile 0 */
#define MRC_PROF_UDP_BYTES	2U	/* a UDP EV: the source port, big-endian */
#define MRC_PROF_EV_STATES	0x7U	/* every EV state: GOOD | ASSUMED_BAD | DENIED */

uint32_t mrc_prof_fmt_bits(uint32_t mode);
int mrc_prof_fmt_check(uint32_t mode, const uint32_t *widths, uint32_t nr_widths,
		       const char **why);
int mrc_prof_state_check(uint32_t from, uint32_t to, const char **why);
int mrc_prof_counts_check(uint32_t count, uint32_t min_active, const char **why);
int mrc_prof_udp_port(const uint8_t *bytes, uint32_t len, uint16_t *port, const char **why);
int mrc_prof_gen_udp_ports(const struct mrc_ev_field *fields, uint32_t nr_fields,
			   uint32_t count, uint16_t *ports, const char **why);
int mrc_prof_auto_ports(uint32_t count, uint16_t *ports, const char **why);

#endif /* MRC_PROFILE_H */
