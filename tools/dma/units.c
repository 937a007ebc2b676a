// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The suffixes of sizes, read by parse_size() and written by format_size(). */
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
	size_t i = sizeof(size_units) / sizeof(size_units[0]);

	while (i--) {	/* the largest unit that divides @bytes */
		unsigned int shift = size_units[i].shift;
		uint64_t unit = (uint64_t)1 << shift;

		if (bytes >= unit && !(bytes & (unit - 1))) {
			snprintf(buf, len, "%llu%cB",
				 (unsigned long long)(bytes >> shift),
				 size_units[i].letter);
			return;
		}
	}
	snprintf(buf, len, "%lluB", (unsigned long long)bytes);
}

/* cpu_number() - digits at *@s, no sign; advances *@s; -1 if none or huge */
static long long cpu_number(const char **s)
{
	long long v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	for (; isdigit((unsigned char)**s); (*s)++) {
		v = v * 10 + (**s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	return v;
}

/*
 * next_range() - the range at *@s ("N" or "N-M"), then past a ',' if one
 * follows; 1 with the range, 0 at the end of @s, -1 when malformed.
 */
static int next_range(const char **s, long long *lo, long long *hi)
{
	if (!**s)
		return 0;
	*lo = cpu_number(s);
	if (*lo < 0)
		return -1;
	*hi = *lo;
	if (**s == '-') {
		(*s)++;
		*hi = cpu_number(s);
		if (*hi < *lo)
			return -1;
	}
	if (**s == ',') {
		(*s)++;
		if (!**s)
			return -1;	/* "0," */
	} else if (**s) {
		return -1;
	}
	return 1;
}

long parse_cpu_list(const char *s, unsigned int max_cpu, uint32_t *cpus,
		    size_t max_n)
{
	long long lo, hi, cpu;
	size_t n = 0;
	int r;

	if (!*s)
		return -1;
	while ((r = next_range(&s, &lo, &hi)) > 0) {
		/* n <= max_n: the range must fit in what is left */
		if (hi > max_cpu || (unsigned long long)(hi - lo) >= max_n - n)
			return -1;
		for (cpu = lo; cpu <= hi; cpu++) {
			if (cpus)
				cpus[n] = cpu;
			n++;
		}
	}
	return r < 0 ? -1 : (long)n;
}

int cpu_list_has(const char *s, unsigned int cpu)
{
	size_t len = strlen(s);
	char buf[4096];
	const char *p = buf;
	long long lo, hi;
	int found = 0, r;

	if (len && s[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	while ((r = next_range(&p, &lo, &hi)) > 0)
		found |= cpu >= lo && cpu <= hi;
	return r < 0 ? -1 : found;
}

unsigned int ilog2_u64(uint64_t x)
{
	unsigned int r = 0;

	while (x >>= 1)
		r++;
	return r;
}

void format_cpu_list(const uint32_t *cpus, size_t n, char *buf, size_t len)
{
	size_t i = 0, j, used = 0;
	char item[32];

	if (!len)
		return;
	buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j > i)
			snprintf(item, sizeof(item), "%s%u-%u", i ? "," : "",
				 (unsigned int)cpus[i], (unsigned int)cpus[j]);
		else
			snprintf(item, sizeof(item), "%s%u", i ? "," : "",
				 (unsigned int)cpus[i]);
		/* room for the item, and for ",..." unless it is the last */
		if (used + strlen(item) + (j + 1 < n ? 4 : 0) >= len) {
			snprintf(buf + used, len - used, "%s", i ? ",..." : "...");
			return;
		}
		memcpy(buf + used, item, strlen(item) + 1);
		used += strlen(item);
		i = j + 1;
	}
}
