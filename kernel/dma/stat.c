// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics shared by the map modes and the dmaengine mode.
 *
 * Mean and standard deviation come from exact integer sums: the count, the
 * sum of the samples (64 bits) and the sum of their squares (128 bits, kept
 * as two u64 so that 32-bit kernels need no __int128). Sums do not depend
 * on the order of the samples, merging two is adding them, and the
 * variance is derived from them exactly, rounded down once at the end.
 * The sum of the samples must stay below 2^64: 584 years of nanoseconds.
 */

#include <linux/bitops.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "core.h"

static struct mb_u128 mb_u128_of(u64 lo)
{
	return (struct mb_u128) { .lo = lo };
}

static void mb_u128_add(struct mb_u128 *a, struct mb_u128 b)
{
	a->lo += b.lo;
	a->hi += b.hi + (a->lo < b.lo);
}

/* a - b, for a >= b */
static struct mb_u128 mb_u128_sub(struct mb_u128 a, struct mb_u128 b)
{
	return (struct mb_u128) {
		.lo = a.lo - b.lo,
		.hi = a.hi - b.hi - (a.lo < b.lo),
	};
}

static int mb_u128_cmp(struct mb_u128 a, struct mb_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/* The full 128-bit product of two u64, from 32-bit halves. */
static struct mb_u128 mb_u128_mul(u64 a, u64 b)
{
	u64 al = lower_32_bits(a), ah = upper_32_bits(a);
	u64 bl = lower_32_bits(b), bh = upper_32_bits(b);
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + lower_32_bits(lh) + lower_32_bits(hl);

	return (struct mb_u128) {
		.lo = (mid << 32) | lower_32_bits(ll),
		.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32),
	};
}

/* a / d, rounded down, and the remainder in *rem; d > 0. */
static struct mb_u128 mb_u128_div(struct mb_u128 a, u64 d, u64 *rem)
{
	struct mb_u128 q = { .hi = div64_u64_rem(a.hi, d, rem) };
	u64 r = *rem;
	int i;

	/* long division of the low half, r < d throughout */
	for (i = 63; i >= 0; i--) {
		bool carry = r >> 63;

		r = (r << 1) | ((a.lo >> i) & 1);
		if (carry || r >= d) {
			r -= d;
			q.lo |= 1ULL << i;
		}
	}
	*rem = r;
	return q;
}

/* floor(sqrt(a)): it always fits in a u64. */
static u64 mb_u128_sqrt(struct mb_u128 a)
{
	u64 root = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		u64 c = root | (1ULL << i);

		if (mb_u128_cmp(mb_u128_mul(c, c), a) <= 0)
			root = c;
	}
	return root;
}

/*
 * floor(sqrt(V)), V = (n * s2 - s1^2) / (n * (n - ddof)): the population
 * (ddof 0) or sample (ddof 1) standard deviation of n values whose sum is
 * s1 and sum of squares s2, with no rounding before the last step.
 *
 * With s1 = q n + r (0 <= r < n), D = s2 - n q^2 - 2 q r is the sum of the
 * squares of the deviations from q, and V = (D - r^2 / n) / m with
 * m = n - ddof. Write D = a m + b (b < m): V = a + (b n - r^2) / (n m),
 * where the last term is in (-2, 1): floor(V) is a, a - 1 or a - 2.
 */
static u64 mb_stddev(u64 n, u64 s1, struct mb_u128 s2, unsigned int ddof)
{
	struct mb_u128 d, a, bn, rr, one = mb_u128_of(1);
	u64 m = n - ddof, q, r, b;

	if (n <= ddof)
		return 0;
	q = div64_u64_rem(s1, n, &r);
	d = mb_u128_sub(s2, mb_u128_mul(q, s1 - r));	/* n q^2 = q (s1 - r) */
	d = mb_u128_sub(d, mb_u128_mul(q, r));
	d = mb_u128_sub(d, mb_u128_mul(q, r));
	a = mb_u128_div(d, m, &b);
	bn = mb_u128_mul(b, n);
	rr = mb_u128_mul(r, r);
	if (mb_u128_cmp(bn, rr) < 0) {
		/* r^2 - b n <= r^2 < n^2 <= 2 n m: one or two less */
		a = mb_u128_sub(a, one);
		if (mb_u128_cmp(mb_u128_sub(rr, bn), mb_u128_mul(n, m)) > 0)
			a = mb_u128_sub(a, one);
	}
	return mb_u128_sqrt(a);
}

void mb_stat_add(struct mb_stat *s, u64 x)
{
	if (!s->n) {
		s->min = x;
		s->max = x;
	}
	s->n++;
	s->sum += x;
	mb_u128_add(&s->sum_sq, mb_u128_mul(x, x));
	s->min = min(s->min, x);
	s->max = max(s->max, x);
}

void mb_stat_merge(struct mb_stat *dst, const struct mb_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->n += src->n;
	dst->sum += src->sum;
	mb_u128_add(&dst->sum_sq, src->sum_sq);
	dst->min = min(dst->min, src->min);
	dst->max = max(dst->max, src->max);
}

/* The mean, rounded down. */
u64 mb_stat_mean(const struct mb_stat *s)
{
	return s->n ? div64_u64(s->sum, s->n) : 0;
}

/* Population standard deviation, as upstream's benchmark reports it. */
u64 mb_stat_stddev(const struct mb_stat *s)
{
	return mb_stddev(s->n, s->sum, s->sum_sq, 0);
}

/*
 * The standard deviation exactly as upstream's module derives it from its
 * sums: floor(sqrt(floor(E[x^2]) - floor(E[x])^2)).
 */
u64 mb_stat_stddev_upstream(const struct mb_stat *s)
{
	u64 mean = mb_stat_mean(s), rem;
	struct mb_u128 e2;

	if (!s->n)
		return 0;
	e2 = mb_u128_div(s->sum_sq, s->n, &rem);
	return mb_u128_sqrt(mb_u128_sub(e2, mb_u128_mul(mean, mean)));
}

/* Mean (rounded down) and sample standard deviation of a few values. */
void mb_mean_stddev(const u64 *v, unsigned int n, u64 *mean, u64 *stddev)
{
	struct mb_stat s = {};
	unsigned int i;

	for (i = 0; i < n; i++)
		mb_stat_add(&s, v[i]);
	*mean = mb_stat_mean(&s);
	*stddev = mb_stddev(s.n, s.sum, s.sum_sq, 1);
}

static unsigned int mb_hist_index(u64 x)
{
	unsigned int msb;

	if (x < (1U << MB_HIST_SUB_BITS))
		return x;
	msb = fls64(x) - 1;
	return ((msb - MB_HIST_SUB_BITS + 1) << MB_HIST_SUB_BITS) +
	       ((x >> (msb - MB_HIST_SUB_BITS)) & ((1U << MB_HIST_SUB_BITS) - 1));
}

/* The middle of a bucket: what a percentile falling in it reports. */
static u64 mb_hist_value(unsigned int i)
{
	unsigned int msb, sub;
	u64 low;

	if (i < (1U << MB_HIST_SUB_BITS))
		return i;
	msb = (i >> MB_HIST_SUB_BITS) + MB_HIST_SUB_BITS - 1;
	sub = i & ((1U << MB_HIST_SUB_BITS) - 1);
	low = (u64)((1U << MB_HIST_SUB_BITS) + sub) << (msb - MB_HIST_SUB_BITS);
	return low + ((1ULL << (msb - MB_HIST_SUB_BITS)) >> 1);
}

void mb_hist_add(struct mb_hist *h, u64 x)
{
	h->count[min_t(unsigned int, mb_hist_index(x), MB_HIST_BUCKETS - 1)]++;
}

void mb_hist_merge(struct mb_hist *dst, const struct mb_hist *src)
{
	unsigned int i;

	for (i = 0; i < MB_HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
}

/* The value below which pct percent of the n samples fall. */
u64 mb_hist_percentile(const struct mb_hist *h, u64 n, unsigned int pct)
{
	u64 rank, seen = 0, rem;
	unsigned int i;

	if (!n)
		return 0;
	/* ceil(n pct / 100), without overflow for any n */
	rank = div64_u64_rem(n, 100, &rem) * pct +
	       DIV_ROUND_UP(rem * pct, 100);
	rank = max_t(u64, rank, 1);
	for (i = 0; i < MB_HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			return mb_hist_value(i);
	}
	return mb_hist_value(MB_HIST_BUCKETS - 1);
}
