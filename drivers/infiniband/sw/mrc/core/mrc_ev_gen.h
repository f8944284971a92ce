/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Generated EVs: the device builds the EVs of a GENERATED profile from a
 * list of fields, with the expansion rules of the OCP MRC controller API.
 *
 * An EV is a bit string of its format's width (UDP 16 bits, STEV 32, SRV6
 * 128, or 256 with one SRH segment), filled from its most significant bit
 * by the fields in order; bits past the last field are zero. A field has a
 * width, an initial value, and a mask of the bit positions the generated
 * value fills: the value, popcount(mask) bits wide, goes into the mask's
 * positions most significant bit first, over the initial value. Values run
 * from min to max. EV number i takes the fields' values in mixed radix with
 * the first field varying fastest, so consecutive EVs differ in the first
 * tier (in a fabric: the first-hop choice) and a round robin over them
 * spreads over that tier at once.
 *
 * A field with mask 0 (and min = max = 0) is a fixed part: its initial
 * value, e.g. an SRv6 locator.
 */
#ifndef MRC_EV_GEN_H
#define MRC_EV_GEN_H

#include "mrc_core_compat.h"

#define MRC_EV_BYTES		32U	/* the OCP API's MRC_CTL_EV_MAX_BYTES */
#define MRC_EV_FIELDS_MAX	8U

struct mrc_ev_field {
	uint32_t width;		/* bits, 1 ... 32 */
	uint32_t init;		/* value before the generated bits go in */
	uint32_t min;		/* generated values: min ... max */
	uint32_t max;
	uint32_t mask;		/* where the generated bits go */
};

int mrc_ev_fields_check(const struct mrc_ev_field *fields, uint32_t nr_fields,
			uint32_t ev_bits, const char **why);
uint32_t mrc_ev_fields_count(const struct mrc_ev_field *fields, uint32_t nr_fields);
int mrc_ev_generate(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t index,
		    uint8_t ev[MRC_EV_BYTES]);
uint32_t mrc_ev_expand_field(const struct mrc_ev_field *field, uint32_t value);

#endif /* MRC_EV_GEN_H */
