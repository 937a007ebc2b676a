// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the benchmark's statistics (stat.c): mean, standard
 * deviation, merging, histogram and percentiles, each checked against a
 * reference computed here by another method. Built as its own module,
 * dma_map_benchmark_kunit, when the kernel has KUnit; the tests run when it
 * is loaded, and their results are in
 * /sys/kernel/debug/kunit/dma_map_benchmark_stat/results.
 */

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

/* the code under test, with its static helpers */
#include "stat.c"

/*
 * The reference: n^2 times the population variance of a multiset, as the
 * sum over pairs of values of the squared differences, weighted by their
 * counts. No mean, no subtraction of large sums: another method than
 * stat.c's.
 */
static struct mb_u128 ref_pairs(const u64 *val, const u64 *cnt, unsigned int k)
{
	struct mb_u128 p = {};
	unsigned int i, j;

	for (i = 0; i < k; i++) {
		for (j = i + 1; j < k; j++) {
			u64 d = val[i] > val[j] ? val[i] - val[j] : val[j] - val[i];
			struct mb_u128 dd = mb_u128_mul(d, d);
			u64 c = cnt[i] * cnt[j];
			struct mb_u128 t = mb_u128_mul(dd.lo, c);

			t.hi += dd.hi * c;	/* the terms used here fit */
			mb_u128_add(&p, t);
		}
	}
	return p;
}

/* sd is floor(sqrt(pairs / (n * m))): sd^2 n m <= pairs < (sd + 1)^2 n m */
static void expect_sd(struct kunit *test, u64 sd, struct mb_u128 pairs,
		      u64 n, u64 m)
{
	struct mb_u128 lo = mb_u128_mul(sd * sd, n * m);
	struct mb_u128 hi = mb_u128_mul((sd + 1) * (sd + 1), n * m);

	KUNIT_EXPECT_LE_MSG(test, mb_u128_cmp(lo, pairs), 0,
			    "sd %llu too large for n %llu", sd, n);
	KUNIT_EXPECT_GT_MSG(test, mb_u128_cmp(hi, pairs), 0,
			    "sd %llu too small for n %llu", sd, n);
}

static void mb_stat_test_known(struct kunit *test)
{
	static const u64 v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct mb_stat s = {};
	u64 mean, sd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		mb_stat_add(&s, v[i]);
	KUNIT_EXPECT_EQ(test, s.n, 8);
	KUNIT_EXPECT_EQ(test, s.min, 2);
	KUNIT_EXPECT_EQ(test, s.max, 9);
	KUNIT_EXPECT_EQ(test, mb_stat_mean(&s), 5);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev(&s), 2);	/* variance 4 */

	/* sample variance 32 / 7 */
	mb_mean_stddev(v, ARRAY_SIZE(v), &mean, &sd);
	KUNIT_EXPECT_EQ(test, mean, 5);
	KUNIT_EXPECT_EQ(test, sd, 2);

	/* {0, 10}: population variance 25, sample variance 50 */
	mb_mean_stddev((const u64[]){ 0, 10 }, 2, &mean, &sd);
	KUNIT_EXPECT_EQ(test, mean, 5);
	KUNIT_EXPECT_EQ(test, sd, 7);

	/* one value: no deviation; none: zeros */
	mb_mean_stddev((const u64[]){ 42 }, 1, &mean, &sd);
	KUNIT_EXPECT_EQ(test, mean, 42);
	KUNIT_EXPECT_EQ(test, sd, 0);
	memset(&s, 0, sizeof(s));
	KUNIT_EXPECT_EQ(test, mb_stat_mean(&s), 0);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev(&s), 0);
}

/*
 * The series: a slow first map (cold caches, IOMMU page tables),
 * then many 200..260 ns samples. The old code shifted by the first sample
 * and gave 446 ns for a 100 us outlier, 0 for a 1 ms one (its sum of
 * squares wrapped); the exact SDs are 25 and 183 ns.
 */
#define OUTLIER_SAMPLES		30000000U
#define OUTLIER_SPREAD		61U	/* 200..260 ns */

static void mb_stat_check_outlier(struct kunit *test, u64 first, u64 want_sd)
{
	/* off the stack: 32-bit arm warns at a frame of 1 KiB */
	u64 *val = kunit_kcalloc(test, OUTLIER_SPREAD + 1, sizeof(*val),
				 GFP_KERNEL);
	u64 *cnt = kunit_kcalloc(test, OUTLIER_SPREAD + 1, sizeof(*cnt),
				 GFP_KERNEL);
	u64 n = OUTLIER_SAMPLES + 1ULL, sum = first;
	struct mb_stat s = {};
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, val);
	KUNIT_ASSERT_NOT_NULL(test, cnt);
	mb_stat_add(&s, first);
	for (i = 0; i < OUTLIER_SAMPLES; i++)
		mb_stat_add(&s, 200 + i % OUTLIER_SPREAD);

	for (i = 0; i < OUTLIER_SPREAD; i++) {
		val[i] = 200 + i;
		cnt[i] = OUTLIER_SAMPLES / OUTLIER_SPREAD +
			 (i < OUTLIER_SAMPLES % OUTLIER_SPREAD);
		sum += val[i] * cnt[i];
	}
	val[OUTLIER_SPREAD] = first;
	cnt[OUTLIER_SPREAD] = 1;

	KUNIT_EXPECT_EQ(test, s.n, n);
	KUNIT_EXPECT_EQ(test, s.min, 200);
	KUNIT_EXPECT_EQ(test, s.max, first);
	KUNIT_EXPECT_EQ(test, mb_stat_mean(&s), div64_u64(sum, n));
	expect_sd(test, mb_stat_stddev(&s),
		  ref_pairs(val, cnt, OUTLIER_SPREAD + 1), n, n);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev(&s), want_sd);
	kunit_info(test, "first %llu ns, then %u samples of 200..260 ns: mean %llu ns, SD %llu ns\n",
		   first, OUTLIER_SAMPLES, mb_stat_mean(&s), mb_stat_stddev(&s));
}

static void mb_stat_test_outlier_100us(struct kunit *test)
{
	mb_stat_check_outlier(test, 100000, 25);
}

static void mb_stat_test_outlier_1ms(struct kunit *test)
{
	mb_stat_check_outlier(test, 1000000, 183);
}

/*
 * Random series of several magnitudes: mean and both standard deviations
 * against the pairwise reference, the same sums in any order, and any
 * split into per-thread parts merged back.
 */
#define RANDOM_N	300

static void mb_stat_test_random(struct kunit *test)
{
	static const unsigned int bits[] = { 4, 12, 24, 32 };
	u64 *v = kunit_kcalloc(test, RANDOM_N, sizeof(*v), GFP_KERNEL);
	u64 *ones = kunit_kcalloc(test, RANDOM_N, sizeof(*ones), GFP_KERNEL);
	struct rnd_state rnd;
	unsigned int b, i, round;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, ones);
	prandom_seed_state(&rnd, 0x6d617062656e6368ULL);
	for (i = 0; i < RANDOM_N; i++)
		ones[i] = 1;

	for (round = 0; round < 20; round++) {
		b = bits[round % ARRAY_SIZE(bits)];
		for (i = 0; i < RANDOM_N; i++)
			v[i] = prandom_u32_state(&rnd) >> (32 - b);
		/* now and then an outlier first */
		if (round & 1)
			v[0] = 1ULL << 33;

		{
			unsigned int n = RANDOM_N - round;	/* sizes vary */
			struct mb_stat fwd = {}, rev = {}, parts = {}, part = {};
			struct mb_u128 pairs = ref_pairs(v, ones, n);
			u64 sum = 0, mean, sd;
			unsigned int cut = 1 + prandom_u32_state(&rnd) % 40;

			for (i = 0; i < n; i++) {
				sum += v[i];
				mb_stat_add(&fwd, v[i]);
				mb_stat_add(&rev, v[n - 1 - i]);
				mb_stat_add(&part, v[i]);
				if (i % cut == cut - 1 || i == n - 1) {
					mb_stat_merge(&parts, &part);
					memset(&part, 0, sizeof(part));
				}
			}
			KUNIT_EXPECT_EQ(test, mb_stat_mean(&fwd),
					div64_u64(sum, n));
			expect_sd(test, mb_stat_stddev(&fwd), pairs, n, n);
			KUNIT_EXPECT_EQ(test, mb_stat_stddev(&rev),
					mb_stat_stddev(&fwd));
			KUNIT_EXPECT_EQ(test, mb_stat_mean(&parts),
					mb_stat_mean(&fwd));
			KUNIT_EXPECT_EQ(test, mb_stat_stddev(&parts),
					mb_stat_stddev(&fwd));
			KUNIT_EXPECT_EQ(test, parts.min, fwd.min);
			KUNIT_EXPECT_EQ(test, parts.max, fwd.max);

			mb_mean_stddev(v, n, &mean, &sd);
			KUNIT_EXPECT_EQ(test, mean, div64_u64(sum, n));
			expect_sd(test, sd, pairs, n, n - 1);
		}
	}
}

/*
 * 2^40 samples, half 200 and half 300 ns, by merging a pair into itself:
 * mean 250, SD 50, whatever the count.
 */
static void mb_stat_test_huge_count(struct kunit *test)
{
	struct mb_stat s = {}, copy;
	unsigned int i;

	mb_stat_add(&s, 200);
	mb_stat_add(&s, 300);
	for (i = 1; i < 40; i++) {
		copy = s;
		mb_stat_merge(&s, &copy);
	}
	KUNIT_EXPECT_EQ(test, s.n, 1ULL << 40);
	KUNIT_EXPECT_EQ(test, mb_stat_mean(&s), 250);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev(&s), 50);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev_upstream(&s), 50);
}

/*
 * Upstream's figures: floor(sqrt(floor(E[x^2]) - floor(E[x])^2)) of
 * samples already truncated to 100 ns units, as its module computes them.
 */
static void mb_stat_test_upstream(struct kunit *test)
{
	static const u64 v[] = { 2, 3, 2, 2, 9, 2, 3 };
	u64 sum = 0, sq = 0, mean;
	struct mb_stat s = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		mb_stat_add(&s, v[i]);
		sum += v[i];
		sq += v[i] * v[i];
	}
	mean = sum / ARRAY_SIZE(v);
	KUNIT_EXPECT_EQ(test, mb_stat_mean(&s), mean);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev_upstream(&s),
			(u64)int_sqrt64(sq / ARRAY_SIZE(v) - mean * mean));
	/* {2, 3}: upstream says 1 (6 - 4 = 2), the exact SD 0.5 rounds to 0 */
	memset(&s, 0, sizeof(s));
	mb_stat_add(&s, 2);
	mb_stat_add(&s, 3);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev_upstream(&s), 1);
	KUNIT_EXPECT_EQ(test, mb_stat_stddev(&s), 0);
}

static void mb_u128_test_arith(struct kunit *test)
{
	struct mb_u128 p = mb_u128_mul(U64_MAX, U64_MAX), q;
	u64 rem;

	/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
	KUNIT_EXPECT_EQ(test, p.hi, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, p.lo, 1);
	q = mb_u128_div(p, U64_MAX, &rem);
	KUNIT_EXPECT_EQ(test, q.hi, 0);
	KUNIT_EXPECT_EQ(test, q.lo, U64_MAX);
	KUNIT_EXPECT_EQ(test, rem, 0);
	KUNIT_EXPECT_EQ(test, mb_u128_sqrt(p), U64_MAX);
	p = mb_u128_sub(p, mb_u128_of(1));
	KUNIT_EXPECT_EQ(test, mb_u128_sqrt(p), U64_MAX - 1);
	q = mb_u128_div(p, 1000000007, &rem);
	p = mb_u128_mul(q.lo, 1000000007);
	mb_u128_add(&p, (struct mb_u128){ .hi = q.hi * 1000000007 });
	mb_u128_add(&p, mb_u128_of(rem));
	KUNIT_EXPECT_EQ(test, p.hi, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, p.lo, 0);
}

/*
 * Percentiles of a known distribution: 1..10000 ns once each; every
 * percentile within a sixteenth of its true value and inside [min, max].
 */
static void mb_hist_test_uniform(struct kunit *test)
{
	struct mb_hist *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	static const unsigned int pct[] = { 1, 10, 50, 90, 99, 100 };
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, h);
	for (i = 1; i <= 10000; i++)
		mb_hist_add(h, i);
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		u64 want = pct[i] * 100, got = mb_hist_percentile(h, 10000, pct[i]);
		u64 err = got > want ? got - want : want - got;

		KUNIT_EXPECT_LE_MSG(test, err * 16, want,
				    "p%u: %llu, want %llu", pct[i], got, want);
	}
	/* exact below 16 ns */
	memset(h, 0, sizeof(*h));
	for (i = 0; i < 10; i++)
		mb_hist_add(h, i < 9 ? 3 : 11);
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(h, 10, 50), 3);
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(h, 10, 90), 3);
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(h, 10, 99), 11);
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(h, 0, 50), 0);
}

/*
 * Past 2^32 samples in a bucket (8 threads x 300 s at 150 ns): the counts
 * and the ranks must not wrap, or every percentile becomes the maximum.
 */
static void mb_hist_test_big_counts(struct kunit *test)
{
	struct mb_hist *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct mb_hist *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned int fast = mb_hist_index(150), slow = mb_hist_index(5000);
	u64 n = 20ULL << 32;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	a->count[fast] = U32_MAX;
	b->count[fast] = (19ULL << 32) - U32_MAX;	/* 19 x 2^32 together */
	b->count[slow] = 1ULL << 32;
	mb_hist_merge(a, b);
	KUNIT_EXPECT_EQ(test, a->count[fast], 19ULL << 32);
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(a, n, 50), mb_hist_value(fast));
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(a, n, 90), mb_hist_value(fast));
	KUNIT_EXPECT_EQ(test, mb_hist_percentile(a, n, 99), mb_hist_value(slow));
	KUNIT_EXPECT_LE(test, mb_hist_value(fast) * 16, 150ULL * 17);
}

static struct kunit_case mb_stat_test_cases[] = {
	KUNIT_CASE(mb_u128_test_arith),
	KUNIT_CASE(mb_stat_test_known),
	KUNIT_CASE(mb_stat_test_upstream),
	KUNIT_CASE(mb_stat_test_random),
	KUNIT_CASE(mb_stat_test_huge_count),
	KUNIT_CASE_SLOW(mb_stat_test_outlier_100us),
	KUNIT_CASE_SLOW(mb_stat_test_outlier_1ms),
	KUNIT_CASE(mb_hist_test_uniform),
	KUNIT_CASE(mb_hist_test_big_counts),
	{}
};

static struct kunit_suite mb_stat_test_suite = {
	.name = "dma_map_benchmark_stat",
	.test_cases = mb_stat_test_cases,
};

kunit_test_suite(mb_stat_test_suite);

MODULE_DESCRIPTION("KUnit tests of the DMA map benchmark's statistics");
MODULE_LICENSE("GPL");
