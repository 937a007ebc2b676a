/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict number and size parsing, and size formatting.
 */
#ifndef DMABENCH_UNITS_H
#define DMABENCH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * parse_int() - a base-10 integer in [min, max]: an optional '-' and digits,
 * nothing else (no spaces, no '+', no "0x"). Returns 0, or -1 when @s is
 * empty, malformed, overflows or is out of range; *out is untouched then.
 */
int parse_int(const char *s, long long min, long long max, long long *out);

/*
 * parse_size() - a byte count: digits, then optionally K, M, G or T (powers
 * of 1024, any case), then optionally "B" or "iB": "4096", "4K", "64KB",
 * "2MiB", "1g". Returns 0, or -1 when malformed or above UINT64_MAX.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * format_size() - @bytes in the largest unit that divides it exactly:
 * 4096 -> "4KB", 2097152 -> "2MB", 1073741824 -> "1GB", 1000 -> "1000B".
 */
void format_size(uint64_t bytes, char *buf, size_t len);

static inline bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/*
 * parse_cpu_list() - a CPU list as the kernel prints one: comma-separated
 * CPU numbers and inclusive ranges, "0", "0-3", "0,2,4", "0-3,8-11", each
 * number 0..@max_cpu, a range's first not above its last; no spaces, no
 * empty items. Ranges are expanded in order and repeats kept. Stores at most
 * @max_n numbers in @cpus (NULL: count only). Returns how many, or -1 when
 * malformed, out of range or more than @max_n.
 */
long parse_cpu_list(const char *s, unsigned int max_cpu, uint32_t *cpus,
		    size_t max_n);

/*
 * format_cpu_list() - @n CPU numbers as parse_cpu_list() reads them, runs
 * of consecutive numbers as ranges: {0,1,2,3,8} -> "0-3,8"; "" for none.
 * A list longer than @len ends in "...".
 */
void format_cpu_list(const uint32_t *cpus, size_t n, char *buf, size_t len);

/*
 * cpu_list_has() - whether the CPU list @s (the syntax above, numbers of any
 * size, one trailing newline allowed: /sys/devices/system/cpu/online) holds
 * @cpu. Returns 1, 0, or -1 when @s is malformed.
 */
int cpu_list_has(const char *s, unsigned int cpu);

/* ilog2() - floor(log2(x)), x > 0 */
unsigned int ilog2_u64(uint64_t x);

#endif
