// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Generated EVs (see mrc_ev_gen.h).
 */
#include "mrc_ev_gen.h"

static uint32_t mrc_ev_width_mask(uint32_t width)
{
	return width >= 32U ? ~0U : (1U << width) - 1U;
}

/*
 * Check fields a controller gave for EVs of @ev_bits bits. Return: 0, or
 * -MRC_EINVAL with *@why saying what is wrong (an extack message).
 */
int mrc_ev_fields_check(const struct mrc_ev_field *fields, uint32_t nr_fields,
			uint32_t ev_bits, const char **why)
{
	uint32_t i, bits = 0;

	*why = NULL;
	if (!nr_fields || nr_fields > MRC_EV_FIELDS_MAX) {
		*why = "a generated profile needs 1 to 8 fields";
		return -MRC_EINVAL;
	}
	for (i = 0; i < nr_fields; i++) {
		const struct mrc_ev_field *f = &fields[i];
		uint32_t k = mrc_popcount64(f->mask);

		if (!f->width || f->width > 32U)
			*why = "field width must be 1 to 32 bits";
		else if (f->init & ~mrc_ev_width_mask(f->width))
			*why = "field init value is wider than the field";
		else if (f->mask & ~mrc_ev_width_mask(f->width))
			*why = "field mask has bits outside the field";
		else if (f->min > f->max)
			*why = "field min is above max";
		else if (k < 32U && f->max >= (1U << k))
			*why = "field max is wider than its mask";
		if (*why)
			return -MRC_EINVAL;
		bits += f->width;
	}
	if (bits > ev_bits) {
		*why = "fields are wider than the EV format";
		return -MRC_EINVAL;
	}
	return 0;
}

/* How many distinct EVs the fields generate (UINT32_MAX if more). */
uint32_t mrc_ev_fields_count(const struct mrc_ev_field *fields, uint32_t nr_fields)
{
	uint64_t n = 1;
	uint32_t i;

	for (i = 0; i < nr_fields; i++) {
		n *= (uint64_t)(fields[i].max - fields[i].min) + 1U;
		if (n > 0xffffffffULL)
			return 0xffffffffU;
	}
	return (uint32_t)n;
}

/* @value's bits into @field's mask positions, most significant first. */
uint32_t mrc_ev_expand_field(const struct mrc_ev_field *field, uint32_t value)
{
	uint32_t out = field->init, k = mrc_popcount64(field->mask), pos;

	for (pos = field->width; pos-- > 0;) {
		if (!(field->mask & (1U << pos)))
			continue;
		k--;
		if (value & (1U << k))
			out |= 1U << pos;
		else
			out &= ~(1U << pos);
	}
	return out;
}

/* Append the @width low bits of @v at bit @pos (0 = the EV's top bit). */
static void mrc_ev_put_bits(uint8_t ev[MRC_EV_BYTES], uint32_t *pos, uint32_t v, uint32_t width)
{
	uint32_t b;

	for (b = width; b-- > 0; (*pos)++) {
		if (v & (1U << b))
			ev[*pos / 8U] |= (uint8_t)(0x80U >> (*pos % 8U));
	}
}

/*
 * EV number @index of the fields (checked with mrc_ev_fields_check()), as
 * MRC_EV_BYTES bytes. Return: 0, or -MRC_EINVAL when the fields generate
 * fewer EVs.
 */
int mrc_ev_generate(const struct mrc_ev_field *fields, uint32_t nr_fields, uint32_t index,
		    uint8_t ev[MRC_EV_BYTES])
{
	uint32_t i, pos = 0, rest = index;

	if (index >= mrc_ev_fields_count(fields, nr_fields))
		return -MRC_EINVAL;
	memset(ev, 0, MRC_EV_BYTES);
	for (i = 0; i < nr_fields; i++) {
		const struct mrc_ev_field *f = &fields[i];
		uint32_t range = f->max - f->min + 1U;	/* 0: all 2^32 values */
		uint32_t v = range ? f->min + rest % range : rest;

		rest = range ? rest / range : 0;
		mrc_ev_put_bits(ev, &pos, mrc_ev_expand_field(f, v), f->width);
	}
	return 0;
}
