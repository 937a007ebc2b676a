// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strict number parsing, size parsing and formatting, CPU lists (--cpus
 * and /sys/devices/system/cpu/online), and the mean and standard deviation
 * used for the per-channel rows.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stats.h"
#include "tap.h"
#include "units.h"

static void test_parse_int(void)
{
	static const struct {
		const char *s;
		long long want;
	} good[] = {
		{ "0", 0 }, { "1", 1 }, { "-1", -1 }, { "1024", 1024 },
		{ "007", 7 }, { "-1000", -1000 },
	};
	static const char *const bad[] = {
		"", "-", "abc", "1x", "x1", " 1", "1 ", "+1", "0x10", "1.5",
		"1e3", "--1", "99999999999999999999", "-99999999999999999999",
		"1025", "-1001",
	};
	long long v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		ok(!parse_int(good[i].s, -1000, 1024, &v) && v == good[i].want,
		   "parse_int('%s') = %lld", good[i].s, good[i].want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 12345;
		ok(parse_int(bad[i], -1000, 1024, &v) == -1 && v == 12345,
		   "parse_int('%s') rejected, result untouched", bad[i]);
	}
	ok(!parse_int("9223372036854775807", 0, INT64_MAX, &v) &&
	   v == INT64_MAX, "parse_int: LLONG_MAX accepted");
	ok(parse_int("9223372036854775808", 0, INT64_MAX, &v) == -1,
	   "parse_int: LLONG_MAX + 1 overflows");
}

static void test_parse_size(void)
{
	static const struct {
		const char *s;
		uint64_t want;
	} good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 },
		{ "4KB", 4096 }, { "4kb", 4096 }, { "4KiB", 4096 },
		{ "64K", 65536 }, { "2M", 2 << 20 }, { "2MiB", 2 << 20 },
		{ "512M", 512ULL << 20 }, { "1G", 1ULL << 30 },
		{ "1g", 1ULL << 30 }, { "3GB", 3ULL << 30 },
		{ "1T", 1ULL << 40 }, { "7B", 7 },
		{ "16777215T", 16777215ULL << 40 },
		{ "18446744073709551615", UINT64_MAX },
	};
	static const char *const bad[] = {
		"", "K", "4X", "4KK", "4 K", " 4K", "-4K", "+4K", "1.5M",
		"4Ki", "4iB", "4KBB", "4P", "0x10", "16777216T",
		"18446744073709551616", "99999999999999999999999",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		ok(!parse_size(good[i].s, &v) && v == good[i].want,
		   "parse_size('%s') = %llu", good[i].s,
		   (unsigned long long)good[i].want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 12345;
		ok(parse_size(bad[i], &v) == -1 && v == 12345,
		   "parse_size('%s') rejected", bad[i]);
	}
}

static void test_format_size(void)
{
	static const struct {
		uint64_t bytes;
		const char *want;
	} cases[] = {
		{ 0, "0B" }, { 1, "1B" }, { 1000, "1000B" }, { 1536, "1536B" },
		{ 4096, "4KB" }, { 65536, "64KB" }, { 2 << 20, "2MB" },
		{ 3ULL << 20, "3MB" }, { 1ULL << 30, "1GB" },
		{ 3ULL << 30, "3GB" }, { 1ULL << 40, "1TB" },
		{ (1ULL << 30) + 4096, "1048580KB" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_size(cases[i].bytes, buf, sizeof(buf));
		is_str(buf, cases[i].want, "format_size(%llu)",
		       (unsigned long long)cases[i].bytes);
	}
	format_size(2 << 20, buf, sizeof(buf));
	ok(!parse_size(buf, &(uint64_t){ 0 }), "format_size output parses back");
}

static void test_pow2(void)
{
	ok(is_pow2(1) && is_pow2(4096) && is_pow2(1ULL << 63),
	   "is_pow2 on powers of two");
	ok(!is_pow2(0) && !is_pow2(3) && !is_pow2(12288) && !is_pow2(UINT64_MAX),
	   "is_pow2 rejects 0 and non-powers");
	ok(ilog2_u64(1) == 0 && ilog2_u64(4096) == 12 && ilog2_u64(4097) == 12 &&
	   ilog2_u64(1ULL << 40) == 40, "ilog2_u64");
}

static void test_parse_cpu_list(void)
{
	static const struct {
		const char *s;
		long n;
		uint32_t want[8];
	} good[] = {
		{ "0", 1, { 0 } },
		{ "5", 1, { 5 } },
		{ "0-3", 4, { 0, 1, 2, 3 } },
		{ "0,2,4", 3, { 0, 2, 4 } },
		{ "4,0", 2, { 4, 0 } },			/* order kept */
		{ "1,1", 2, { 1, 1 } },			/* repeats kept */
		{ "0-1,8-9,3", 5, { 0, 1, 8, 9, 3 } },
		{ "7-7", 1, { 7 } },
		{ "1023", 1, { 1023 } },
		{ "007", 1, { 7 } },
	};
	static const char *const bad[] = {
		"", ",", "0,", ",0", "0,,1", "-1", "1-", "-", "3-1", "0-1-2",
		"1024", "0-1024", "a", "0x1", " 0", "0 ", "0, 1", "+1", "1.5",
		"0;1", "99999999999999999999", "0-99999999999",
	};
	uint32_t cpus[1100];
	char big[8192];
	size_t i;
	long n;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		memset(cpus, 0xff, sizeof(cpus));
		n = parse_cpu_list(good[i].s, 1023, cpus, 1024);
		ok(n == good[i].n &&
		   !memcmp(cpus, good[i].want, n * sizeof(cpus[0])) &&
		   cpus[n] == 0xffffffff,
		   "parse_cpu_list('%s'): %ld CPUs, in order", good[i].s,
		   good[i].n);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(parse_cpu_list(bad[i], 1023, cpus, 1024) == -1,
		   "parse_cpu_list('%s') refused", bad[i]);

	ok(parse_cpu_list("0-1023", 1023, cpus, 1024) == 1024 &&
	   cpus[0] == 0 && cpus[1023] == 1023, "0-1023: 1024 CPUs, the most");
	ok(parse_cpu_list("0-1023,0", 1023, cpus, 1024) == -1,
	   "1025 CPUs refused");
	ok(parse_cpu_list("0-1022,5", 1023, cpus, 1024) == 1024 &&
	   cpus[1023] == 5, "1023 + 1 CPUs: exactly 1024");
	big[0] = 0;
	for (i = 0; i < 1025; i++)
		strcat(big, i ? ",1" : "1");
	ok(parse_cpu_list(big, 1023, cpus, 1024) == -1,
	   "1025 single items refused");
	ok(parse_cpu_list("0-3", 1023, NULL, 1024) == 4,
	   "no array: count only");
	ok(parse_cpu_list("4", 3, cpus, 8) == -1 &&
	   parse_cpu_list("3", 3, cpus, 8) == 1, "max_cpu is inclusive");
	ok(parse_cpu_list("0-3", 1023, cpus, 3) == -1 &&
	   parse_cpu_list("0-2", 1023, cpus, 3) == 3, "max_n is inclusive");
}

static void test_cpu_list_has(void)
{
	ok(cpu_list_has("0-3\n", 0) == 1 && cpu_list_has("0-3\n", 3) == 1 &&
	   cpu_list_has("0-3\n", 4) == 0, "online 0-3 (sysfs newline): 0 and 3 in, 4 out");
	ok(cpu_list_has("0,2-3,8-4095", 1) == 0 &&
	   cpu_list_has("0,2-3,8-4095", 2) == 1 &&
	   cpu_list_has("0,2-3,8-4095", 4000) == 1,
	   "holes and CPUs above 1023");
	ok(cpu_list_has("0", 0) == 1 && cpu_list_has("0", 1) == 0,
	   "a single CPU");
	ok(cpu_list_has("", 0) == -1 && cpu_list_has("\n", 0) == -1 &&
	   cpu_list_has("0-", 0) == -1 && cpu_list_has("x", 0) == -1 &&
	   cpu_list_has("0\n\n", 0) == -1,
	   "malformed lists: -1 (unknown)");
}

static void test_format_cpu_list(void)
{
	static const struct {
		uint32_t cpus[8];
		size_t n;
		const char *want;
	} cases[] = {
		{ { 0 }, 0, "" }, { { 0 }, 1, "0" }, { { 0, 1, 2, 3 }, 4, "0-3" },
		{ { 0, 1, 2, 3, 8 }, 5, "0-3,8" }, { { 0, 2, 4 }, 3, "0,2,4" },
		{ { 3, 1 }, 2, "3,1" }, { { 0, 0 }, 2, "0,0" },
		{ { 6, 1, 2 }, 3, "6,1-2" }, { { 1022, 1023 }, 2, "1022-1023" },
	};
	uint32_t many[512], back[512];
	char buf[4096], small[8];
	size_t i;
	long n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_cpu_list(cases[i].cpus, cases[i].n, buf, sizeof(buf));
		is_str(buf, cases[i].want, "format_cpu_list() of %zu CPUs: '%s'",
		       cases[i].n, cases[i].want);
	}
	for (i = 0; i < 512; i++)
		many[i] = 2 * i;
	format_cpu_list(many, 512, buf, sizeof(buf));
	n = parse_cpu_list(buf, 1023, back, 512);
	ok(n == 512 && !memcmp(back, many, sizeof(many)),
	   "512 even CPUs: parse_cpu_list() reads back what format_cpu_list() wrote");
	format_cpu_list(many, 512, small, sizeof(small));
	ok(!strcmp(small, "0,2,..."), "a list longer than the buffer ends in '...' (%s)",
	   small);
}

static void test_stats(void)
{
	static const double data[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stat_acc a;
	size_t i;

	stat_init(&a);
	ok(stat_mean(&a) == 0 && stat_stddev(&a) == 0, "empty: mean 0, sd 0");
	stat_add(&a, 42);
	ok(stat_mean(&a) == 42 && stat_stddev(&a) == 0, "one value: sd 0");
	stat_init(&a);
	for (i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		stat_add(&a, data[i]);
	ok(fabs(stat_mean(&a) - 5) < 1e-12, "mean of 2,4,4,4,5,5,7,9 is 5");
	ok(fabs(stat_stddev(&a) - sqrt(32.0 / 7)) < 1e-12,
	   "sample sd (n - 1) is sqrt(32/7), not the population sd 2");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_parse_int();
	test_parse_size();
	test_format_size();
	test_pow2();
	test_parse_cpu_list();
	test_cpu_list_has();
	test_format_cpu_list();
	test_stats();
	return tap_done();
}
