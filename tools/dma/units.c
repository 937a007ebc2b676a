// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strict number and size parsing, and size formatting.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "units.h"

int parse_int(const char *s, long long min, long long max, long long *out)
{
	const char *digits = s;
	long long v;
	char *end;

	if (*digits == '-')
		digits++;
	if (!isdigit((unsigned char)*digits))
		return -1;	/* empty, "-", spaces, '+', letters */
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static const struct {
	char letter;
	unsigned int shift;
} size_units[] = {
	{ 'K', 10 }, { 'M', 20 }, { 'G', 30 }, { 'T', 40 },
};

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	size_t i;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		if (toupper((unsigned char)*end) == size_units[i].letter) {
			shift = size_units[i].shift;
			end++;
			if (tolower((unsigned char)*end) == 'i' &&
			    toupper((unsigned char)end[1]) == 'B')
				end++;
			break;
		}
	}
	if (toupper((unsigned char)*end) == 'B')
		end++;
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "TB", "GB", "MB", "KB" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned int shift = 40 - 10 * i;
		uint64_t unit = (uint64_t)1 << shift;

		if (bytes >= unit && !(bytes & (unit - 1))) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(bytes >> shift), names[i]);
			return;
		}
	}
	snprintf(buf, len, "%lluB", (unsigned long long)bytes);
}

unsigned int ilog2_u64(uint64_t x)
{
	unsigned int r = 0;

	while (x >>= 1)
		r++;
	return r;
}
