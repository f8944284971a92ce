/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * EV format profiles and EV profiles: the checks a controller's profile
 * must pass and the EVs it yields (Documentation/multipath.rst). Pure
 * functions; the kernel keeps the profile table (mrc_profile.c) and the
 * locking.
 *
 * UDP: an EV is a 16-bit UDP source port, its bytes big-endian. STEV: an
 * EV is 32 bits, big-endian; the high 16 go into the low 16 bits of the
 * IPv6 flow label, the low 16 are the UDP source port. SRV6: an EV is a 16-byte IPv6 destination (the first
 * segment) and optionally one more 16-byte segment; the packet carries a
 * segment routing header ending at the peer (struct mrc_ev_srv6), and its
 * UDP source port is MRC_PROF_AUTO_PORT + the EV's index, which names the EV
 * in the peer's echoes. An EV profile is AUTO (UDP only: the device's own
 * ports from MRC_PROF_AUTO_PORT up), EXP (EVs the controller lists) or GEN
 * (EVs generated from fields by mrc_ev_generate()).
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
#define MRC_PROF_STEV_BYTES	4U	/* a STEV EV: flow label bits, then the port */
#define MRC_PROF_SID_BYTES	16U	/* an SRv6 segment: an IPv6 address */
#define MRC_PROF_SRV6_SIDS	2U	/* an SRV6 EV: the destination, one SRH segment */

/*
 * An SRV6 EV as the packet carries it: @sid[0] is the IPv6 destination the
 * packet leaves with, @sid[1] (when @nr_sids is 2) the segment after it;
 * the peer's own address is always the last segment.
 */
struct mrc_ev_srv6 {
	uint8_t nr_sids;	/* 1 or 2 */
	uint8_t sid[MRC_PROF_SRV6_SIDS][MRC_PROF_SID_BYTES];
};

uint32_t mrc_prof_fmt_bits(uint32_t mode);
int mrc_prof_fmt_check(uint32_t mode, const uint32_t *widths, uint32_t nr_widths,
		       const char **why);
int mrc_prof_state_check(uint32_t from, uint32_t to, const char **why);
int mrc_prof_counts_check(uint32_t count, uint32_t min_active, const char **why);
int mrc_prof_udp_port(const uint8_t *bytes, uint32_t len, uint16_t *port, const char **why);
int mrc_prof_gen_udp_ports(const struct mrc_ev_field *fields, uint32_t nr_fields,
			   uint32_t count, uint16_t *ports, const char **why);
int mrc_prof_auto_ports(uint32_t count, uint16_t *ports, const char **why);
int mrc_prof_stev_ev(const uint8_t *bytes, uint32_t len, uint16_t *port, uint16_t *label,
		     const char **why);
int mrc_prof_gen_stev(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t count,
		      uint16_t *ports, uint16_t *labels, const char **why);
bool mrc_prof_sid_routable(const uint8_t *a);
int mrc_prof_srv6_ev(const uint8_t *bytes, uint32_t len, struct mrc_ev_srv6 *ev,
		     const char **why);
uint32_t mrc_prof_srv6_bits(const uint32_t *widths, uint32_t nr_widths);
int mrc_prof_gen_srv6(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t ev_bits,
		      uint32_t count, struct mrc_ev_srv6 *evs, const char **why);

#endif /* MRC_PROFILE_H */
